// The GPU backend against the CPU emulator: every built-in scenario, every
// choice of its parameters and many seeded inputs (NaN payloads, signed zeros,
// infinities, subnormals, INT_MIN/INT_MAX, ...) run on both backends, whose
// traces must be identical: metadata, steps, every lane's flags and values
// (undefined lanes' values excepted) and outputs.
//
// Without a CUDA device this executable prints one "SKIPPED: ..." line and
// exits 77, which CTest reports as Skipped. Listing tests and --help work
// anywhere (catch_discover_tests lists them at build time).
//
// On a mismatch a message names the request (scenario, --set pairs, input),
// the first differences and a warpviz-cli command that reproduces it. With
// WARPVIZ_GPU_TEST_DUMP=DIR both traces of a mismatching run are saved there.
// The run ends with a summary table of what was compared.
//
// The paths of a divergent region are compared path by path (trace_compare.h):
// Volta and later GPUs schedule a warp's threads independently and leave the
// order of the paths open, so a GPU that ran them in another order than the
// emulator, with the same results path by path, passes; each such run is
// said in a warning and counted in the summary.
#define CATCH_CONFIG_RUNNER
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "trace_compare.h"
#include "warpviz/backends.h"
#include "warpviz/scenario.h"
#include "warpviz/trace_io.h"

#if defined(WARPVIZ_HAVE_CUDA)
#include <cuda_runtime.h>

#include "warpviz/cuda_recording.h"
#include "warpviz/trace_buffer_policy.h"
#endif

using namespace warpviz;

