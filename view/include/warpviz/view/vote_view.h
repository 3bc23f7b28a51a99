// The vote view's numbers: predicates, the ballot's bits, popc and ffs; the
// compaction slots; match groups. Pure logic over a trace step.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "warpviz/trace.h"

namespace warpviz::view {

struct BallotView {
  uint32_t mask = 0;
  std::array<bool, kWarpSize> predicate{};  // per lane, as the lane supplied it (non-zero = true)
  std::array<bool, kWarpSize> active{};
  uint32_t ballot = 0;   // bit N = lane N voted true (and was active and in the mask)
  int popc = 0;
  int ffs = 0;           // __ffs(ballot): 1-based, 0 when none
  int first_lane = -1;   // ffs - 1
};
// For a vote.ballot / vote.any / vote.all step; nullopt for other ops.
std::optional<BallotView> ballot_view(const TraceStep& step);

// Stream compaction: each kept lane's slot is the popc of the kept lanes below it.
struct CompactionSlot {
  int lane = 0;
  int slot = -1;  // -1: dropped
};
std::vector<CompactionSlot> compaction_slots(uint32_t ballot);

// match.any: lanes grouped by equal value; group ids are dense, ordered by
// each group's lowest lane, so colours are stable. -1 for inactive lanes.
std::array<int, kWarpSize> match_groups(const TraceStep& step);

}  // namespace warpviz::view
