// The lane view's geometry and per-step content: where the 64 cells go, what
// each says, and which lane each value travels from.
//
// Sections:
//   layout          layout_lanes
//   texts           values and the op label
//   frame           lane_frame
//   animation       arrow_curve, travelling_value
#include "warpviz/view/lane_view.h"

#include "warpviz/mask_check.h"
#include "warpviz/view/cell_text.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace warpviz::view {

// ---- layout -------------------------------------------------------------------

namespace {

constexpr float kArrowGapShare = 0.40f;  // of the usable height, between the rows
constexpr float kArrowGapShareWithAfter = 0.32f;
constexpr float kAfterGapShare = 0.25f;  // of a cell's height, between the out and after rows
constexpr float kCellSpacing = 0.12f;    // of a column's pitch, between cells
// Cells may be much wider than tall (values need width) but not much taller:
// tall thin cells waste the height the arrows need and read badly.
constexpr float kMaxCellAspect = 1.25f;  // height / width

float non_negative(float v) { return v > 0 ? v : 0; }  // also turns NaN into 0

}  // namespace

LaneLayout layout_lanes(float viewport_w, float viewport_h, float dpi_scale, bool after_row) {
  LaneLayout layout;
  const float w = non_negative(viewport_w), h = non_negative(viewport_h);
  const float dpi = dpi_scale > 0 ? dpi_scale : 1.0f;

  // Margins grow with the viewport and the DPI, but never eat more than a tenth
  // of a side, so a tiny panel still shows its cells.
  const float margin_x = std::min(std::max(12.0f * dpi, 0.02f * w), 0.1f * w);
  const float margin_y = std::min(std::max(12.0f * dpi, 0.04f * h), 0.1f * h);
  const float usable_w = w - 2 * margin_x, usable_h = h - 2 * margin_y;

  const float pitch = usable_w / kWarpSize;
  const float spacing = pitch * kCellSpacing;
  const float cell_w = pitch - spacing;
  // A third row takes some of the arrows' gap: the arrows still need room to
  // be told apart, the values need the height more.
  const float arrow_gap = usable_h * (after_row ? kArrowGapShareWithAfter : kArrowGapShare);
  const float rows = after_row ? 3 + kAfterGapShare : 2;  // the small gap under the out row, in cell heights
  const float cell_h = std::min((usable_h - arrow_gap) / rows, cell_w * kMaxCellAspect);
  const float after_gap = after_row ? kAfterGapShare * cell_h : 0;

  // Capped cells leave height over: centre the rows and their gaps.
  const float total = (after_row ? 3 : 2) * cell_h + arrow_gap + after_gap;
  const float top = margin_y + (usable_h - total) / 2;
  const float out_top = top + cell_h + arrow_gap;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const float x = margin_x + lane * pitch + spacing / 2;
    layout.in_cells[lane] = Rect{x, top, cell_w, cell_h};
    layout.out_cells[lane] = Rect{x, out_top, cell_w, cell_h};
    if (after_row) layout.after_cells[lane] = Rect{x, out_top + cell_h + after_gap, cell_w, cell_h};
  }
  layout.has_after = after_row;
  layout.cell_w = cell_w;
  layout.cell_h = cell_h;

  // About five characters fit a cell's width; the height bounds it too. A
  // minimum keeps small panels legible on high-DPI screens, but never taller
  // than the cell itself.
  const float fitted = std::min(0.36f * cell_w, 0.55f * cell_h);
  layout.font_px = std::min(std::max(fitted, 7.0f * dpi), cell_h);
  return layout;
}

// ---- texts --------------------------------------------------------------------

std::string value_text(DType type, uint64_t bits, bool hex) {
  if (mask_to_width(type, bits) != bits) return format_hex(DType::U64, bits);
  return hex ? format_hex(type, bits) : format_value(type, bits);
}

size_t utf8_length(const std::string& text) {
  size_t n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80;  // continuation bytes do not start a character
  return n;
}

