// Writing a user's file so that a failure or a crash never leaves it half written,
// and so that writing does not change what the path is: one helper for every place
// warpviz writes a file a user named (traces, settings).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace warpviz {

class FileWriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Replaces the file at `path` with `size` bytes from `data`:
//   - the bytes go to a new file with a unique name beside the target (created
//     exclusively, so no existing file, "PATH.tmp" included, is touched), which is
//     flushed to disk and then renamed over the target: the target is the old or
//     the new content, never a truncated one;
//   - an existing target keeps its permission bits (a new one gets 0666 less umask);
//   - a symbolic link is followed: its target file is replaced, the link stays;
//   - a path that is not a regular file (a FIFO, /dev/stdout, a terminal) is
//     written in place, since it cannot be replaced; a directory is refused.
// Throws FileWriteError("cannot write PATH: why") and leaves no temporary file.
void write_file_replacing(const std::string& path, const void* data, size_t size);

}  // namespace warpviz
