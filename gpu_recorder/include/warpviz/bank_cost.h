// What one warp's shared-memory access costs on the GPU, measured two ways:
// the latency of the access repeated by one warp (clock64), and the
// throughput with every SM full of warps repeating it (CUDA events). Plain
// C++; built by nvcc only when this build has CUDA (see WARPVIZ_HAVE_CUDA).
#pragma once

#include <cstdint>

#include "warpviz/bank_model.h"

namespace warpviz {

struct BankCostOptions {
  // Latency: accesses in the timed chain of one warp (rounded up to a multiple of 32).
  uint32_t latency_accesses = 4096;
  // Throughput: each timed launch should run at least this long (its per-warp
  // access count starts at 2048 and grows by the power of two the last launch's
  // time asks for, up to 2^16 loop trips), and the figure is the median of this
  // many launches after warm-up launches.
  double min_launch_ms = 2.0;
  int runs = 7;
};

struct BankCost {
  // --- latency: one warp alone on the GPU ---------------------------------
  // clock64 cycles per access. Loads form a dependency chain (each lane's next
  // address is its previous one plus the value loaded, which is 0), so this is
  // the load-to-use latency plus one integer add. Stores have no result to
  // wait for: this is the time per store of a run of back-to-back stores, i.e.
  // one warp's store issue rate through the shared pipe.
  double latency_cycles = 0;
  uint64_t latency_accesses = 0;

  // --- throughput: every SM full of warps ---------------------------------
  // SM cycles per warp-access = elapsed_s * sm_clock_hz * sms / warp_accesses.
  // sm_clock is cudaDevAttrClockRate, the *maximum* SM clock: at a lower clock
  // this overstates the cycles in proportion.
  double throughput_cycles = 0;
  // Elapsed nanoseconds per warp-access on one SM = elapsed_ns * sms /
  // warp_accesses, so throughput_cycles = throughput_ns_per_access * sm_clock_ghz.
  double throughput_ns_per_access = 0;
  // The same figure from clock64 read inside the kernel (per SM: last block's
  // end minus first block's start), independent of the clock assumption.
  double throughput_clock64_cycles = 0;
  double elapsed_ms = 0;               // median timed launch
  double sm_clock_mhz = 0;             // cudaDevAttrClockRate / 1000
  int sms = 0;
  int blocks = 0;                      // per launch: sms * blocks_per_sm
  int blocks_per_sm = 0;               // from the occupancy calculator
  int threads_per_block = 0;
  int warps_per_sm = 0;
  uint64_t accesses_per_warp = 0;      // per timed launch
  uint64_t warp_accesses = 0;          // per timed launch, every warp
  int runs = 0;
  uint32_t shared_bytes = 0;           // dynamic shared memory per block
};

// Measures `access` on device 0. Throws std::invalid_argument when the access
// cannot run (no active lane, a width other than 1/2/4/8/16, an address not
// aligned to its width, more shared memory than a block can have), CudaError
// (a std::runtime_error) when a CUDA call fails.
BankCost measure_bank_cost(const SharedAccess& access, const BankCostOptions& options = {});

}  // namespace warpviz
