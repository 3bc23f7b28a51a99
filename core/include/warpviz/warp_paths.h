// The divergent paths of a warp, read from a trace: which lanes ran each step
// (its active flags), where the warp's lanes split into paths and where they
// ran together again. The diff uses it (paths may interleave in any order),
// and so does the path view.
//
// A step is *converged* when every lane the warp ever ran a step with ran it.
// Between two converged steps, the steps that fewer lanes ran form a
// *divergent region*; its *paths* are the distinct sets of lanes that ran its
// steps. On Volta and later GPUs threads are scheduled independently: the
// order in which the paths of a region run is not specified (the emulator
// completes the waiting group of the lowest lane first, so its paths take
// turns step by step; a GPU may run one path to its end first).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "warpviz/trace.h"

namespace warpviz {

constexpr size_t kNoStep = SIZE_MAX;

// The lanes that ran the step (kLaneActive).
uint32_t step_lanes(const TraceStep& step);

// One warp's steps, [begin, end) in the trace, and every lane any of them ran.
struct WarpStepRange {
  uint32_t block = 0, warp = 0;
  size_t begin = 0, end = 0;
  uint32_t lanes = 0;
};
// Steps are ordered by block, warp, seq, so each warp's are contiguous.
std::vector<WarpStepRange> warp_step_ranges(const TraceSteps& steps);

struct DivergentPath {
  uint32_t lanes = 0;          // the lanes that ran its steps
  std::vector<size_t> steps;   // trace indices, in the order they ran
};

struct DivergentRegion {
  uint32_t block = 0, warp = 0;
  uint32_t warp_lanes = 0;           // the lanes of a converged step
  size_t begin = 0, end = 0;         // the region's steps, [begin, end) in the trace (run order)
  size_t fork = kNoStep;             // the converged step just before it (the last warp op before the split)
  size_t join = kNoStep;             // the converged step just after it (the first warp op they ran together again)
  // By lowest lane, then by lane mask: the same order whichever order they ran in.
  std::vector<DivergentPath> paths;
  std::vector<uint32_t> path_of;     // for each step begin..end-1, its index in paths
};

// Every divergent region, in trace order.
std::vector<DivergentRegion> divergent_regions(const TraceSteps& steps);

// A path's name by its index in DivergentRegion::paths: "A", "B", ... (the
// diff and the path view say the same).
std::string path_name(size_t path);

// The region that holds step `index`, or nullptr.
const DivergentRegion* region_of_step(const std::vector<DivergentRegion>& regions, size_t index);

// How two traces' steps correspond when the paths of a region may run in any
// order: pairs (index in a, index in b) that take each region path by path,
// each path's steps in the order they ran, and every converged step in place.
// nullopt when the two traces do not have the same paths (same warps, and
// path by path the same lanes, ops and lines); then only positions compare.
std::optional<std::vector<std::pair<size_t, size_t>>> pair_steps_by_path(const TraceSteps& a,
                                                                          const TraceSteps& b);

}  // namespace warpviz