namespace {

using Sets = std::vector<std::pair<std::string, std::string>>;

// ---------------------------------------------------------------------------
// Summary of everything compared in this process, printed after the session
// ---------------------------------------------------------------------------

struct Tally {
  size_t runs = 0, steps = 0, lane_records = 0, active_lanes = 0, undefined_lanes = 0, output_values = 0;
  size_t mismatched_runs = 0, differences = 0, errors = 0;
  size_t interleaved_runs = 0;  // equal path by path, the paths in another order
};

struct Summary {
  std::map<std::string, Tally> by_scenario;
  std::string device;  // from the first GPU trace
  std::vector<std::string> interleavings;  // the first few, in words
};

Summary& summary() {
  static Summary s;
  return s;
}

std::string thousands(size_t n) {
  std::string digits = std::to_string(n), s;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

void print_summary(std::ostream& out) {
  const Summary& s = summary();
  char line[256];
  out << "\n========================= warpviz GPU vs CPU emulator =========================\n";
  out << "GPU: " << (s.device.empty() ? "(no GPU trace recorded)" : s.device) << "\n";
  std::snprintf(line, sizeof line, "%-13s %7s %9s %12s %11s %10s %9s %9s\n", "scenario", "runs", "steps",
                "lane records", "active", "undefined", "outputs", "mismatch");
  out << line;
  Tally total;
  size_t covered = 0;
  std::string missing;
  for (const ScenarioSpec& spec : scenario_specs()) {
    const auto it = s.by_scenario.find(spec.name);
    if (it == s.by_scenario.end() || it->second.runs + it->second.errors == 0) {
      missing += (missing.empty() ? "" : ", ") + spec.name;
      continue;
    }
    const Tally& t = it->second;
    ++covered;
    std::snprintf(line, sizeof line, "%-13s %7s %9s %12s %11s %10s %9s %9s\n", spec.name.c_str(),
                  thousands(t.runs).c_str(), thousands(t.steps).c_str(), thousands(t.lane_records).c_str(),
                  thousands(t.active_lanes).c_str(), thousands(t.undefined_lanes).c_str(),
                  thousands(t.output_values).c_str(), thousands(t.mismatched_runs + t.errors).c_str());
    out << line;
    total.runs += t.runs;
    total.steps += t.steps;
    total.lane_records += t.lane_records;
    total.active_lanes += t.active_lanes;
    total.undefined_lanes += t.undefined_lanes;
    total.output_values += t.output_values;
    total.mismatched_runs += t.mismatched_runs;
    total.differences += t.differences;
    total.errors += t.errors;
    total.interleaved_runs += t.interleaved_runs;
  }
  std::snprintf(line, sizeof line, "%-13s %7s %9s %12s %11s %10s %9s %9s\n", "total", thousands(total.runs).c_str(),
                thousands(total.steps).c_str(), thousands(total.lane_records).c_str(),
                thousands(total.active_lanes).c_str(), thousands(total.undefined_lanes).c_str(),
                thousands(total.output_values).c_str(), thousands(total.mismatched_runs + total.errors).c_str());
  out << line;
  out << "scenarios covered: " << covered << " of " << scenario_specs().size();
  if (!missing.empty()) out << " (not run here: " << missing << ")";
  out << "\nruns: one request on both backends. lane records: steps x 32. active: lanes that ran\n"
         "the op. undefined: lanes either backend marked undefined (values not compared; flags are).\n";
  out << "mismatching runs: " << total.mismatched_runs << " (" << total.differences
      << " differences), runs that threw: " << total.errors << "\n";
  // Not a mismatch, but not "identical" either: say what differed.
  out << "divergent paths in another order than the emulator's: " << total.interleaved_runs
      << " run(s), same per-path results (the hardware leaves the order open)\n";
  for (const std::string& example : s.interleavings) out << "  e.g. " << example << "\n";
  const bool passed = total.mismatched_runs + total.errors == 0 && total.runs > 0;
  if (total.runs + total.errors == 0) {
    // A filtered run ("[overflow]") compares no scenario: Catch's result says whether it passed.
    out << "RESULT: no scenario was compared on both backends in this run (Catch's own result is above)\n";
  } else {
    out << (!passed ? "RESULT: see the failures above\n"
            : total.interleaved_runs == 0
                ? "RESULT: every GPU trace is identical to the CPU emulator's\n"
                : "RESULT: every GPU trace equals the CPU emulator's; " + std::to_string(total.interleaved_runs) +
                      " ran divergent paths in another order (equal path by path)\n");
  }
  out << "================================================================================\n";
  out.flush();
}

// ---------------------------------------------------------------------------
// A watchdog: a kernel that hangs (a shuffle waiting for lanes that never come)
// would otherwise sit until CTest's timeout; this names the run and exits.
// ---------------------------------------------------------------------------

class RunWatchdog {
 public:
  explicit RunWatchdog(std::chrono::seconds limit) : limit_(limit), thread_([this] { watch(); }) {}
  ~RunWatchdog() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  void begin(const std::string& what) {
    std::lock_guard lock(mutex_);
    current_ = what;
    started_ = std::chrono::steady_clock::now();
    busy_ = true;
  }
  void end() {
    std::lock_guard lock(mutex_);
    busy_ = false;
  }

 private:
  void watch() {
    std::unique_lock lock(mutex_);
    while (!stop_) {
      wake_.wait_for(lock, std::chrono::seconds(1));
      if (busy_ && std::chrono::steady_clock::now() - started_ > limit_) {
        std::cout << "\nTIMEOUT: one run took more than " << limit_.count()
                  << " s (the kernel probably hangs; WARPVIZ_GPU_RUN_TIMEOUT_S changes the limit):\n  "
                  << current_ << std::endl;
        print_summary(std::cout);
        std::_Exit(3);
      }
    }
  }

  std::chrono::seconds limit_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string current_;
  std::chrono::steady_clock::time_point started_;
  bool busy_ = false, stop_ = false;
  std::thread thread_;
};

RunWatchdog* g_watchdog = nullptr;

// ---------------------------------------------------------------------------
// Seeded inputs, as exact bit patterns
// ---------------------------------------------------------------------------

// Stable across platforms (std::hash is not): input seeds come from request text.
uint64_t fnv1a(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : text) h = (h ^ ch) * 0x100000001b3ull;
  return h;
}

enum class Flavour { Wide, Narrow, FewDistinct, SpecialHeavy };

const char* flavour_name(Flavour f) {
  switch (f) {
    case Flavour::Wide: return "wide: any sign and exponent, 1 in 8 special";
    case Flavour::Narrow: return "narrow: |x| in [2^-6, 2^7) or ints in [-40, 40]";
    case Flavour::FewDistinct: return "few distinct: 4 values repeated";
    case Flavour::SpecialHeavy: return "special-heavy: 1 in 2 special";
  }
  return "?";
}

// The values rounding, comparisons and bitwise ops get wrong first.
const std::vector<uint64_t>& special_values(DType t) {
  static const std::vector<uint64_t> f32 = {
      0x7fc00000, 0x7fffffff, 0xffc00001, 0x7f800001,  // quiet NaNs (three payloads) and a signalling NaN
      0x00000000, 0x80000000, 0x7f800000, 0xff800000,  // +0, -0, +inf, -inf
      0x00000001, 0x807fffff, 0x7f7fffff, 0x3f800000,  // subnormals, FLT_MAX, 1.0
  };
  static const std::vector<uint64_t> f64 = {
      0x7ff8000000000000, 0x7fffffffffffffff, 0xfff8000000000001, 0x7ff0000000000001,
      0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000,
      0x0000000000000001, 0x800fffffffffffff, 0x7fefffffffffffff, 0x3ff0000000000000,
  };
  static const std::vector<uint64_t> i32 = {0x80000000, 0x7fffffff, 0x00000000, 0xffffffff, 0x00000001};
  return t == DType::F32 ? f32 : t == DType::F64 ? f64 : i32;
}

// Raw bits only (no distributions): the same values on every standard library.
uint64_t wide_value(DType t, std::mt19937_64& rng) {
  const uint64_t r = rng(), sign = r & 1;
  switch (t) {
    case DType::F32:  // biased exponent 0..254: zero/subnormals up to FLT_MAX
      return sign << 31 | ((r >> 1) % 255) << 23 | (rng() & 0x7fffff);
    case DType::F64: return sign << 63 | ((r >> 1) % 2047) << 52 | (rng() & 0xfffffffffffffull);
    default: return r & 0xffffffffu;
  }
}

uint64_t narrow_value(DType t, std::mt19937_64& rng) {
  const uint64_t r = rng(), sign = r & 1;
  switch (t) {
    case DType::F32: return sign << 31 | (121 + (r >> 1) % 13) << 23 | (rng() & 0x7fffff);
    case DType::F64: return sign << 63 | (1017 + (r >> 1) % 13) << 52 | (rng() & 0xfffffffffffffull);
    default: return uint32_t(int32_t((r >> 1) % 81) - 40);
  }
}

std::vector<uint64_t> seeded_values(DType t, size_t count, Flavour flavour, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto& specials = special_values(t);
  const auto special = [&] { return specials[rng() % specials.size()]; };
  std::vector<uint64_t> pool;
  for (int i = 0; i < 4; ++i) pool.push_back(rng() % 2 ? special() : wide_value(t, rng));
  std::vector<uint64_t> v(count);
  for (auto& x : v) {
    switch (flavour) {
      case Flavour::Wide: x = rng() % 8 == 0 ? special() : wide_value(t, rng); break;
      case Flavour::Narrow: x = narrow_value(t, rng); break;
      case Flavour::FewDistinct: x = pool[rng() % pool.size()]; break;
      case Flavour::SpecialHeavy: x = rng() % 2 ? special() : wide_value(t, rng); break;
    }
  }
  return v;
}

std::string bits_spec(DType t, const std::vector<uint64_t>& values) {
  std::string s = "bits:";
  s.reserve(5 + values.size() * 19);
  for (size_t i = 0; i < values.size(); ++i) s += (i ? "," : "") + format_hex(t, values[i]);
  return s;
}

struct Input {
  std::string spec;   // empty: the scenario's default input
  std::string about;  // how it was made, for messages
};

std::string join_sets(const Sets& sets) {
  std::string s;
  for (const auto& [name, value] : sets) s += (s.empty() ? "" : " ") + name + "=" + value;
  return s;
}

// Input `index` of a request: 0 is the scenario's default, the others seeded bits.
Input seeded_input(const std::string& scenario, const Sets& sets, int index, Flavour flavour) {
  // The dtype and element count come from the registry, as the backends see them.
  const ResolvedScenario r = resolve_scenario({scenario, sets, ""});
  const uint64_t seed = fnv1a(scenario + "|" + join_sets(sets) + "|#" + std::to_string(index));
  char about[160];
  std::snprintf(about, sizeof about, "seeded input #%d, %zu %s values (%s; seed 0x%016llx)", index,
                r.input_bits.size(), dtype_name(r.dtype), flavour_name(flavour), (unsigned long long)seed);
  return {bits_spec(r.dtype, seeded_values(r.dtype, r.input_bits.size(), flavour, seed)), about};
}

std::vector<Input> inputs_for(const std::string& scenario, const Sets& sets, int seeded) {
  static const Flavour cycle[] = {Flavour::Wide, Flavour::Narrow, Flavour::FewDistinct, Flavour::SpecialHeavy};
  std::vector<Input> inputs{{"", "input #0: the scenario's default"}};
  for (int k = 1; k <= seeded; ++k) inputs.push_back(seeded_input(scenario, sets, k, cycle[(k - 1) % 4]));
  return inputs;
}

// ---------------------------------------------------------------------------
// Running one request on both backends
// ---------------------------------------------------------------------------

// An input spec short enough to read; the whole one travels in saved traces.
bool long_input(const std::string& spec) { return std::count(spec.begin(), spec.end(), ',') >= 64; }

std::string shown_input(const std::string& spec) {
  if (!long_input(spec)) return spec;
  size_t cut = 0;
  for (int i = 0; i < 8; ++i) cut = spec.find(',', cut) + 1;
  return spec.substr(0, cut) + "... (" + std::to_string(std::count(spec.begin(), spec.end(), ',') + 1) +
         " values; WARPVIZ_GPU_TEST_DUMP=DIR saves both traces, which hold the whole input)";
}

std::string cli_request(const std::string& scenario, const Sets& sets, const std::string& input) {
  std::string s = "warpviz-cli run " + scenario;
  for (const auto& [name, value] : sets) s += " --set " + name + "=" + value;
  return s + " --input " + input;
}

// Every request of one test case. A failing run prints its full report to
// stdout (unwrapped, so inputs and commands can be copied) and a one-line
// failure to Catch; finish() fails the case once more with the list of runs.
class Sweep {
 public:
  static constexpr size_t kDetailedFailures = 8;

