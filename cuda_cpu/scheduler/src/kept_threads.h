// The OS threads that run a launch's blocks, kept from one launch to the
// next. Made afresh for every launch, a thread faults in a fresh fiber stack
// per lane each time: a cooperative launch (a thread per block, grid_turns.h)
// of 1056 blocks of 256 lanes took 2.2 s, mostly page faults; kept, a thread
// keeps its fiber stacks (thread_fiber_stacks) mapped and touched.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace warpviz::emu {

class KeptThreads {
 public:
  // The process's one set of them.
  static KeptThreads& instance();

  // Runs job(i) for every i below `count`, each on a thread of its own, and
  // returns once every job started has returned. Where the OS gives fewer
  // than `count` threads, job(i) for i at or past the number it gave is not
  // run, and short_of_threads(that number) runs here while the others run.
  // One run at a time: a launch from another host thread waits its turn.
  void run(uint32_t count, const std::function<void(uint32_t)>& job,
           const std::function<void(uint32_t started)>& short_of_threads);

  ~KeptThreads();

 private:
  KeptThreads() = default;
  void serve(uint32_t index);

  std::mutex one_run_;  // held through a run
  std::mutex mutex_;    // guards what follows
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
