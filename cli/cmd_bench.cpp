// warpviz-cli bench emulator: how fast the CPU emulator runs reduce_sum, by thread count.
// warpviz-cli bench load: how fast trace files load.
// warpviz-cli bench corpus: the corpus's programs on the CPU emulator (bench_corpus.cpp).
// warpviz-cli bench record: what recording costs on a GPU (bench_record.cu).
// warpviz-cli bench reduce / latency: what warp code costs on a GPU
// (bench_reduce.cu, bench_latency.cu), written to a measurements file.
// A benchmark prints figures and checks results; missed goals are reported.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_command.h"
#include "warpviz/backends.h"
#include "warpviz/file_write.h"
#include "warpviz/measurements.h"
#include "warpviz/scenario.h"
#include "warpviz/trace_io.h"
#include "warpviz/warp_scheduler.h"
#ifdef WARPVIZ_HAVE_CUDA
#include "warpviz/latency_benchmark.h"
#include "warpviz/record_benchmark.h"
#include "warpviz/reduce_benchmark.h"
#endif

namespace warpviz::cli {

namespace {

const char* const kEmulatorUsage =
    "usage: warpviz-cli bench emulator [--threads N[,N...]] [--n N] [--block B] [--repeat R] [--no-record] [--json]\n"
    "  Runs reduce_sum (n = 1048576, block 256 by default) on the CPU emulator,\n"
    "  recording every warp (--no-record: none, the scheduler's cost alone), with each thread count (1 and every core by default),\n"
    "  and prints the best of R runs (3 by default): wall time, lane-ops per second,\n"
    "  the speed-up over the first count, and the trace size. Each count's trace\n"
    "  and outputs must equal the first's, byte for byte (exit 1 when not).\n"
    "  Goals: under 5 s for n = 1048576 on a 2-core machine; 2 threads >= 1.7 x one;\n"
    "  >= 40 M lane-ops/s on 16 cores. --json prints the figures as JSON instead.\n";

const char* const kLoadUsage =
    "usage: warpviz-cli bench load FILE... [--repeat R] [--max-bytes N] [--json]\n"
    "  Loads each trace file (.wvt or JSON, as warpviz-cli and the app load them)\n"
    "  R times (5 by default) and prints the median: seconds, lane records per\n"
    "  second (a lane record is one lane of one step: steps x 32), file MB/s, and\n"
    "  the bytes the loaded trace holds in memory per lane record.\n"
    "  Goal: >= 100 M lane records/s for .wvt.\n";

// Bytes a trace holds in memory: its steps (the arena and the offsets, as
// reserved), outputs and strings.
size_t trace_bytes_in_memory(const Trace& t) {
  size_t bytes = sizeof(Trace) + t.steps.bytes_in_memory();
  for (const TraceOutput& o : t.outputs) bytes += sizeof o + o.name.capacity() + o.bits.capacity() * sizeof(uint64_t);
  bytes += t.meta.source_text.capacity() + t.meta.scenario.capacity() + t.meta.device.capacity();
  for (const auto& [k, v] : t.meta.params) bytes += k.capacity() + v.capacity() + 64;
  return bytes;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The thread counts of --threads: "1,16", "4"; 0 is every core.
std::vector<unsigned> parse_thread_counts(const std::string& text) {
  std::vector<unsigned> counts;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) {
    char* end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != 0 || v < 0 || v > long(emu::kMaxEmulatorThreads))
      throw UsageError("--threads takes counts 0.." + std::to_string(emu::kMaxEmulatorThreads) +
                       " separated by commas (0: every core), e.g. 1,16");
    counts.push_back(v == 0 ? std::max(1u, std::thread::hardware_concurrency()) : unsigned(v));
  }
  if (counts.empty()) throw UsageError("--threads takes counts separated by commas, e.g. 1,16");
  return counts;
}

bool same_trace_bytes(const Trace& a, const Trace& b) {
  if (a.steps.size() != b.steps.size() || a.overflow != b.overflow || a.outputs.size() != b.outputs.size())
    return false;
  for (size_t i = 0; i < a.outputs.size(); ++i)
    if (a.outputs[i].bits != b.outputs[i].bits) return false;
  // The steps as held, encoded: byte for byte.
  if (a.steps.encoded_bytes() != b.steps.encoded_bytes()) return false;
  for (size_t i = 0; i < a.steps.size(); ++i)
    if (a.steps.step_size(i) != b.steps.step_size(i)) return false;
  return std::memcmp(a.steps.encoded_data(), b.steps.encoded_data(), a.steps.encoded_bytes()) == 0;
}

int bench_emulator(const Args& args) {
  std::string n = "1048576", block = "256";
  int repeat = 3;
  bool json = false;
  bool record = true;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::vector<unsigned> thread_counts = {1};
  if (cores > 1) thread_counts.push_back(cores);
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--n") n = option_value(args, i);
    else if (args[i] == "--block") block = option_value(args, i);
    else if (args[i] == "--repeat") repeat = std::max(1, std::atoi(option_value(args, i).c_str()));
    else if (args[i] == "--threads") thread_counts = parse_thread_counts(option_value(args, i));
    else if (args[i] == "--json") json = true;
    else if (args[i] == "--no-record") record = false;
    else throw UsageError("unknown option '" + args[i] + "'");
  }
  // --no-record: the scheduler's cost alone, every warp running unrecorded.
  emu::RecordFilter filter;
  if (!record) filter.blocks = {UINT32_MAX};
  const ResolvedScenario resolved = resolve_scenario({"reduce_sum", {{"n", n}, {"block", block}}, "ones"});
  if (!json)
    std::cout << "bench emulator: reduce_sum n=" << n << " block=" << block
              << ", input ones, " << (record ? "every warp recorded" : "nothing recorded") << "; " << counted(cores, "core") << "\n";
  struct Row {
    unsigned threads;
    double seconds, lane_ops_per_s;
    bool same;
  };
  std::vector<Row> rows;
  std::optional<Trace> first_trace;
  emu::LaunchStats stats;
  size_t steps = 0, step_bytes = 0;
  bool all_same = true;
  for (const unsigned threads : thread_counts) {
    emu::set_emulator_threads(threads);
    double best = 1e300;
    bool same = true;
    for (int r = 0; r < repeat; ++r) {
      const auto start = std::chrono::steady_clock::now();
      Trace trace = run_scenario_cpu(resolved, filter, &stats);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      best = std::min(best, seconds);
      steps = trace.steps.size();
      step_bytes = trace.steps.bytes_in_memory();
      if (!first_trace) first_trace = std::move(trace);
      else same = same && same_trace_bytes(*first_trace, trace);
    }
    emu::set_emulator_threads(0);
    all_same = all_same && same;
    rows.push_back({threads, best, double(stats.lane_ops) / best, same});
    if (!json) {
      const Row& row = rows.back();
      std::cout << std::fixed << std::setprecision(3) << "  " << std::setw(3) << threads << " thread"
                << (threads == 1 ? " " : "s") << ": " << row.seconds << " s, " << std::setprecision(1)
                << row.lane_ops_per_s / 1e6 << " M lane-ops/s, " << std::setprecision(2)
                << rows.front().seconds / row.seconds << " x the first" << (same ? "" : "  TRACE DIFFERS") << "\n";
    }
  }
  if (json) {
    nlohmann::ordered_json j;
    j["bench"] = "emulator";
    j["scenario"] = "reduce_sum";
    j["n"] = std::stoll(n);
    j["block"] = std::stoll(block);
    j["cores"] = cores;
    j["threads_total"] = stats.threads;
    j["warp_ops"] = stats.warp_ops;
    j["lane_ops"] = stats.lane_ops;
    j["steps"] = steps;
    j["runs"] = nlohmann::ordered_json::array();
    for (const Row& row : rows)
      j["runs"].push_back({{"threads", row.threads},
                           {"best_s", row.seconds},
                           {"lane_ops_per_s", row.lane_ops_per_s},
                           {"speedup", rows.front().seconds / row.seconds},
                           {"same_trace", row.same}});
    std::cout << j.dump(1) << "\n";
  } else {
    double total = 0;
    for (uint64_t bits : first_trace->output("out")->bits) total += double(std::bit_cast<float>(uint32_t(bits)));
    std::cout << "  " << counted(stats.threads, "thread") << ", " << counted(stats.warp_ops, "warp op") << ", "
              << counted(stats.lane_ops, "lane-op") << ", " << counted(steps, "step") << " ("<< std::fixed << std::setprecision(1)
              << double(step_bytes) / (1 << 20) << " MiB), sum of outputs " << std::setprecision(0)
              << total << "\n";
    std::cout << (all_same ? "every thread count gave the first one's trace, byte for byte\n"
                           : "MISMATCH: a thread count gave a different trace\n");
  }
  return all_same ? 0 : 1;
}

