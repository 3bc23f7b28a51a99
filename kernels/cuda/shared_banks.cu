// kernels/shared_banks.cu compiled by nvcc for the GPU backend, recording through
// record_device.cuh. The namespace keeps each kernel file's helpers apart.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include "cuda_scenarios.h"

namespace warpviz_cuda_shared_banks {
#include "../shared_banks.cu"
}  // namespace warpviz_cuda_shared_banks

void warpviz::register_shared_banks_scenarios_cuda(RunnerTable& runners) {
  warpviz_cuda_shared_banks::register_scenarios(runners);
}
