// The measurements file and the benchmark tables. The file is JSON:
//   {"format": "warpviz-measurements", "version": 1,
//    "reduce":  {"on": {...}, "copy_gb_per_s": ..., "timings": [...]},
//    "latency": {"on": {...}, "alu_cycles": ..., "ops": [...]},
//    "verdicts": [...]}   (written for readers; recomputed when read)
#include "warpviz/measurements.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace warpviz {

namespace {

using Json = nlohmann::ordered_json;
constexpr const char* kFormat = "warpviz-measurements";
constexpr int kVersion = 1;

Json to_json(const MeasuredOn& on) {
  return {{"device", on.device}, {"driver", on.driver}, {"cuda_runtime", on.cuda_runtime},
          {"sm_count", on.sm_count}, {"date", on.date}, {"command", on.command}};
}

MeasuredOn measured_on(const Json& j) {
  MeasuredOn on;
  on.device = j.value("device", "");
  on.driver = j.value("driver", "");
  on.cuda_runtime = j.value("cuda_runtime", "");
  on.sm_count = j.value("sm_count", 0);
  on.date = j.value("date", "");
  on.command = j.value("command", "");
  return on;
}

void print_verdicts(const Measurements& m, std::ostream& out);

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

}  // namespace

const ReduceTiming* ReduceBenchmark::find(const std::string& variant, const std::string& dtype, int log2_n) const {
  for (const ReduceTiming& t : timings)
    if (t.variant == variant && t.dtype == dtype && t.log2_n == log2_n) return &t;
  return nullptr;
}

const OpCost* LatencyBenchmark::find(const std::string& op, const std::string& variant) const {
  for (const OpCost& c : ops)
    if (c.op == op && (variant.empty() || c.variant == variant)) return &c;
  return nullptr;
}

std::vector<ClaimVerdict> Measurements::verdicts() const {
  std::vector<ClaimVerdict> out;
  if (latency) {
    const OpCost* shfl = latency->find("shfl.idx", "constant source lane");
    const OpCost* ld = latency->find("ld.shared", "conflict-free");
    if (shfl)
      out.push_back({"shuffles \"延迟以个位数 cycle 计\" (single-digit-cycle latency)",
                     "shfl.idx: " + fixed(shfl->latency_cycles, 1) + " cycles", shfl->latency_cycles < 10.0});
    if (shfl && ld)
      out.push_back({"exchanging registers is faster than going through shared memory",
                     "shfl.idx " + fixed(shfl->latency_cycles, 1) + " cycles, conflict-free ld.shared " +
                         fixed(ld->latency_cycles, 1) + " cycles",
                     shfl->latency_cycles < ld->latency_cycles});
  }
  if (reduce) {
    int largest = 0;
    for (const ReduceTiming& t : reduce->timings) largest = std::max(largest, t.log2_n);
    for (const char* dtype : {"f32", "i32"}) {
      const ReduceTiming* tree = reduce->find("a", dtype, largest);
      const ReduceTiming* shuffle = reduce->find("b", dtype, largest);
      if (tree && shuffle)
        out.push_back({std::string("reduction \"还能靠 warp shuffle 再快一截\" (faster with warp shuffles), ") + dtype,
                       "2^" + std::to_string(largest) + " values, one per thread: shared-memory tree " +
                           fixed(tree->median_ms, 3) + " ms, warp shuffles " + fixed(shuffle->median_ms, 3) + " ms (" +
                           fixed(tree->median_ms / shuffle->median_ms, 2) + "x)",
                       shuffle->median_ms < tree->median_ms});
    }
  }
  return out;
}

