// warpviz-cli run: resolve a scenario, run it on a backend, write its trace.
#include <bit>
#include <iostream>

#include "cli_command.h"
#include "warpviz/backends.h"
#include "warpviz/bank_model.h"
#include "warpviz/mask_check.h"
#include "warpviz/scenario.h"
#include "warpviz/trace_io.h"

namespace warpviz::cli {

namespace {

const char* const kRunHelp = R"(usage: warpviz-cli run SCENARIO [--set NAME=VALUE]... [--input SPEC]
       warpviz-cli run FILE.cu [options]   (your own kernel: 'warpviz-cli run FILE.cu --help')
                        [--backend cpu|cuda|auto] [-o FILE] [--json]
                        [--record-blocks LIST] [--record-warps LIST] [--no-record]

  Runs SCENARIO and records every warp step lane by lane.
  --set NAME=VALUE   a scenario parameter ('warpviz-cli list' shows them)
  --input SPEC       iota | ones | const:X | random:SEED | values:a,b,... | bits:hex,hex,...
  --backend B        cpu (the exact emulator), cuda (a GPU), auto (cuda when present; default)
  -o FILE            write the trace: FILE.json as JSON, anything else as binary .wvt
  --json             print the trace's JSON form on stdout
  --record-blocks L  record only these blocks (comma list), e.g. 0,1
  --record-warps L   record only these warps of each recorded block
  --no-record        record no warp (on a GPU the recorder is off: the kernel does no
                     recording work, e.g. under ncu); the outputs are still written
  Without -o or --json a summary is printed: outputs and the seed's claims.
)";

std::vector<uint32_t> parse_index_list(const std::string& option, const std::string& text) {
  std::vector<uint32_t> list;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto v = parse_value(DType::U32, item);
    if (!v) throw UsageError(option + ": '" + item + "' is not a block/warp index");
    list.push_back(uint32_t(*v));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return list;
}

// Each shared-memory step with the bank model's cost (docs/warp-rules.md#wavefronts).
void print_shared_steps(const Trace& trace) {
  constexpr size_t kShown = 32;
  size_t count = 0;
  for (const TraceStep& step : trace.steps) {
    if (!op_is_shared(step.op)) continue;
    if (count++ == 0) std::cout << "shared-memory steps (bank model, sm_90):\n";
    if (count > kShown) continue;
    const SharedAccess access = shared_access_of(step);
    const BankAnalysis a = analyze_shared_access(access);
    std::cout << "  line " << step.line << "  " << (step.op == Op::LoadShared ? "ld" : "st") << "." << access.bytes * 8
              << "  block " << step.block << " warp " << step.warp << "  lanes " << std::popcount(access.active) << ": "
              << counted(a.wavefronts, "wavefront") << ", " << counted(a.conflicts, "conflict") << "\n";
  }
  if (count > kShown) {
    const SharedTotals t = shared_totals(trace);
    std::cout << "  ... " << count - kShown << " more; in all: " << counted(t.load_steps, "load") << " ("
              << counted(t.load_wavefronts, "wavefront") << ", " << counted(t.load_conflicts, "conflict") << "), "
              << counted(t.store_steps, "store") << " (" << counted(t.store_wavefronts, "wavefront") << ", "
              << counted(t.store_conflicts, "conflict") << ")\n";
  }
}

// Each watch step (WARPVIZ_WATCH) as "watch val": where, and its lanes' values
// (the first kLanesShown active ones).
void print_watch_steps(const Trace& trace) {
  constexpr size_t kShown = 32, kLanesShown = 8;
  size_t count = 0;
  for (const TraceStep& step : trace.steps) {
    if (!op_is_watch(step.op)) continue;
    if (count++ == 0) std::cout << "watched values:\n";
    if (count > kShown) continue;
    std::cout << "  line " << step.line << "  watch " << watch_name(step.args) << " (" << dtype_name(step.dtype)
              << ")  block " << step.block << " warp " << step.warp << "  lanes " << std::popcount(step.mask) << ":";
    size_t shown = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const LaneRecord& rec = step.lanes[lane];
      if (!rec.active()) continue;
      if (shown++ == kLanesShown) {
        std::cout << " ...";
        break;
      }
      std::cout << " " << lane << "=" << format_value(step.dtype, rec.out);
    }
    std::cout << "\n";
  }
  if (count > kShown) std::cout << "  ... " << count - kShown << " more " << (count - kShown == 1 ? "watch step" : "watch steps") << "\n";
}

}  // namespace