  explicit Sweep(std::string scenario) : scenario_(std::move(scenario)) {}

  void run_inputs(const Sets& sets, int seeded_inputs) {
    for (const Input& in : inputs_for(scenario_, sets, seeded_inputs)) run(sets, in);
  }
  void run_one_seeded(const Sets& sets, Flavour flavour) { run(sets, seeded_input(scenario_, sets, 1, flavour)); }

  void run(const Sets& sets, const Input& input) {
    ++index_;
    Tally& tally = summary().by_scenario[scenario_];
    ResolvedScenario resolved;
    try {
      resolved = resolve_scenario({scenario_, sets, input.spec});
    } catch (const std::exception& e) {
      ++tally.errors;
      fail(sets, input, nullptr, "the test built a request the registry refuses", e.what());
      return;
    }
    const std::string request = cli_request(scenario_, sets, resolved.input_spec);
    if (g_watchdog) g_watchdog->begin(scenario_ + " run " + std::to_string(index_) + ": " + shown_input(request));
    const emu::RecordFilter filter;  // every warp of every block
    Trace cpu, gpu;
    std::string error;
    try {
      cpu = run_scenario_cpu(resolved, filter);
    } catch (const std::exception& e) {
      error = "the CPU emulator threw: " + std::string(e.what());
    }
    if (error.empty()) {
      try {
        gpu = run_scenario(resolved, RunOptions{BackendChoice::Cuda, filter});
      } catch (const std::exception& e) {
        error = "the GPU backend threw: " + std::string(e.what());
      }
    }
    if (g_watchdog) g_watchdog->end();
    if (!error.empty()) {
      ++tally.errors;
      fail(sets, input, &resolved, error, "");
      return;
    }
    if (summary().device.empty())
      summary().device = gpu.meta.device + " (compute capability " + gpu.meta.compute_capability + ")";

    const test::TraceComparison cmp = test::compare_traces(gpu, cpu);
    ++tally.runs;
    tally.steps += cmp.steps;
    tally.lane_records += cmp.lane_records;
    tally.active_lanes += cmp.active_lanes;
    tally.undefined_lanes += cmp.undefined_lanes;
    tally.output_values += cmp.output_values;

    if (!cmp.interleavings.empty()) {
      // Equal path by path; the order is the hardware's to choose. Said, not failed.
      ++tally.interleaved_runs;
      const std::string said = cmp.describe_interleavings("GPU", "CPU");
      if (summary().interleavings.size() < 3) {
        summary().interleavings.push_back(scenario_ + " run " + std::to_string(index_) + ": " + said);
        WARN(scenario_ << " run " << index_ << ": " << said);
      }
    }

    std::string problems;
    // Guard the comparison itself: the GPU really ran, and neither trace is a prefix.
    if (gpu.meta.backend != "cuda") problems += "\n  the GPU trace says backend '" + gpu.meta.backend + "'";
    if (cpu.overflow || gpu.overflow)
      problems += "\n  overflowed (steps are a prefix): gpu " + std::string(gpu.overflow ? "yes" : "no") + ", cpu " +
                  (cpu.overflow ? "yes" : "no");
    if (cmp.equal() && problems.empty()) return;

    ++tally.mismatched_runs;
    tally.differences += cmp.diff_total + cmp.flag_total;
    std::string details = "steps:    gpu " + std::to_string(gpu.steps.size()) + ", cpu " +
                          std::to_string(cpu.steps.size()) + problems + "\n" + cmp.describe("gpu", "cpu");
    details += "\nreproduce: ";
    details += long_input(request)
                   ? "the input is too long to show; rerun with WARPVIZ_GPU_TEST_DUMP=DIR and diff the saved traces"
                   : "R='" + request + "'; $R --backend cuda -o gpu.wvt && $R --backend cpu -o cpu.wvt && "
                         "warpviz-cli diff gpu.wvt cpu.wvt --meta";
    if (const char* dir = std::getenv("WARPVIZ_GPU_TEST_DUMP"); dir && *dir) {
      const std::string base = std::string(dir) + "/" + scenario_ + "-run" + std::to_string(index_);
      try {
        save_trace(gpu, base + "-gpu.wvt");
        save_trace(cpu, base + "-cpu.wvt");
        details += "\nsaved:    " + base + "-gpu.wvt, " + base + "-cpu.wvt";
      } catch (const std::exception& e) {
        details += "\ncould not save the traces: " + std::string(e.what());
      }
    }
    std::string headline = "GPU and CPU traces differ: ";
    if (!cmp.equal()) {
      const TraceDifference& first = cmp.diffs.empty() ? cmp.flags.front() : cmp.diffs.front();
      headline += first.where + ": gpu=" + first.a + " cpu=" + first.b;
    } else {
      headline += problems.substr(3);  // past "\n  "
    }
    fail(sets, input, &resolved, headline, details);
  }

