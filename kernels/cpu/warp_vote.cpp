// kernels/warp_vote.cu compiled by the host compiler for the CPU emulator. The
// namespace keeps each kernel file's helpers apart from the other files'.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include "cpu_scenarios.h"

namespace warpviz_cpu_warp_vote {
#include "../warp_vote.cu"
}  // namespace warpviz_cpu_warp_vote

void warpviz::register_warp_vote_scenarios(RunnerTable& runners) {
  warpviz_cpu_warp_vote::register_scenarios(runners);
}