int bench_load(const Args& args) {
  if (wants_help(args)) {
    std::cout << kLoadUsage;
    return 0;
  }
  std::vector<std::string> files;
  int repeat = 5;
  bool json = false;
  uint64_t max_bytes = 0;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--repeat") repeat = std::max(1, std::atoi(option_value(args, i).c_str()));
    else if (args[i] == "--json") json = true;
    else if (args[i] == "--max-bytes") max_bytes = max_bytes_value(args, i);
    else if (args[i].size() > 1 && args[i][0] == '-') throw UsageError("unknown option '" + args[i] + "'");
    else files.push_back(args[i]);
  }
  if (files.empty()) throw UsageError("bench load takes one or more trace files");
  if (max_bytes == 0) max_bytes = max_trace_bytes();
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const std::string& file : files) {
    std::vector<double> seconds;
    size_t steps = 0, held = 0, encoded = 0;
    for (int r = 0; r < repeat; ++r) {
      const auto start = std::chrono::steady_clock::now();
      const Trace trace = load_trace(file, max_bytes);
      seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      steps = trace.steps.size();
      held = trace_bytes_in_memory(trace);
      encoded = trace.steps.encoded_bytes();
    }
    const double s = median(seconds);
    const double records = double(steps) * kWarpSize;
    const double file_bytes = double(std::filesystem::file_size(file));
    if (json) {
      rows.push_back({{"file", file},
                      {"bytes", uint64_t(file_bytes)},
                      {"steps", steps},
                      {"lane_records", uint64_t(records)},
                      {"median_s", s},
                      {"lane_records_per_s", records / s},
                      {"memory_bytes_per_lane_record", records ? double(held) / records : 0.0}});
      continue;
    }
    std::cout << std::fixed << std::setprecision(1) << file << ": " << file_bytes / 1e6 << " MB, " << counted(steps, "step")
              << ", " << counted(uint64_t(records), "lane record") << "\n"
              << std::setprecision(3) << "  median of " << counted(repeat, "load") << ": " << s << " s, "
              << std::setprecision(1) << records / s / 1e6 << " M lane records/s, " << file_bytes / s / 1e6
              << " MB/s\n"
              << "  in memory: " << std::setprecision(2) << (records ? double(held) / records : 0.0)
              << " bytes per lane record (steps held encoded as in a .wvt: " << std::setprecision(2)
              << (records ? double(encoded) / records : 0.0) << " per lane record, a 32-bit step "
              << step_encoding::step_bytes(0) << " bytes)\n";
  }
  if (json) std::cout << rows.dump(1) << "\n";
  return 0;
}

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
  if (!args.empty() && args[0] == "load") return bench_load(args);
  if (!args.empty() && args[0] == "corpus") return bench_corpus(args);
  if (wants_help(args) || args.empty() || args[0] != "emulator") {
    std::cout << kEmulatorUsage << kLoadUsage << kRecordUsage << kReduceUsage << kLatencyUsage
              << "usage: warpviz-cli bench corpus [--corpus DIR] [--only REGEX] [--timeout S] [--rows FILE]\n"
                 "  The corpus's real CUDA programs on the CPU emulator: time and lane-ops/s each\n"
                 "  (bench corpus --help says more).\n";
    return wants_help(args) ? 0 : 2;
  }
  return bench_emulator(args);
}

}  // namespace warpviz::cli