  // The verdict of the whole test case.
  void finish() {
    INFO(scenario_ << ": " << failures_.size() << " of " << index_ << " runs failed"
                   << (failures_.size() > kDetailedFailures
                           ? " (the first " + std::to_string(kDetailedFailures) + " are reported in full above)"
                           : "")
                   << failed_list());
    CHECK(index_ > 0);
    CHECK(failures_.empty());
  }

 private:
  void fail(const Sets& sets, const Input& input, const ResolvedScenario* resolved, const std::string& headline,
            const std::string& details) {
    const std::string id = scenario_ + " run " + std::to_string(index_);
    const std::string params = sets.empty() ? "(defaults)" : join_sets(sets);
    failures_.push_back("run " + std::to_string(index_) + ": " + params + ", " +
                        (input.spec.empty() ? "default input" : input.about.substr(0, input.about.find(','))));
    if (failures_.size() > kDetailedFailures) return;
    std::string m = "\n---- GPU/CPU mismatch: " + id + " ----\n" + headline;
    m += "\nscenario: " + scenario_ + "\nparams:   " + params;
    if (resolved) {
      std::string all;
      for (const auto& [name, value] : resolved->params.values) all += (all.empty() ? "" : " ") + name + "=" + value;
      m += "\nresolved: " + all;
      for (const std::string& note : resolved->notes) m += "\nnote:     " + note;
    }
    m += "\ninput:    " + input.about + "\n          " + shown_input(resolved ? resolved->input_spec : input.spec);
    if (!details.empty()) m += "\n" + details;
    std::cout << m << "\n---- end of " << id << " ----" << std::endl;
    FAIL_CHECK(id << ": " << headline << " (params " << params << "; full report above)");
  }

  std::string failed_list() const {
    std::string s;
    for (size_t i = 0; i < failures_.size() && i < 40; ++i) s += "\n  " + failures_[i];
    if (failures_.size() > 40) s += "\n  ... and " + std::to_string(failures_.size() - 40) + " more";
    return s;
  }

