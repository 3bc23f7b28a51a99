// What the lane view draws for one trace step: 32 cells with values and
// marks, and arrows from source lanes to destination lanes. Pure logic; the
// renderer turns these into instanced quads, the tests check them.
#pragma once

#include <string>
#include <vector>

#include "warpviz/trace.h"
#include "warpviz/view/strings.h"

namespace warpviz::view {

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
  float cx() const { return x + w / 2; }
  float cy() const { return y + h / 2; }
};

// Two rows of 32 cells: the values going in (top) and coming out (bottom),
// fitted into a viewport; cells keep a readable aspect at any size. With
// `after_row`, a third row under the out row: a watched variable after the
// round (LaneFrame::after_name), close under the out row it was computed from.
struct LaneLayout {
  Rect in_cells[kWarpSize];
  Rect out_cells[kWarpSize];
  Rect after_cells[kWarpSize];  // all zero without the third row
  bool has_after = false;
  float cell_w = 0, cell_h = 0, font_px = 0;
};
LaneLayout layout_lanes(float viewport_w, float viewport_h, float dpi_scale, bool after_row = false);

enum class CellState : uint8_t {
  Active,      // ran the op
  Inactive,    // did not run it
  Undefined,   // ran it, result undefined by spec (drawn hatched / red)
  OutOfRange,  // shuffle source out of range: kept its own value
};

struct LaneCell {
  int lane = 0;
  CellState state = CellState::Inactive;
  std::string in_text, out_text;  // formatted by dtype (hex when asked)
  std::string after_text;         // the third row's value; "" when the lane has none
  // The types of those values (cell_text cuts a float's digits) and their
  // exact form for the tooltip (exact_value_text; "" where a text is none).
  DType in_type = DType::I32, out_type = DType::I32, after_type = DType::I32;
  std::string in_exact, out_exact, after_exact;
};

// How a round's watched value follows from the lane's own value (in) and the
// value it read (out), as the values themselves show it: `val += read` is Add,
// `val = fmaxf(val, read)` is Max; anything else (or lanes that disagree) Other.
enum class Combine : uint8_t { Add, Max, Other };

enum class ArrowKind : uint8_t { Read, KeepOwn, Undefined };

struct Arrow {
  int from_lane = 0, to_lane = 0;
  ArrowKind kind = ArrowKind::Read;
};

struct LaneFrame {
  std::vector<LaneCell> cells;   // 32
  std::vector<Arrow> arrows;     // shuffles only; one per active lane
  // Where the step is, 1-based: a round of a reduction (consecutive shuffles
  // of one warp: "round 2/5", what a student counts in warp_sum), else the
  // step of the whole trace as the timeline numbers it ("step 3/7").
  bool is_round = false;
  size_t number = 0, count = 0;
  std::string op_label;          // "shfl.down  offset 16  width 32  mask 0xffffffff"
  // A member mask naming lanes that never arrived (warpviz/mask_check.h):
  // the step's mask and those lanes; 0 when the mask is right.
  uint32_t mask = 0, absent_lanes = 0;

  // The third row: a reduction's running value after the round. A shuffle
  // whose next step in its warp is a watch (`val += __shfl_down_sync(...);
  // WARPVIZ_WATCH(val);`) shows the watch's values under its own; the watch
  // step shows the same picture, the round completed (`landed`), so stepping
  // onto it does not play the arrows again. after_name is "" without a row.
  std::string after_name;        // the watched variable: "val"
  Combine combine = Combine::Other;
  bool landed = false;           // a watch step repeating its round: draw it at rest
  size_t shuffle_index = 0, watch_index = 0;  // trace steps of the picture, when after_name is set
};

// A value as every view shows it: decimal, or the dtype's hex bits with `hex`;
// bits beyond a 32-bit type's width are shown (as 64-bit hex), never dropped.
std::string value_text(DType type, uint64_t bits, bool hex);

// A formatted value in at most `max_chars` characters, for a cell too narrow
// to show it whole at a readable size (the cell's tooltip shows it whole):
// integers with a k/M/G suffix, decimals with fewer digits, hex bits as their
// low digits after "…"; "" when not even that fits. Characters, not bytes.
std::string shorten_value(const std::string& text, size_t max_chars);
size_t utf8_length(const std::string& text);
// Results that are lane masks (ballot, activemask, match) read as bit patterns:
// the views show them in hex whatever `hex` says.
bool op_result_is_mask(Op op);

// Where step `index` is, 1-based: a round of a reduction (consecutive shuffles
// of one kind in one warp: round 2 of warp_sum's 5), else the step of the whole trace as
// the timeline numbers it (step 3 of 7).
struct StepPlace {
  bool is_round = false;
  size_t number = 0, count = 0;
};
StepPlace step_place(const Trace& trace, size_t index);

// Cells and arrows for step `index` of `trace`, and its place (a round or a step).
LaneFrame lane_frame(const Trace& trace, size_t index, bool hex);
// "round 2/5" or "step 3/7" in `language`.
std::string place_label(const LaneFrame& frame, Language language);

// What one lane did in the frame, for its tooltip: "lane 3 ← lane 11: 46" for
// a shuffle's read, with the round's sum when the frame has a third row:
// "lane 3 ← lane 11: 46; val 22 + 46 = 68". A lane that kept its own value, a
// read of an undefined value and other ops say so; "" for no such lane.
std::string lane_summary(const LaneFrame& frame, int lane, Language language);
// What the lane view says over a wrong mask, "" when frame.absent_lanes is 0:
// "mask 0xffffffff names lanes 16-31, which never arrived (on another path or
// exited): the result is undefined", in `language`.
std::string mask_warning(const LaneFrame& frame, Language language);
// The third row's label: "val after +=" (zh "val 相加之后"), "val after max", "val after".
std::string after_label(const LaneFrame& frame, Language language);

struct Point {
  float x = 0, y = 0;
};

// An arrow as the lane view draws it: a quadratic Bezier from the bottom of
// the source cell (top row) to the top of the destination cell (bottom row).
// Between two lanes it bows slightly upward, so crossing arrows stay
// tellable apart, but never out of the gap between the rows; a lane keeping
// its own value loops out to the side and back; a lane reading itself goes
// straight down.
struct ArrowCurve {
  Point from, control, to;
  Point at(float t) const;  // t in 0..1
};
ArrowCurve arrow_curve(const LaneLayout& layout, const Arrow& arrow);

// Where a value sits mid-animation: on its arrow's curve, t in 0..1 (eased by
// the caller; clamped, NaN is 0).
Point travelling_value(const LaneLayout& layout, const Arrow& arrow, float t);

}  // namespace warpviz::view
