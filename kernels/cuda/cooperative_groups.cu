// kernels/cooperative_groups.cu compiled by nvcc for the GPU backend, recording through
// record_device.cuh. The namespace keeps each kernel file's helpers apart.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include "cuda_scenarios.h"

namespace warpviz_cuda_cooperative_groups {
#include "../cooperative_groups.cu"
}  // namespace warpviz_cuda_cooperative_groups

void warpviz::register_cooperative_groups_scenarios_cuda(RunnerTable& runners) {
  warpviz_cuda_cooperative_groups::register_scenarios(runners);
}
