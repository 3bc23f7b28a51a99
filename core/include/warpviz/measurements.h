// What warp code costs, measured on a GPU: the figures of `warpviz-cli bench
// reduce` and `bench latency`, and the file that ships them
// (assets/measurements/h200.json), which the app's Cost panel shows on a
// machine without a GPU. Plain data; JSON in and out.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace warpviz {

// Where figures came from.
struct MeasuredOn {
  std::string device;        // "NVIDIA H200"
  std::string driver;        // "580.95"
  std::string cuda_runtime;  // "13.0"
  int sm_count = 0;
  std::string date;          // "2026-12-01", UTC
  std::string command;       // the command line that made them
};

// One reduction variant's launches at one size and type.
struct ReduceTiming {
  std::string variant;      // "a", "b", "c", "d", "d-redux", "e"
  std::string description;  // what the variant is, in a few words
  std::string dtype;        // "f32" or "i32"
  int log2_n = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0;
  double gb_per_s = 0;       // input bytes / median time
  double copy_fraction = 0;  // gb_per_s over the measured device copy bandwidth
  double vs_cub = 0;         // CUB's median time / this one's: above 1 is faster than CUB
  bool correct = false;
  std::string check;         // how the sum was checked and what it gave
};

struct ReduceBenchmark {
  MeasuredOn on;
  double copy_gb_per_s = 0;      // read + written by a device-to-device copy, over 2
  double hbm_peak_gb_per_s = 0;  // from the memory clock and bus width, 0 when unknown
  int repeat = 0;
  std::vector<ReduceTiming> timings;

  const ReduceTiming* find(const std::string& variant, const std::string& dtype, int log2_n) const;
};

// One warp op's cost.
struct OpCost {
  std::string op;       // the trace's op name: "shfl.idx", "vote.ballot", "ld.shared", ...
  std::string variant;  // "constant source lane", "32-way conflict", ...; empty when there is one
  std::string how;      // what the chain is and what was subtracted
  double latency_cycles = 0;        // one dependent op, the chain's helper op subtracted
  double chain_cycles = 0;          // per link of the chain as measured
  double ops_per_sm_per_cycle = 0;  // warp-ops, every SM full of warps
};

struct LatencyBenchmark {
  MeasuredOn on;
  int chain_length = 0;
  double alu_cycles = 0;  // the dependent add that keeps chains honest
  std::vector<OpCost> ops;

  // The first entry for `op` (its first variant when `variant` is empty).
  const OpCost* find(const std::string& op, const std::string& variant = "") const;
};

// A verdict on one of the article's claims about speed.
struct ClaimVerdict {
  std::string claim;     // the article's words
  std::string measured;  // what was measured, in words with figures
  bool holds = false;
};

// The measurements file: any section may be missing.
struct Measurements {
  std::optional<ReduceBenchmark> reduce;
  std::optional<LatencyBenchmark> latency;

  // The article's speed claims as these figures answer them (empty when the
  // figures they need are missing).
  std::vector<ClaimVerdict> verdicts() const;
};

// Thrown for a file that is not a measurements file, with the reason.
struct MeasurementsError : std::exception {
  explicit MeasurementsError(std::string message) : what_(std::move(message)) {}
  const char* what() const noexcept override { return what_.c_str(); }
  std::string what_;
};

Measurements read_measurements(const std::string& path);
Measurements parse_measurements(const std::string& json_text, const std::string& origin = "measurements");
std::string measurements_to_json(const Measurements& m);

void print_reduce_benchmark(const ReduceBenchmark& bench, std::ostream& out);
void print_latency_benchmark(const LatencyBenchmark& bench, std::ostream& out);

}  // namespace warpviz
