// The block view of the two-level reductions (reduce_sum, reduce_int): every
// warp reduces its 32 values in five shuffles, lane 0 parks the sum in
// warpSums[warp], then warp 0 reduces those slots in five more. Phases come
// from play_order's warp_phases, not from step counts: a kernel that records
// more steps per round keeps its view.
#include "warpviz/view/block_view.h"

#include <bit>

#include "warpviz/view/lane_view.h"

namespace warpviz::view {

namespace {

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

// The first step in [from, end) with `op`, else kNoStep.
size_t find_op(const Trace& trace, size_t from, size_t end, Op op) {
  for (size_t i = from; i < end; ++i)
    if (trace.steps.op(i) == op) return i;
  return kNoStep;
}

// The steps [first, end) of the warp's phase that starts at `first`.
size_t phase_end(const std::vector<StepPhase>& phases, size_t run_first, size_t first, size_t run_end) {
  size_t end = first;
  while (end < run_end && phases[end - run_first].phase == phases[first - run_first].phase) ++end;
  return end;
}

// Lane 0's value after the first reduction: what its st.shared wrote when the
// trace has it, else the last shuffle's in + out.
std::string partial_value(const Trace& trace, size_t first, size_t last, size_t store) {
  if (store != kNoStep) {
    const TraceStep& st = trace.steps[store];
    for (const LaneRecord& lane : st.lanes)
      if (lane.active()) return value_text(st.dtype, lane.in, false);
  }
  size_t shuffle = last;
  while (shuffle > first && !op_is_shuffle(trace.steps.op(shuffle))) --shuffle;
  const TraceStep& step = trace.steps[shuffle];
  const LaneRecord& lane0 = step.lanes[0];
  return value_text(step.dtype, add_bits(step.dtype, lane0.in, lane0.out), false);
}

}  // namespace

BlockView block_view(const Trace& trace, uint32_t block) {
  BlockView view;
  view.block = block;

  // Steps are ordered by block, warp, seq: each warp's run of steps.
  for (size_t run_first = 0; run_first < trace.steps.size();) {
    size_t run_end = run_first + 1;
    while (run_end < trace.steps.size() && trace.steps.block(run_end) == trace.steps.block(run_first) &&
           trace.steps.warp(run_end) == trace.steps.warp(run_first))
      ++run_end;
    const uint32_t warp = trace.steps.warp(run_first);
    const bool ours = trace.steps.block(run_first) == block;
    const size_t first_of_run = run_first;
    run_first = run_end;
    if (!ours) continue;

    // The first reduction is the warp's first chain of shuffles, with the
    // steps that belong to its rounds.
    const std::vector<StepPhase> phases = warp_phases(trace, first_of_run, run_end);
    size_t first = first_of_run;
    while (first < run_end && phases[first - first_of_run].kind != PhaseKind::Shuffle) ++first;
    if (first == run_end) continue;
    const size_t first_end = phase_end(phases, first_of_run, first, run_end);
    const size_t store = find_op(trace, first_end, run_end, Op::StoreShared);
    // A warp cut short (the recorder overflowed) may never have written its slot.
    if (store == kNoStep && trace.overflow) continue;

    WarpPartial partial;
    partial.warp = warp;
    partial.first_step = first;
    partial.last_step = first_end - 1;
    partial.store_step = store == kNoStep ? partial.last_step : store;
    partial.value = partial_value(trace, first, partial.last_step, store);
    view.warps.push_back(partial);
    if (warp != 0) continue;

    // Warp 0 reads the slots back and reduces them: the first shuffle chain
    // after its load (a trace without the load: the next chain).
    view.load_step = find_op(trace, first_end, run_end, Op::LoadShared);
    size_t final_first = view.load_step == kNoStep ? first_end : view.load_step;
    while (final_first < run_end && phases[final_first - first_of_run].kind != PhaseKind::Shuffle) ++final_first;
    if (final_first == run_end) continue;
    view.final_end = phase_end(phases, first_of_run, final_first, run_end);
    for (size_t i = final_first; i < view.final_end; ++i)
      if (i == final_first || phases[i - first_of_run].round != phases[i - 1 - first_of_run].round)
        view.final_round.push_back(i);
    view.output_step = view.final_end - 1;
  }

  if (const TraceOutput* out = trace.output("out")) {
    for (uint64_t bits : out->bits) view.all_block_outputs.push_back(value_text(out->dtype, bits, false));
    if (block < view.all_block_outputs.size()) view.block_output = view.all_block_outputs[block];
  }
  return view;
}

BlockProgress block_progress(const BlockView& view, const PlayOrder& order, double position, size_t shown) {
  BlockProgress p;
  // A step has landed once the position reaches its place (not while it animates in).
  auto landed = [&](size_t step) { return step != kNoStep && double(order.position_of(step)) <= position; };
  for (size_t i = 0; i < view.warps.size(); ++i) {
    const WarpPartial& w = view.warps[i];
    p.first_done.push_back(landed(w.last_step));
    p.slot_written.push_back(landed(w.store_step));
    if (shown >= w.first_step && shown <= w.last_step) p.current_warp = int(i);
    if (shown == w.store_step) p.current_slot = int(i);
  }
  for (size_t r = 0; r < view.final_round.size(); ++r) {
    const size_t end = r + 1 < view.final_round.size() ? view.final_round[r + 1] : view.final_end;
    if (landed(end - 1)) p.final_rounds_done = r + 1;
    if (shown >= view.final_round[r] && shown < end) p.current_round = int(r);
  }
  p.current_load = shown == view.load_step;
  p.output_written = landed(view.output_step);
  p.current_output = shown == view.output_step;
  return p;
}

}  // namespace warpviz::view
