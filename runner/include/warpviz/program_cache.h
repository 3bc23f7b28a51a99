// The cache of users' compiled programs: one folder per content key under
// cache_dir()/cpu or cache_dir()/cuda (user_file.cpp). Every save of a file
// being edited is a new key and a program of 10 to 30 MB, so the folder is
// kept to a byte budget, the least recently used programs going first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace warpviz {

// WARPVIZ_CACHE_MAX_MB (a whole number of MiB), or 1024 MiB; 0 keeps only the
// program just built.
uint64_t program_cache_budget_bytes();

// A cached program was used: its folder's time moves to now, so pruning takes
// the ones unused the longest first.
void mark_cache_entry_used(const std::filesystem::path& entry);

struct CachePrune {
  size_t entries_before = 0, entries_removed = 0;
  uint64_t bytes_before = 0, bytes_after = 0;
  size_t stale_builds_removed = 0;  // unfinished build folders an hour old (a killed compile)
};

// Removes the least recently used entries of `root` until the rest fit in
// `max_bytes`; `keep` (the program just built) is never removed. Folders that
// are not entries (not 32 hex digits) are left alone, except stale build folders.
CachePrune prune_program_cache(const std::filesystem::path& root, uint64_t max_bytes,
                               const std::filesystem::path& keep);

}  // namespace warpviz
