// Divergent regions and their paths, from the steps' active lanes (see
// warp_paths.h for the terms).
#include "warpviz/warp_paths.h"

#include <algorithm>
#include <bit>

namespace warpviz {

uint32_t step_lanes(const TraceStep& step) {
  uint32_t lanes = 0;
  for (int lane = 0; lane < kWarpSize; ++lane)
    if (step.lanes[lane].active()) lanes |= 1u << lane;
  return lanes;
}

std::vector<WarpStepRange> warp_step_ranges(const TraceSteps& steps) {
  std::vector<WarpStepRange> ranges;
  for (size_t i = 0; i < steps.size(); ++i) {
    const uint32_t block = steps.block(i), warp = steps.warp(i);
    if (ranges.empty() || ranges.back().block != block || ranges.back().warp != warp)
      ranges.push_back(WarpStepRange{block, warp, i, i, 0});
    ranges.back().end = i + 1;
    ranges.back().lanes |= steps.active_lanes(i);
  }
  return ranges;
}

namespace {

// Paths are ordered by their lowest lane, then by mask: an order that does not
// depend on which path ran first.
bool path_before(uint32_t a, uint32_t b) {
  const int la = std::countr_zero(a), lb = std::countr_zero(b);
  return la != lb ? la < lb : a < b;
}

DivergentRegion make_region(const TraceSteps& steps, const WarpStepRange& warp, size_t begin,
                            size_t end) {
  DivergentRegion r;
  r.block = warp.block;
  r.warp = warp.warp;
  r.warp_lanes = warp.lanes;
  r.begin = begin;
  r.end = end;
  r.fork = begin > warp.begin ? begin - 1 : kNoStep;
  r.join = end < warp.end ? end : kNoStep;
  for (size_t i = begin; i < end; ++i) {
    const uint32_t lanes = steps.active_lanes(i);
    if (std::none_of(r.paths.begin(), r.paths.end(), [&](const DivergentPath& p) { return p.lanes == lanes; }))
      r.paths.push_back(DivergentPath{lanes, {}});
  }
  std::sort(r.paths.begin(), r.paths.end(),
            [](const DivergentPath& a, const DivergentPath& b) { return path_before(a.lanes, b.lanes); });
  for (size_t i = begin; i < end; ++i) {
    const uint32_t lanes = steps.active_lanes(i);
    const auto it = std::find_if(r.paths.begin(), r.paths.end(), [&](const DivergentPath& p) { return p.lanes == lanes; });
    it->steps.push_back(i);
    r.path_of.push_back(uint32_t(it - r.paths.begin()));
  }
  return r;
}

}  // namespace

std::vector<DivergentRegion> divergent_regions(const TraceSteps& steps) {
  std::vector<DivergentRegion> regions;
  for (const WarpStepRange& warp : warp_step_ranges(steps)) {
    size_t begin = kNoStep;  // the first step of the region being read
    for (size_t i = warp.begin; i < warp.end; ++i) {
      const bool converged = steps.active_lanes(i) == warp.lanes;
      if (!converged && begin == kNoStep) begin = i;
      if (converged && begin != kNoStep) {
        regions.push_back(make_region(steps, warp, begin, i));
        begin = kNoStep;
      }
    }
    if (begin != kNoStep) regions.push_back(make_region(steps, warp, begin, warp.end));
  }
  return regions;
}

std::string path_name(size_t path) {
  return path < 26 ? std::string(1, char('A' + path)) : "P" + std::to_string(path + 1);
}

const DivergentRegion* region_of_step(const std::vector<DivergentRegion>& regions, size_t index) {
  const auto it = std::upper_bound(regions.begin(), regions.end(), index,
                                   [](size_t i, const DivergentRegion& r) { return i < r.end; });
  return it != regions.end() && index >= it->begin ? &*it : nullptr;
}

namespace {

// The trace's steps, each region path by path: a permutation of 0..n-1.
std::vector<size_t> order_by_path(const TraceSteps& steps) {
  std::vector<size_t> order(steps.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (const DivergentRegion& r : divergent_regions(steps)) {
    size_t at = r.begin;
    for (const DivergentPath& p : r.paths)
      for (size_t i : p.steps) order[at++] = i;
  }
  return order;
}

}  // namespace

std::optional<std::vector<std::pair<size_t, size_t>>> pair_steps_by_path(const TraceSteps& a,
                                                                          const TraceSteps& b) {
  if (a.size() != b.size()) return std::nullopt;
  const std::vector<size_t> in_a = order_by_path(a), in_b = order_by_path(b);
  std::vector<std::pair<size_t, size_t>> pairs;
  pairs.reserve(a.size());
  for (size_t k = 0; k < a.size(); ++k) {
    const size_t ia = in_a[k], ib = in_b[k];
    // The same step of the same path: anything else, and the paths differ.
    if (a.block(ia) != b.block(ib) || a.warp(ia) != b.warp(ib) || a.op(ia) != b.op(ib) || a.line(ia) != b.line(ib) ||
        a.active_lanes(ia) != b.active_lanes(ib))
      return std::nullopt;
    pairs.emplace_back(in_a[k], in_b[k]);
  }
  return pairs;
}

}  // namespace warpviz
