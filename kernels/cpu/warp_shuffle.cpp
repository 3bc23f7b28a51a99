// kernels/warp_shuffle.cu compiled by the host compiler for the CPU emulator. The
// namespace keeps each kernel file's helpers apart from the other files'.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include "cpu_scenarios.h"

namespace warpviz_cpu_warp_shuffle {
#include "../warp_shuffle.cu"
}  // namespace warpviz_cpu_warp_shuffle

void warpviz::register_warp_shuffle_scenarios(RunnerTable& runners) {
  warpviz_cpu_warp_shuffle::register_scenarios(runners);
}