  std::string scenario_;
  size_t index_ = 0;
  std::vector<std::string> failures_;
};

// Every combination of the scenario's Choice parameters (dtype, op, predicate,
// tile, ...; taken from the registry, so new choices are covered) and of the
// extra axes, each with its default input and `seeded` seeded ones.
struct Axis {
  std::string param;
  std::vector<std::string> values;
};

std::vector<Sets> combinations(const std::string& scenario, const std::vector<Axis>& extra) {
  std::vector<Axis> axes;
  for (const ParamSpec& p : find_scenario(scenario)->params)
    if (p.kind == ParamKind::Choice) axes.push_back({p.name, p.choices});
  axes.insert(axes.end(), extra.begin(), extra.end());
  std::vector<Sets> out{{}};
  for (const Axis& axis : axes) {
    std::vector<Sets> next;
    for (const Sets& partial : out)
      for (const std::string& value : axis.values) {
        Sets s = partial;
        s.emplace_back(axis.param, value);
        next.push_back(std::move(s));
      }
    out = std::move(next);
  }
  return out;
}

void sweep_scenario(const std::string& scenario, const std::vector<Axis>& extra = {}, int seeded = 7) {
  // Prepare
  REQUIRE(find_scenario(scenario) != nullptr);
  Sweep sweep(scenario);
  // Run: each request on both backends, compared as it finishes
  for (const Sets& sets : combinations(scenario, extra)) sweep.run_inputs(sets, seeded);
  // Verify
  sweep.finish();
}

const std::vector<std::string> kVoteMasks = {"0xffffffff", "0x0000ffff", "0x80000001", "0x55555555"};
const std::vector<std::string> kShflDtypes = {"i32", "u32", "f32", "f64"};
const std::vector<std::string> kShflOps = {"idx", "up", "down", "xor"};

// Operands of the sweep: 5 bits wrap (32, 33, 35, 40, -1), and delta as a huge unsigned.
std::vector<std::string> shfl_args(const std::string& op) {
  std::vector<std::string> args = {"0", "1", "2", "3", "5", "7", "9", "15", "16", "17", "31", "32", "33", "35", "40", "-1"};
  if (op == "up" || op == "down") args.push_back("4294967295");
  return args;
}

std::vector<std::string> shfl_widths() {
  std::vector<std::string> widths;
  for (int w = 1; w <= 32; ++w) widths.push_back(std::to_string(w));  // 3, 12, ... are invalid but in range
  for (const char* w : {"0", "33", "64", "-1", "100"}) widths.push_back(w);
  return widths;
}

}  // namespace

// ---------------------------------------------------------------------------
// The seed demo
// ---------------------------------------------------------------------------

TEST_CASE("gpu matches cpu: test_shuffle", "[gpu][test_shuffle]") { sweep_scenario("test_shuffle"); }
TEST_CASE("gpu matches cpu: warp_sum", "[gpu][warp_sum]") { sweep_scenario("warp_sum"); }
TEST_CASE("gpu matches cpu: warp_sum_xor", "[gpu][warp_sum_xor]") { sweep_scenario("warp_sum_xor"); }
TEST_CASE("gpu matches cpu: warp_max", "[gpu][warp_max]") { sweep_scenario("warp_max"); }

TEST_CASE("gpu matches cpu: reduce_sum over n and block sizes", "[gpu][reduce_sum]") {
  // n = 1 and 31 leave most of a warp idle; 100000 is not a multiple of any block.
  sweep_scenario("reduce_sum", {{"n", {"1", "31", "32", "33", "1000", "4096", "100000"}},
                                {"block", {"32", "64", "256", "1024"}}});
}

// ---------------------------------------------------------------------------
// The article
// ---------------------------------------------------------------------------

TEST_CASE("gpu matches cpu: reduce_int over n and block sizes", "[gpu][reduce_int]") {
  sweep_scenario("reduce_int", {{"n", {"1", "31", "32", "33", "1000", "4096", "100000"}},
                                {"block", {"32", "64", "256", "1024"}}});
}

TEST_CASE("gpu matches cpu: vote with partial masks", "[gpu][vote]") { sweep_scenario("vote", {{"mask", kVoteMasks}}); }
TEST_CASE("gpu matches cpu: compact", "[gpu][compact]") { sweep_scenario("compact"); }
// Every lane above the threshold, none, and a split; the paths may run in any order.
TEST_CASE("gpu matches cpu: divergence, path by path", "[gpu][divergence]") {
  sweep_scenario("divergence", {{"threshold", {"0", "3", "-100", "100"}}});
}

TEST_CASE("gpu matches cpu: cg_reduce", "[gpu][cg_reduce]") { sweep_scenario("cg_reduce"); }
TEST_CASE("gpu matches cpu: cg_scan over every tile size", "[gpu][cg_scan]") { sweep_scenario("cg_scan"); }

TEST_CASE("gpu matches cpu: coalesced groups of several shapes", "[gpu][coalesced]") {
  // The default odd lanes, everyone, half a warp, the two ends, even lanes, one lane.
  sweep_scenario("coalesced",
                 {{"active", {"0xaaaaaaaa", "0xffffffff", "0x0000ffff", "0x80000001", "0x55555555", "0x00000001"}}});
}

// ---------------------------------------------------------------------------
// match, redux, bits
// ---------------------------------------------------------------------------

TEST_CASE("gpu matches cpu: match with partial masks", "[gpu][match]") { sweep_scenario("match", {{"mask", kVoteMasks}}); }
TEST_CASE("gpu matches cpu: redux with partial masks", "[gpu][redux]") { sweep_scenario("redux", {{"mask", kVoteMasks}}); }

