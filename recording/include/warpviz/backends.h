// Running a resolved scenario on a backend: the CPU emulator (always built) or
// a CUDA GPU (when this build has CUDA and a device is present).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "warpviz/scenario.h"
#include "warpviz/trace.h"
#include "warpviz/warp_scheduler.h"

namespace warpviz {

enum class BackendChoice { Auto, Cpu, Cuda };
std::optional<BackendChoice> parse_backend(std::string_view name);

// A backend that cannot run here (no CUDA in this build, no GPU present).
class BackendUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunOptions {
  BackendChoice backend = BackendChoice::Auto;
  emu::RecordFilter filter;
};

// Whether the CUDA backend can run; `why` says why not.
bool cuda_backend_available(std::string* why);

Trace run_scenario(const ResolvedScenario& scenario, const RunOptions& options,
                   emu::LaunchStats* stats = nullptr);

// The CPU emulator's part of run_scenario.
Trace run_scenario_cpu(const ResolvedScenario& scenario, const emu::RecordFilter& filter,
                       emu::LaunchStats* stats = nullptr);

}  // namespace warpviz
