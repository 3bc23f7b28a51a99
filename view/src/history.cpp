// The register history: every lane's result at every step of one warp, with a
// heat value so the reduction's flow of larger values shows at a glance.
#include "warpviz/view/history.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>

#include "warpviz/view/lane_view.h"

namespace warpviz::view {

namespace {

// Numeric order of two values of one type; NaNs sort above everything, so a
// NaN stands out at the hot end rather than breaking the ranking.
bool less_value(DType type, uint64_t a, uint64_t b) {
  switch (type) {
    case DType::I32: return int32_t(uint32_t(a)) < int32_t(uint32_t(b));
    case DType::U32: return uint32_t(a) < uint32_t(b);
    case DType::I64: return int64_t(a) < int64_t(b);
    case DType::U64: return a < b;
    case DType::F32:
    case DType::F64: {
      auto as_double = [type](uint64_t bits) {
        return type == DType::F32 ? double(std::bit_cast<float>(uint32_t(bits))) : std::bit_cast<double>(bits);
      };
      const double x = as_double(a), y = as_double(b);
      if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);
      return x < y;
    }
  }
  return a < b;
}

}  // namespace

bool trace_has_watches(const Trace& trace) {
  for (size_t i = 0; i < trace.steps.size(); ++i)
    if (op_is_watch(trace.steps.op(i))) return true;
  return false;
}

int history_column(const Trace& trace, const HistoryTable& table, size_t step) {
  const auto& s = table.step_indices;
  const bool watch = step < trace.steps.size() && op_is_watch(trace.steps.op(step));
  // step - 1 wraps at 0 and matches nothing.
  const size_t other = watch ? step - 1 : step + 1;
  for (size_t candidate : {step, other}) {
    const auto found = std::find(s.begin(), s.end(), candidate);
    if (found != s.end()) return int(found - s.begin());
  }
  return -1;
}

HistoryTable history_table(const Trace& trace, uint32_t block, uint32_t warp, bool hex, HistoryColumns columns) {
  HistoryTable table;
  // By the steps' headers: only the warp's own steps are decoded, below.
  const TraceSteps& steps = trace.steps;
  for (size_t i = 0; i < steps.size(); ++i) {
    if (steps.block(i) != block || steps.warp(i) != warp) continue;
    if (columns == HistoryColumns::Watched && !op_is_watch(steps.op(i))) continue;
    if (columns == HistoryColumns::OpResults && op_is_watch(steps.op(i))) continue;
    table.step_indices.push_back(i);
  }
  table.cells.assign(kWarpSize, std::vector<HistoryCell>(table.step_indices.size()));

  for (size_t column = 0; column < table.step_indices.size(); ++column) {
    const TraceStep& step = trace.steps[table.step_indices[column]];
    const DType type = op_result_dtype(step.op, step.dtype);
    const bool show_hex = hex || op_result_is_mask(step.op);

    // Heat is a dense rank among the column's defined values: equal values get
    // equal heat, and one outlier cannot flatten the rest as a linear scale would.
    std::vector<uint64_t> ranked;
    for (const LaneRecord& rec : step.lanes)
      if (rec.active() && !rec.undefined()) ranked.push_back(rec.out);
    auto less = [type](uint64_t a, uint64_t b) { return less_value(type, a, b); };
    std::sort(ranked.begin(), ranked.end(), less);
    ranked.erase(std::unique(ranked.begin(), ranked.end(),
                             [&](uint64_t a, uint64_t b) { return !less(a, b) && !less(b, a); }),
                 ranked.end());

    for (int lane = 0; lane < kWarpSize; ++lane) {
      const LaneRecord& rec = step.lanes[lane];
      HistoryCell& cell = table.cells[lane][column];
      cell.active = rec.active();
      cell.undefined = rec.undefined();
      if (!rec.active()) continue;
      if (op_is_shuffle(step.op) && rec.src >= 0 && rec.src < kWarpSize) cell.src = rec.src;
      cell.text = value_text(type, rec.out, show_hex);
      if (rec.undefined() || ranked.size() < 2) continue;
      const auto rank = std::lower_bound(ranked.begin(), ranked.end(), rec.out, less) - ranked.begin();
      cell.heat = double(rank) / double(ranked.size() - 1);
    }
  }
  return table;
}

std::string history_header(const Trace& trace, const PlayOrder& order, size_t step, Language language) {
  if (step >= trace.steps.size()) return "";
  const TraceStep s = trace.steps[step];
  const std::string what = op_is_watch(s.op) ? watch_name(s.args) : std::string(op_name(s.op));
  const StepPlace place = step_place(trace, step);
  char where[64];
  if (place.is_round)
    std::snprintf(where, sizeof where, tr(Text::RoundOf, language), place.number, place.count);
  else
    std::snprintf(where, sizeof where, tr(Text::StepNumber, language), order.position_of(step) + 1);
  return what + "\n" + where;
}

}  // namespace warpviz::view
