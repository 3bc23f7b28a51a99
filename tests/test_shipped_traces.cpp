// The traces shipped in assets/traces/ (one per scenario, recorded on an H200
// with the GPU backend) against the CPU emulator: the request each trace
// records (scenario, parameters, input) is run again on the emulator, and the
// two traces must be identical, undefined lanes' values excepted. A trace of
// an older format than the watches is compared without the rerun's watch
// steps (as_shipped_could_hold). The
// shared-memory traces (bank_*.wvt, transpose_*.wvt, recorded with
// `warpviz-cli profile`) also carry ncu's counters and the measured cycles:
// the counters must equal the bank model's totals over the trace's steps.
#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "trace_compare.h"
#include "warpviz/bank_model.h"
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

// The format version a .wvt file was written with (its header's bytes 8-11).
uint32_t binary_version_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char header[12] = {};
  in.read(reinterpret_cast<char*>(header), sizeof header);
  return uint32_t(header[8]) | uint32_t(header[9]) << 8 | uint32_t(header[10]) << 16 | uint32_t(header[11]) << 24;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// For each line of `now` (1-based), the line of `then` it is, as a line diff
// (longest common subsequence) pairs them; 0 for a line `then` does not have.
std::vector<uint32_t> line_map(const std::string& now, const std::string& then) {
  const std::vector<std::string> a = lines_of(now), b = lines_of(then);
  std::vector<std::vector<uint32_t>> common(a.size() + 1, std::vector<uint32_t>(b.size() + 1, 0));
  for (size_t i = a.size(); i-- > 0;)
    for (size_t j = b.size(); j-- > 0;)
      common[i][j] = a[i] == b[j] ? common[i + 1][j + 1] + 1 : std::max(common[i + 1][j], common[i][j + 1]);
  std::vector<uint32_t> map(a.size() + 2, 0);
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] == b[j]) {
      map[i + 1] = uint32_t(j + 1);
      ++i;
      ++j;
    } else if (common[i + 1][j] >= common[i][j + 1]) {
      ++i;
    } else {
      ++j;
    }
  }
  return map;
}

// The CPU rerun as the shipped trace could hold it. A file older than format 3
// has no watch steps (they came with it, and with the WARPVIZ_WATCH lines in
// the kernels), so the rerun's watches are dropped and each warp's seq counted
// again without them; every other step must still match, lane by lane. And
// when the kernel source has changed since the recording (those watch lines
// moved the lines below them), each step's line is mapped onto the shipped
// source by a line diff, so a step must stand on the same source line as then.
Trace as_shipped_could_hold(Trace cpu, const Trace& shipped, uint32_t shipped_version) {
  if (shipped_version < kTraceBinaryWatchVersion) {
    TraceSteps kept;
    uint32_t seq = 0;
    for (size_t i = 0; i < cpu.steps.size(); ++i) {
      TraceStep s = cpu.steps[i];
      if (i == 0 || s.block != cpu.steps.block(i - 1) || s.warp != cpu.steps.warp(i - 1)) seq = 0;
      if (op_is_watch(s.op)) continue;
      s.seq = seq++;
      kept.push_back(s);
    }
    cpu.steps = std::move(kept);
  }
  if (cpu.meta.source_text != shipped.meta.source_text) {
    const std::vector<uint32_t> map = line_map(cpu.meta.source_text, shipped.meta.source_text);
    for (size_t i = 0; i < cpu.steps.size(); ++i)
      cpu.steps.modify(i, [&](TraceStep& s) { s.line = s.line < map.size() ? map[s.line] : 0; });
  }
  return cpu;
}

