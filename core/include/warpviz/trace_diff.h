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
  size_t max_differences = 20;
};

// Compares steps (op, line, mask, args, every lane's flags/src/in/out/addr/bytes)
// and outputs. Returns the first differences; empty when equal. `total` (if given)
// receives the count of all differences found.
std::vector<TraceDifference> diff_traces(const Trace& a, const Trace& b,
                                         const TraceDiffOptions& options = {},
                                         size_t* total = nullptr);

}  // namespace warpviz
