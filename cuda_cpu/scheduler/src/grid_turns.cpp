#include "grid_turns.h"

#include <stdexcept>
#include <utility>

namespace warpviz::emu {

GridTurns::GridTurns(uint64_t blocks, std::function<void(uint32_t, bool)> on_switch)
    : blocks_(blocks), on_switch_(std::move(on_switch)), turn_came_(blocks), finished_(blocks, false), live_(blocks) {}

bool GridTurns::wait_turn_locked(std::unique_lock<std::mutex>& lock, uint32_t block) {
  turn_came_[block].wait(lock, [&] { return turn_ == block; });
  if (on_switch_) on_switch_(block, false);
  return !abandoned_;
}

bool GridTurns::start(uint32_t block) {
  std::unique_lock<std::mutex> lock(mutex_);
  return wait_turn_locked(lock, block);
}

// The next unfinished block after `from` in block order, wrapping round: in a
// round every block after `from` has yet to arrive, so wrapping means the
// barrier just opened and the lowest block starts the next round.
void GridTurns::pass_turn_locked(uint32_t from) {
  if (on_switch_) on_switch_(from, true);
  if (live_ == 0) return;
  uint64_t next = from;
  do next = (next + 1) % blocks_;
  while (finished_[next]);
  turn_ = next;
  turn_came_[next].notify_one();
}

void GridTurns::abandon_locked(std::exception_ptr error) {
  if (!error_) error_ = std::move(error);
  abandoned_ = true;
}

bool GridTurns::arrive(uint32_t block, uint32_t line) {
  std::unique_lock<std::mutex> lock(mutex_);
  barrier_line_ = line;
  if (abandoned_) return false;
  if (++waiting_ == live_) {
    waiting_ = 0;  // the barrier opens: everyone unfinished is here
    if (live_ != blocks_) {
      uint64_t gone = 0;
      while (!finished_[gone]) ++gone;
      abandon_locked(std::make_exception_ptr(std::runtime_error(
          "deadlock: grid.sync() on line " + std::to_string(line) + " waits for all " + std::to_string(blocks_) +
          " blocks of the grid, but block " + std::to_string(gone) +
          " ended without reaching it (on a GPU the grid hangs)")));
    }
  }
  pass_turn_locked(block);
  return wait_turn_locked(lock, block);
}

void GridTurns::finish(uint32_t block, std::exception_ptr error) {
  std::unique_lock<std::mutex> lock(mutex_);
  finished_[block] = true;
  --live_;
  if (error) abandon_locked(error);
  // Everyone left waits at a barrier this block will never reach.
  if (!abandoned_ && live_ > 0 && waiting_ == live_)
    abandon_locked(std::make_exception_ptr(std::runtime_error(
        "deadlock: grid.sync() on line " + std::to_string(barrier_line_) + " waits for all " +
        std::to_string(blocks_) + " blocks of the grid, but block " + std::to_string(block) +
        " ended without reaching it (on a GPU the grid hangs)")));
  if (abandoned_) waiting_ = 0;
  pass_turn_locked(block);
}

bool GridTurns::abandoned() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return abandoned_;
}

std::exception_ptr GridTurns::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

}  // namespace warpviz::emu
