// kernels/cooperative_groups.cu compiled by the host compiler for the CPU emulator. The
// namespace keeps each kernel file's helpers apart from the other files'.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include "cpu_scenarios.h"

namespace warpviz_cpu_cooperative_groups {
#include "../cooperative_groups.cu"
}  // namespace warpviz_cpu_cooperative_groups

void warpviz::register_cooperative_groups_scenarios(RunnerTable& runners) {
  warpviz_cpu_cooperative_groups::register_scenarios(runners);
}
