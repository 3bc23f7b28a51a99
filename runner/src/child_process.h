// One child process with a time limit, cancellation and its output captured
// or passed through: the compiler, the linker and the user's program.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace warpviz::user {

struct ChildOptions {
  std::vector<std::pair<std::string, std::string>> env;  // added to this process's
  double time_limit_s = 0;                                // 0: none
  const std::atomic<bool>* cancel = nullptr;
  int output_fd = -1;  // < 0: capture stdout and stderr together
  // Called once when the time limit passes, before the child is killed (the
  // user's program then says where it is); the child gets this long to answer.
  std::function<void(int pid)> on_time_limit;
  double grace_s = 0.3;
};

struct ChildResult {
  bool started = false;
  std::string start_error;  // why it did not start
  int exit_code = -1;       // when it exited
  int signal = 0;           // when a signal ended it
  bool timed_out = false, cancelled = false;
  std::string output;
  double wall_ms = 0;
};

ChildResult run_child(const std::vector<std::string>& argv, const ChildOptions& options);

}  // namespace warpviz::user
