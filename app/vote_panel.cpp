// The vote view. A ballot/any/all step: every lane's predicate and the 32-bit
// ballot (bit 31 on the left, as the hex reads), with popc and ffs. The
// compact scenario adds each kept lane's slot in the compacted output; a
// match step colours the lanes by the group of equal values they fall in.
//
// [SECTION] Boxes: a row of 32 lane boxes
// [SECTION] Ballot: predicates, bits, popc, ffs
// [SECTION] Compaction: lanes to slots
// [SECTION] Match: lanes by group
// [SECTION] Panel
#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

#include <imgui.h>

#include "app_view.h"
#include "panel_widgets.h"
#include "warpviz/scenario.h"
#include "warpviz/input_spec.h"
#include "warpviz/view/vote_view.h"

namespace warpviz::app {
namespace {

// Okabe-Ito hues, as the lane view uses: no pair of meanings relies on red/green.
constexpr ImU32 kTrueColour = IM_COL32(0, 158, 115, 255);
constexpr ImU32 kFalseColour = IM_COL32(52, 56, 66, 255);
constexpr ImU32 kInactiveColour = IM_COL32(96, 96, 100, 255);
constexpr ImU32 kBitSetColour = IM_COL32(230, 159, 0, 255);
constexpr ImU32 kAccentColour = IM_COL32(240, 228, 66, 255);
constexpr ImU32 kLineColour = IM_COL32(86, 180, 233, 230);
constexpr ImU32 kLightText = IM_COL32(240, 240, 240, 255);
constexpr ImU32 kDarkText = IM_COL32(20, 20, 20, 255);
constexpr ImU32 kDimText = IM_COL32(150, 150, 150, 255);

// ---------------------------------------------------------------------------
// [SECTION] Boxes
// ---------------------------------------------------------------------------

struct Box {
  ImVec2 lo, hi;
  ImVec2 top() const { return ImVec2((lo.x + hi.x) / 2, lo.y); }
  ImVec2 bottom() const { return ImVec2((lo.x + hi.x) / 2, hi.y); }
  ImVec2 left() const { return ImVec2(lo.x, (lo.y + hi.y) / 2); }
  ImVec2 right() const { return ImVec2(hi.x, (lo.y + hi.y) / 2); }
};

// 32 positions in bands of 32, 16 or 8 (whatever keeps a lane number
// readable in the panel's width); each band has the same rows (lane numbers,
// predicates, bits, ...), labelled on the left.
struct Grid {
  ImVec2 origin;
  float label_w = 0, box_w = 0, gap = 0, byte_gap = 0, band_gap = 0;
  int per_band = kWarpSize;
  std::vector<float> row_y, row_h;  // within a band
  float band_h = 0;