void print_mask_warnings(const Trace& trace, const std::string& where) {
  constexpr size_t kShown = 4;  // a loop repeats the same mistake every round: a few say it
  const std::vector<AbsentMaskLanes> found = steps_with_absent_mask_lanes(trace);
  for (size_t i = 0; i < found.size() && i < kShown; ++i)
    std::cerr << "warning: " << where << absent_mask_warning(trace, found[i]) << "\n";
  if (found.size() > kShown)
    std::cerr << "warning: " << where << "and " << counted(found.size() - kShown, "more step")
              << " whose mask names lanes that never arrived\n";
}

void print_trace_summary(const Trace& trace) {
  std::cout << trace.meta.scenario << " on " << trace.meta.device << ": " << counted(trace.steps.size(), "step")
            << " recorded" << (trace.overflow ? " (overflow: the recorder ran out of room)" : "") << "\n";
  for (const TraceOutput& out : trace.outputs) {
    std::cout << "  " << out.name << " (" << dtype_name(out.dtype) << "):";
    const size_t shown = std::min<size_t>(out.bits.size(), 64);
    for (size_t i = 0; i < shown; ++i) std::cout << " " << format_value(out.dtype, out.bits[i]);
    if (shown < out.bits.size()) std::cout << " ... (" << counted(out.bits.size(), "value") << ")";
    std::cout << "\n";
  }
  print_shared_steps(trace);
  print_watch_steps(trace);
}

namespace {

// The seed's own expectations beside what the hardware rules computed.
void print_seed_claims(const ResolvedScenario& resolved, const Trace& trace, std::ostream& out) {
  for (const SeedClaimResult& r : check_seed_claims(*resolved.spec, trace)) {
    out << "seed claim " << (r.holds ? "holds" : "DIFFERS FROM THE HARDWARE") << ": " << r.claim->source << ": "
        << r.claim->text << "\n";
    if (!r.holds) out << "  the sm_90 rules give: " << r.actual << "\n";
  }
}

}  // namespace

int run_run(const Args& args) {
  // A user's own kernel file rather than a built-in scenario.
  for (const std::string& a : args) {
    if (a == "--") break;
    if (is_source_file(a)) return run_run_file(args);  // a program of .cpp files only, too
  }
  if (wants_help(args)) {
    std::cout << kRunHelp;
    return 0;
  }
  ScenarioRequest request;
  RunOptions options;
  std::string out_path;
  bool json = false, no_record = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (take_request_option(args, i, request)) {
      continue;
    } else if (a == "--backend") {
      const std::string b = option_value(args, i);
      const auto choice = parse_backend(b);
      if (!choice) throw UsageError("--backend '" + b + "': valid backends are cpu, cuda, auto");
      options.backend = *choice;
    } else if (a == "-o" || a == "--output") {
      out_path = option_value(args, i);
    } else if (a == "--json") {
      json = true;
    } else if (a == "--record-blocks") {
      options.filter.blocks = parse_index_list(a, option_value(args, i));
    } else if (a == "--record-warps") {
      options.filter.warps = parse_index_list(a, option_value(args, i));
    } else if (a == "--no-record") {
      no_record = true;
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError("unknown option '" + a + "'");
    } else if (request.scenario.empty()) {
      request.scenario = a;
    } else {
      throw UsageError("unexpected argument '" + a + "' (one scenario per run)");
    }
  }
  if (request.scenario.empty()) throw UsageError("which scenario? valid scenarios: " + scenario_names());
  if (no_record) {
    if (!options.filter.blocks.empty()) throw UsageError("--no-record and --record-blocks contradict each other");
    // A block no grid has: the emulator keeps no step, and CudaRecording's block
    // range comes out empty, which leaves the device recorder disabled.
    options.filter.blocks = {0xfffffffeu};
  }

  const ResolvedScenario resolved = resolve_scenario(request);
  for (const std::string& note : resolved.notes) std::cerr << "note: " << note << "\n";
  const Trace trace = run_scenario(resolved, options);
  if (trace.overflow) std::cerr << "warning: the trace overflowed; only its first steps were kept\n";
  print_mask_warnings(trace);

  if (!out_path.empty()) {
    save_trace(trace, out_path);
    std::cerr << "wrote " << out_path << " (" << counted(trace.steps.size(), "step") << ")\n";
  }
  if (json) std::cout << trace_to_json(trace) << "\n";
  if (!json && out_path.empty()) print_trace_summary(trace);
  print_seed_claims(resolved, trace, json || !out_path.empty() ? std::cerr : std::cout);
  return 0;
}

}  // namespace warpviz::cli
