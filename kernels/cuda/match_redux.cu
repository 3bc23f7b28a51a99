// kernels/match_redux.cu compiled by nvcc for the GPU backend, recording through
// record_device.cuh. The namespace keeps each kernel file's helpers apart.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include "cuda_scenarios.h"

namespace warpviz_cuda_match_redux {
#include "../match_redux.cu"
}  // namespace warpviz_cuda_match_redux

void warpviz::register_match_redux_scenarios_cuda(RunnerTable& runners) {
  warpviz_cuda_match_redux::register_scenarios(runners);
}
