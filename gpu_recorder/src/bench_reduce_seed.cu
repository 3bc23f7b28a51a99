// Variant (c) of `warpviz-cli bench reduce`: the seed's reduce_sum compiled as
// warpviz compiles its scenarios, recording layer in place. A file of its own:
// the recording layer defines the warp intrinsics as macros, which the other
// variants and CUB must not see.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

namespace warpviz_bench_reduce_seed {
#include "../../kernels/warp_shuffle.cu"
}  // namespace warpviz_bench_reduce_seed

namespace warpviz {

// No recorder attached: the kernel runs as an unrecorded scenario launch does.
void detach_recorder_for_reduce_benchmark() {
  cuda_check(warpviz_attach_recorder(DeviceRecorder{}), "detach the recorder");
}

template <typename T>
void launch_seed_reduce_sum(int grid, int block, const T* in, T* partials, int n) {
  warpviz_bench_reduce_seed::reduce_sum<T><<<grid, block>>>(in, partials, n);
}

template void launch_seed_reduce_sum<float>(int, int, const float*, float*, int);
template void launch_seed_reduce_sum<int>(int, int, const int*, int*, int);

}  // namespace warpviz
