// The cache folder and its entries' checks (cache_folder.h).
#include "warpviz/cache_folder.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>
#include <xxhash.h>  // compiled in: CMake sets XXH_INLINE_ALL

#include "warpviz/user_file.h"

namespace warpviz::user {

namespace fs = std::filesystem;

namespace {

std::string octal_mode(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0%03o", unsigned(mode & 0777));
  return buf;
}

// XXH3-64 of a file's bytes as 16 hex digits; empty when it cannot be read.
std::string file_hash(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return "";
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  std::vector<char> chunk(1 << 16);
  while (in) {
    in.read(chunk.data(), std::streamsize(chunk.size()));
    XXH3_64bits_update(&state, chunk.data(), size_t(in.gcount()));
  }
  if (in.bad()) return "";
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)XXH3_64bits_digest(&state));
  return hex;
}

// Owner and mode of one file or folder of an entry; lstat, so a link planted
// in place of the program is refused rather than followed.
std::string entry_part_problem(const fs::path& p, bool folder) {
  struct stat st {};
  if (::lstat(p.c_str(), &st) != 0) return p.string() + ": " + std::strerror(errno);
  if (folder ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
    return p.string() + " is not a plain " + (folder ? "folder" : "file");
  if (st.st_uid != ::geteuid()) return p.string() + " belongs to another user (uid " + std::to_string(st.st_uid) + ")";
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    return p.string() + " can be written by others (mode " + octal_mode(st.st_mode) + ")";
  return "";
}

}  // namespace

CacheFolder secure_cache_folder(const fs::path& named) {
  // "x/" names x: its parent is what gets the usual mode, not x itself.
  const fs::path dir = named.has_filename() ? named : named.parent_path();
  CacheFolder folder{dir, ""};
  const std::string why_alone =
      "warpviz runs the programs it caches there, so the folder must be yours alone";
  std::error_code ec;
  // The parents (~/.cache) take the usual mode; only the cache itself is 0700.
  if (dir.has_parent_path()) fs::create_directories(dir.parent_path(), ec);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    folder.problem = "cannot create the cache folder " + dir.string() + ": " + std::strerror(errno) +
                     " (set WARPVIZ_CACHE_DIR to a folder of yours)";
    return folder;
  }
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    folder.problem = "cannot read the cache folder " + dir.string() + ": " + std::strerror(errno);
  } else if (!S_ISDIR(st.st_mode)) {
    folder.problem = "the cache folder " + dir.string() + " is not a folder (remove it, or set WARPVIZ_CACHE_DIR)";
  } else if (st.st_uid != ::geteuid()) {
    folder.problem = "the cache folder " + dir.string() + " belongs to another user (uid " +
                     std::to_string(st.st_uid) + "); " + why_alone +
                     ": set WARPVIZ_CACHE_DIR to a folder of your own";
  } else if (st.st_mode & 077) {
    folder.problem = "the cache folder " + dir.string() + " is open to others (mode " + octal_mode(st.st_mode) +
                     "); " + why_alone + ": chmod 700 " + dir.string();
  }
  return folder;
}

CacheFolder user_cache_folder() {
  const std::string dir = cache_dir();
  if (dir.empty())
    return {fs::path(),
            "no folder for the compile cache: HOME and XDG_CACHE_HOME are both unset (set WARPVIZ_CACHE_DIR to a "
            "folder of yours; warpviz never shares one in /tmp)"};
  return secure_cache_folder(dir);
}

bool seal_cache_entry(const fs::path& entry) {
  const std::string hash = file_hash(entry / "program");
  if (hash.empty()) return false;
  std::ofstream out(entry / kProgramHashFile, std::ios::binary | std::ios::trunc);
  out << hash << "\n";
  return bool(out.flush());
}

std::string cache_entry_problem(const fs::path& entry) {
  for (const auto& [part, folder] : {std::pair{entry, true}, std::pair{entry / "program", false},
                                     std::pair{entry / kProgramHashFile, false}})
    if (std::string problem = entry_part_problem(part, folder); !problem.empty()) return problem;
  std::string stored;
  std::ifstream(entry / kProgramHashFile) >> stored;
  if (stored.empty()) return (entry / kProgramHashFile).string() + " holds no hash";
  if (file_hash(entry / "program") != stored)
    return (entry / "program").string() + " changed since it was built (its hash is not the one stored)";
  return "";
}

std::string remove_unsafe_cache_entry(const fs::path& entry) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(entry, ec))) return "";
  const std::string problem = cache_entry_problem(entry);
  if (problem.empty()) return "";
  fs::remove_all(entry, ec);
  if (!fs::exists(fs::symlink_status(entry, ec))) return "";
  return "the cached program is not run: " + problem + "; and it cannot be removed: remove " + entry.string();
}

}  // namespace warpviz::user
