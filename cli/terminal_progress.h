// `warpviz-cli run`'s one-line progress on a terminal: the launch, its blocks
// done of all, the time and a guess of the time left, redrawn in place on
// stderr. The program's own output and errors come through pipes of ours so
// that the line is wiped before each piece of them (else they would share a
// line).
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "warpviz/user_file.h"

namespace warpviz::cli {

class TerminalProgress {
 public:
  // `output_fd`: where the program's output goes (1, or 2 with --json);
  // `error_fd`: where its stderr goes.
  TerminalProgress(int output_fd, int error_fd);
  ~TerminalProgress();
  TerminalProgress(const TerminalProgress&) = delete;
  TerminalProgress& operator=(const TerminalProgress&) = delete;

  // The fds to give RunControl::output_fd and error_fd: our pipes, or the
  // targets themselves when none could be made.
  int program_fd() const { return output_.fd(); }
  int program_error_fd() const { return errors_.fd(); }
  void show(const user::FileProgress& progress);
  // The run is over: the rest of the output copied, the line wiped.
  void finish();

  // The line itself, cut to `width` columns (a wrapped line would not redraw).
  static std::string line_for(const user::FileProgress& progress, size_t width);

 private:
  void copy_output();
  void wipe_locked();

  // One of the program's streams: the pipe it writes, where it is copied to.
  struct Stream {
    int target = -1;
    int read = -1, write = -1;
    int fd() const { return write >= 0 ? write : target; }
  };
  static Stream open_stream(int target);

  Stream output_, errors_;
  std::thread copier_;
  std::mutex mutex_;  // the terminal: the line and the output take turns
  bool shown_ = false;
  bool finished_ = false;
  std::atomic<bool> stop_{false};
};

}  // namespace warpviz::cli
