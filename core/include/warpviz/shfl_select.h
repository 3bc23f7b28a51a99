// The lane a shfl.sync reads from, and its predicate: PTX's lane selection
// ("shfl.sync", PTX ISA 9.7.9.6), one definition for the emulator's rules
// and the GPU recorder, which checks the hardware's answer against it.
#pragma once

#include <cstdint>

#include "warpviz/trace.h"

// A function the GPU recorder calls too: __host__ __device__ under nvcc,
// plain C++ everywhere else (the core stays free of CUDA).
#if defined(__CUDACC__)
#define WARPVIZ_HOST_DEVICE __host__ __device__
#else
#define WARPVIZ_HOST_DEVICE
#endif

namespace warpviz::rules {

struct ShflSelection {
  int src;        // lane read from (the lane itself when out of range)
  bool in_range;  // PTX predicate p
};

// Lane selection for `lane`. c packs the segment mask in bits 8-12 and the
// clamp value in bits 0-4; only the low 5 bits of b are used:
//   maxLane = (lane & segmask) | (clamp & ~segmask), minLane = lane & segmask
//   up: j = lane - b, p = j >= maxLane      down: j = lane + b, p = j <= maxLane
//   bfly: j = lane ^ b, p = j <= maxLane    idx: j = minLane | (b & ~segmask), p = j <= maxLane
//   out of range (!p): the lane reads its own value.
WARPVIZ_HOST_DEVICE constexpr ShflSelection shfl_select(Op op, int lane, uint32_t b, uint32_t c) {
  const int b5 = static_cast<int>(b & 0x1fu);
  const int clamp = static_cast<int>(c & 0x1fu);
  const int segmask = static_cast<int>((c >> 8) & 0x1fu);
  const int max_lane = (lane & segmask) | (clamp & ~segmask);
  const int min_lane = lane & segmask;

  int src = lane;
  bool in_range = false;
  switch (op) {
    case Op::ShflUp:
      src = lane - b5;
      in_range = src >= max_lane;  // signed: src may be negative
      break;
    case Op::ShflDown:
      src = lane + b5;
      in_range = src <= max_lane;
      break;
    case Op::ShflXor:
      src = lane ^ b5;
      in_range = src <= max_lane;  // only the upper bound: earlier segments are reachable
      break;
    case Op::ShflIdx:
      src = min_lane | (b5 & ~segmask);
      in_range = src <= max_lane;
      break;
    default:
      break;
  }
  if (!in_range) src = lane;
  return {src, in_range};
}

}  // namespace warpviz::rules
