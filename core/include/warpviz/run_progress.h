// How far a user's program has got: one small record that the program (the
// CPU emulator's scheduler and the kit's runtime) writes and the runner reads
// while it runs, through a file in the run's folder that both map
// (MAP_SHARED). The runner creates the file; a program run by hand has none
// and counts nothing.
//
// Writers are cheap on purpose: relaxed atomics, and the fiber-switch count a
// plain load and store (one writer at a time: a user's launch runs its
// blocks on one OS thread, a cooperative one a block at a time; a launch
// spread over workers may lose some counts, and the count still moves). The reader
// wants figures to show and one fact: whether anything moved lately.
#pragma once

#include <atomic>
#include <cstdint>

namespace warpviz {

struct RunProgress {
  static constexpr uint32_t kMagic = 0x52505657;  // "WVPR"
  static constexpr uint32_t kVersion = 2;
  static constexpr const char* kFileName = "progress.bin";

  uint32_t magic = kMagic;
  uint32_t version = kVersion;
  std::atomic<uint64_t> launches_started{0};   // the running (or last) launch is launches_started - 1
  std::atomic<uint64_t> launches_finished{0};
  std::atomic<uint64_t> in_launch{0};          // 1 while a kernel runs, 0 in host code
  std::atomic<uint64_t> blocks_total{0};       // of the running (or last) launch
  std::atomic<uint64_t> blocks_done{0};
  std::atomic<uint64_t> threads_total{0};
  std::atomic<uint64_t> threads_done{0};       // threads of the launch that have ended
  // Every fiber switch of every launch: it stands still only while one
  // thread runs without reaching a warp operation, a barrier or its end.
  std::atomic<uint64_t> switches{0};
  // Barriers passed: a __syncthreads that opened, a block's arrival at
  // grid.sync(). A cooperative kernel's threads end only at its end; these
  // show it getting somewhere meanwhile.
  std::atomic<uint64_t> barriers_passed{0};
  std::atomic<uint64_t> launch_start_ns{0};    // CLOCK_MONOTONIC (steady_clock) when the launch began
  std::atomic<uint64_t> kernel_writes{0};      // odd while `kernel` is being written (a seqlock)
  char kernel[112] = {};                       // the running (or last) kernel's name, cut to fit
};

static_assert(std::atomic<uint64_t>::is_always_lock_free, "the record is shared between processes");

}  // namespace warpviz