  Box box(int position, int row) const {
    const int band = position / per_band, col = position % per_band;
    const float x = origin.x + label_w + col * (box_w + gap) + (col / 8) * byte_gap;
    const float y = origin.y + band * (band_h + band_gap) + row_y[row];
    return Box{ImVec2(x, y), ImVec2(x + box_w, y + row_h[row])};
  }
  int bands() const { return kWarpSize / per_band; }
  float width() const { return box(per_band - 1, 0).hi.x - origin.x; }
  float height() const { return bands() * (band_h + band_gap) - band_gap; }
};

// rows: the height of each row; labels: the longest row label.
Grid fit_grid(float dpi, std::initializer_list<float> rows, std::initializer_list<const char*> labels) {
  Grid g;
  g.origin = ImGui::GetCursorScreenPos();
  for (const char* label : labels) g.label_w = std::max(g.label_w, ImGui::CalcTextSize(label).x);
  g.label_w += 8 * dpi;
  g.gap = 2 * dpi;
  g.byte_gap = 5 * dpi;  // a ballot reads in bytes, as its hex does
  g.band_gap = 8 * dpi;
  float y = 0;
  for (float h : rows) {
    g.row_y.push_back(y);
    g.row_h.push_back(h);
    y += h + 2 * dpi;
  }
  g.band_h = y - 2 * dpi;
  const float width = ImGui::GetContentRegionAvail().x;
  const float min_box = ImGui::CalcTextSize("00").x + 6 * dpi;
  for (int per_band : {32, 16, 8}) {
    g.per_band = per_band;
    g.box_w = (width - g.label_w - (per_band / 8 - 1) * g.byte_gap) / per_band - g.gap;
    if (g.box_w >= min_box) break;
  }
  g.box_w = std::clamp(g.box_w, min_box, 44 * dpi);
  return g;
}

// Text centred in a box, clipped to it when too wide (a hex value in a narrow box).
void box_text(ImDrawList* draw, const Box& b, ImU32 colour, const std::string& text) {
  ImVec2 size = ImGui::CalcTextSize(text.c_str());
  float x = size.x <= b.hi.x - b.lo.x ? (b.lo.x + b.hi.x - size.x) / 2 : b.lo.x + 1;
  float y = (b.lo.y + b.hi.y - size.y) / 2;
  ImVec4 clip(b.lo.x, b.lo.y, b.hi.x, b.hi.y);
  draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(x, y), colour, text.c_str(), nullptr, 0, &clip);
}

void filled_box(ImDrawList* draw, const Box& b, ImU32 fill, ImU32 text_colour, const std::string& text, float dpi) {
  draw->AddRectFilled(b.lo, b.hi, fill, 3 * dpi);
  box_text(draw, b, text_colour, text);
}

// Row labels on the left of every band.
void grid_labels(ImDrawList* draw, const Grid& g, std::initializer_list<const char*> labels) {
  for (int band = 0; band < g.bands(); ++band) {
    int row = 0;
    for (const char* label : labels) {
      Box b = g.box(band * g.per_band, row++);
      float y = (b.lo.y + b.hi.y - ImGui::GetTextLineHeight()) / 2;
      draw->AddText(ImVec2(g.origin.x, y), kDimText, label);
    }
  }
}

bool hovered(const Box& b) { return ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(b.lo, b.hi); }

// Stable, well-separated colours for group ids: hue steps by the golden ratio.
ImU32 group_colour(int group) {
  if (group < 0) return kInactiveColour;
  float hue = std::fmod(0.08f + group * 0.618034f, 1.0f);
  return ImColor::HSV(hue, 0.62f, 0.86f);
}

std::string value_text(DType dtype, uint64_t bits, bool hex) {
  return hex ? format_hex(dtype, bits) : format_value(dtype, bits);
}

// ---------------------------------------------------------------------------
// [SECTION] Ballot
// ---------------------------------------------------------------------------

void draw_ballot(const view::BallotView& v, const TraceStep& step, const AppView& app) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float dpi = app.dpi_scale;
  const float line = ImGui::GetTextLineHeight(), box_h = line + 6 * dpi;
  const char* pred_label = app.tr(view::Text::Predicate);
  const char* bits_label = "ballot";
  Grid g = fit_grid(dpi, {line, box_h, box_h}, {"lane", pred_label, bits_label});
  grid_labels(draw, g, {"lane", pred_label, bits_label});

  // Position k is bit 31 - k: the boxes read as the hex value does.
  int hovered_lane = -1;
  for (int k = 0; k < kWarpSize; ++k) {
    const int lane = kWarpSize - 1 - k;
    box_text(draw, g.box(k, 0), kDimText, std::to_string(lane));
    const bool active = v.active[lane];
    Box pred = g.box(k, 1);
    filled_box(draw, pred, !active ? kInactiveColour : v.predicate[lane] ? kTrueColour : kFalseColour, kLightText,
               !active ? "·" : v.predicate[lane] ? "1" : "0", dpi);
    Box bit = g.box(k, 2);
    const bool set = (v.ballot >> lane) & 1u;
    filled_box(draw, bit, set ? kBitSetColour : kFalseColour, set ? kDarkText : kLightText, set ? "1" : "0", dpi);
    if (lane == v.first_lane) draw->AddRect(bit.lo, bit.hi, kAccentColour, 3 * dpi, 0, 2.5f * dpi);
    if (hovered(pred) || hovered(bit)) hovered_lane = lane;
  }
  ImGui::Dummy(ImVec2(g.width(), g.height() + 4 * dpi));

