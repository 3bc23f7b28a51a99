// The threads of runs a UserFileSession let go of (a closed file, a file
// opened over it, a save while it ran). Each was told to cancel; its child is
// killed at once, but the thread may still wait a moment for a pipe that a
// process which left the child's group holds open (child_process.cpp's grace).
// One thread of the reaper's own joins them, so the UI thread never waits on a
// user's program; at exit the reaper joins whatever is left.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace warpviz::view {

class RunReaper {
 public:
  static RunReaper& instance();
  ~RunReaper();

  // Takes the thread and returns at once; a thread not joinable is ignored.
  void adopt(std::thread thread);
  // Threads adopted and not joined yet (tests).
  size_t pending();

 private:
  RunReaper() = default;
  void join_loop();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::thread> threads_;
  size_t joining_ = 0;  // taken from threads_, being joined
  bool stopping_ = false;
  std::thread joiner_;  // started by the first adopt
};

}  // namespace warpviz::view
