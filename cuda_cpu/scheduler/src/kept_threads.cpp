#include "kept_threads.h"

#include <algorithm>
#include <csignal>
#include <system_error>

namespace warpviz::emu {

KeptThreads& KeptThreads::instance() {
  static KeptThreads threads;
  return threads;
}

void KeptThreads::run(uint32_t count, const std::function<void(uint32_t)>& job,
                      const std::function<void(uint32_t started)>& short_of_threads) {
  std::lock_guard<std::mutex> one(one_run_);
  uint32_t started = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    while (threads_.size() < count) {
      try {
        const uint32_t index = uint32_t(threads_.size());
        threads_.emplace_back([this, index] { serve(index); });
      } catch (const std::system_error&) {
        break;  // no more threads to be had
      }
    }
    started = uint32_t(std::min<size_t>(count, threads_.size()));
    job_ = &job;
    job_count_ = started;
    running_ = started;
    ++generation_;
  }
  work_.notify_all();
  if (started < count) short_of_threads(started);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return running_ == 0; });
  job_ = nullptr;
  job_count_ = 0;
}

void KeptThreads::serve(uint32_t index) {
  // A job may change the thread's signal mask (a block lets the time limit's
  // signal in while it runs); an idle thread has the one it began with.
  sigset_t idle_mask;
  pthread_sigmask(SIG_SETMASK, nullptr, &idle_mask);
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_.wait(lock, [&] { return stopping_ || generation_ != seen; });
    if (stopping_) return;
    seen = generation_;
    if (index >= job_count_) continue;
    const std::function<void(uint32_t)>& job = *job_;
    lock.unlock();
    job(index);
    pthread_sigmask(SIG_SETMASK, &idle_mask, nullptr);
    lock.lock();
    if (--running_ == 0) done_.notify_all();
  }
}

KeptThreads::~KeptThreads() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  for (std::thread& t : threads_) t.join();
}

}  // namespace warpviz::emu
