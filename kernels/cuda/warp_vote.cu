// kernels/warp_vote.cu compiled by nvcc for the GPU backend, recording through
// record_device.cuh. The namespace keeps each kernel file's helpers apart.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include "cuda_scenarios.h"

namespace warpviz_cuda_warp_vote {
#include "../warp_vote.cu"
}  // namespace warpviz_cuda_warp_vote

void warpviz::register_warp_vote_scenarios_cuda(RunnerTable& runners) {
  warpviz_cuda_warp_vote::register_scenarios(runners);
}
