// kernels/warp_shuffle.cu compiled by nvcc for the GPU backend, recording through
// record_device.cuh. The namespace keeps each kernel file's helpers apart.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include "cuda_scenarios.h"

namespace warpviz_cuda_warp_shuffle {
#include "../warp_shuffle.cu"
}  // namespace warpviz_cuda_warp_shuffle

void warpviz::register_warp_shuffle_scenarios_cuda(RunnerTable& runners) {
  warpviz_cuda_warp_shuffle::register_scenarios(runners);
}
