// The block view for reduce_sum / reduce_int: each warp's lane-0 partial going
// into the shared warpSums slots, then warp 0's final round, then the block's
// output; for multi-block runs the blocks' partial sums.
#pragma once

#include <string>
#include <vector>

#include "warpviz/trace.h"

namespace warpviz::view {

struct WarpPartial {
  uint32_t warp = 0;
  std::string value;        // lane 0's value after the warp's first reduction
  size_t last_step = 0;     // trace index of that warp's last first-round step
};

struct BlockView {
  uint32_t block = 0;
  std::vector<WarpPartial> warps;      // the warpSums slots, in warp order
  std::vector<size_t> final_round;     // trace indices of warp 0's second reduction
  std::string block_output;            // outputs["out"][block]
  std::vector<std::string> all_block_outputs;  // every block's partial sum
};
// Empty warps when the trace has no steps of that block.
BlockView block_view(const Trace& trace, uint32_t block);

}  // namespace warpviz::view
