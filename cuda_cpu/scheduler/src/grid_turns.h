// Turns of a cooperative launch's blocks (cudaLaunchCooperativeKernel): every
// block of the grid is resident at once, each on its own OS thread, and they
// take turns, one running at a time in block order, so that a kernel sees the
// same one-thread emulator as any launch (plain read-modify-write atomics,
// one dynamic shared buffer) and the trace does not depend on the OS.
//
// A block runs until all its live threads wait at grid.sync() or it ends; then
// the next block in order runs. Once every unfinished block waits, the
// barrier opens and they run again from the lowest. A grid barrier that a
// block ended without reaching can never open (on a GPU the grid hangs): the
// launch is abandoned with that deadlock as its error.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace warpviz::emu {

class GridTurns {
 public:
  // `on_switch(block, parking)`: a block gives up its turn (parking) or takes
  // it back, for state the blocks share on one thread (dynamic shared memory).
  GridTurns(uint64_t blocks, std::function<void(uint32_t block, bool parking)> on_switch);

  // Waits for the block's first turn; false when the launch was abandoned first.
  bool start(uint32_t block);
  // The block's live threads all wait at the grid barrier on `line`: gives the
  // turn on and waits until the barrier opens and the turn comes back. False
  // when the launch was abandoned meanwhile: the threads unwind.
  bool arrive(uint32_t block, uint32_t line);
  // The block ended, with `error` (null when it did not fail).
  void finish(uint32_t block, std::exception_ptr error);

  bool abandoned() const;
  // The launch's first error: a block's, or the deadlock's.
  std::exception_ptr error() const;

 private:
  void pass_turn_locked(uint32_t from);
  void abandon_locked(std::exception_ptr error);
  bool wait_turn_locked(std::unique_lock<std::mutex>& lock, uint32_t block);

  const uint64_t blocks_;
  std::function<void(uint32_t, bool)> on_switch_;
  mutable std::mutex mutex_;
  // One per block: a turn wakes only the block whose turn it is (one shared
  // variable woke every parked block at every turn, a storm of OS switches).
  std::vector<std::condition_variable> turn_came_;
  std::vector<bool> finished_;
  uint64_t live_ = 0;      // blocks not finished
  uint64_t waiting_ = 0;   // of them, waiting at the barrier now
  uint64_t turn_ = 0;      // the block that may run
  uint32_t barrier_line_ = 0;
  bool abandoned_ = false;
  std::exception_ptr error_;
};

}  // namespace warpviz::emu