namespace {

bool is_decimal_integer(const std::string& t) {
  const size_t start = !t.empty() && t[0] == '-' ? 1 : 0;
  return t.size() > start && t.find_first_not_of("0123456789", start) == std::string::npos;
}

// The first of `candidates` (most digits first) that fits, else "".
template <typename Format>
std::string first_fitting(int most, Format format, size_t max_chars) {
  for (int digits = most; digits >= 0; --digits) {
    std::string text = format(digits);
    if (!text.empty() && utf8_length(text) <= max_chars) return text;
  }
  return {};
}

}  // namespace

std::string shorten_value(const std::string& text, size_t max_chars) {
  if (utf8_length(text) <= max_chars) return text;
  if (max_chars == 0) return {};
  const std::string ellipsis = "\u2026";
  // Hex bits: the low digits, where a shuffle's or a ballot's change shows first.
  if (text.rfind("0x", 0) == 0) {
    if (max_chars < 2) return {};
    return ellipsis + text.substr(text.size() - (max_chars - 1));
  }
  if (is_decimal_integer(text)) {
    // 1234567 -> 1.23M, 1.2M or 1M: fewer digits, the magnitude kept.
    const long double v = std::strtold(text.c_str(), nullptr);
    if (std::fabs(double(v)) < 1000) return {};  // "-12" in one character: nothing honest fits
    static const char* const kSuffix[] = {"k", "M", "G", "T", "P", "E"};
    long double unit = 1000;
    for (const char* suffix : kSuffix) {
      if (std::fabs(double(v / unit)) < 999.5) {
        std::string shown = first_fitting(
            2,
            [&](int digits) {
              char buf[48];
              std::snprintf(buf, sizeof buf, "%.*Lf%s", digits, v / unit, suffix);
              return std::string(buf);
            },
            max_chars);
        if (!shown.empty()) return shown;
        break;
      }
      unit *= 1000;
    }
    return {};
  }
  // A decimal (3.14159, 1e-05, -0.333333): fewer significant digits.
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end && *end == '\0' && std::isfinite(v)) {
    return first_fitting(
        6,
        [&](int digits) {
          char buf[48];
          std::snprintf(buf, sizeof buf, "%.*g", std::max(digits, 1), v);
          return std::string(buf);
        },
        max_chars);
  }
  // Anything else: its start and "…", on whole characters.
  std::string shown;
  size_t chars = 0;
  for (size_t i = 0; i < text.size() && chars + 1 < max_chars; ++chars) {
    size_t len = 1;
    while (i + len < text.size() && (static_cast<unsigned char>(text[i + len]) & 0xC0) == 0x80) ++len;
    shown += text.substr(i, len);
    i += len;
  }
  return shown + ellipsis;
}

bool op_result_is_mask(Op op) {
  return op == Op::Ballot || op == Op::ActiveMask || op == Op::MatchAny || op == Op::MatchAll;
}

