// Between the runtime's backend-independent part (user_runtime_common.cpp)
// and the CPU emulator's (user_runtime_cpu.cpp): device allocations with a
// guard page are registered here, so crash reports can name them.
#pragma once

#include <cstddef>
#include <functional>

#include "warpviz/warp_scheduler.h"

namespace warpviz::user {

// `map`/`map_bytes`: the whole mapping, guard page included (the CPU backend).
bool register_allocation(void* base, size_t bytes, void* map, size_t map_bytes);
// Forgets it and gives back its mapping (nullptr for a GPU allocation).
struct TakenAllocation {
  void* map = nullptr;
  size_t map_bytes = 0;
  bool found = false;
};
TakenAllocation take_allocation(const void* base);
// Whether `p` points into a registered device allocation (cudaMemcpyDefault
// tells a copy's direction by its pointers, as unified addressing does).
bool points_into_allocation(const void* p);
// The launch's dynamic shared memory: `bytes` usable from `base`, inaccessible
// up to `end`, so crash reports can say a write went past it. The calling OS
// thread's: blocks on several threads have an area each.
void set_dynamic_shared_area(const void* base, size_t bytes, const void* end);
// A cooperative launch's grid in the emulator (cooperative_launch_cpu.cpp):
// each block keeps its own copy of the one dynamic shared buffer.
emu::LaunchStats run_cooperative_grid(Dim3 grid, Dim3 block, size_t shared_bytes,
                                      const std::function<void()>& thread_body, const emu::RecordFilter& filter,
                                      Trace& trace);
// The emulator's work in the launch about to be finished, and its wall time:
// and the OS threads its blocks ran on: launches.jsonl carries them (lane_ops,
// warp_ops, threads, seconds, workers) for
// `warpviz-cli bench corpus`. Figures of a run, so they stay out of the trace.
// `in_order_because`: why the blocks ran one after another (an atomic call
// that sees their order), or null.
void note_launch_work(const emu::LaunchStats& stats, double seconds, unsigned workers,
                      const char* in_order_because = nullptr);

}  // namespace warpviz::user
