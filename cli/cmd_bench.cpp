// warpviz-cli bench emulator: how fast the CPU emulator runs reduce_sum.
// warpviz-cli bench record: what recording costs on a GPU (bench_record.cu).
// warpviz-cli bench reduce / latency: what warp code costs on a GPU
// (bench_reduce.cu, bench_latency.cu), written to a measurements file.
// A benchmark prints figures and checks results; missed goals are reported.
#include <bit>
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli_command.h"
#include "warpviz/backends.h"
#include "warpviz/file_write.h"
#include "warpviz/measurements.h"
#include "warpviz/scenario.h"
#ifdef WARPVIZ_HAVE_CUDA
#include "warpviz/latency_benchmark.h"
#include "warpviz/record_benchmark.h"
#include "warpviz/reduce_benchmark.h"
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
    "  with its ratio to (a), the trace bytes written and the recorded warps, and\n"
    "  the device record's bytes per step and per lane.\n"
    "  Also measures the device-to-device copy bandwidth (bytes read + written).\n"
    "  Goals: (b) <= 1.05 x (a); (c) <= 1.10 x (a), the capture cost; (c) against\n"
    "  1.2 x (input + trace bytes) / copy bandwidth is printed beside it.\n"
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

const char* const kReduceUsage =
    "usage: warpviz-cli bench reduce [--log2n L[,L...]] [--repeat R] [--json FILE] [--show FILE]\n"
    "  Sums 2^L values (L = 28,20 by default), f32 and i32, on GPU 0 with (a) the\n"
    "  shared-memory tree, (b) the article's warp-shuffle reduceKernel, (c) the\n"
    "  seed's reduce_sum, (d) warpviz's grid-stride reduction (and, for i32, with\n"
    "  __reduce_add_sync), (e) CUB DeviceReduce::Sum. Median of R launches (21 by\n"
    "  default), variants interleaved, the L2 flushed before each; GB/s, the share\n"
    "  of the measured copy bandwidth and the ratio to CUB; every sum checked\n"
    "  (f32 against a double sum, i32 exactly). Goal: (d) >= 1.00 x CUB.\n"
    "  --json FILE puts the figures into a measurements file (other sections kept).\n"
    "  --show FILE prints the figures a measurements file holds (no GPU needed).\n";

const char* const kLatencyUsage =
    "usage: warpviz-cli bench latency [--json FILE] [--show FILE]\n"
    "  Cycles per op of chains of 4096 dependent warp ops in one warp (clock64):\n"
    "  shfl idx/up/down/bfly, vote ballot/any, activemask, match.any, redux.add,\n"
    "  ld.shared conflict-free and 32-way, st.shared; and warp-ops per SM per\n"
    "  cycle with every SM full. Prints the article's two latency claims beside\n"
    "  the figures. --json FILE and --show FILE as for bench reduce.\n";

// Today in UTC, as a measurements file dates its figures.
std::string today_utc() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", &utc);
  return text;
}

std::string command_line(const Args& args) {
  std::string line = "warpviz-cli bench";
  for (const std::string& a : args) line += " " + a;
  return line;
}

// Puts one section into a measurements file, keeping the others.
void save_measurements(const std::string& path, const std::optional<ReduceBenchmark>& reduce,
                       const std::optional<LatencyBenchmark>& latency) {
  Measurements m;
  if (std::filesystem::exists(path)) m = read_measurements(path);
  if (reduce) m.reduce = reduce;
  if (latency) m.latency = latency;
  const std::string text = measurements_to_json(m);
  write_file_replacing(path, text.data(), text.size());
  std::cerr << "wrote " << path << "\n";
}

int show_measurements(const std::string& path, bool reduce) {
  const Measurements m = read_measurements(path);
  if (reduce ? !m.reduce : !m.latency) {
    std::cerr << "warpviz-cli bench: " << path << " holds no " << (reduce ? "reduce" : "latency") << " figures\n";
    return 2;
  }
  if (reduce) print_reduce_benchmark(*m.reduce, std::cout);
  else print_latency_benchmark(*m.latency, std::cout);
  const MeasuredOn& on = reduce ? m.reduce->on : m.latency->on;
  std::cout << "  (measured " << on.date << " with: " << on.command << ")\n";
  return 0;
}

// bench reduce and bench latency: the same options.
int bench_costs(const Args& args, bool reduce) {
  if (wants_help(args)) {
    std::cout << (reduce ? kReduceUsage : kLatencyUsage);
    return 0;
  }
  std::vector<int> sizes = {28, 20};
  int repeat = 21;
  std::string json_path, show_path;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--json") json_path = option_value(args, i);
    else if (args[i] == "--show") show_path = option_value(args, i);
    else if (reduce && args[i] == "--repeat") repeat = std::atoi(option_value(args, i).c_str());
    else if (reduce && args[i] == "--log2n") {
      sizes.clear();
      std::stringstream list(option_value(args, i));
      for (std::string item; std::getline(list, item, ',');) {
        const int l = std::atoi(item.c_str());
        if (l < 10 || l > 30) throw UsageError("--log2n takes sizes 10..30, e.g. 28,20");
        sizes.push_back(l);
      }
      if (sizes.empty()) throw UsageError("--log2n takes sizes 10..30, e.g. 28,20");
    } else throw UsageError("unknown option '" + args[i] + "'");
  }
  if (repeat < 1) throw UsageError("--repeat must be at least 1");
  try {
    if (!show_path.empty()) return show_measurements(show_path, reduce);
  } catch (const MeasurementsError& e) {
    std::cerr << "warpviz-cli bench: " << e.what() << "\n";
    return 2;
  }
#ifdef WARPVIZ_HAVE_CUDA
  std::optional<ReduceBenchmark> reduce_figures;
  std::optional<LatencyBenchmark> latency_figures;
  int code = 0;
  MeasuredOn* on = nullptr;
  if (reduce) {
    reduce_figures.emplace();
    code = run_reduce_benchmark(sizes, repeat, std::cerr, &*reduce_figures);
    on = &reduce_figures->on;
  } else {
    latency_figures.emplace();
    code = run_latency_benchmark(std::cerr, &*latency_figures);
    on = &latency_figures->on;
  }
  if (code == 2) return code;
  on->date = today_utc();
  on->command = command_line(args);
  if (reduce) print_reduce_benchmark(*reduce_figures, std::cout);
  else print_latency_benchmark(*latency_figures, std::cout);
  if (!json_path.empty()) {
    try {
      save_measurements(json_path, reduce_figures, latency_figures);
    } catch (const std::exception& e) {
      std::cerr << "warpviz-cli bench: " << e.what() << "\n";
      return 2;
    }
  }
  return code;
#else
  std::cerr << "warpviz-cli bench: bench " << args[0]
            << " needs a build with CUDA (nvcc was not found when warpviz was configured); --show FILE prints "
               "figures measured elsewhere, e.g. assets/measurements/h200.json\n";
  return 2;
#endif
}

}  // namespace

int run_bench(const Args& args) {
  if (!args.empty() && args[0] == "record") return bench_record(args);
  if (!args.empty() && args[0] == "reduce") return bench_costs(args, true);
  if (!args.empty() && args[0] == "latency") return bench_costs(args, false);
  if (!args.empty() && args[0] == "reload") return bench_reload(Args(args.begin() + 1, args.end()));
  if (wants_help(args) || args.empty() || args[0] != "emulator") {
    std::cout << kEmulatorUsage << kRecordUsage << kReduceUsage << kLatencyUsage;
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