TEST_CASE("gpu matches cpu: bits with __fns masks and offsets", "[gpu][bits]") {
  // __fns: no such bit (0xffffffff), negative offsets, offsets past the end.
  sweep_scenario("bits", {{"fns_mask", {"0x00ff00f1", "0xffffffff", "0x00000000", "0x80000001"}},
                          {"fns_offset", {"-32", "-1", "0", "1", "5", "31", "32"}}},
                 3);
}

// ---------------------------------------------------------------------------
// The shuffle playground
// ---------------------------------------------------------------------------

TEST_CASE("gpu matches cpu: shfl values of every dtype", "[gpu][shfl]") {
  // Values must move bit for bit: NaN payloads, -0, 64-bit halves.
  Sweep sweep("shfl");
  for (const std::string& op : kShflOps)
    for (const std::string& dtype : kShflDtypes)
      for (const char* arg : {"1", "5", "16"})
        for (const char* width : {"32", "8"})
          sweep.run_inputs({{"op", op}, {"arg", arg}, {"width", width}, {"dtype", dtype}}, 7);
  sweep.finish();
}

TEST_CASE("gpu matches cpu: shfl sweep of op x width x arg", "[gpu][shfl]") {
  // One input per combination keeps this at ~10,000 runs; which lane is read
  // does not depend on the values.
  Sweep sweep("shfl");
  size_t i = 0;
  for (const std::string& op : kShflOps)
    for (const std::string& width : shfl_widths())
      for (const std::string& arg : shfl_args(op))
        for (const std::string& dtype : kShflDtypes)
          sweep.run_one_seeded({{"op", op}, {"arg", arg}, {"width", width}, {"dtype", dtype}},
                               ++i % 2 ? Flavour::Wide : Flavour::SpecialHeavy);
  sweep.finish();
}

TEST_CASE("gpu matches cpu: shfl with partial masks", "[gpu][shfl]") {
  // Only the mask's lanes run; reads from lanes outside it are undefined (docs/warp-rules.md#inactive-sources)
  // and must be marked so on both backends.
  Sweep sweep("shfl");
  for (const char* mask : {"0x0000ffff", "0xffff0000", "0x55555555"})
    for (const std::string& op : kShflOps)
      for (const char* arg : {"0", "1", "3", "8", "9", "16", "31", "33", "-1"})
        for (const char* width : {"32", "8", "12"})
          for (const std::string& dtype : kShflDtypes)
            sweep.run_one_seeded({{"op", op}, {"arg", arg}, {"width", width}, {"mask", mask}, {"dtype", dtype}},
                                 Flavour::Wide);
  sweep.finish();
}

TEST_CASE("gpu matches cpu: shfl raw PTX c operands", "[gpu][shfl]") {
  // c given directly: clamp 31 on up, segments of 8 with clamp, clamp 16 with
  // segmask 8, up's own width-8 form, and segmask 0x1c.
  Sweep sweep("shfl");
  for (const char* c : {"0x1f", "0x181f", "0x0810", "0x1800", "0x1c1f"})
    for (const std::string& op : kShflOps)
      for (const std::string& arg : shfl_args(op))
        for (const std::string& dtype : kShflDtypes)
          sweep.run_one_seeded({{"op", op}, {"arg", arg}, {"c", c}, {"dtype", dtype}}, Flavour::SpecialHeavy);
  sweep.finish();
}

// The last GPU case: the two the PTX spec leaves wholly undefined. If the
// hardware traps on them, the CUDA context is lost for the rest of the process.
TEST_CASE("gpu matches cpu: shfl with lanes outside their own mask", "[gpu][shfl][undefined]") {
  // mask 0x0000ffff run by all 32 lanes: lanes 16-31 are not in their own
  // mask. mask 0xffffffff run by lanes 0-15: the mask names lanes that never
  // arrive. Results are undefined; which lanes ran and are marked must agree.
  Sweep sweep("shfl");
  for (const auto& [mask, active] : {std::pair{"0x0000ffff", "0xffffffff"}, std::pair{"0xffffffff", "0x0000ffff"}})
    for (const std::string& op : kShflOps)
      for (const char* arg : {"0", "1", "8", "16", "31"})
        for (const char* width : {"32", "8"})
          for (const std::string& dtype : kShflDtypes)
            sweep.run_one_seeded(
                {{"op", op}, {"arg", arg}, {"width", width}, {"mask", mask}, {"active", active}, {"dtype", dtype}},
                Flavour::Wide);
  sweep.finish();
}

// ---------------------------------------------------------------------------
// Shared memory: bank and transpose
// ---------------------------------------------------------------------------

// Addresses, widths, values and the tile afterwards must agree, and so must
// which lanes ran: a store race is won by the lowest lane on the H200 (docs/warp-rules.md#store-races),
// which the emulator follows.
TEST_CASE("gpu matches cpu: bank patterns x elem x cols x op x active", "[gpu][bank]") {
  Sweep sweep("bank");
  for (const char* pattern : {"row", "column", "broadcast", "stride", "xor-swizzle"})
    for (const char* elem : {"1", "2", "4", "8", "16"})
      for (const char* cols : {"32", "33"})
        for (const char* op : {"load", "store"})
          for (const char* active : {"0xffffffff", "0x0000ffff", "0x80000001", "0x55555555"})
            sweep.run_inputs({{"pattern", pattern}, {"elem", elem}, {"cols", cols}, {"op", op}, {"active", active}}, 1);
  // Strides that wrap the tile, hit one bank, or every lane onto one word.
  for (const char* stride : {"0", "1", "3", "16", "32", "33", "64", "1024", "1056"})
    for (const char* elem : {"1", "4", "16"})
      for (const char* op : {"load", "store"})
        sweep.run_inputs({{"pattern", "stride"}, {"stride", stride}, {"elem", elem}, {"op", op}}, 1);
  sweep.finish();
}

