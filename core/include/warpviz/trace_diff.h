// Lane-by-lane comparison of two traces.
#pragma once

#include <string>
#include <vector>

#include "warpviz/trace.h"

namespace warpviz {

struct TraceDifference {
  std::string where;   // "step 12 (block 0 warp 0 shfl.down line 31) lane 5 out"
  std::string a, b;    // the two values, formatted
};

struct TraceDiffOptions {
  bool compare_meta = false;      // scenario, params, dtype, input, grid, block and the
                                  // measurements; backend/device/tool version differ by design
  bool compare_measurements = true;  // with compare_meta: also the GPU-measured figures
                                     // (off where a GPU trace meets its CPU rerun)
  bool skip_undefined = true;     // lanes flagged undefined in either trace: values not compared
  // The paths of a divergent region (warp_paths.h) may run in any order: the
  // hardware does not fix it. On: when both traces have the same paths, each
  // region is compared path by path, and a different interleaving is no
  // difference but a PathInterleaving. Off: step by step, in recorded order.
  bool paths_in_any_order = false;
  size_t max_differences = 20;
};

// A divergent region whose paths ran in another order in b than in a, with
// the same steps and results path by path.
struct PathInterleaving {
  uint32_t block = 0, warp = 0;
  size_t a_begin = 0, a_end = 0;          // the region's steps in a, [begin, end)
  std::vector<uint32_t> path_lanes;       // each path's lanes (paths by lowest lane)
  std::vector<uint32_t> path_lines;       // the source line of each path's first step
  std::vector<uint32_t> a_order, b_order; // the path of each step, in the order each trace ran them
  uint32_t join_line = 0;                 // where the lanes ran together again; 0: not recorded
};

// "block 0 warp 0: same per-path results, different interleaving of the
// paths: GPU ran path A (lanes 0xaaaaaaaa, line 27) first, CPU ran path B
// (lanes 0x55555555, line 31) first (GPU A A B B, CPU B A B A); joined at line 38"
std::string describe_interleaving(const PathInterleaving& p, const std::string& a_name, const std::string& b_name);

// What to call a trace in such a sentence: "GPU" (backend cuda), "CPU"
// (backend cpu), else `fallback`.
std::string backend_label(const Trace& t, const std::string& fallback);

// Compares steps (op, line, mask, args, every lane's flags/src/in/out/addr/bytes)
// and outputs. Returns the first differences; empty when equal. `total` (if given)
// receives the count of all differences found.
// With paths_in_any_order, `interleavings` (if given) receives the regions
// whose paths ran in another order.
std::vector<TraceDifference> diff_traces(const Trace& a, const Trace& b,
                                         const TraceDiffOptions& options = {},
                                         size_t* total = nullptr,
                                         std::vector<PathInterleaving>* interleavings = nullptr);

}  // namespace warpviz
