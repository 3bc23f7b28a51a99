// The path view: for the current step, the divergent region around it
// (warp_paths.h) as a student reads it: which lanes took which path, each
// path's mask, the order in which the paths' steps ran, and where the lanes
// split and joined. Pure logic over a trace.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warpviz/trace.h"
#include "warpviz/warp_paths.h"

namespace warpviz::view {

// Where the current step stands in its region.
enum class PathPlace {
  OnPath,  // a step of one path
  Join,    // the converged step after the region: the lanes ran together again here
  Fork,    // the converged step before the region: the last one before they split
};

struct PathSummary {
  uint32_t lanes = 0;       // the path's mask
  uint32_t first_line = 0;  // the line of its first step
  size_t steps = 0;
  int ran_as = 0;           // 0: the path that started first, 1: second, ...
};

// One step of the region, in the order it ran: a row of the sequence diagram.
struct PathSequenceRow {
  size_t step = 0;  // trace index
  int path = 0;     // index in PathView::paths
  Op op = Op::ShflIdx;
  uint32_t line = 0;
  bool current = false;
};

struct PathView {
  uint32_t block = 0, warp = 0;
  uint32_t warp_lanes = 0;
  PathPlace place = PathPlace::OnPath;
  int current_path = -1;                       // the current step's path; -1 at the fork or the join
  std::vector<PathSummary> paths;              // by lowest lane: path A, B, ... (as warpviz-cli diff names them)
  std::array<int, kWarpSize> lane_path{};      // each lane's path; -1: the lane ran none of the region's steps
  std::vector<PathSequenceRow> sequence;       // the region's steps in run order
  size_t fork_step = kNoStep, join_step = kNoStep;
  uint32_t fork_line = 0, join_line = 0;       // 0 when not recorded
  // The paths took turns (A B A B) rather than running one after another (A A B B).
  bool interleaved = false;
  // Every path ran the same lines in the same order: the same code in separate
  // groups (a function each path calls, or the tiles of a cooperative group)
  // rather than the two sides of an if.
  bool same_code = false;
};

// The view around `step`: its region, or the region that joins or (failing
// that) forks at it. nullopt when the step is converged and next to no region.
std::optional<PathView> path_view(const TraceSteps& steps, const std::vector<DivergentRegion>& regions,
                                  size_t step);

}  // namespace warpviz::view