TEST_CASE("gpu matches cpu: bank with custom addresses", "[gpu][bank]") {
  const auto addrs_of = [](auto offset) {
    std::string s;
    for (int lane = 0; lane < 32; ++lane) s += (lane ? "," : "") + std::to_string(offset(lane));
    return s;
  };
  Sweep sweep("bank");
  // Same-word races with several writers per word, pairs, and reversed lanes.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"4", addrs_of([](int l) { return (l & 1) * 128; })},
      {"4", addrs_of([](int l) { return (l / 4) * 4; })},
      {"4", addrs_of([](int l) { return (31 - l) * 132; })},
      {"2", addrs_of([](int l) { return (l / 2) * 2; })},
      {"1", addrs_of([](int l) { return (l * 7) % 64; })},
      {"8", addrs_of([](int l) { return (l & 15) * 8; })},
      {"16", addrs_of([](int l) { return (l >> 1) * 16; })},
      {"16", addrs_of([](int l) { return (l & 7) * 16; })},
  };
  for (const auto& [elem, addrs] : cases)
    for (const char* op : {"load", "store"})
      for (const char* cols : {"32", "33"})
        sweep.run_inputs({{"pattern", "custom"}, {"elem", elem}, {"cols", cols}, {"op", op}, {"addrs", addrs}}, 1);
  sweep.finish();
}

TEST_CASE("gpu matches cpu: transpose padded and unpadded", "[gpu][transpose]") {
  sweep_scenario("transpose", {{"n", {"32", "64", "128"}}}, 2);
}

// ---------------------------------------------------------------------------
// A recorder that overflows: a trace buffer too small on purpose
// ---------------------------------------------------------------------------
#if defined(WARPVIZ_HAVE_CUDA)

namespace {

// The policy in force before a test, restored after it.
class BufferPolicyScope {
 public:
  BufferPolicyScope() : saved_(trace_buffer_policy()) {}
  ~BufferPolicyScope() { set_trace_buffer_policy(saved_); }
  BufferPolicyScope(const BufferPolicyScope&) = delete;
  BufferPolicyScope& operator=(const BufferPolicyScope&) = delete;

 private:
  TraceBufferPolicy saved_;
};

uint32_t most_steps_of_a_warp(const Trace& t) {
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> steps;
  for (const TraceStep& s : t.steps) ++steps[{s.block, s.warp}];
  uint32_t most = 0;
  for (const auto& [warp, count] : steps) most = std::max(most, count);
  return most;
}

// What a buffer of `slots` steps per warp can hold of a complete trace: each
// warp's first steps, the trace marked overflowed when some warp lost any.
Trace first_steps_of_each_warp(const Trace& complete, uint32_t slots) {
  Trace t = complete;
  t.steps.clear();
  for (const TraceStep& s : complete.steps)
    if (s.seq < slots) t.steps.push_back(s);
  t.overflow = t.steps.size() < complete.steps.size();
  return t;
}

std::string describe_mismatch(const test::TraceComparison& cmp) { return cmp.describe("gpu", "expected"); }

}  // namespace

TEST_CASE("gpu recorder: the guard check sees a byte written outside the buffer", "[gpu][overflow]") {
  // Prepare: a guarded buffer of one warp with two step slots, no kernel run
  const CudaRecording recording(Dim3(1), Dim3(32), emu::RecordFilter{}, 2, 1, true);
  REQUIRE(recording.guarded());
  REQUIRE(recording.guard_damage().empty());
  const size_t row_bytes = 2 * kDeviceRowsPerStep * kWarpSize * sizeof(uint32_t);
  // Run: one byte just past the lane rows, one in a step no warp recorded
  REQUIRE(cudaMemset(reinterpret_cast<char*>(recording.recorder().rows) + row_bytes, 0, 1) == cudaSuccess);
  const std::string past_the_end = recording.guard_damage();
  REQUIRE(cudaMemset(reinterpret_cast<char*>(recording.recorder().headers) + sizeof(DeviceStepHeader) + 5, 0, 1) ==
          cudaSuccess);
  const std::string both = recording.guard_damage();
  // Verify
  INFO(past_the_end << " / " << both);
  CHECK(past_the_end.find("the guard after the lane rows changed at byte 0") != std::string::npos);
  CHECK(past_the_end.find("step 1") == std::string::npos);
  CHECK(both.find("warp slot 0 step 1 (never recorded): header written") != std::string::npos);
}

