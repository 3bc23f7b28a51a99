// kernels/match_redux.cu compiled by the host compiler for the CPU emulator. The
// namespace keeps each kernel file's helpers apart from the other files'.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include "cpu_scenarios.h"

namespace warpviz_cpu_match_redux {
#include "../match_redux.cu"
}  // namespace warpviz_cpu_match_redux

void warpviz::register_match_redux_scenarios(RunnerTable& runners) {
  warpviz_cpu_match_redux::register_scenarios(runners);
}
