// The block view of the two-level reductions (reduce_sum, reduce_int): every
// warp reduces its 32 values in five shuffles, lane 0 parks the sum in
// warpSums[warp], then warp 0 reduces those slots in five more.
#include "warpviz/view/block_view.h"

#include <bit>

#include "warpviz/view/lane_view.h"

namespace warpviz::view {

namespace {

// log2(32): the shuffles of one warp_sum / warpReduceSum.
constexpr size_t kReductionSteps = 5;

// The kernels do `val += shfl(val, offset)`, and a shuffle's record keeps what
// the lane read: the value after the step is in + out, added as the GPU adds.
uint64_t add_bits(DType type, uint64_t a, uint64_t b) {
  switch (type) {
    case DType::F32:
      return std::bit_cast<uint32_t>(std::bit_cast<float>(uint32_t(a)) + std::bit_cast<float>(uint32_t(b)));
    case DType::F64: return std::bit_cast<uint64_t>(std::bit_cast<double>(a) + std::bit_cast<double>(b));
    default: return mask_to_width(type, a + b);  // integers wrap, as on the GPU
  }
}

}  // namespace

BlockView block_view(const Trace& trace, uint32_t block) {
  BlockView view;
  view.block = block;

  // Steps are ordered by block, warp, seq: collect each warp's run of steps.
  // Watch steps (the kernels watch `val` after each shuffle) exchange nothing:
  // the reductions are the shuffles.
  std::vector<std::pair<uint32_t, std::vector<size_t>>> warps;
  for (size_t i = 0; i < trace.steps.size(); ++i) {
    const TraceStep& step = trace.steps[i];
    if (step.block != block || op_is_watch(step.op)) continue;
    if (warps.empty() || warps.back().first != step.warp) warps.push_back({step.warp, {}});
    warps.back().second.push_back(i);
  }

  for (const auto& [warp, steps] : warps) {
    // A warp cut short (the recorder overflowed) never wrote its slot.
    if (steps.size() < kReductionSteps) continue;
    const size_t last = steps[kReductionSteps - 1];
    const TraceStep& step = trace.steps[last];
    const LaneRecord& lane0 = step.lanes[0];
    WarpPartial partial;
    partial.warp = warp;
    partial.last_step = last;
    partial.value = value_text(step.dtype, add_bits(step.dtype, lane0.in, lane0.out), false);
    view.warps.push_back(partial);
    if (warp == 0) view.final_round.assign(steps.begin() + kReductionSteps, steps.end());
  }

  if (const TraceOutput* out = trace.output("out")) {
    for (uint64_t bits : out->bits) view.all_block_outputs.push_back(value_text(out->dtype, bits, false));
    if (block < view.all_block_outputs.size()) view.block_output = view.all_block_outputs[block];
  }
  return view;
}

}  // namespace warpviz::view
