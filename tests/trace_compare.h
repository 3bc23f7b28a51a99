// Comparing a GPU trace with the CPU emulator's, for test_gpu and
// test_shipped_traces: diff_traces (metadata, steps, outputs) plus each lane's
// active and undefined flags, which diff_traces does not compare once either
// trace marks a lane undefined (only the values are meant to be skipped).
//
// The paths of a divergent region are compared path by path: the hardware
// does not fix their order (Volta and later schedule threads independently),
// so a GPU that ran them in another order than the emulator, with the same
// results path by path, is equal; the comparison says so in `interleavings`.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "warpviz/trace.h"
#include "warpviz/trace_diff.h"
#include "warpviz/warp_paths.h"

namespace warpviz::test {

constexpr uint8_t kComparedLaneFlags = kLaneActive | kLaneUndefined;

// Two steps equal in every stored field (the reserved bytes are not stored).
inline bool same_step(const TraceStep& x, const TraceStep& y) {
  if (x.block != y.block || x.warp != y.warp || x.seq != y.seq || x.line != y.line || x.mask != y.mask ||
      x.op != y.op || x.dtype != y.dtype || x.step_flags != y.step_flags || x.args.b != y.args.b ||
      x.args.width != y.args.width || x.args.c != y.args.c)
    return false;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord &l = x.lanes[lane], &m = y.lanes[lane];
    if (l.in != m.in || l.out != m.out || l.addr != m.addr || l.src != m.src || l.flags != m.flags ||
        l.bytes != m.bytes)
      return false;
  }
  return true;
}

inline std::string lane_flag_names(uint8_t flags) {
  std::string s = (flags & kLaneActive) ? "active" : "inactive";
  if (flags & kLaneUndefined) s += "+undefined";
  return s;
}

// The steps compared: path by path where both traces have the same paths
// (pair_steps_by_path), else position by position up to the shorter trace
// (diff_traces reports a count mismatch).
inline std::vector<std::pair<size_t, size_t>> compared_step_pairs(const Trace& a, const Trace& b) {
  if (auto by_path = pair_steps_by_path(a.steps, b.steps)) return *by_path;
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t i = 0; i < std::min(a.steps.size(), b.steps.size()); ++i) pairs.emplace_back(i, i);
  return pairs;
}

// Step by step, lane by lane: the kLaneActive and kLaneUndefined bits must agree.
inline std::vector<TraceDifference> lane_flag_differences(const Trace& a, const Trace& b, size_t max_differences,
                                                          size_t* total = nullptr) {
  std::vector<TraceDifference> found;
  size_t count = 0;
  for (const auto& [i, j] : compared_step_pairs(a, b)) {
    const TraceStep& sa = a.steps[i];
    const TraceStep& sb = b.steps[j];
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const uint8_t fa = sa.lanes[lane].flags & kComparedLaneFlags;
      const uint8_t fb = sb.lanes[lane].flags & kComparedLaneFlags;
      if (fa == fb) continue;
      ++count;
      if (found.size() < max_differences)
        found.push_back({"step " + std::to_string(i) + " (block " + std::to_string(sa.block) + " warp " +
                             std::to_string(sa.warp) + " " + op_name(sa.op) + " line " + std::to_string(sa.line) +
                             ") lane " + std::to_string(lane) + " flags",
                         lane_flag_names(fa), lane_flag_names(fb)});
    }
  }
  if (total) *total = count;
  return found;
}

struct TraceComparison {
  std::vector<TraceDifference> diffs;  // diff_traces' first differences
  std::vector<TraceDifference> flags;  // lane_flag_differences' first differences
  // Divergent regions whose paths ran in another order (no difference).
  std::vector<PathInterleaving> interleavings;
  size_t diff_total = 0, flag_total = 0;
  // What was compared, for the GPU test's summary.
  size_t steps = 0;            // step pairs (the shorter trace's count)
  size_t lane_records = 0;     // steps * 32
  size_t active_lanes = 0;     // lane records active in either trace
  size_t undefined_lanes = 0;  // lane records undefined in either: values not compared
  size_t output_values = 0;    // output elements of the first trace

  bool equal() const { return diff_total == 0 && flag_total == 0; }

  // One line per difference, "  WHERE: A_NAME=... B_NAME=...", and the totals.
  std::string describe(const std::string& a_name, const std::string& b_name) const {
    std::string s = std::to_string(diff_total) + " difference(s) from diff_traces, " + std::to_string(flag_total) +
                    " lane(s) with different active/undefined flags";
    const auto list = [&](const std::vector<TraceDifference>& items, size_t total) {
      for (const TraceDifference& d : items) s += "\n  " + d.where + ": " + a_name + "=" + d.a + "  " + b_name + "=" + d.b;
      if (total > items.size()) s += "\n  ... and " + std::to_string(total - items.size()) + " more";
    };
    list(diffs, diff_total);
    list(flags, flag_total);
    return s;
  }

  // One line per region whose paths ran in another order; empty when none did.
  std::string describe_interleavings(const std::string& a_name, const std::string& b_name) const {
    std::string s;
    for (const PathInterleaving& p : interleavings)
      s += (s.empty() ? "" : "\n") + describe_interleaving(p, a_name, b_name);
    return s;
  }
};

// a and b must be the same run: compare_meta (scenario, params, dtype, input,
// grid, block; not the measured figures) and skip_undefined, as every
// GPU-vs-CPU check here does.
inline TraceComparison compare_traces(const Trace& a, const Trace& b, size_t max_differences = 12) {
  TraceComparison c;
  TraceDiffOptions options;
  options.compare_meta = true;
  options.compare_measurements = false;  // the GPU's timings and counters: no CPU run has them
  options.skip_undefined = true;
  options.paths_in_any_order = true;  // the hardware leaves the paths' order open
  options.max_differences = max_differences;
  c.diffs = diff_traces(a, b, options, &c.diff_total, &c.interleavings);
  c.flags = lane_flag_differences(a, b, max_differences, &c.flag_total);
  const auto pairs = compared_step_pairs(a, b);
  c.steps = pairs.size();
  c.lane_records = c.steps * kWarpSize;
  for (const auto& [i, j] : pairs)
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const LaneRecord la = a.steps[i].lanes[lane];
      const LaneRecord lb = b.steps[j].lanes[lane];
      c.active_lanes += la.active() || lb.active();
      c.undefined_lanes += la.undefined() || lb.undefined();
    }
  for (const TraceOutput& o : a.outputs) c.output_values += o.bits.size();
  return c;
}

}  // namespace warpviz::test
