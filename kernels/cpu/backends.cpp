#include "warpviz/backends.h"

#include "cpu_scenarios.h"

namespace warpviz {

namespace {

const RunnerTable& cpu_runners() {
  static const RunnerTable table = [] {
    RunnerTable t;
    register_warp_shuffle_scenarios(t);
    register_warp_reduce_int_scenarios(t);
    register_shfl_playground_scenarios(t);
    register_warp_vote_scenarios(t);
    register_match_redux_scenarios(t);
    register_cooperative_groups_scenarios(t);
    register_bits_scenarios(t);
    return t;
  }();
  return table;
}

}  // namespace

std::optional<BackendChoice> parse_backend(std::string_view name) {
  if (name == "auto") return BackendChoice::Auto;
  if (name == "cpu") return BackendChoice::Cpu;
  if (name == "cuda") return BackendChoice::Cuda;
  return std::nullopt;
}

bool cuda_backend_available(std::string* why) {
  // The GPU recorder lands with the "Record on a real GPU" work; until then no
  // build of warpviz can record on a GPU.
  if (why) *why = "this build of warpviz has no CUDA backend (GPU recording is not built in)";
  return false;
}

Trace run_scenario_cpu(const ResolvedScenario& scenario, const emu::RecordFilter& filter,
                       emu::LaunchStats* stats) {
  const auto it = cpu_runners().find(scenario.spec->name);
  if (it == cpu_runners().end())
    throw ScenarioError("internal: scenario '" + scenario.spec->name + "' has no CPU runner");
  Trace trace;
  fill_trace_meta(scenario, trace);
  trace.meta.backend = "cpu";
  trace.meta.device = "CPU emulator (sm_90 rules)";
  trace.meta.compute_capability = "9.0";
  Session session(scenario, filter, trace);
  it->second(session);
  if (stats) *stats = session.stats();
  return trace;
}

Trace run_scenario(const ResolvedScenario& scenario, const RunOptions& options, emu::LaunchStats* stats) {
  std::string why;
  switch (options.backend) {
    case BackendChoice::Cuda:
      if (!cuda_backend_available(&why)) throw BackendUnavailable("--backend cuda: " + why);
      [[fallthrough]];
    case BackendChoice::Auto:
    case BackendChoice::Cpu: break;
  }
  return run_scenario_cpu(scenario, options.filter, stats);
}

}  // namespace warpviz
