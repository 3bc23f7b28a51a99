// warpviz-cli bench emulator: how fast the CPU emulator runs reduce_sum.
// A benchmark prints figures; it asserts nothing.
#include <bit>
#include <chrono>
#include <iomanip>
#include <iostream>

#include "cli_command.h"
#include "warpviz/backends.h"
#include "warpviz/scenario.h"

namespace warpviz::cli {

int run_bench(const Args& args) {
  if (wants_help(args) || args.empty() || args[0] != "emulator") {
    std::cout << "usage: warpviz-cli bench emulator [--n N] [--block B] [--repeat R]\n"
                 "  Runs reduce_sum (n = 1048576, block 256 by default) on the CPU emulator,\n"
                 "  recording every warp, and prints the wall time, lane-ops per second and\n"
                 "  trace size. The goal for n = 1048576 is under 5 s on a 2-core machine.\n";
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
