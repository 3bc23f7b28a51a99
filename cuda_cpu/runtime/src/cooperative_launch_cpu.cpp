// Cooperative launches on the CPU emulator: the H200's co-residency limit and
// the grid itself, every block at once (warp_scheduler.h).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "user_runtime_internal.h"
#include "warpviz/cooperative_launch.h"

namespace warpviz::user {

// The running launch's dynamic shared bytes (user_runtime_cpu.cpp).
unsigned char* running_dynamic_shared_area();

namespace {
// An H200 SM (CUDA Programming Guide, compute capability 9.0): 2048 threads
// (64 warps), 32 blocks, 228 KiB of shared memory of which each block takes
// 1 KiB for the system besides its own.
constexpr int kWarpsPerSm = 64;
constexpr int kBlocksPerSm = 32;
constexpr size_t kSharedPerSm = 228 * 1024;
constexpr size_t kSharedReservedPerBlock = 1024;
}  // namespace

int max_active_blocks_per_sm(int block_threads, size_t dynamic_shared) {
  if (block_threads <= 0) return 0;
  const int warps = (block_threads + 31) / 32;
  const int by_warps = kWarpsPerSm / warps;
  const int by_shared = int(kSharedPerSm / (dynamic_shared + kSharedReservedPerBlock));
  return std::max(0, std::min({kBlocksPerSm, by_warps, by_shared}));
}

// The blocks take turns on one dynamic shared buffer: each leaves with its
// own copy saved and finds it back on its next turn (zeroed at the start, as
// a plain launch's buffer is).
emu::LaunchStats run_cooperative_grid(Dim3 grid, Dim3 block, size_t shared_bytes,
                                      const std::function<void()>& thread_body, const emu::RecordFilter& filter,
                                      Trace& trace) {
  unsigned char* area = running_dynamic_shared_area();
  std::vector<std::vector<unsigned char>> saved(shared_bytes ? grid.count() : 0,
                                                std::vector<unsigned char>(shared_bytes, 0));
  return emu::launch_grid_cooperative(grid, block, thread_body, filter, trace, [&](uint32_t b, bool parking) {
    if (!shared_bytes) return;
    if (parking) std::memcpy(saved[b].data(), area, shared_bytes);
    else std::memcpy(area, saved[b].data(), shared_bytes);
  });
}

}  // namespace warpviz::user
