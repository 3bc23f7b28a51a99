// The folder users' compiled programs are cached in, and the checks an entry
// passes before it runs. A program in the cache is run as the user, so the
// folder is the user's alone: whoever can write to it can run code as them.
#pragma once

#include <filesystem>
#include <string>

namespace warpviz::user {

struct CacheFolder {
  std::filesystem::path path;
  std::string problem;  // empty when `path` is safe to use
};

// WARPVIZ_CACHE_DIR, else $XDG_CACHE_HOME/warpviz, else $HOME/.cache/warpviz,
// made safe by secure_cache_folder. With none of the three set it is a
// problem, never a shared folder such as /tmp.
CacheFolder user_cache_folder();

// Creates `dir` (mode 0700) when it is missing and accepts it only when it is
// a folder owned by this user with no group or other permission bits; the
// problem names the folder and the fix otherwise.
CacheFolder secure_cache_folder(const std::filesystem::path& dir);

// The hash of an entry's program, stored beside it at build time.
constexpr const char* kProgramHashFile = "program.xxh3";

// Writes the XXH3-64 of `entry`/program into `entry`/program.xxh3; false when
// the program cannot be read or the hash written.
bool seal_cache_entry(const std::filesystem::path& entry);

// Why `entry`'s program must not run: the folder or the program is not this
// user's, is writable by group or others, or its bytes differ from the hash
// stored at build time (or there is none). Empty when it may run.
std::string cache_entry_problem(const std::filesystem::path& entry);

// An entry that fails cache_entry_problem is removed, to be built again
// (tampered with, or from a warpviz that stored no hash). Empty when `entry`
// is missing, safe or now removed; else why it stays and must not run.
std::string remove_unsafe_cache_entry(const std::filesystem::path& entry);

}  // namespace warpviz::user
