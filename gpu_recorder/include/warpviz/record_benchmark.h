// What recording costs on a GPU: `warpviz-cli bench record`. Plain C++; built by
// nvcc only when this build has CUDA (see WARPVIZ_HAVE_CUDA).
#pragma once

#include <iosfwd>

namespace warpviz {

// Times reduce_sum<float> (block 256) over 2^log2_n random floats unrecorded,
// with one warp in 64 recorded and with every warp recorded; checks that the
// partial sums are right and that recording leaves them bit for bit the same;
// prints the figures and the two goals to `out`. Returns the exit code: 0 when
// the results are right (a missed goal is reported, not an error), 1 when they
// are not, 2 without a usable GPU or memory for the buffers. A failing CUDA call
// throws CudaError (a std::runtime_error).
int run_record_benchmark(int log2_n, int repeat, std::ostream& out);

}  // namespace warpviz