namespace {

// A watch's mask is the lanes that ran it, not a member mask the source gave.
bool takes_member_mask(Op op) { return op != Op::ActiveMask && !op_is_shared(op) && !op_is_watch(op); }


std::string op_label(const TraceStep& step) {
  std::string label = op_name(step.op);
  auto add = [&label](const std::string& part) { label += "  " + part; };
  if (op_is_shuffle(step.op)) {
    const std::string name = op_operand_name(step.op);
    if (step.step_flags & kStepPerLaneOperand) add(name + " per lane");
    else add(name + " " + std::to_string(step.args.b));
    // A raw PTX c was given as such; its width is not what the source said.
    if (step.step_flags & kStepRawOperandC) add("c " + format_hex(DType::U32, step.args.c));
    else add("width " + std::to_string(step.args.width));
  }
  if (op_is_watch(step.op)) add(watch_name(step.args));
  if (op_is_shared(step.op) || op_is_watch(step.op)) add(dtype_name(step.dtype));
  if (takes_member_mask(step.op)) add("mask " + format_hex(DType::U32, step.mask));
  return label;
}

// Whether steps a and b are of one warp, from their headers.
bool same_warp(const TraceSteps& steps, size_t a, size_t b) {
  return steps.block(a) == steps.block(b) && steps.warp(a) == steps.warp(b);
}

// a + b and max(a, b) in the bits of `type`, as the kernel computes them.
uint64_t add_bits(DType type, uint64_t a, uint64_t b) {
  switch (type) {
    case DType::F32:
      return std::bit_cast<uint32_t>(std::bit_cast<float>(uint32_t(a)) + std::bit_cast<float>(uint32_t(b)));
    case DType::F64: return std::bit_cast<uint64_t>(std::bit_cast<double>(a) + std::bit_cast<double>(b));
    default: return mask_to_width(type, a + b);  // integers wrap
  }
}

uint64_t max_bits(DType type, uint64_t a, uint64_t b) {
  switch (type) {
    case DType::I32: return int32_t(uint32_t(a)) < int32_t(uint32_t(b)) ? b : a;
    case DType::U32: return uint32_t(a) < uint32_t(b) ? b : a;
    case DType::I64: return int64_t(a) < int64_t(b) ? b : a;
    case DType::U64: return a < b ? b : a;
    case DType::F32:
      return std::bit_cast<uint32_t>(std::fmax(std::bit_cast<float>(uint32_t(a)), std::bit_cast<float>(uint32_t(b))));
    case DType::F64: return std::bit_cast<uint64_t>(std::fmax(std::bit_cast<double>(a), std::bit_cast<double>(b)));
  }
  return a;
}

// What every lane that took part in both steps agrees on; Other when none did.
Combine combine_of(const TraceStep& shuffle, const TraceStep& watch) {
  if (shuffle.dtype != watch.dtype) return Combine::Other;
  bool add = true, max = true, any = false;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord& s = shuffle.lanes[lane];
    const LaneRecord& w = watch.lanes[lane];
    if (!s.active() || s.undefined() || !w.active()) continue;
    any = true;
    add = add && add_bits(shuffle.dtype, s.in, s.out) == w.out;
    max = max && max_bits(shuffle.dtype, s.in, s.out) == w.out;
  }
  if (!any) return Combine::Other;
  return add ? Combine::Add : max ? Combine::Max : Combine::Other;
}

// The shuffle and the watch of a round around step `index`, if it is one.
bool round_with_watch(const Trace& trace, size_t index, size_t* shuffle, size_t* watch) {
  const TraceSteps& steps = trace.steps;
  if (op_is_shuffle(steps.op(index)) && index + 1 < steps.size()) {
    if (!op_is_watch(steps.op(index + 1)) || !same_warp(steps, index, index + 1)) return false;
    *shuffle = index, *watch = index + 1;
    return true;
  }
  if (op_is_watch(steps.op(index)) && index > 0) {
    if (!op_is_shuffle(steps.op(index - 1)) || !same_warp(steps, index, index - 1)) return false;
    *shuffle = index - 1, *watch = index;
    return true;
  }
  return false;
}

const char* pick(Language language, const char* english, const char* chinese) {
  return language == Language::Chinese ? chinese : english;
}

}  // namespace

// ---- frame --------------------------------------------------------------------

namespace {

LaneFrame step_frame(const Trace& trace, size_t index, bool hex);

}  // namespace

