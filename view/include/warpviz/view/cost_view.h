// The Cost panel's content: what the current step's op costs on a real GPU,
// from a measurements file (assets/measurements/h200.json when this machine
// has no GPU), and, for the reduction scenarios, the reduction bandwidths
// against CUB. Pure logic; the panel draws it, the tests check it.
#pragma once

#include <string>
#include <vector>

#include "warpviz/measurements.h"
#include "warpviz/trace.h"
#include "warpviz/view/strings.h"

namespace warpviz::view {

struct CostRow {
  std::string label;  // "shfl.down", "ld.shared (32-way conflict)"
  double latency_cycles = 0;
  double ops_per_sm_per_cycle = 0;
  bool current = false;  // the row of the step's own op
};

// One bar of the reduction chart.
struct ReductionBar {
  std::string variant, description;
  std::string label;  // what the bar is, in a few words beside it ("warp shuffles"; bar_label)
  double gb_per_s = 0;
  double vs_cub = 0;
  bool is_cub = false;
};

struct CostView {
  std::string source;     // "measured on NVIDIA H200, 2026-12-01 (shipped figures)"
  std::string op;         // the step's op name; empty without a step
  bool measured = false;  // the measurements have the step's op
  std::vector<CostRow> rows;  // the step's op first, then the related ops to compare with
  // Shared-memory steps: the bank model's wavefronts times the measured cost
  // of one (the 32-way figure's excess over conflict-free, spread over 31).
  bool shared = false;
  unsigned wavefronts = 0;
  double conflict_free_cycles = 0, cycles_per_extra_wavefront = 0, estimated_cycles = 0;
  // Reduction scenarios: every variant at the largest size, the step's type.
  std::vector<ReductionBar> bars;
  std::string bars_title;  // "f32, 2^28 values"
  double copy_gb_per_s = 0, hbm_peak_gb_per_s = 0;
  std::string message;     // why there is nothing to show, when there is not
};

// A reduction variant's name in words for its bar: the shipped variants by
// what they do ("shared-memory tree", "CUB"), any other by its description
// up to the first comma, else its letter.
std::string bar_label(const std::string& variant, const std::string& description, Language language);

// `origin` says where the figures came from ("shipped" or "this GPU").
CostView cost_view(const Measurements& measurements, const std::string& origin, const Trace& trace,
                   size_t step_index, Language language);

}  // namespace warpviz::view
