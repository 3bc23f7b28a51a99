// What a whole-array sum costs on a GPU: `warpviz-cli bench reduce`. Built by
// nvcc only when this build has CUDA (WARPVIZ_HAVE_CUDA).
#pragma once

#include <iosfwd>
#include <vector>

#include "warpviz/measurements.h"

namespace warpviz {

// Sums 2^log2_n values (for each size given) as f32 and i32 with every
// variant (bench_reduce.cu), each launch timed alone after an L2 flush,
// variants interleaved; `log` gets the progress. Fills `result` except
// result->on.date and .command. Returns 0 when every sum is right, 1 when one
// is not, 2 without a GPU. A failing CUDA call throws CudaError.
int run_reduce_benchmark(const std::vector<int>& log2_sizes, int repeat, std::ostream& log, ReduceBenchmark* result);

}  // namespace warpviz
