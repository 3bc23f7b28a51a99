// The OS threads of cooperative launches, kept from one launch to the next.
// A cooperative launch runs each block on a thread of its own (grid_turns.h);
// made afresh for every launch, 1056 threads of 256 lanes fault in a fresh
// fiber stack per lane each time (2.2 s a launch of 270 K threads, mostly
// page faults). Kept, a thread keeps its fiber stacks (thread_fiber_stacks)
// mapped and touched for the next launch.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace warpviz::emu {

class CooperativeThreads {
 public:
  // The process's one set of them.
  static CooperativeThreads& instance();

  // Starts job(i) for every i below `count`, each on a thread of its own,
  // and returns how many threads there were to run on (fewer than `count`
  // when the OS would give no more); job(i) for i at or past that number is
  // not run. wait() returns once every started job has returned.
  uint32_t start(uint32_t count, const std::function<void(uint32_t)>& job);
  void wait();

  ~CooperativeThreads();

 private:
  CooperativeThreads() = default;
  void serve(uint32_t index);

  std::mutex mutex_;  // guards what follows
  std::condition_variable work_;
  std::condition_variable done_;
  std::vector<std::thread> threads_;
  uint64_t generation_ = 0;  // one a run
  const std::function<void(uint32_t)>* job_ = nullptr;
  uint32_t job_count_ = 0;
  uint32_t running_ = 0;  // of this run's jobs, not yet returned
  bool stopping_ = false;
};

}  // namespace warpviz::emu
