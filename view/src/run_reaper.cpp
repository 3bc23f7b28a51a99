// Joining abandoned run threads off the UI thread (run_reaper.h).
#include "warpviz/view/run_reaper.h"

#include <utility>

namespace warpviz::view {

RunReaper& RunReaper::instance() {
  static RunReaper reaper;
  return reaper;
}

RunReaper::~RunReaper() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (joiner_.joinable()) joiner_.join();
  // A thread adopted after the joiner stopped (none is expected at exit).
  for (std::thread& t : threads_)
    if (t.joinable()) t.join();
}

void RunReaper::adopt(std::thread thread) {
  if (!thread.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    threads_.push_back(std::move(thread));
    if (!joiner_.joinable() && !stopping_) joiner_ = std::thread([this] { join_loop(); });
  }
  wake_.notify_all();
}

size_t RunReaper::pending() {
  std::lock_guard lock(mutex_);
  return threads_.size() + joining_;
}

void RunReaper::join_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !threads_.empty(); });
    if (threads_.empty()) return;  // stopping, and every thread joined
    std::thread next = std::move(threads_.back());
    threads_.pop_back();
    ++joining_;
    lock.unlock();
    next.join();
    lock.lock();
    --joining_;
  }
}

}  // namespace warpviz::view
