// The register history: a lane x step table of values, and the step a click
// on a cell jumps to.
#pragma once

#include <string>
#include <vector>

#include "warpviz/trace.h"

namespace warpviz::view {

struct HistoryCell {
  bool active = false;
  bool undefined = false;
  double heat = 0;        // 0..1 for the heatmap: the value's rank among the column's values
  std::string text;       // formatted value ("out" of the step)
};

// Steps of one warp (block, warp), in order; rows are lanes, columns steps.
struct HistoryTable {
  std::vector<size_t> step_indices;              // trace.steps index of each column
  std::vector<std::vector<HistoryCell>> cells;   // [lane][column]
};
HistoryTable history_table(const Trace& trace, uint32_t block, uint32_t warp, bool hex);

}  // namespace warpviz::view
