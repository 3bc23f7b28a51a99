// kernels/bits.cu compiled by nvcc for the GPU backend, recording through
// record_device.cuh. The namespace keeps each kernel file's helpers apart.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include "cuda_scenarios.h"

namespace warpviz_cuda_bits {
#include "../bits.cu"
}  // namespace warpviz_cuda_bits

void warpviz::register_bits_scenarios_cuda(RunnerTable& runners) {
  warpviz_cuda_bits::register_scenarios(runners);
}
