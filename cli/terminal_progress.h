// `warpviz-cli run`'s one-line progress on a terminal: the launch, its blocks
// done of all, the time and a guess of the time left, redrawn in place on
// stderr. The program's own output comes through a pipe of ours so that the
// line is wiped before each piece of it (else the two would share a line).
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "warpviz/user_file.h"

namespace warpviz::cli {

class TerminalProgress {
 public:
  // `output_fd`: where the program's output goes (1, or 2 with --json).
  explicit TerminalProgress(int output_fd);
  ~TerminalProgress();
  TerminalProgress(const TerminalProgress&) = delete;
  TerminalProgress& operator=(const TerminalProgress&) = delete;

  // The fd to give RunControl::output_fd: our pipe, or output_fd itself when
  // none could be made.
  int program_fd() const { return pipe_write_ >= 0 ? pipe_write_ : output_fd_; }
  void show(const user::FileProgress& progress);
  // The run is over: the rest of the output copied, the line wiped.
  void finish();

  // The line itself, cut to `width` columns (a wrapped line would not redraw).
  static std::string line_for(const user::FileProgress& progress, size_t width);

 private:
  void copy_output();
  void wipe_locked();

  int output_fd_;
  int pipe_read_ = -1, pipe_write_ = -1;
  std::thread copier_;
  std::mutex mutex_;  // the terminal: the line and the output take turns
  bool shown_ = false;
  bool finished_ = false;
  std::atomic<bool> stop_{false};
};

}  // namespace warpviz::cli