std::string measurements_to_json(const Measurements& m) {
  Json doc = {{"format", kFormat}, {"version", kVersion}};
  if (m.reduce) {
    const ReduceBenchmark& r = *m.reduce;
    Json timings = Json::array();
    for (const ReduceTiming& t : r.timings)
      timings.push_back({{"variant", t.variant}, {"description", t.description}, {"dtype", t.dtype},
                         {"log2_n", t.log2_n}, {"median_ms", t.median_ms}, {"min_ms", t.min_ms},
                         {"max_ms", t.max_ms}, {"gb_per_s", t.gb_per_s}, {"copy_fraction", t.copy_fraction},
                         {"vs_cub", t.vs_cub}, {"correct", t.correct}, {"check", t.check}});
    doc["reduce"] = {{"on", to_json(r.on)}, {"copy_gb_per_s", r.copy_gb_per_s},
                     {"hbm_peak_gb_per_s", r.hbm_peak_gb_per_s}, {"repeat", r.repeat}, {"timings", timings}};
  }
  if (m.latency) {
    const LatencyBenchmark& l = *m.latency;
    Json ops = Json::array();
    for (const OpCost& c : l.ops)
      ops.push_back({{"op", c.op}, {"variant", c.variant}, {"how", c.how}, {"latency_cycles", c.latency_cycles},
                     {"chain_cycles", c.chain_cycles}, {"ops_per_sm_per_cycle", c.ops_per_sm_per_cycle}});
    doc["latency"] = {{"on", to_json(l.on)}, {"chain_length", l.chain_length}, {"alu_cycles", l.alu_cycles},
                      {"ops", ops}};
  }
  Json verdicts = Json::array();
  for (const ClaimVerdict& v : m.verdicts())
    verdicts.push_back({{"claim", v.claim}, {"measured", v.measured}, {"holds", v.holds}});
  doc["verdicts"] = verdicts;
  return doc.dump(2) + "\n";
}

Measurements parse_measurements(const std::string& json_text, const std::string& origin) {
  Json doc;
  try {
    doc = Json::parse(json_text);
  } catch (const std::exception& e) {
    throw MeasurementsError(origin + ": not JSON: " + e.what());
  }
  if (!doc.is_object() || doc.value("format", "") != kFormat)
    throw MeasurementsError(origin + ": not a warpviz measurements file (no \"format\": \"" + kFormat + "\")");
  if (!doc["version"].is_number_integer() || doc["version"].get<int>() > kVersion)
    throw MeasurementsError(origin + ": measurements version " + doc["version"].dump() + " is newer than this warpviz");
  Measurements m;
  try {
    if (doc.contains("reduce")) {
      const Json& r = doc["reduce"];
      ReduceBenchmark b;
      b.on = measured_on(r.value("on", Json::object()));
      b.copy_gb_per_s = r.value("copy_gb_per_s", 0.0);
      b.hbm_peak_gb_per_s = r.value("hbm_peak_gb_per_s", 0.0);
      b.repeat = r.value("repeat", 0);
      for (const Json& t : r.value("timings", Json::array())) {
        ReduceTiming x;
        x.variant = t.at("variant").get<std::string>();
        x.description = t.value("description", "");
        x.dtype = t.at("dtype").get<std::string>();
        x.log2_n = t.at("log2_n").get<int>();
        x.median_ms = t.at("median_ms").get<double>();
        x.min_ms = t.value("min_ms", x.median_ms);
        x.max_ms = t.value("max_ms", x.median_ms);
        x.gb_per_s = t.value("gb_per_s", 0.0);
        x.copy_fraction = t.value("copy_fraction", 0.0);
        x.vs_cub = t.value("vs_cub", 0.0);
        x.correct = t.value("correct", false);
        x.check = t.value("check", "");
        b.timings.push_back(x);
      }
      m.reduce = b;
    }
    if (doc.contains("latency")) {
      const Json& l = doc["latency"];
      LatencyBenchmark b;
      b.on = measured_on(l.value("on", Json::object()));
      b.chain_length = l.value("chain_length", 0);
      b.alu_cycles = l.value("alu_cycles", 0.0);
      for (const Json& c : l.value("ops", Json::array())) {
        OpCost x;
        x.op = c.at("op").get<std::string>();
        x.variant = c.value("variant", "");
        x.how = c.value("how", "");
        x.latency_cycles = c.at("latency_cycles").get<double>();
        x.chain_cycles = c.value("chain_cycles", 0.0);
        x.ops_per_sm_per_cycle = c.value("ops_per_sm_per_cycle", 0.0);
        b.ops.push_back(x);
      }
      m.latency = b;
    }
  } catch (const nlohmann::json::exception& e) {
    throw MeasurementsError(origin + ": " + e.what());
  }
  return m;
}

