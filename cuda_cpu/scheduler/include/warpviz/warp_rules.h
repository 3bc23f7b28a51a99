// The exact warp-op rules of docs/warp-rules.md (sm_90, measured on
// an H200), as pure functions over one TraceStep. The CPU emulator fills a step's
// inputs and calls apply_step; the GPU tests compare hardware steps against it.
//
// Inputs a step must carry before apply_step:
//   op, dtype, mask, args (b, width; c is computed here), and for each lane the
//   kLaneActive flag and `in` (the value, or the predicate for votes).
// apply_step fills each active lane's `out`, `src`, kLaneOk and kLaneUndefined.
// Inactive lanes get out = 0, src = -1 and no flags but their own.
#pragma once

#include <cstdint>

#include "warpviz/shfl_select.h"
#include "warpviz/trace.h"

namespace warpviz::rules {

// The c operand of shfl.sync as sm_30_intrinsics.hpp builds it:
// idx/down/bfly: ((32 - width) << 8) | 0x1f; up: (32 - width) << 8.
uint32_t shfl_c_operand(Op op, int width);

// shfl_select (shfl_select.h): PTX 9.7.9.6 lane selection.

// Per-op rules. Each reads and writes the step as described above.
void apply_shuffle(TraceStep& step);    // shfl.idx/up/down/bfly, 32- or 64-bit dtype
void apply_vote(TraceStep& step);       // ballot / any / all (out is u32: ballot bits, or 1/0)
void apply_activemask(TraceStep& step); // out = the active lanes
void apply_match(TraceStep& step);      // match_any / match_all, bitwise compare of dtype bits
void apply_redux(TraceStep& step);      // __reduce_*_sync: I32 signed, U32 unsigned; add wraps
void apply_syncwarp(TraceStep& step);   // no values; marks lanes outside mask undefined
void apply_watch(TraceStep& step);      // out = in: a watched variable, no exchange; always defined
void apply_step(TraceStep& step);       // dispatches on step.op (shared-memory ops: no-op)

// A step a GPU recorded holds what the hardware gave: in, out, the lane each
// lane read from (its id, shuffled alongside), p / pred, and which lanes ran.
// This marks what the spec leaves undefined, exactly as apply_step would, and
// sets kLaneOk to "defined" for ops without a predicate of their own. An
// undefined shuffle read gets the formula's source lane (the hardware's lane-id
// shuffle read garbage too).
void finalize_recorded_step(TraceStep& step);

// Bit intrinsics (crt/device_functions.h, PTX fns).
int popc(uint32_t x);
int ffs(uint32_t x);   // 1-based lowest set bit, 0 for 0
int clz(uint32_t x);   // 32 for 0
uint32_t brev(uint32_t x);
uint32_t fns(uint32_t mask, uint32_t base, int offset);  // 0xffffffff when none

}  // namespace warpviz::rules