  if (hovered_lane >= 0) {
    const LaneRecord& r = step.lanes[hovered_lane];
    ImGui::BeginTooltip();
    ImGui::Text("lane %d  in %s", hovered_lane, value_text(step.dtype, r.in, app.hex).c_str());
    if (!r.active()) ImGui::TextDisabled("%s", app.tr(view::Text::Inactive));
    if (r.undefined()) ImGui::TextDisabled("%s", app.tr(view::Text::Undefined));
    ImGui::EndTooltip();
  }

  // The numbers a student checks against the bits above.
  ImGui::Text("%s = 0x%08x", app.tr(view::Text::Ballot), v.ballot);
  ImGui::Text("%s = %d", app.tr(view::Text::Popc), v.popc);
  ImGui::Text("__ffs(ballot) = %d", v.ffs);
  ImGui::TextColored(ImColor(kAccentColour), "%s = %d", app.tr(view::Text::Ffs), v.first_lane);
  if (step.op == Op::Any || step.op == Op::All) {
    // Every active lane gets the same flag; show the lowest one's.
    for (const LaneRecord& r : step.lanes)
      if (r.active()) {
        ImGui::Text("%s = %s", step.op == Op::Any ? "__any_sync" : "__all_sync", r.out ? "1" : "0");
        break;
      }
  }
}

// ---------------------------------------------------------------------------
// [SECTION] Compaction
// ---------------------------------------------------------------------------

// The value each lane held: from the trace's input spec when it can be
// rebuilt, else read back from the compacted output (dropped lanes were 0).
std::array<std::string, kWarpSize> lane_values(const Trace& trace, DType dtype, uint32_t ballot, bool hex) {
  std::array<std::string, kWarpSize> text;
  try {
    auto bits = make_input_values(parse_input_spec(trace.meta.input_spec), dtype, kWarpSize);
    for (int lane = 0; lane < kWarpSize; ++lane) text[lane] = value_text(dtype, bits[lane], hex);
    return text;
  } catch (const std::exception&) {
  }
  const TraceOutput* out = trace.output("out");
  for (const auto& s : view::compaction_slots(ballot)) {
    uint64_t bits = 0;
    if (s.slot >= 0 && out && size_t(s.slot) < out->bits.size()) bits = out->bits[s.slot];
    text[s.lane] = value_text(dtype, bits, hex);
  }
  return text;
}

// Lanes in one line and slots in another, with a line from each kept lane to
// its slot: across the panel when 32 boxes fit its width, else down it.
// Where the compaction's boxes go: lanes in one line and slots in another,
// across the panel when 32 boxes fit its width, else down it.
struct CompactionLayout {
  Box lanes[kWarpSize], slots[kWarpSize];
  bool across = true;
  ImVec2 size;
};

