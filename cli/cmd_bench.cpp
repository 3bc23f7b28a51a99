// warpviz-cli bench emulator: how fast the CPU emulator runs reduce_sum.
// warpviz-cli bench record: what recording costs on a GPU (bench_record.cu).
// A benchmark prints figures and checks results; missed goals are reported.
#include <bit>
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <iostream>

#include "cli_command.h"
#include "warpviz/backends.h"
#include "warpviz/scenario.h"
#ifdef WARPVIZ_HAVE_CUDA
#include "warpviz/record_benchmark.h"
#endif

namespace warpviz::cli {

namespace {

const char* const kEmulatorUsage =
    "usage: warpviz-cli bench emulator [--n N] [--block B] [--repeat R]\n"
    "  Runs reduce_sum (n = 1048576, block 256 by default) on the CPU emulator,\n"
    "  recording every warp, and prints the wall time, lane-ops per second and\n"
    "  trace size. The goal for n = 1048576 is under 5 s on a 2-core machine.\n";

const char* const kRecordUsage =
    "usage: warpviz-cli bench record [--log2n L] [--repeat R]\n"
    "  Times reduce_sum<float> (block 256) on GPU 0 over 2^L random floats (L = 26\n"
    "  by default, 8..30) three ways: (a) no recorder attached, (b) one warp in 64\n"
    "  recorded, (c) every warp recorded. Each launch is timed alone with device\n"
    "  events, after warm-up; the median of R launches (20 by default) is printed\n"
    "  with its ratio to (a), the trace bytes written and the recorded warps.\n"
    "  Also measures the device-to-device copy bandwidth (bytes read + written).\n"
    "  Goals: (b) <= 1.05 x (a); (c) <= 1.2 x (input + trace bytes) / copy bandwidth.\n"
    "  Checks that (a)'s partial sums match a double-precision CPU sum and that (b)\n"
    "  and (c) give the same bits. Exit 0 when the results are right (goals are\n"
    "  reported as PASS or MISS), 1 when not, 2 without a GPU or a CUDA build.\n";

int bench_record(const Args& args) {
  if (wants_help(args)) {
    std::cout << kRecordUsage;
    return 0;
  }
  int log2_n = 26, repeat = 20;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--log2n") log2_n = std::atoi(option_value(args, i).c_str());
    else if (args[i] == "--repeat") repeat = std::atoi(option_value(args, i).c_str());
    else throw UsageError("unknown option '" + args[i] + "'");
  }
  if (log2_n < 8 || log2_n > 30) throw UsageError("--log2n must be 8..30");
  if (repeat < 1) throw UsageError("--repeat must be at least 1");
#ifdef WARPVIZ_HAVE_CUDA
  return run_record_benchmark(log2_n, repeat, std::cout);
#else
  std::cerr << "warpviz-cli bench: bench record needs a build with CUDA (nvcc was not found when warpviz was "
               "configured)\n";
  return 2;
#endif
}

}  // namespace

int run_bench(const Args& args) {
  if (!args.empty() && args[0] == "record") return bench_record(args);
  if (!args.empty() && args[0] == "reload") return bench_reload(Args(args.begin() + 1, args.end()));
  if (wants_help(args) || args.empty() || args[0] != "emulator") {
    std::cout << kEmulatorUsage << kRecordUsage;
    return wants_help(args) ? 0 : 2;
  }
  std::string n = "1048576", block = "256";
  int repeat = 3;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--n") n = option_value(args, i);
    else if (args[i] == "--block") block = option_value(args, i);
    else if (args[i] == "--repeat") repeat = std::max(1, std::atoi(option_value(args, i).c_str()));
    else throw UsageError("unknown option '" + args[i] + "'");
  }
  const ResolvedScenario resolved = resolve_scenario({"reduce_sum", {{"n", n}, {"block", block}}, "ones"});
  std::cout << "bench emulator: reduce_sum n=" << n << " block=" << block << ", input ones, every warp recorded\n";
  double best = 1e300;
  for (int r = 0; r < repeat; ++r) {
    emu::LaunchStats stats;
    const auto start = std::chrono::steady_clock::now();
    const Trace trace = run_scenario_cpu(resolved, emu::RecordFilter{}, &stats);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::min(best, seconds);
    double total = 0;
    for (uint64_t bits : trace.output("out")->bits) total += double(std::bit_cast<float>(uint32_t(bits)));
    std::cout << std::fixed << std::setprecision(3) << "  run " << r + 1 << ": " << seconds << " s, "
              << stats.threads << " threads, " << stats.warp_ops << " warp ops, " << stats.lane_ops
              << " lane-ops, " << std::setprecision(1) << double(stats.lane_ops) / seconds / 1e6
              << " M lane-ops/s, " << trace.steps.size() << " steps ("
              << double(trace.steps.size() * sizeof(TraceStep)) / (1 << 20) << " MiB), sum of outputs "
              << std::setprecision(0) << total << "\n";
  }
  std::cout << std::fixed << std::setprecision(3) << "best: " << best << " s (goal: < 5 s for n = 1048576)\n";
  return 0;
}

}  // namespace warpviz::cli
