// The path view of the current step (path_view.h).
#include "warpviz/view/path_view.h"

#include <algorithm>

namespace warpviz::view {

namespace {

const DivergentRegion* region_around(const std::vector<DivergentRegion>& regions, size_t step, PathPlace* place) {
  if (const DivergentRegion* r = region_of_step(regions, step)) {
    *place = PathPlace::OnPath;
    return r;
  }
  // A converged step that is both (the join of one branch is often the vote
  // that forks the next) shows the region just run: where its paths joined.
  for (const DivergentRegion& r : regions)
    if (r.join == step) {
      *place = PathPlace::Join;
      return &r;
    }
  for (const DivergentRegion& r : regions)
    if (r.fork == step) {
      *place = PathPlace::Fork;
      return &r;
    }
  return nullptr;
}

}  // namespace

std::optional<PathView> path_view(const TraceSteps& steps, const std::vector<DivergentRegion>& regions,
                                  size_t step) {
  PathView v;
  const DivergentRegion* r = region_around(regions, step, &v.place);
  if (!r) return std::nullopt;
  v.block = r->block;
  v.warp = r->warp;
  v.warp_lanes = r->warp_lanes;
  v.lane_path.fill(-1);
  for (size_t p = 0; p < r->paths.size(); ++p) {
    const DivergentPath& path = r->paths[p];
    v.paths.push_back(PathSummary{path.lanes, steps.line(path.steps.front()), path.steps.size(), 0});
    // A lane on two paths (a branch inside a branch) shows the first.
    for (int lane = 0; lane < kWarpSize; ++lane)
      if (((path.lanes >> lane) & 1u) && v.lane_path[lane] < 0) v.lane_path[lane] = int(p);
  }
  std::vector<int> started;  // paths in the order their first steps ran
  for (size_t i = r->begin; i < r->end; ++i) {
    const int p = int(r->path_of[i - r->begin]);
    v.sequence.push_back(PathSequenceRow{i, p, steps.op(i), steps.line(i), i == step});
    if (std::find(started.begin(), started.end(), p) == started.end()) started.push_back(p);
    if (i == step) v.current_path = p;
  }
  for (size_t k = 0; k < started.size(); ++k) v.paths[started[k]].ran_as = int(k);
  // One after another: each path's steps form one unbroken run.
  size_t runs = 0;
  for (size_t k = 0; k < v.sequence.size(); ++k) runs += k == 0 || v.sequence[k].path != v.sequence[k - 1].path;
  v.interleaved = runs > v.paths.size();
  v.same_code = v.paths.size() > 1 && std::all_of(r->paths.begin(), r->paths.end(), [&](const DivergentPath& p) {
    const DivergentPath& first = r->paths.front();
    if (p.steps.size() != first.steps.size()) return false;
    for (size_t k = 0; k < p.steps.size(); ++k)
      if (steps.line(p.steps[k]) != steps.line(first.steps[k])) return false;
    return true;
  });
  v.fork_step = r->fork;
  v.join_step = r->join;
  if (r->fork != kNoStep) v.fork_line = steps.line(r->fork);
  if (r->join != kNoStep) v.join_line = steps.line(r->join);
  return v;
}

}  // namespace warpviz::view
