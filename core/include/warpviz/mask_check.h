// Member masks that name lanes which never arrived. A *_sync intrinsic waits
// for every lane its mask names; a lane that is inactive at the call (it took
// another branch, exited, or is past the block's last thread) never arrives,
// and the CUDA Programming Guide leaves the result undefined. A lane past the
// block's last thread is not a thread and is not counted. The emulator
// marks the reads it can tell are bad, but a full mask inside
// `if (threadIdx.x < 16)` is wrong even where no read shows it: this names it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "warpviz/trace.h"

namespace warpviz {

// The lanes `step`'s mask names that did not run it; 0 for ops that take no
// member mask (__activemask, watches, shared-memory accesses). Only lanes in
// `existing` count: a partial last warp's missing lanes are no threads at all.
uint32_t mask_lanes_absent(const TraceStep& step, uint32_t existing = 0xffffffffu);
// The lanes of warp `warp` that are threads of a block of `block` (a block
// of 48 threads: warp 1 has lanes 0-15).
uint32_t lanes_in_warp(const Dim3& block, uint32_t warp);

struct AbsentMaskLanes {
  size_t step = 0;     // index in the trace's steps
  uint32_t lanes = 0;  // mask_lanes_absent of that step, never 0 here
};
// Every step of `trace` whose mask names absent lanes (of threads the block
// has), in trace order.
std::vector<AbsentMaskLanes> steps_with_absent_mask_lanes(const Trace& trace);

// Lanes as ranges: 0x0000ffff -> "0-15", 0x8000000b -> "0-1, 3, 31"; "" for 0.
std::string lane_ranges(uint32_t lanes);

// One line for the CLI and the app, in English:
// "block 0 warp 0 step 2 (shfl.down, line 4): mask 0xffffffff names lanes
// 16-31, which never arrived (inactive: on another path or exited); the result is undefined"
std::string absent_mask_warning(const Trace& trace, const AbsentMaskLanes& absent);

}  // namespace warpviz
