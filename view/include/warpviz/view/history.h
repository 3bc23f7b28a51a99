// The register history: a lane x step table of values, and the step a click
// on a cell jumps to.
#pragma once

#include <string>
#include <vector>

#include "warpviz/trace.h"
#include "warpviz/view/play_order.h"
#include "warpviz/view/strings.h"

namespace warpviz::view {

struct HistoryCell {
  bool active = false;
  bool undefined = false;
  double heat = 0;        // 0..1 for the heatmap: the value's rank among the column's values
  std::string text;       // formatted value ("out" of the step)
  int src = -1;           // shuffles: the lane the value was read from; -1 otherwise
};

// Which of the warp's steps are columns: a reduction reads best as its
// watched running value round by round; the op results show what each
// shuffle read.
enum class HistoryColumns : uint8_t {
  All,
  Watched,    // watch steps only (WARPVIZ_WATCH)
  OpResults,  // every step but the watches
};
bool trace_has_watches(const Trace& trace);

// Steps of one warp (block, warp), in order; rows are lanes, columns steps.
struct HistoryTable {
  std::vector<size_t> step_indices;              // trace.steps index of each column
  std::vector<std::vector<HistoryCell>> cells;   // [lane][column]
};
HistoryTable history_table(const Trace& trace, uint32_t block, uint32_t warp, bool hex,
                           HistoryColumns columns = HistoryColumns::All);
// The column that stands for trace step `step`: its own, else the round's
// other step (a shuffle's watch right after it, a watch's shuffle right
// before); -1 when neither is a column.
int history_column(const Trace& trace, const HistoryTable& table, size_t step);

// A column's header in words, two lines: what the step is (a watch by its
// variable's name, what the student wrote; else the op) over its place, as
// the lane view names it: "val" / "round 2/5", "ballot" / "step 3" (the
// step's play position, 1-based, as the timeline counts). Never "2 val",
// which reads as two values.
std::string history_header(const Trace& trace, const PlayOrder& order, size_t step, Language language);

}  // namespace warpviz::view
