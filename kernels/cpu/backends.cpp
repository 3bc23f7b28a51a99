#include "warpviz/backends.h"

#include "warpviz/scenario_decl.h"

#if defined(WARPVIZ_HAVE_CUDA)
#include "warpviz/cuda_backend.h"
#endif

namespace warpviz {

std::optional<BackendChoice> parse_backend(std::string_view name) {
  if (name == "auto") return BackendChoice::Auto;
  if (name == "cpu") return BackendChoice::Cpu;
  if (name == "cuda") return BackendChoice::Cuda;
  return std::nullopt;
}

bool cuda_backend_available(std::string* why) {
#if defined(WARPVIZ_HAVE_CUDA)
  return cuda_device_present(nullptr, why);
#else
  if (why) *why = "this build of warpviz has no CUDA backend (nvcc was not found when it was configured)";
  return false;
#endif
}

Trace run_scenario_cpu(const ResolvedScenario& scenario, const emu::RecordFilter& filter,
                       emu::LaunchStats* stats) {
  const ScenarioRunner* runner = find_scenario_runner(scenario.spec->name);
  if (!runner) throw ScenarioError("internal: scenario '" + scenario.spec->name + "' has no CPU runner");
  Trace trace;
  fill_trace_meta(scenario, trace);
  trace.meta.backend = "cpu";
  trace.meta.device = "CPU emulator (sm_90 rules)";
  trace.meta.compute_capability = "9.0";
  Session session(scenario, filter, trace);
  (*runner)(session);
  if (stats) *stats = session.stats();
  return trace;
}

Trace run_scenario(const ResolvedScenario& scenario, const RunOptions& options, emu::LaunchStats* stats) {
  std::string why;
  bool use_cuda = false;
  switch (options.backend) {
    case BackendChoice::Cuda:
      if (!cuda_backend_available(&why)) throw BackendUnavailable("--backend cuda: " + why);
      use_cuda = true;
      break;
    case BackendChoice::Auto: use_cuda = cuda_backend_available(nullptr); break;
    case BackendChoice::Cpu: break;
  }
#if defined(WARPVIZ_HAVE_CUDA)
  if (use_cuda) {
    if (stats) *stats = emu::LaunchStats{};
    return run_scenario_cuda(scenario, options.filter);
  }
#endif
  (void)use_cuda;
  return run_scenario_cpu(scenario, options.filter, stats);
}

}  // namespace warpviz
