// kernels/shfl_playground.cu compiled by the host compiler for the CPU emulator. The
// namespace keeps each kernel file's helpers apart from the other files'.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include "cpu_scenarios.h"

namespace warpviz_cpu_shfl_playground {
#include "../shfl_playground.cu"
}  // namespace warpviz_cpu_shfl_playground

void warpviz::register_shfl_playground_scenarios(RunnerTable& runners) {
  warpviz_cpu_shfl_playground::register_scenarios(runners);
}