LaneFrame lane_frame(const Trace& trace, size_t index, bool hex) {
  if (index >= trace.steps.size()) return {};
  size_t shuffle = 0, watch = 0;
  if (!round_with_watch(trace, index, &shuffle, &watch)) return step_frame(trace, index, hex);
  // A round of a reduction: the shuffle's picture with the watched value under it.
  LaneFrame frame = step_frame(trace, shuffle, hex);
  const TraceStep& watched = trace.steps[watch];
  frame.after_name = watch_name(watched.args);
  if (frame.after_name.empty()) frame.after_name = "?";  // a file's watch without a name still shows its values
  frame.combine = combine_of(trace.steps[shuffle], watched);
  frame.landed = index == watch;
  frame.shuffle_index = shuffle;
  frame.watch_index = watch;
  for (LaneCell& cell : frame.cells) {
    const LaneRecord& rec = watched.lanes[cell.lane];
    if (!rec.active()) continue;
    cell.after_text = value_text(watched.dtype, rec.out, hex);
    cell.after_type = watched.dtype;
    cell.after_exact = exact_value_text(watched.dtype, rec.out);
  }
  if (frame.landed) {
    // The step itself first: a narrow panel cuts the label's end.
    frame.op_label = op_label(watched) + "  \u00b7  " + frame.op_label;
    // The place stays the watch's own, as the timeline numbers it: a step.
    const StepPlace place = step_place(trace, index);
    frame.is_round = place.is_round;
    frame.number = place.number;
    frame.count = place.count;
  }
  return frame;
}

namespace {

LaneFrame step_frame(const Trace& trace, size_t index, bool hex) {
  LaneFrame frame;
  const TraceStep& step = trace.steps[index];
  const bool shuffle = op_is_shuffle(step.op);
  const DType out_type = op_result_dtype(step.op, step.dtype);

  frame.cells.reserve(kWarpSize);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord& rec = step.lanes[lane];
    LaneCell cell;
    cell.lane = lane;
    if (!rec.active()) {
      frame.cells.push_back(cell);  // inactive lanes supplied nothing: no texts
      continue;
    }
    if (rec.undefined()) cell.state = CellState::Undefined;
    else if (shuffle && !rec.ok()) cell.state = CellState::OutOfRange;
    else cell.state = CellState::Active;
    cell.in_text = value_text(step.dtype, rec.in, hex);
    cell.out_text = value_text(out_type, rec.out, hex || op_result_is_mask(step.op));
    cell.in_type = step.dtype;
    cell.out_type = out_type;
    cell.in_exact = exact_value_text(step.dtype, rec.in);
    cell.out_exact = exact_value_text(out_type, rec.out);
    // A load brings an address and gets a value; a store brings a value to an
    // address. The address (the byte offset in its array) is what the bank
    // view is about, so it takes the row where the lane has no value.
    if (op_is_shared(step.op)) {
      const bool load = step.op == Op::LoadShared;
      (load ? cell.in_text : cell.out_text) = "@" + std::to_string(rec.addr);
      (load ? cell.in_exact : cell.out_exact) = "@" + std::to_string(rec.addr);
      (load ? cell.in_type : cell.out_type) = DType::U32;
    }
    frame.cells.push_back(cell);

    if (!shuffle) continue;
    Arrow arrow;
    arrow.to_lane = lane;
    const bool src_valid = rec.src >= 0 && rec.src < kWarpSize;
    if (rec.undefined()) {
      arrow.kind = ArrowKind::Undefined;
      arrow.from_lane = src_valid ? rec.src : lane;
    } else if (!rec.ok()) {
      arrow.kind = ArrowKind::KeepOwn;  // out of range: the lane keeps its own value
      arrow.from_lane = lane;
    } else {
      arrow.kind = ArrowKind::Read;
      arrow.from_lane = src_valid ? rec.src : lane;
    }
    frame.arrows.push_back(arrow);
  }

  const StepPlace place = step_place(trace, index);
  frame.is_round = place.is_round;
  frame.number = place.number;
  frame.count = place.count;
  frame.op_label = op_label(step);
  frame.mask = step.mask;
  frame.absent_lanes = mask_lanes_absent(step, lanes_in_warp(trace.meta.block, step.warp));
  return frame;
}

}  // namespace

