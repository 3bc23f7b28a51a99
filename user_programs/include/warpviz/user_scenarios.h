// The host program warpviz writes for a user's .cu file that declares its own
// scenarios (scenario_decl.h, as the built-in kernel files do) and has no
// main(): it lists them, or resolves one with its --set parameters and input
// and runs its host code on this backend's Session, recording one trace.
#pragma once

#include <exception>
#include <string>

#include "warpviz/session.h"
#include "warpviz/user_launch.h"

namespace warpviz::user {

// scenarios.json for the parent: every declared scenario and its parameters.
void write_scenario_list();
// The run's trace, written as the program's one launch.
void save_scenario_trace(Trace trace);

inline int run_declared_scenario(const char* backend, const char* device) {
  const KernelRequest& r = kernel_request();
  if (r.list_scenarios) {
    write_scenario_list();
    return 0;
  }
  ScenarioRequest request;
  request.scenario = r.scenario;
  request.sets = r.sets;
  request.input = r.scenario_input;
  if (request.scenario.empty()) {
    if (scenario_specs().size() != 1)
      request_error("this file declares " + std::to_string(scenario_specs().size()) + " scenarios (" +
                    scenario_names() + "): pick one with --scenario NAME");
    request.scenario = scenario_specs().front().name;
  }
  ResolvedScenario resolved;
  try {
    resolved = resolve_scenario(request);
  } catch (const std::exception& e) {
    request_error(e.what());
  }
  const ScenarioRunner* runner = find_scenario_runner(resolved.spec->name);
  if (!runner) request_error("scenario `" + resolved.spec->name + "` declares no host code (.run(...))");
  Trace trace;
  fill_trace_meta(resolved, trace);
  trace.meta.backend = backend;
  trace.meta.device = device;
#if defined(__CUDACC__)
  describe_device(trace);  // user_prelude_cuda.cuh: the GPU's name and compute capability
#endif
  set_running_kernel(resolved.spec->kernel.c_str());
  try {
    Session session(resolved, launch_filter(0), trace);
    (*runner)(session);
  } catch (const std::exception& e) {
    fail("kernel-error", "scenario `" + resolved.spec->name + "`: " + e.what(), 3);
  }
  set_running_kernel(nullptr);
  save_scenario_trace(std::move(trace));
  return 0;
}

}  // namespace warpviz::user
