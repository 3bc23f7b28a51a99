// kernels/warp_reduce_int.cu compiled by nvcc for the GPU backend, recording through
// record_device.cuh. The namespace keeps each kernel file's helpers apart.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include "cuda_scenarios.h"

namespace warpviz_cuda_warp_reduce_int {
#include "../warp_reduce_int.cu"
}  // namespace warpviz_cuda_warp_reduce_int

void warpviz::register_warp_reduce_int_scenarios_cuda(RunnerTable& runners) {
  warpviz_cuda_warp_reduce_int::register_scenarios(runners);
}
