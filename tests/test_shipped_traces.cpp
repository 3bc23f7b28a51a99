// The traces shipped in assets/traces/ (one per scenario, recorded on an H200
// with the GPU backend) against the CPU emulator: the request each trace
// records (scenario, parameters, input) is run again on the emulator, and the
// two traces must be identical, undefined lanes' values excepted.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "trace_compare.h"
#include "warpviz/backends.h"
#include "warpviz/scenario.h"
#include "warpviz/trace_io.h"

using namespace warpviz;

namespace {

std::string shipped_path(const std::string& scenario) {
  return std::string(WARPVIZ_SOURCE_DIR) + "/assets/traces/" + scenario + ".wvt";
}

// The emulator's run of the request a shipped trace records.
Trace rerun_on_cpu(const Trace& shipped) {
  ScenarioRequest request;
  request.scenario = shipped.meta.scenario;
  for (const auto& [name, value] : shipped.meta.params) request.sets.emplace_back(name, value);
  request.input = shipped.meta.input_spec;
  return run_scenario_cpu(resolve_scenario(request), emu::RecordFilter{});
}

void check_shipped_trace(const ScenarioSpec& spec) {
  // Prepare: the file must exist and load.
  const std::string path = shipped_path(spec.name);
  INFO("shipped trace " << path);
  if (!std::filesystem::exists(path)) {
    FAIL_CHECK("missing shipped trace assets/traces/" << spec.name << ".wvt: record it on an H200 with "
               "`warpviz-cli run " << spec.name << " --backend cuda -o assets/traces/" << spec.name << ".wvt`");
    return;
  }
  Trace shipped;
  try {
    shipped = load_trace(path);
  } catch (const TraceFileError& e) {
    FAIL_CHECK("cannot load it: " << e.what());
    return;
  }
  // It says it came from the GPU backend on an H200, for this scenario.
  CHECK(shipped.meta.backend == "cuda");
  CHECK(!shipped.meta.device.empty());
  CHECK(shipped.meta.device.find("H200") != std::string::npos);
  CHECK(shipped.meta.compute_capability == "9.0");
  CHECK(shipped.meta.scenario == spec.name);
  CHECK_FALSE(shipped.overflow);  // a prefix of the steps would not show the whole run
  if (shipped.meta.scenario != spec.name) return;

  // Run: the same request on the emulator.
  Trace cpu;
  try {
    cpu = rerun_on_cpu(shipped);
  } catch (const std::exception& e) {
    FAIL_CHECK("the emulator cannot rerun its request (input '" << shipped.meta.input_spec << "'): " << e.what());
    return;
  }

  // Verify: metadata, steps, lane flags and values, outputs.
  const test::TraceComparison cmp = test::compare_traces(shipped, cpu);
  INFO("input " << shipped.meta.input_spec << "; steps: shipped " << shipped.steps.size() << ", cpu "
                << cpu.steps.size() << "\n" << cmp.describe("shipped", "cpu"));
  CHECK(cmp.equal());
}

}  // namespace

TEST_CASE("every scenario ships an H200 trace that matches the CPU emulator", "[traces]") {
  for (const ScenarioSpec& spec : scenario_specs()) {
    INFO("scenario " << spec.name);
    check_shipped_trace(spec);
  }
}
