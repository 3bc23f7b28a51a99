// The vote view's numbers, recomputed from each lane's own record so the view
// can show where every ballot bit comes from.
#include "warpviz/view/vote_view.h"

#include <bit>

namespace warpviz::view {

std::optional<BallotView> ballot_view(const TraceStep& step) {
  if (step.op != Op::Ballot && step.op != Op::Any && step.op != Op::All) return std::nullopt;
  BallotView view;
  view.mask = step.mask;
  const LaneRecord* recorded = nullptr;  // a lane whose ballot result is defined
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord& rec = step.lanes[lane];
    view.active[lane] = rec.active();
    if (!rec.active()) continue;  // a lane that did not run supplied no predicate
    view.predicate[lane] = mask_to_width(step.dtype, rec.in) != 0;
    const bool member = (step.mask >> lane) & 1u;
    if (member && view.predicate[lane]) view.ballot |= 1u << lane;
    if (!recorded && !rec.undefined()) recorded = &rec;
  }
  // The hardware's own ballot is the truth; the recomputation above only
  // explains it, and never overrides it.
  if (step.op == Op::Ballot && recorded) view.ballot = uint32_t(recorded->out);
  view.popc = std::popcount(view.ballot);
  view.ffs = view.ballot == 0 ? 0 : std::countr_zero(view.ballot) + 1;
  view.first_lane = view.ffs - 1;
  return view;
}

std::vector<CompactionSlot> compaction_slots(uint32_t ballot) {
  std::vector<CompactionSlot> slots(kWarpSize);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    slots[lane].lane = lane;
    const uint32_t bit = 1u << lane;
    if (ballot & bit) slots[lane].slot = std::popcount(ballot & (bit - 1));
  }
  return slots;
}

std::array<int, kWarpSize> match_groups(const TraceStep& step) {
  std::array<int, kWarpSize> groups;
  groups.fill(-1);
  int next_group = 0;
  // Lanes are visited in order, so each group is numbered by its lowest lane.
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord& rec = step.lanes[lane];
    if (!rec.active() || rec.undefined() || groups[lane] >= 0) continue;
    const uint64_t value = mask_to_width(step.dtype, rec.in);
    groups[lane] = next_group;
    for (int other = lane + 1; other < kWarpSize; ++other) {
      const LaneRecord& o = step.lanes[other];
      // match compares bits: -0.0 and 0.0 differ, equal NaN payloads match.
      if (o.active() && !o.undefined() && mask_to_width(step.dtype, o.in) == value)
        groups[other] = next_group;
    }
    ++next_group;
  }
  return groups;
}

}  // namespace warpviz::view