std::string lane_summary(const LaneFrame& frame, int lane, Language language) {
  const LaneCell* cell = nullptr;
  for (const LaneCell& c : frame.cells)
    if (c.lane == lane) cell = &c;
  if (!cell) return {};
  const std::string me = "lane " + std::to_string(lane);
  if (cell->state == CellState::Inactive) return me + pick(language, ": inactive", "：未参与");
  const Arrow* arrow = nullptr;
  for (const Arrow& a : frame.arrows)
    if (a.to_lane == lane) arrow = &a;
  if (!arrow) return me + ": " + cell->in_text + " \u2192 " + cell->out_text;  // not a shuffle
  std::string text = me + " \u2190 lane " + std::to_string(arrow->from_lane) + ": " + cell->out_text;
  if (arrow->kind == ArrowKind::KeepOwn)
    text = me + pick(language, " keeps its own value (source out of range): ", " 保留自己的值（源超出范围）：") +
           cell->out_text;
  else if (arrow->kind == ArrowKind::Undefined)
    text += pick(language, " (undefined)", "（未定义）");
  if (frame.after_name.empty() || cell->after_text.empty()) return text;
  const std::string& name = frame.after_name;
  switch (frame.combine) {
    case Combine::Add:
      return text + "; " + name + " " + cell->in_text + " + " + cell->out_text + " = " + cell->after_text;
    case Combine::Max:
      return text + "; " + name + " max(" + cell->in_text + ", " + cell->out_text + ") = " + cell->after_text;
    case Combine::Other: break;
  }
  return text + "; " + name + pick(language, " then ", " 之后 ") + cell->after_text;
}

std::string mask_warning(const LaneFrame& frame, Language language) {
  if (!frame.absent_lanes) return {};
  const std::string mask = format_hex(DType::U32, frame.mask), lanes = lane_ranges(frame.absent_lanes);
  const bool one = (frame.absent_lanes & (frame.absent_lanes - 1)) == 0;
  if (language == Language::Chinese)
    return "掩码 " + mask + " 包含的 lane " + lanes + " 从未到达（走了另一条路径或已退出）：结果未定义";
  return "mask " + mask + " names " + (one ? "lane " : "lanes ") + lanes +
         ", which never arrived (on another path or exited): the result is undefined";
}

std::string after_label(const LaneFrame& frame, Language language) {
  if (frame.after_name.empty()) return {};
  switch (frame.combine) {
    case Combine::Add: return frame.after_name + pick(language, " after +=", " 相加之后");
    case Combine::Max: return frame.after_name + pick(language, " after max", " 取最大之后");
    case Combine::Other: break;
  }
  return frame.after_name + pick(language, " after", " 之后");
}

