// The block view for reduce_sum / reduce_int: each warp's lane-0 partial going
// into the shared warpSums slots, then warp 0's final reduction, then the
// block's output; for multi-block runs the blocks' partial sums. What is
// written so far follows the steps played so far (block_progress).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "warpviz/trace.h"
#include "warpviz/view/play_order.h"

namespace warpviz::view {

constexpr size_t kNoStep = size_t(-1);

struct WarpPartial {
  uint32_t warp = 0;
  std::string value;        // lane 0's value after the warp's first reduction
  size_t first_step = 0;    // trace indices of the warp's first reduction: first_step..last_step
  size_t last_step = 0;
  // Lane 0's st.shared into warpSums[warp]. A trace recorded before the
  // kernels recorded it has none: then last_step, when lane 0 has the value.
  size_t store_step = 0;
};

struct BlockView {
  uint32_t block = 0;
  std::vector<WarpPartial> warps;      // the warpSums slots, in warp order
  size_t load_step = kNoStep;          // warp 0's ld.shared of the slots (kNoStep: not recorded)
  std::vector<size_t> final_round;     // warp 0's second reduction: the first trace index of each round
  size_t final_end = 0;                // one past its last step (a round's later steps included)
  // The step after which lane 0 holds the block's total: the final
  // reduction's last. The kernel's write of it to global memory is not a
  // recorded step; the view shows the output once this step has landed.
  size_t output_step = kNoStep;
  std::string block_output;            // outputs["out"][block]
  std::vector<std::string> all_block_outputs;  // every block's partial sum
};
// Empty warps when the trace has no steps of that block.
BlockView block_view(const Trace& trace, uint32_t block);

// What of the block view is written once the play position `position` is
// reached (a step has landed when the position is at or past its place in
// `order`), and which part the shown step `shown` (a trace index) is in.
struct BlockProgress {
  std::vector<bool> first_done;    // per warps[i]: its first reduction has landed
  std::vector<bool> slot_written;  // per warps[i]: warpSums[warp] holds its value
  size_t final_rounds_done = 0;    // warp 0's final rounds landed
  bool output_written = false;
  int current_warp = -1;           // warps[i] whose first reduction `shown` is in
  int current_slot = -1;           // warps[i] whose slot `shown` writes
  bool current_load = false;       // `shown` is warp 0 reading the slots
  int current_round = -1;          // final_round[r] that `shown` is in
  bool current_output = false;     // `shown` is output_step
};
BlockProgress block_progress(const BlockView& view, const PlayOrder& order, double position, size_t shown);

}  // namespace warpviz::view