TEST_CASE("gpu recorder overflow: a buffer too small keeps each warp's first steps and writes nothing outside",
          "[gpu][overflow]") {
  // Prepare: reduce_sum over 4 blocks of 8 warps; warp 0 of a block records the most
  const ResolvedScenario request = resolve_scenario({"reduce_sum", {{"n", "1024"}}, ""});
  const emu::RecordFilter every_warp;
  const Trace cpu = run_scenario_cpu(request, every_warp);
  constexpr uint32_t kSlots = 3;
  REQUIRE(most_steps_of_a_warp(cpu) > kSlots);
  const BufferPolicyScope restore;
  set_trace_buffer_policy({kSlots, kSlots, true});  // what WARPVIZ_TRACE_BUFFER_STEPS=3 sets
  const uint64_t checks_before = trace_buffer_guard_checks();
  // Run
  const Trace gpu = run_scenario(request, RunOptions{BackendChoice::Cuda, every_warp});
  // Verify: one guarded try (no rerun), marked overflow, the prefix exact, outputs whole
  CHECK(trace_buffer_guard_checks() == checks_before + 1);
  CHECK(gpu.overflow);
  const Trace expected = first_steps_of_each_warp(cpu, kSlots);
  REQUIRE(expected.overflow);
  const test::TraceComparison cmp = test::compare_traces(gpu, expected);
  INFO(describe_mismatch(cmp));
  CHECK(cmp.equal());
  CHECK(gpu.steps.size() == expected.steps.size());
}

TEST_CASE("gpu recorder overflow: a first buffer too small reruns with more room until the trace is whole",
          "[gpu][overflow]") {
  // Prepare: two slots a warp at first, four times as many per rerun
  const ResolvedScenario request = resolve_scenario({"reduce_sum", {{"n", "1024"}}, ""});
  const emu::RecordFilter every_warp;
  const Trace cpu = run_scenario_cpu(request, every_warp);
  const TraceBufferPolicy growing{2, 2048, true};
  int tries = 1;
  for (uint32_t slots = growing.first_steps_per_warp; slots < most_steps_of_a_warp(cpu); slots *= 4) ++tries;
  REQUIRE(tries >= 2);
  const BufferPolicyScope restore;
  set_trace_buffer_policy(growing);
  const uint64_t checks_before = trace_buffer_guard_checks();
  // Run
  const Trace gpu = run_scenario(request, RunOptions{BackendChoice::Cuda, every_warp});
  // Verify: every try guarded and intact, the last one whole and equal to the emulator's
  CHECK(trace_buffer_guard_checks() == checks_before + uint64_t(tries));
  CHECK_FALSE(gpu.overflow);
  const test::TraceComparison cmp = test::compare_traces(gpu, cpu);
  INFO(describe_mismatch(cmp));
  CHECK(cmp.equal());
}

TEST_CASE("gpu recorder overflow: the largest buffer still too small marks the trace overflow", "[gpu][overflow]") {
  // Prepare: growth from 1 slot capped at 2, below what warp 0 records
  const ResolvedScenario request = resolve_scenario({"reduce_sum", {{"n", "1024"}, {"block", "64"}}, ""});
  const emu::RecordFilter every_warp;
  const Trace cpu = run_scenario_cpu(request, every_warp);
  const BufferPolicyScope restore;
  set_trace_buffer_policy({1, 2, true});
  const uint64_t checks_before = trace_buffer_guard_checks();
  // Run
  const Trace gpu = run_scenario(request, RunOptions{BackendChoice::Cuda, every_warp});
  // Verify: tried 1 then 2 slots, kept 2 per warp
  CHECK(trace_buffer_guard_checks() == checks_before + 2);
  const test::TraceComparison cmp = test::compare_traces(gpu, first_steps_of_each_warp(cpu, 2));
  INFO(describe_mismatch(cmp));
  CHECK(cmp.equal());
  CHECK(gpu.overflow);
}

#endif  // WARPVIZ_HAVE_CUDA

TEST_CASE("gpu test cases cover every registered scenario", "[gpu][coverage]") {
  // A new scenario needs a TEST_CASE tagged with its name here.
  std::set<std::string> tags;
  for (const Catch::TestCase& tc : Catch::getRegistryHub().getTestCaseRegistry().getAllTests())
    tags.insert(tc.tags.begin(), tc.tags.end());
  for (const ScenarioSpec& spec : scenario_specs()) {
    INFO("scenario " << spec.name << " has no [gpu][" << spec.name << "] test case in test_gpu.cpp");
    CHECK(tags.count(spec.name) == 1);
  }
}

// ---------------------------------------------------------------------------
// main: skip (77) without a CUDA device, unless Catch is only asked to list or help
// ---------------------------------------------------------------------------

int main(int argc, char** argv) {
  bool listing = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    listing |= arg.rfind("--list", 0) == 0 || arg == "-l" || arg == "-t" || arg == "-h" || arg == "-?" ||
               arg == "--help";
  }
  if (listing) return Catch::Session().run(argc, argv);

  std::string why;
  if (!cuda_backend_available(&why)) {
    std::cout << "SKIPPED: GPU tests need a CUDA device: " << why << std::endl;
    return 77;
  }
  long limit = 60;
  if (const char* s = std::getenv("WARPVIZ_GPU_RUN_TIMEOUT_S"); s && std::atol(s) > 0) limit = std::atol(s);
  int result = 0;
  {
    RunWatchdog watchdog{std::chrono::seconds(limit)};
    g_watchdog = &watchdog;
    result = Catch::Session().run(argc, argv);
    g_watchdog = nullptr;
  }
  print_summary(std::cout);
  // Catch returns the failure count: 77 failures must not read as "skipped".
  return result == 77 ? 1 : result;
}
