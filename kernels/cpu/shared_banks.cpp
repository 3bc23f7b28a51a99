// kernels/shared_banks.cu compiled by the host compiler for the CPU emulator. The
// namespace keeps each kernel file's helpers apart from the other files'.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include "cpu_scenarios.h"

namespace warpviz_cpu_shared_banks {
#include "../shared_banks.cu"
}  // namespace warpviz_cpu_shared_banks

void warpviz::register_shared_banks_scenarios(RunnerTable& runners) {
  warpviz_cpu_shared_banks::register_scenarios(runners);
}