CompactionLayout compaction_layout(const std::string& widest_value, const char* slot_label, float dpi) {
  CompactionLayout c;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight(), box_h = line + 6 * dpi;
  Grid g = fit_grid(dpi, {line, box_h, box_h * 3, box_h, line}, {"lane", "in", "out", slot_label});
  c.across = g.per_band == kWarpSize;
  if (c.across) {
    g.byte_gap = 0;  // an array, not bits: evenly spaced
    grid_labels(draw, g, {"lane", "in", "", "out", slot_label});
    for (int i = 0; i < kWarpSize; ++i) {
      box_text(draw, g.box(i, 0), kDimText, std::to_string(i));
      c.lanes[i] = g.box(i, 1);
      c.slots[i] = g.box(i, 3);
      box_text(draw, g.box(i, 4), kDimText, std::to_string(i));
    }
    c.size = ImVec2(g.width(), g.height());
    return c;
  }
  // Two columns, lane i on the left and slot i on the right, in rows tighter
  // than the grid's so that more of the 32 fit the panel.
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float row_h = line + 2 * dpi;
  const float num_w = ImGui::CalcTextSize("00").x + 6 * dpi;
  const float col_w = std::max(ImGui::CalcTextSize("0000000").x, ImGui::CalcTextSize(widest_value.c_str()).x) + 8 * dpi;
  const float span = std::max(60 * dpi, ImGui::GetContentRegionAvail().x - 2 * (num_w + col_w));
  const float x_slot = o.x + num_w + col_w + span;
  draw->AddText(o, kDimText, "lane · in");
  draw->AddText(ImVec2(x_slot, o.y), kDimText, (std::string("out · ") + slot_label).c_str());
  for (int i = 0; i < kWarpSize; ++i) {
    const float y = o.y + line + 4 * dpi + i * (row_h + 1 * dpi);
    c.lanes[i] = Box{ImVec2(o.x + num_w, y), ImVec2(o.x + num_w + col_w, y + row_h)};
    c.slots[i] = Box{ImVec2(x_slot, y), ImVec2(x_slot + col_w, y + row_h)};
    draw->AddText(ImVec2(o.x, y + 1 * dpi), kDimText, std::to_string(i).c_str());
    draw->AddText(ImVec2(c.slots[i].hi.x + 4 * dpi, y + 1 * dpi), kDimText, std::to_string(i).c_str());
  }
  c.size = ImVec2(2 * (num_w + col_w) + span, line + 4 * dpi + kWarpSize * (row_h + 1 * dpi));
  return c;
}

void draw_compaction(const view::BallotView& v, const TraceStep& step, const AppView& app) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float dpi = app.dpi_scale;
  ImGui::TextUnformatted("slot = __popc(ballot & ((1u << lane) - 1))");

  const auto values = lane_values(app.trace, step.dtype, v.ballot, app.hex);
  const auto slots = view::compaction_slots(v.ballot);
  const TraceOutput* out = app.trace.output("out");
  const char* slot_label = app.tr(view::Text::Slot);
  size_t widest = 0;
  for (int i = 1; i < kWarpSize; ++i)
    if (values[i].size() > values[widest].size()) widest = i;
  const CompactionLayout c = compaction_layout(values[widest], slot_label, dpi);

  int hovered_lane = -1;
  for (int i = 0; i < kWarpSize; ++i) {
    const bool kept = slots[i].slot >= 0;
    filled_box(draw, c.lanes[i], kept ? kTrueColour : kFalseColour, kept ? kLightText : kDimText, values[i], dpi);
    const bool filled = i < v.popc && out && size_t(i) < out->bits.size();
    filled_box(draw, c.slots[i], filled ? kTrueColour : kFalseColour, kLightText,
               filled ? value_text(out->dtype, out->bits[i], app.hex) : "", dpi);
    if (hovered(c.lanes[i])) hovered_lane = i;
  }
  // Each kept lane's value travels to its slot.
  for (const auto& s : slots) {
    if (s.slot < 0) continue;
    ImVec2 from = c.across ? c.lanes[s.lane].bottom() : c.lanes[s.lane].right();
    ImVec2 to = c.across ? c.slots[s.slot].top() : c.slots[s.slot].left();
    draw->AddLine(from, to, kLineColour, 1.5f * dpi);
    draw->AddCircleFilled(to, 2.5f * dpi, kLineColour);
  }
  ImGui::Dummy(ImVec2(c.size.x, c.size.y + 4 * dpi));
  if (hovered_lane >= 0)
    ImGui::SetTooltip("lane %d  %s  ->  %s %d", hovered_lane, values[hovered_lane].c_str(), slot_label,
                      slots[hovered_lane].slot);
  ImGui::Text("__popc(ballot) = %d", v.popc);
  ImGui::Spacing();
  ImGui::Separator();
}

// ---------------------------------------------------------------------------
// [SECTION] Match
// ---------------------------------------------------------------------------

