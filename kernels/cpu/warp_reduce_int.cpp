// kernels/warp_reduce_int.cu compiled by the host compiler for the CPU emulator. The
// namespace keeps each kernel file's helpers apart from the other files'.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include "cpu_scenarios.h"

namespace warpviz_cpu_warp_reduce_int {
#include "../warp_reduce_int.cu"
}  // namespace warpviz_cpu_warp_reduce_int

void warpviz::register_warp_reduce_int_scenarios(RunnerTable& runners) {
  warpviz_cpu_warp_reduce_int::register_scenarios(runners);
}
