// The GPU backend's entry points, callable from plain C++ (they are built by
// nvcc only when this build has CUDA; see WARPVIZ_HAVE_CUDA).
#pragma once

#include <string>

#include "warpviz/scenario.h"
#include "warpviz/trace.h"
#include "warpviz/warp_scheduler.h"

namespace warpviz {

struct CudaDeviceInfo {
  std::string name;                // "NVIDIA H200"
  std::string compute_capability;  // "9.0"
};

// Whether a CUDA device can run; `why` says why not.
bool cuda_device_present(CudaDeviceInfo* info, std::string* why);

// Runs a scenario on device 0 with a recorder attached (throws CudaError on failure).
Trace run_scenario_cuda(const ResolvedScenario& scenario, const emu::RecordFilter& filter);

}  // namespace warpviz
