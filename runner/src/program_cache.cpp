#include "warpviz/program_cache.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace fs = std::filesystem;

namespace warpviz {
namespace {

bool is_entry_name(const std::string& name) {
  return name.size() == 32 && std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// user_file.cpp builds in "<key>.tmp<pid>-<random>" and renames it into place.
bool is_build_folder(const std::string& name) {
  return name.size() > 32 && is_entry_name(name.substr(0, 32)) && name.compare(32, 4, ".tmp") == 0;
}

uint64_t folder_bytes(const fs::path& dir) {
  uint64_t bytes = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec)) bytes += it->file_size(ec);
  return bytes;
}

}  // namespace

uint64_t program_cache_budget_bytes() {
  constexpr uint64_t kDefaultMiB = 1024;
  uint64_t mib = kDefaultMiB;
  if (const char* v = std::getenv("WARPVIZ_CACHE_MAX_MB"); v && *v) {
    const std::string_view text(v);
    uint64_t parsed = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    if (error == std::errc() && end == text.data() + text.size() && parsed < (uint64_t(1) << 44)) mib = parsed;
  }
  return mib << 20;
}

void mark_cache_entry_used(const fs::path& entry) {
  std::error_code ec;
  fs::last_write_time(entry, fs::file_time_type::clock::now(), ec);  // best effort: a read-only cache still runs
}

CachePrune prune_program_cache(const fs::path& root, uint64_t max_bytes, const fs::path& keep) {
  struct Entry {
    fs::path path;
    fs::file_time_type used;
    uint64_t bytes;
  };
  CachePrune result;
  std::vector<Entry> entries;
  const auto stale_before = fs::file_time_type::clock::now() - std::chrono::hours(1);
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    if (!it->is_directory(entry_ec)) continue;
    const std::string name = it->path().filename().string();
    const fs::file_time_type used = fs::last_write_time(it->path(), entry_ec);
    if (entry_ec) continue;
    if (is_build_folder(name)) {
      if (used < stale_before && fs::remove_all(it->path(), entry_ec) != uintmax_t(-1) && !entry_ec)
        ++result.stale_builds_removed;
      continue;
    }
    if (!is_entry_name(name)) continue;
    entries.push_back({it->path(), used, folder_bytes(it->path())});
    result.bytes_before += entries.back().bytes;
  }
  result.entries_before = entries.size();
  result.bytes_after = result.bytes_before;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& e : entries) {
    if (result.bytes_after <= max_bytes) break;
    if (fs::equivalent(e.path, keep, ec)) continue;
    // Used since the listing (another run found it in the cache): it stays.
    // A run that finds a program gone between its lookup and its start
    // builds it again (user_file.cpp).
    std::error_code time_ec;
    if (fs::last_write_time(e.path, time_ec) != e.used || time_ec) continue;
    std::error_code remove_ec;
    fs::remove_all(e.path, remove_ec);
    if (remove_ec) continue;  // another process's folder, or no permission: leave it
    result.bytes_after -= e.bytes;
    ++result.entries_removed;
  }
  return result;
}

}  // namespace warpviz