void draw_match(const TraceStep& step, const AppView& app) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float dpi = app.dpi_scale;
  ImGui::Text("%s  mask 0x%08x", op_name(step.op), step.mask);

  // match.all has one group when every active lane agrees (pred), none otherwise.
  std::array<int, kWarpSize> groups;
  if (step.op == Op::MatchAny) {
    groups = view::match_groups(step);
  } else {
    for (int lane = 0; lane < kWarpSize; ++lane)
      groups[lane] = step.lanes[lane].active() ? (step.lanes[lane].ok() ? 0 : -2) : -1;
  }

  const float line = ImGui::GetTextLineHeight(), box_h = line + 6 * dpi;
  const char* group_label = app.tr("group", "分组");
  Grid g = fit_grid(dpi, {line, box_h, line}, {"lane", "in", group_label});
  g.byte_gap = 0;
  grid_labels(draw, g, {"lane", "in", group_label});
  int hovered_lane = -1;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    box_text(draw, g.box(lane, 0), kDimText, std::to_string(lane));
    Box b = g.box(lane, 1);
    const LaneRecord& r = step.lanes[lane];
    ImU32 fill = groups[lane] == -2 ? kFalseColour : group_colour(groups[lane]);
    filled_box(draw, b, fill, groups[lane] >= 0 ? kDarkText : kLightText,
               r.active() ? value_text(step.dtype, r.in, app.hex) : "·", dpi);
    if (groups[lane] >= 0) box_text(draw, g.box(lane, 2), kDimText, std::to_string(groups[lane]));
    if (hovered(b)) hovered_lane = lane;
  }
  ImGui::Dummy(ImVec2(g.width(), g.height() + 4 * dpi));
  if (hovered_lane >= 0) {
    const LaneRecord& r = step.lanes[hovered_lane];
    ImGui::SetTooltip("lane %d  in %s  out 0x%08x", hovered_lane, value_text(step.dtype, r.in, app.hex).c_str(),
                      uint32_t(r.out));
  }

  // One legend line per group: its colour, the value, and the mask every member got back.
  ImGui::TextDisabled("%s", app.tr(view::Text::MatchGroups));
  int group_count = 0;
  for (int id : groups) group_count = std::max(group_count, id + 1);
  for (int id = 0; id < group_count; ++id) {
    int lane = int(std::find(groups.begin(), groups.end(), id) - groups.begin());
    const LaneRecord& r = step.lanes[lane];
    ImVec2 p = ImGui::GetCursorScreenPos();
    float h = ImGui::GetTextLineHeight();
    draw->AddRectFilled(p, ImVec2(p.x + h, p.y + h), group_colour(id), 2 * dpi);
    ImGui::Dummy(ImVec2(h, h));
    ImGui::SameLine();
    ImGui::Text("%d: %s  ->  0x%08x", id, value_text(step.dtype, r.in, app.hex).c_str(), uint32_t(r.out));
  }
  if (step.op == Op::MatchAll && group_count == 0) ImGui::TextDisabled("pred = 0");
}


}  // namespace

// ---------------------------------------------------------------------------
// [SECTION] Panel
// ---------------------------------------------------------------------------

void AppView::draw_vote_panel() {
  if (!current_step())
    centred_message(tr(view::Text::NothingToShow));
  else if (!draw_vote_view())
    centred_message(tr("No vote at this step: ballot, any, all and match steps show here",
                       "这一步没有投票：ballot、any、all 和 match 步骤显示在这里"));
}

bool AppView::draw_vote_view() {
  const TraceStep* step = current_step();
  if (!step) return false;
  if (auto ballot = view::ballot_view(*step)) {
    ImGui::Text("%s  mask 0x%08x", op_name(step->op), step->mask);
    // In the compact scenario the slots are the point; the bits follow.
    const bool compact = scenario_traits(trace.meta.scenario).compaction && step->op == Op::Ballot;
    if (compact) draw_compaction(*ballot, *step, *this);
    draw_ballot(*ballot, *step, *this);
    return true;
  }
  if (step->op == Op::MatchAny || step->op == Op::MatchAll) {
    draw_match(*step, *this);
    return true;
  }
  return false;
}

}  // namespace warpviz::app