Measurements read_measurements(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MeasurementsError(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_measurements(text.str(), path);
}

namespace {

// The article's claims these figures answer, one line each.
void print_verdicts(const Measurements& m, std::ostream& out) {
  for (const ClaimVerdict& v : m.verdicts())
    out << "  the article: " << v.claim << "\n    " << v.measured << ": "
        << (v.holds ? "holds on this GPU" : "does not hold on this GPU") << "\n";
}

}  // namespace

void print_reduce_benchmark(const ReduceBenchmark& bench, std::ostream& out) {
  out << "bench reduce: " << bench.on.device << " (" << bench.on.sm_count << " SMs), driver " << bench.on.driver
      << ", CUDA runtime " << bench.on.cuda_runtime << "\n"
      << "  copy bandwidth " << fixed(bench.copy_gb_per_s, 1) << " GB/s (device-to-device, (read + written) / 2)";
  if (bench.hbm_peak_gb_per_s > 0) out << ", HBM peak " << fixed(bench.hbm_peak_gb_per_s, 1) << " GB/s";
  out << "\n  median of " << bench.repeat
      << " launches per variant, variants interleaved, L2 flushed before each launch\n";
  std::string section;
  for (const ReduceTiming& t : bench.timings) {
    const std::string here = t.dtype + ", n = 2^" + std::to_string(t.log2_n);
    if (here != section) {
      section = here;
      out << "\n  " << here << "\n  " << std::left << std::setw(9) << "variant" << std::right << std::setw(11)
          << "median ms" << std::setw(10) << "min ms" << std::setw(10) << "max ms" << std::setw(9) << "GB/s"
          << std::setw(8) << "copy" << std::setw(8) << "x CUB" << "  check\n";
    }
    out << "  " << std::left << std::setw(9) << t.variant << std::right << std::setw(11) << fixed(t.median_ms, 4)
        << std::setw(10) << fixed(t.min_ms, 4) << std::setw(10) << fixed(t.max_ms, 4) << std::setw(9)
        << fixed(t.gb_per_s, 0) << std::setw(7) << fixed(100 * t.copy_fraction, 0) << "%" << std::setw(8)
        << fixed(t.vs_cub, 3) << "  " << (t.correct ? "ok, " : "WRONG, ") << t.check << "\n";
  }
  out << "\n  variants:\n";
  std::vector<std::string> seen;
  for (const ReduceTiming& t : bench.timings)
    if (std::find(seen.begin(), seen.end(), t.variant) == seen.end()) {
      seen.push_back(t.variant);
      out << "    " << std::left << std::setw(10) << t.variant << std::right << t.description << "\n";
    }
  int largest = 0;
  for (const ReduceTiming& t : bench.timings) largest = std::max(largest, t.log2_n);
  out << "\n  goal: (d) >= 1.00 x CUB at 2^" << largest << "\n";
  for (const char* dtype : {"f32", "i32"}) {
    // warpviz's fastest: the best of the (d) family.
    const ReduceTiming* best = nullptr;
    for (const ReduceTiming& t : bench.timings)
      if (t.dtype == dtype && t.log2_n == largest && t.variant[0] == 'd' && (!best || t.vs_cub > best->vs_cub))
        best = &t;
    if (best)
      out << "    " << dtype << ": (" << best->variant << ") " << fixed(best->vs_cub, 3) << " x CUB   "
          << (best->vs_cub >= 1.0 ? "PASS" : "MISS") << "\n";
  }
  Measurements m;
  m.reduce = bench;
  print_verdicts(m, out);
}

void print_latency_benchmark(const LatencyBenchmark& bench, std::ostream& out) {
  out << "bench latency: " << bench.on.device << " (" << bench.on.sm_count << " SMs), driver " << bench.on.driver
      << ", CUDA runtime " << bench.on.cuda_runtime << "\n"
      << "  latency: one warp, chains of " << bench.chain_length << " dependent ops, clock64, fastest of several runs\n"
      << "  the dependent add.u32 that keeps a chain honest: " << fixed(bench.alu_cycles, 2)
      << " cycles per link, subtracted where a chain has it\n"
      << "  throughput: every SM full of warps, independent chains per thread\n\n"
      << "  " << std::left << std::setw(38) << "op" << std::right << std::setw(9) << "latency" << std::setw(10)
      << "per link" << std::setw(19) << "warp-ops/SM/cycle" << "\n";
  for (const OpCost& c : bench.ops)
    out << "  " << std::left << std::setw(38) << (c.op + (c.variant.empty() ? "" : " (" + c.variant + ")"))
        << std::right << std::setw(9) << fixed(c.latency_cycles, 2) << std::setw(10) << fixed(c.chain_cycles, 2)
        << std::setw(19) << fixed(c.ops_per_sm_per_cycle, 3) << "\n";
  out << "  (cycles; how each chain is built:)\n";
  for (const OpCost& c : bench.ops)
    out << "    " << c.op << (c.variant.empty() ? "" : " (" + c.variant + ")") << ": " << c.how << "\n";
  Measurements m;
  m.latency = bench;
  print_verdicts(m, out);
}

}  // namespace warpviz