// Loads and checks one shipped trace; returns it (empty on failure).
Trace check_shipped_file(const std::string& path, const std::string& scenario) {
  INFO("shipped trace " << path);
  Trace shipped;
  try {
    shipped = load_trace(path);
  } catch (const TraceFileError& e) {
    FAIL_CHECK("cannot load it: " << e.what());
    return {};
  }
  // It says it came from the GPU backend on an H200, for this scenario.
  CHECK(shipped.meta.backend == "cuda");
  CHECK(!shipped.meta.device.empty());
  CHECK(shipped.meta.device.find("H200") != std::string::npos);
  CHECK(shipped.meta.compute_capability == "9.0");
  CHECK(shipped.meta.scenario == scenario);
  CHECK_FALSE(shipped.overflow);  // a prefix of the steps would not show the whole run
  if (shipped.meta.scenario != scenario) return {};

  // Run: the same request on the emulator.
  Trace cpu;
  try {
    cpu = rerun_on_cpu(shipped);
  } catch (const std::exception& e) {
    FAIL_CHECK("the emulator cannot rerun its request (input '" << shipped.meta.input_spec << "'): " << e.what());
    return {};
  }

  // Verify: metadata, steps, lane flags and values, outputs.
  const uint32_t version = binary_version_of(path);
  // Today's kernels do watch (warp_sum's val, say): the rerun has watch steps.
  const size_t watches = size_t(std::count_if(cpu.steps.begin(), cpu.steps.end(),
                                              [](const TraceStep& s) { return op_is_watch(s.op); }));
  INFO("format version " << version << "; the rerun's watch steps: " << watches
                         << (version < kTraceBinaryWatchVersion ? ", left out" : ""));
  cpu = as_shipped_could_hold(std::move(cpu), shipped, version);
  const test::TraceComparison cmp = test::compare_traces(shipped, cpu);
  INFO("input " << shipped.meta.input_spec << "; steps: shipped " << shipped.steps.size() << ", cpu "
                << cpu.steps.size() << "\n" << cmp.describe("shipped", "cpu"));
  CHECK(cmp.equal());
  // Equal path by path, the H200's order of divergent paths not the emulator's: said, not failed.
  if (!cmp.interleavings.empty()) WARN(path << ": " << cmp.describe_interleavings("shipped (GPU)", "CPU"));
  return shipped;
}

void check_shipped_trace(const ScenarioSpec& spec) {
  const std::string path = shipped_path(spec.name);
  if (!std::filesystem::exists(path)) {
    FAIL_CHECK("missing shipped trace assets/traces/" << spec.name << ".wvt: record it on an H200 with "
               "`warpviz-cli run " << spec.name << " --backend cuda -o assets/traces/" << spec.name << ".wvt`");
    return;
  }
  check_shipped_file(path, spec.name);
}

// The shipped traces of shared-memory scenarios, by file name.
std::vector<std::pair<std::string, std::string>> shared_memory_traces() {
  std::vector<std::pair<std::string, std::string>> found;  // (path, scenario)
  for (const auto& entry : std::filesystem::directory_iterator(std::string(WARPVIZ_SOURCE_DIR) + "/assets/traces")) {
    const std::string name = entry.path().filename().string();
    for (const char* scenario : {"bank", "transpose"})
      if (name.rfind(std::string(scenario) + "_", 0) == 0 && entry.path().extension() == ".wvt")
        found.emplace_back(entry.path().string(), scenario);
  }
  std::sort(found.begin(), found.end());
  return found;
}

double measured(const Trace& t, const std::string& name) {
  const auto it = t.meta.measurements.find(name);
  return it == t.meta.measurements.end() ? -1.0 : it->second;
}

}  // namespace

TEST_CASE("every scenario ships an H200 trace that matches the CPU emulator", "[traces]") {
  for (const ScenarioSpec& spec : scenario_specs()) {
    INFO("scenario " << spec.name);
    check_shipped_trace(spec);
  }
}

TEST_CASE("shipped shared-memory traces: ncu's counters equal the bank model's", "[traces][bank]") {
  const auto traces = shared_memory_traces();
  REQUIRE(traces.size() >= 4);  // at least bank column 32/33 and transpose 32/33
  for (const auto& [path, scenario] : traces) {
    INFO(path);
    const Trace shipped = check_shipped_file(path, scenario);
    if (shipped.steps.empty()) continue;
    // Every warp was recorded (profile records all), so the model's totals are
    // the kernel's, which is what ncu counted with recording off.
    const SharedTotals model = shared_totals(shipped);
    const std::string ld = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
    const std::string st = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
    const std::string ld_conf = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
    const std::string st_conf = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
    CHECK(measured(shipped, "ncu." + ld) == double(model.load_wavefronts));
    CHECK(measured(shipped, "ncu." + st) == double(model.store_wavefronts));
    CHECK(measured(shipped, "ncu." + ld_conf) == double(model.load_conflicts));
    CHECK(measured(shipped, "ncu." + st_conf) == double(model.store_conflicts));
    if (scenario == "bank") {
      CHECK(measured(shipped, "latency_cycles") > 0);
      CHECK(measured(shipped, "throughput_cycles") > 0);
    }
  }
}

TEST_CASE("shipped H200 figures: the 32-way column read costs at least 25x the padded one", "[traces][bank]") {
  const std::string dir = std::string(WARPVIZ_SOURCE_DIR) + "/assets/traces/";
  const Trace unpadded = load_trace(dir + "bank_column_32.wvt");
  const Trace padded = load_trace(dir + "bank_column_33.wvt");
  const double slow = measured(unpadded, "throughput_cycles"), fast = measured(padded, "throughput_cycles");
  INFO("throughput: tile[32][32] column " << slow << " cycles, tile[32][33] column " << fast << " cycles");
  REQUIRE(fast > 0);
  CHECK(slow / fast >= 25.0);
}
