// The cache of users' compiled programs stays within its byte budget, least
// recently used first, and the program just built always stays.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "warpviz/program_cache.h"
#include "warpviz/user_file.h"
#include "temp_dir.h"

using namespace warpviz;
namespace fs = std::filesystem;

namespace {

using warpviz::testing_support::TempDir;

std::string key(int n) {
  std::string k = std::to_string(n);
  return std::string(32 - k.size(), 'a') + k;  // 32 hex digits
}

// An entry of `bytes` bytes, last used `age` ago.
fs::path make_entry(const fs::path& root, const std::string& name, size_t bytes, std::chrono::minutes age) {
  const fs::path dir = root / name;
  fs::create_directories(dir);
  std::ofstream(dir / "program", std::ios::binary) << std::string(bytes, 'x');
  fs::last_write_time(dir, fs::file_time_type::clock::now() - age);
  return dir;
}

struct EnvVar {
  std::string name;
  explicit EnvVar(const char* n, const char* value) : name(n) { ::setenv(n, value, 1); }
  ~EnvVar() { ::unsetenv(name.c_str()); }
};

}  // namespace

TEST_CASE("program cache: the least recently used entries go until the rest fit", "[user][cache]") {
  TempDir cache("cache-prune");
  const fs::path oldest = make_entry(cache.path, key(1), 4000, std::chrono::minutes(50));
  const fs::path middle = make_entry(cache.path, key(2), 4000, std::chrono::minutes(30));
  const fs::path newest = make_entry(cache.path, key(3), 4000, std::chrono::minutes(10));
  const fs::path just_built = make_entry(cache.path, key(4), 4000, std::chrono::minutes(0));
  const fs::path not_an_entry = make_entry(cache.path, "notes", 4000, std::chrono::minutes(90));

  const CachePrune prune = prune_program_cache(cache.path, 9000, just_built);
  CHECK(prune.entries_before == 4);
  CHECK(prune.bytes_before == 16000);
  CHECK(prune.entries_removed == 2);
  CHECK(prune.bytes_after == 8000);
  CHECK_FALSE(fs::exists(oldest));
  CHECK_FALSE(fs::exists(middle));
  CHECK(fs::exists(newest));
  CHECK(fs::exists(just_built));
  CHECK(fs::exists(not_an_entry));  // not ours to remove

  // Within budget: nothing goes.
  CHECK(prune_program_cache(cache.path, 9000, just_built).entries_removed == 0);
}

TEST_CASE("program cache: the program just built stays even when it alone is over budget", "[user][cache]") {
  TempDir cache("cache-keep");
  const fs::path just_built = make_entry(cache.path, key(7), 5000, std::chrono::minutes(120));  // oldest time
  const fs::path other = make_entry(cache.path, key(8), 5000, std::chrono::minutes(1));
  const CachePrune prune = prune_program_cache(cache.path, 0, just_built);
  CHECK(fs::exists(just_built));
  CHECK_FALSE(fs::exists(other));
  CHECK(prune.bytes_after == 5000);
}

TEST_CASE("program cache: a use moves an entry to the back of the line", "[user][cache]") {
  TempDir cache("cache-use");
  const fs::path a = make_entry(cache.path, key(1), 4000, std::chrono::minutes(50));
  const fs::path b = make_entry(cache.path, key(2), 4000, std::chrono::minutes(30));
  const fs::path built = make_entry(cache.path, key(3), 4000, std::chrono::minutes(0));
  mark_cache_entry_used(a);  // a was the oldest; now b is
  prune_program_cache(cache.path, 8000, built);
  CHECK(fs::exists(a));
  CHECK_FALSE(fs::exists(b));
}

TEST_CASE("program cache: a killed build's folder goes after an hour, a running one stays", "[user][cache]") {
  TempDir cache("cache-stale");
  const fs::path stale = make_entry(cache.path, key(5) + ".tmp123-456", 100, std::chrono::minutes(61));
  const fs::path running = make_entry(cache.path, key(6) + ".tmp789-1", 100, std::chrono::minutes(2));
  const CachePrune prune = prune_program_cache(cache.path, uint64_t(1) << 30, fs::path());
  CHECK(prune.stale_builds_removed == 1);
  CHECK_FALSE(fs::exists(stale));
  CHECK(fs::exists(running));
}

TEST_CASE("program cache: WARPVIZ_CACHE_MAX_MB sets the budget, nonsense keeps 1 GiB", "[user][cache]") {
  {
    EnvVar budget("WARPVIZ_CACHE_MAX_MB", "5");
    CHECK(program_cache_budget_bytes() == 5u << 20);
  }
  for (const char* bad : {"", "-3", "12MB", "x", "99999999999999999999"}) {
    EnvVar budget("WARPVIZ_CACHE_MAX_MB", bad);
    CHECK(program_cache_budget_bytes() == uint64_t(1024) << 20);
  }
  CHECK(program_cache_budget_bytes() == uint64_t(1024) << 20);
}

TEST_CASE("program cache: building a second file with a budget of 0 leaves only its program", "[user][cache][run]") {
  TempDir work("cache-run");
  EnvVar cache_dir("WARPVIZ_CACHE_DIR", (work.path / "cache").c_str());
  EnvVar budget("WARPVIZ_CACHE_MAX_MB", "0");
  const fs::path file = work.path / "k.cu";
  std::ofstream(file) << user::starter_file_text();
  user::FileRequest request;
  request.path = file.string();
  request.backend = user::FileBackend::Cpu;
  const user::FileRun first = user::run_user_file(request);
  INFO(first.message << first.compiler_output);
  REQUIRE(first.ok());
  std::ofstream(file, std::ios::app) << "\n// saved again\n";  // a new key
  const user::FileRun second = user::run_user_file(request);
  REQUIRE(second.ok());
  CHECK_FALSE(second.timing.cached);
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(work.path / "cache" / "cpu")) entries += e.is_directory();
  CHECK(entries == 1);
}
