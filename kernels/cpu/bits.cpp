// kernels/bits.cu compiled by the host compiler for the CPU emulator. The
// namespace keeps each kernel file's helpers apart from the other files'.
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include "cpu_scenarios.h"

namespace warpviz_cpu_bits {
#include "../bits.cu"
}  // namespace warpviz_cpu_bits

void warpviz::register_bits_scenarios(RunnerTable& runners) {
  warpviz_cpu_bits::register_scenarios(runners);
}
