// kernels/shfl_playground.cu compiled by nvcc for the GPU backend, recording through
// record_device.cuh. The namespace keeps each kernel file's helpers apart.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include "cuda_scenarios.h"

namespace warpviz_cuda_shfl_playground {
#include "../shfl_playground.cu"
}  // namespace warpviz_cuda_shfl_playground

void warpviz::register_shfl_playground_scenarios_cuda(RunnerTable& runners) {
  warpviz_cuda_shfl_playground::register_scenarios(runners);
}