StepPlace step_place(const Trace& trace, size_t index) {
  StepPlace place;
  if (index >= trace.steps.size()) return place;
  const TraceSteps& steps = trace.steps;
  const Op op = steps.op(index);
  // Steps are ordered by block, warp, seq. A reduction's rounds are a run of
  // the warp's shuffles of one kind whose offset moves one way (warp_sum's
  // shfl.down 16, 8, 4, 2, 1; butterfly's xor 1 ... 16); reduce_sum's warp 0
  // starts a second run at its second level's 16. Watch steps between the
  // shuffles (`WARPVIZ_WATCH(val)` after each round) neither break a run nor
  // count in it; a watch right after a shuffle of its warp is that shuffle's
  // round (the value the round left). A lone shuffle, test_shuffle's
  // down-then-xor or any other op is a step.
  if (op_is_watch(op) && index > 0 && same_warp(steps, index - 1, index) && op_is_shuffle(steps.op(index - 1))) {
    const StepPlace round = step_place(trace, index - 1);
    if (round.is_round) return round;
  }
  if (!op_is_shuffle(op)) {
    place.number = index + 1;
    place.count = trace.steps.size();
    return place;
  }
  // The warp's steps other than watches, and where `index` is among them.
  size_t start = index, end = index + 1;
  while (start > 0 && same_warp(steps, start - 1, index)) --start;
  while (end < steps.size() && same_warp(steps, end, index)) ++end;
  std::vector<size_t> ops;
  size_t at = 0;
  for (size_t i = start; i < end; ++i) {
    if (op_is_watch(trace.steps.op(i))) continue;
    if (i == index) at = ops.size();
    ops.push_back(i);
  }
  auto direction = [&](size_t k) {  // from ops[k] to ops[k + 1]: +1, -1, or 0 when no run goes on
    const size_t a = ops[k], b = ops[k + 1];
    if (steps.op(a) != steps.op(b) || !op_is_shuffle(steps.op(a))) return 0;
    const int64_t from = steps.args(a).b, to = steps.args(b).b;
    if (from == to) return 0;
    return to > from ? 1 : -1;
  };
  // From the warp's first op forward, splitting runs on the way to `at`.
  size_t first = 0, last = at;
  int run_direction = 0;
  for (size_t k = 0; k < at; ++k) {
    const int d = direction(k);
    if (d != 0 && (run_direction == 0 || d == run_direction)) {
      run_direction = d;
    } else {
      first = k + 1;
      run_direction = 0;
    }
  }
  for (; last + 1 < ops.size(); ++last) {
    const int d = direction(last);
    if (d == 0 || (run_direction != 0 && d != run_direction)) break;
    run_direction = d;
  }
  place.is_round = last > first;
  place.number = place.is_round ? at - first + 1 : index + 1;
  place.count = place.is_round ? last - first + 1 : trace.steps.size();
  return place;
}

std::string place_label(const LaneFrame& frame, Language language) {
  char text[64];
  std::snprintf(text, sizeof text, tr(frame.is_round ? Text::RoundOf : Text::StepOf, language), frame.number,
                frame.count);
  return text;
}

// ---- animation ----------------------------------------------------------------

Point ArrowCurve::at(float t) const {
  const float u = 1.0f - t;
  return {u * u * from.x + 2 * u * t * control.x + t * t * to.x, u * u * from.y + 2 * u * t * control.y + t * t * to.y};
}

ArrowCurve arrow_curve(const LaneLayout& layout, const Arrow& arrow) {
  const int from_lane = std::clamp(arrow.from_lane, 0, kWarpSize - 1);
  const int to_lane = std::clamp(arrow.to_lane, 0, kWarpSize - 1);
  const Rect& src = layout.in_cells[from_lane];
  const Rect& dst = layout.out_cells[to_lane];
  ArrowCurve c;
  c.from = {src.cx(), src.y + src.h};
  c.to = {dst.cx(), dst.y};
  const Point mid{(c.from.x + c.to.x) / 2, (c.from.y + c.to.y) / 2};
  const float dx = c.to.x - c.from.x, dy = c.to.y - c.from.y;
  const float length = std::hypot(dx, dy);
  if (from_lane == to_lane || length < 1e-3f) {
    // A lane that keeps its own value loops out to the side and back; a lane
    // reading itself goes straight down.
    const float bulge = arrow.kind == ArrowKind::KeepOwn ? layout.cell_w * 0.9f : 0.0f;
    c.control = {mid.x + bulge, mid.y};
    return c;
  }
  // Bowing upward, away from the rows' travel: the curve's peak is half the
  // control point's offset, 0.12 of the length. Long, flat arrows get less,
  // so that the curve stays inside the gap between the rows.
  float nx = -dy / length, ny = dx / length;
  if (ny > 0) nx = -nx, ny = -ny;
  float bend = 0.24f * length;
  if (-ny * bend > 0.2f * dy) bend = 0.2f * dy / -ny;
  c.control = {mid.x + nx * bend, mid.y + ny * bend};
  return c;
}

Point travelling_value(const LaneLayout& layout, const Arrow& arrow, float t) {
  t = std::isnan(t) ? 0.0f : std::clamp(t, 0.0f, 1.0f);
  return arrow_curve(layout, arrow).at(t);
}

}  // namespace warpviz::view
