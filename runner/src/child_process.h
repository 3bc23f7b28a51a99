// One child process with a time limit, cancellation and its output captured
// or passed through: the compiler, the linker and the user's program.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace warpviz::user {

struct ChildOptions {
  // The file to run; empty: argv[0], looked up on PATH. Set, argv[0] is only
  // the name the program sees (a user's program prints its own name).
  std::string executable;
  std::vector<std::pair<std::string, std::string>> env;  // added to this process's
  double time_limit_s = 0;                                // 0: none
  // The resident memory of the child's whole process group (0: none). RSS
  // from /proc, not RLIMIT_AS: AddressSanitizer builds reserve terabytes of
  // address space they never touch.
  uint64_t memory_limit_bytes = 0;
  const std::atomic<bool>* cancel = nullptr;
  int output_fd = -1;  // < 0: capture stdout and stderr together
  int error_fd = -1;   // with output_fd set, where stderr goes (< 0: output_fd)
  // Called once when the time limit passes, before the child is killed (the
  // user's program then says where it is); the child gets this long to answer.
  std::function<void(int pid)> on_time_limit;
  double grace_s = 0.3;
  // Called about every `tick_s` while the child runs (and once as it is
  // stopped at the time limit, before on_time_limit): the progress display.
  std::function<void(int pid)> on_tick;
  double tick_s = 0.1;
};

struct ChildResult {
  bool started = false;
  std::string start_error;  // why it did not start
  int exit_code = -1;       // when it exited
  int signal = 0;           // when a signal ended it
  bool timed_out = false, cancelled = false;
  bool over_memory = false;
  uint64_t peak_rss_bytes = 0;  // the group's, as last sampled before the kill
  std::string output;
  double wall_ms = 0;
};

// The resident bytes of every process in group `pgid` (Linux /proc).
uint64_t process_group_rss(int pgid);

ChildResult run_child(const std::vector<std::string>& argv, const ChildOptions& options);

}  // namespace warpviz::user
