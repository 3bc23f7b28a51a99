// What one warp op costs on a GPU: `warpviz-cli bench latency`. Built by nvcc
// only when this build has CUDA (WARPVIZ_HAVE_CUDA).
#pragma once

#include <iosfwd>

#include "warpviz/measurements.h"

namespace warpviz {

// Times chains of dependent ops in one warp with clock64, and independent ops
// with every SM full (bench_latency.cu). Fills `result` except
// result->on.date and .command. Returns 0, or 2 without a GPU. Throws
// CudaError when a CUDA call fails.
int run_latency_benchmark(std::ostream& log, LatencyBenchmark* result);

}  // namespace warpviz
