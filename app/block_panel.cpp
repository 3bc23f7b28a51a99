// The block view of reduce_sum / reduce_int, drawn left to right as the data
// flows: each warp's first reduction leaves its total in lane 0, lane 0 writes
// it to warpSums[warp], warp 0 reduces the slots once more, lane 0 writes the
// block's output. It fills in as the steps play (view::block_progress): a
// slot shows its value once its store has landed, the output once warp 0's
// last round has. Below, for multi-block runs, every block's partial sum.
//
// [SECTION] Cache
// [SECTION] Flow: warps, warpSums, final round, output
// [SECTION] Blocks bar
// [SECTION] Panel
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <imgui.h>

#include <imgui_internal.h>

#include "app_view.h"
#include "layout_report.h"
#include "panel_widgets.h"
#include "warpviz/scenario.h"
#include "warpviz/view/block_view.h"

namespace warpviz::app {
namespace {

constexpr ImU32 kBoxColour = IM_COL32(52, 60, 78, 255);
constexpr ImU32 kSlotColour = IM_COL32(0, 114, 178, 255);  // Okabe-Ito blue: shared memory
constexpr ImU32 kOutputColour = IM_COL32(0, 158, 115, 255);  // bluish green, as the lane view's outputs
constexpr ImU32 kCurrentColour = IM_COL32(255, 196, 0, 255);
constexpr ImU32 kFlowColour = IM_COL32(140, 180, 230, 200);
constexpr ImU32 kUnwrittenColour = IM_COL32(38, 42, 52, 255);  // a slot or output not written yet
constexpr ImU32 kWaitingFlow = IM_COL32(140, 180, 230, 60);     // a line whose data has not gone yet
constexpr ImU32 kBarColour = IM_COL32(86, 180, 233, 255);
constexpr ImU32 kTextColour = IM_COL32(235, 235, 235, 255);
constexpr ImU32 kDimText = IM_COL32(150, 150, 150, 255);

// ---------------------------------------------------------------------------
// [SECTION] Cache
// ---------------------------------------------------------------------------

using BlockCache = BlockState;

// The block's view (BlockState), built again only when the trace or the block changed.
const BlockCache& cached_block(BlockCache& cache, const Trace& trace, uint64_t generation, uint32_t block) {
  if (cache.generation == generation && cache.block == block) return cache;
  cache = BlockCache{generation, block, {}, {}};
  cache.view = view::block_view(trace, block);
  cache.block_values.reserve(cache.view.all_block_outputs.size());
  for (const std::string& text : cache.view.all_block_outputs) {
    // strtod reads the decimals, "-0" and "nan(0x...)" that format_value writes.
    double v = std::strtod(text.c_str(), nullptr);
    cache.block_values.push_back(std::isfinite(v) ? v : 0.0);
  }
  return cache;
}

// ---------------------------------------------------------------------------
// [SECTION] Flow
// ---------------------------------------------------------------------------

void arrow(ImDrawList* draw, ImVec2 from, ImVec2 to, ImU32 colour, float dpi) {
  draw->AddLine(from, ImVec2(to.x - 6 * dpi, to.y), colour, 1.5f * dpi);
  draw->AddTriangleFilled(ImVec2(to.x, to.y), ImVec2(to.x - 7 * dpi, to.y - 4 * dpi),
                          ImVec2(to.x - 7 * dpi, to.y + 4 * dpi), colour);
}

// A filled box with centred text that is also a button; true when clicked.
bool box_button(const char* id, ImVec2 lo, ImVec2 size, ImU32 fill, bool current, const std::string& text,
                float dpi) {
  ImGui::SetCursorScreenPos(lo);
  bool clicked = ImGui::InvisibleButton(id, size);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  ImVec2 hi(lo.x + size.x, lo.y + size.y);
  ImU32 colour = ImGui::IsItemHovered() ? ImGui::GetColorU32(ImGuiCol_ButtonHovered) : fill;
  draw->AddRectFilled(lo, hi, colour, 4 * dpi);
  if (current) draw->AddRect(lo, hi, kCurrentColour, 4 * dpi, 0, 2.5f * dpi);
  ImVec2 ts = ImGui::CalcTextSize(text.c_str());
  ImVec4 clip(lo.x, lo.y, hi.x, hi.y);
  draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(),
                ImVec2(std::max(lo.x + 3 * dpi, lo.x + (size.x - ts.x) / 2), lo.y + (size.y - ts.y) / 2), kTextColour,
                text.c_str(), nullptr, 0, &clip);
  return clicked;
}

// A click anywhere in the view: stop the animation there.
void jump(AppView& app, size_t step) {
  app.playback.pause();
  app.playback.seek(step);
}

// "step 12": where the timeline plays trace step `step`, from 1.
std::string step_number(const AppView& app, size_t step) {
  char text[48];
  std::snprintf(text, sizeof text, app.tr(view::Text::StepNumber), app.playback.order().position_of(step) + 1);
  return text;
}

// Where the flow's columns and rows go, from the widest text each column holds.
struct FlowLayout {
  ImVec2 origin;
  float dpi = 1, row_h = 0, row_gap = 0, top = 0;
  float warp_w = 0, slot_w = 0, round_w = 0, out_w = 0, arrow_w = 0, fan_w = 0;
  float x_slot = 0, x_round = 0, x_out = 0;  // the warps' column is at 0
  float rows_h = 0, rounds_h = 0, round_top = 0;

  ImVec2 at(float x, float y) const { return ImVec2(origin.x + x, origin.y + y); }
  float row_y(size_t i) const { return top + i * (row_h + row_gap); }
  float round_y(size_t r) const { return round_top + r * (row_h + row_gap); }
  // Where the slots' lines meet: the middle of warp 0's final round.
  ImVec2 fan_to() const { return at(x_round, round_top + rounds_h / 2 - row_gap / 2); }
};

// The flow's column headings, drawn above each column.
constexpr const char* kWarpHeading = "warp";
constexpr const char* kSlotHeading = "warpSums[]";
constexpr const char* kRoundHeading = "warp 0";
constexpr const char* kOutHeading = "out";

// The flow at the current font: each column as wide as the widest text it
// holds, its heading included (a heading wider than its boxes would run into
// the next one's), the gaps between them growing with the font. With `width`
// wider than that, the boxes and gaps stretch to fill it, the boxes to at
// most twice their width.
FlowLayout flow_layout(const view::BlockView& bv, float dpi, float width = 0) {
  FlowLayout L;
  L.origin = ImGui::GetCursorScreenPos();
  L.dpi = dpi;
  const float line = ImGui::GetTextLineHeight(), pad = std::max(10 * dpi, line * 0.6f);
  const auto text_w = [](const char* text) { return ImGui::CalcTextSize(text).x; };
  L.row_h = line + 4 * dpi, L.row_gap = 2 * dpi, L.top = line + 6 * dpi;
  float value_w = 0;
  for (const auto& w : bv.warps) value_w = std::max(value_w, text_w("[00] ") + text_w(w.value.c_str()));
  L.warp_w = std::max(text_w("warp 00"), text_w(kWarpHeading)) + pad;
  L.slot_w = std::max(value_w, text_w(kSlotHeading)) + pad;
  L.round_w = std::max(text_w("down 16"), text_w(kRoundHeading)) + pad;
  L.out_w = std::max(text_w(bv.block_output.c_str()), text_w(kOutHeading)) + pad;
  L.arrow_w = std::max(24 * dpi, line * 1.5f), L.fan_w = std::max(40 * dpi, line * 2.5f);
  const float boxes = L.warp_w + L.slot_w + L.round_w + L.out_w, gaps = 2 * L.arrow_w + L.fan_w;
  if (width > boxes + gaps) {
    const float grow = std::min(2.0f, 1 + (width - boxes - gaps) / 2 / boxes);
    L.warp_w *= grow, L.slot_w *= grow, L.round_w *= grow, L.out_w *= grow;
    const float spread = (width - grow * boxes) / gaps;  // the rest goes to the gaps
    L.arrow_w *= spread, L.fan_w *= spread;
  }
  L.x_slot = L.warp_w + L.arrow_w;
  L.x_round = L.x_slot + L.slot_w + L.fan_w;
  L.x_out = L.x_round + L.round_w + L.arrow_w;
  L.rows_h = bv.warps.size() * (L.row_h + L.row_gap);
  L.rounds_h = bv.final_round.size() * (L.row_h + L.row_gap);
  L.round_top = L.top + std::max(0.0f, (L.rows_h - L.rounds_h) / 2);
  return L;
}

// The flow's size as flow_layout places it.
ImVec2 flow_size(const FlowLayout& L) { return ImVec2(L.x_out + L.out_w, L.top + std::max(L.rows_h, L.rounds_h)); }

// Each warp's lane 0 into its warpSums slot, and every slot on to warp 0. A
// slot shows its value once lane 0's store has landed.
void draw_warp_rows(AppView& app, const view::BlockView& bv, const view::BlockProgress& progress,
                    const FlowLayout& L) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 fan_to = L.fan_to();
  for (size_t i = 0; i < bv.warps.size(); ++i) {
    const view::WarpPartial& w = bv.warps[i];
    const float y = L.row_y(i), mid = y + L.row_h / 2;
    const bool written = progress.slot_written[i];
    ImGui::PushID(int(i));
    std::string label = "warp " + std::to_string(w.warp);
    if (box_button("warp", L.at(0, y), ImVec2(L.warp_w, L.row_h), kBoxColour, progress.current_warp == int(i), label,
                   L.dpi))
      jump(app, w.last_step);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s: lane 0 = %s  (%s)", app.tr("first reduction", "第一次归约"),
                        progress.first_done[i] ? w.value.c_str() : "…", step_number(app, w.last_step).c_str());
    arrow(draw, L.at(L.warp_w, mid), L.at(L.x_slot, mid), written ? kFlowColour : kWaitingFlow, L.dpi);
    char slot[96];
    std::snprintf(slot, sizeof slot, "[%u] %s", w.warp, written ? w.value.c_str() : "");
    if (box_button("slot", L.at(L.x_slot, y), ImVec2(L.slot_w, L.row_h), written ? kSlotColour : kUnwrittenColour,
                   progress.current_slot == int(i), slot, L.dpi))
      jump(app, w.store_step);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("warpSums[%u] %s  (%s)", w.warp,
                        written ? app.tr("written", "已写入") : app.tr("not written yet", "尚未写入"),
                        step_number(app, w.store_step).c_str());
    // The slots' lines to warp 0 light up while it reads them.
    ImVec2 p0 = L.at(L.x_slot + L.slot_w, mid);
    const ImU32 fan = progress.current_load ? kCurrentColour : written ? kFlowColour : kWaitingFlow;
    draw->AddBezierCubic(p0, ImVec2(p0.x + L.fan_w / 2, p0.y), ImVec2(fan_to.x - L.fan_w / 2, fan_to.y), fan_to, fan,
                         (progress.current_load ? 2.0f : 1.2f) * L.dpi);
    ImGui::PopID();
  }
}

// Warp 0's second reduction, one box per round, then the block's output,
// which shows once the last round has landed (the kernel's write of it to
// global memory is no recorded step).
void draw_final_round(AppView& app, const view::BlockView& bv, const view::BlockProgress& progress,
                      const FlowLayout& L) {
  for (size_t r = 0; r < bv.final_round.size(); ++r) {
    const size_t index = bv.final_round[r];
    // "down 16": the op without its "shfl." and the offset, all that differs between rounds.
    const Op step_op = app.trace.steps.op(index);
    const char* op = op_name(step_op);
    if (op_is_shuffle(step_op)) op += 5;
    std::string label = std::string(op) + " " + std::to_string(app.trace.steps.args(index).b);
    const bool done = r < progress.final_rounds_done || progress.current_round == int(r);
    ImGui::PushID(1000 + int(r));
    if (box_button("round", L.at(L.x_round, L.round_y(r)), ImVec2(L.round_w, L.row_h),
                   done ? kBoxColour : kUnwrittenColour, progress.current_round == int(r), label, L.dpi))
      jump(app, index);
    ImGui::PopID();
  }
  const float out_y = L.round_top + std::max(0.0f, L.rounds_h - L.row_gap - L.row_h) / 2;
  const bool rounds = !bv.final_round.empty();
  const bool written = progress.output_written;
  if (rounds)
    arrow(ImGui::GetWindowDrawList(), L.at(L.x_round + L.round_w, out_y + L.row_h / 2),
          L.at(L.x_out, out_y + L.row_h / 2), written ? kFlowColour : kWaitingFlow, L.dpi);
  if (box_button("output", L.at(L.x_out, out_y), ImVec2(L.out_w, L.row_h), written ? kOutputColour : kUnwrittenColour,
                 written && progress.current_output, written ? bv.block_output : std::string("?"), L.dpi) &&
      rounds)
    jump(app, bv.output_step);
  if (ImGui::IsItemHovered() && rounds)
    ImGui::SetTooltip("%s  (%s)",
                      written ? app.tr("lane 0 holds the block's total", "lane 0 持有线程块的总和")
                              : app.tr("after warp 0's last round", "在 warp 0 的最后一轮之后"),
                      step_number(app, bv.output_step).c_str());
}

// A heading, reported to the layout report (their overlap is what it checks).
void heading(const FlowLayout& L, float x, const char* text) {
  const ImVec2 at = L.at(x, 0), size = ImGui::CalcTextSize(text);
  ImGui::GetWindowDrawList()->AddText(at, kDimText, text);
  layout_report().role("block_heading", text, at, ImVec2(at.x + size.x, at.y + size.y), ImGui::GetFontSize());
}

// The flow's font shrinks until its rows fit the window's height: to half at
// most with `fill` (presentation, where the flow also stretches to the
// window's width), to 70% in the panel (a short panel at
// 1024x600 scrolled its warps out of view), which scrolls past that.
void draw_flow(AppView& app, const view::BlockView& bv, const view::BlockProgress& progress, bool fill) {
  // The scale a window's font had last frame stays: start from the font's own.
  ImGui::SetWindowFontScale(1.0f);
  const float start_scale = 1.0f;
  FlowLayout L = flow_layout(bv, app.dpi_scale);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float smallest = fill ? 0.5f : 0.7f;
  const float stretch_w = fill ? avail.x : 0.0f;
  const float natural_h = flow_size(L).y;
  if (natural_h > avail.y && avail.y > 0)
    ImGui::SetWindowFontScale(start_scale * std::max(smallest, avail.y / natural_h));
  L = flow_layout(bv, app.dpi_scale, stretch_w);
  for (int shrink = 0; shrink < 8 && flow_size(L).y > avail.y && ImGui::GetFontSize() > 8 &&
                       (fill || ImGui::GetCurrentWindow()->FontWindowScale * 0.95f >= start_scale * smallest);
       ++shrink) {
    // Row heights and gaps do not scale with the font exactly: a few more small steps.
    ImGui::SetWindowFontScale(ImGui::GetCurrentWindow()->FontWindowScale * 0.95f);
    L = flow_layout(bv, app.dpi_scale, stretch_w);
  }
  heading(L, 0, kWarpHeading);
  heading(L, L.x_slot, kSlotHeading);
  heading(L, L.x_round, kRoundHeading);
  heading(L, L.x_out, kOutHeading);

  draw_warp_rows(app, bv, progress, L);
  draw_final_round(app, bv, progress, L);

  // Reserve what was drawn so the child scrolls over it.
  ImGui::SetCursorScreenPos(L.origin);
  ImGui::Dummy(flow_size(L));
  layout_report().role("block_flow", "", L.origin, ImVec2(L.origin.x + flow_size(L).x, L.origin.y + flow_size(L).y),
                       ImGui::GetFontSize());
}

// ---------------------------------------------------------------------------
// [SECTION] Blocks bar
// ---------------------------------------------------------------------------

// One bar per block; when blocks are narrower than 3 px they share a bar
// showing the largest magnitude among them, so 4096 blocks stay readable.
// `labelled`: its title line above it; a short panel leaves that to the
// bar's tooltip.
void draw_blocks_bar(AppView& app, const BlockCache& cache, float height, bool labelled) {
  const auto& values = cache.block_values;
  const size_t n = values.size();
  const float dpi = app.dpi_scale;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  if (labelled) ImGui::Text("%s · %zu blocks", app.tr(view::Text::BlockOutput), n);

  const float width = std::max(ImGui::GetContentRegionAvail().x, 50 * dpi);
  ImVec2 lo = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("blocks", ImVec2(width, height + 8 * dpi));
  const bool hovered = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked();
  draw->AddRectFilled(lo, ImVec2(lo.x + width, lo.y + height), IM_COL32(30, 32, 38, 255));

  double vmin = 0, vmax = 0;
  for (double v : values) vmin = std::min(vmin, v), vmax = std::max(vmax, v);
  const double span = vmax - vmin > 0 ? vmax - vmin : 1.0;
  const float zero_y = lo.y + height * float(vmax / span);
  auto y_of = [&](double v) { return lo.y + height * float((vmax - v) / span); };

  if (vmin < 0) draw->AddLine(ImVec2(lo.x, zero_y), ImVec2(lo.x + width, zero_y), kDimText);  // the zero line
  const int bars = int(std::min<size_t>(n, size_t(width / (3 * dpi))));
  const float bar_w = width / std::max(bars, 1);
  for (int b = 0; b < bars; ++b) {
    size_t first = size_t(b) * n / bars, last = size_t(b + 1) * n / bars;
    double v = 0;
    for (size_t i = first; i < last; ++i)
      if (std::abs(values[i]) > std::abs(v)) v = values[i];
    float x0 = lo.x + b * bar_w, x1 = x0 + std::max(bar_w - (bar_w > 4 * dpi ? 1 * dpi : 0), 1.0f);
    bool current = cache.block >= first && cache.block < last;
    draw->AddRectFilled(ImVec2(x0, std::min(zero_y, y_of(v))), ImVec2(x1, std::max(zero_y, y_of(v)) + 1),
                        current ? kCurrentColour : kBarColour);
  }
  // A marker under the current block, visible even when its bar is shared.
  float cx = lo.x + (cache.block + 0.5f) * width / float(n);
  draw->AddTriangleFilled(ImVec2(cx, lo.y + height), ImVec2(cx - 5 * dpi, lo.y + height + 8 * dpi),
                          ImVec2(cx + 5 * dpi, lo.y + height + 8 * dpi), kCurrentColour);

  if (!hovered) return;
  size_t block = std::min(n - 1, size_t((ImGui::GetIO().MousePos.x - lo.x) / width * n));
  // Steps are ordered by block: the first step of the block is a binary search away.
  const TraceSteps& steps = app.trace.steps;
  size_t first = 0, count = steps.size();  // lower bound of `block` by the steps' headers
  while (count > 0) {
    const size_t half = count / 2;
    if (steps.block(first + half) < block) {
      first += half + 1;
      count -= half + 1;
    } else {
      count = half;
    }
  }
  const bool recorded = first < steps.size() && steps.block(first) == block;
  ImGui::BeginTooltip();
  if (!labelled) ImGui::TextDisabled("%s · %zu blocks", app.tr(view::Text::BlockOutput), n);
  ImGui::Text("block %zu: %s", block, cache.view.all_block_outputs[block].c_str());
  if (!recorded) ImGui::TextDisabled("(not recorded)");
  ImGui::EndTooltip();
  if (clicked && recorded) jump(app, first);
}


}  // namespace

// ---------------------------------------------------------------------------
// [SECTION] Panel
// ---------------------------------------------------------------------------

void AppView::draw_block_panel() {
  if (!current_step())
    centred_message(tr(view::Text::NothingToShow));
  else if (!scenario_traits(trace.meta.scenario).block_reduction)
    centred_message(tr("The block view shows the two-level reductions: reduce_sum and reduce_int",
                       "线程块视图显示两级归约：reduce_sum 和 reduce_int"));
  else if (!draw_block_view())
    centred_message(tr(view::Text::NothingToShow));
}

bool AppView::draw_block_view(bool fill) {
  const TraceStep* step = current_step();
  if (!step || !scenario_traits(trace.meta.scenario).block_reduction) return false;
  const BlockCache& cache = cached_block(panel_state.block, trace, trace_generation, step->block);
  if (cache.view.warps.empty()) return false;
  ImGui::Text("block %u  ·  %u warps  ·  blockDim %u", cache.view.block, unsigned(cache.view.warps.size()),
              trace.meta.block.x);
  // One line less where the flow's rows need the height: in presentation,
  // and in a short panel when the heading fits beside.
  // A short panel (1024x600) keeps its height for the flow's rows: the
  // warpSums line only where it fits beside (the column's heading says it
  // too), the blocks bar thin and without its title line.
  const float panel_h = ImGui::GetContentRegionAvail().y;
  const bool short_panel = !fill && panel_h < 300 * dpi_scale;
  const char* warp_sums = tr(view::Text::WarpSums);
  if (fill) {
    ImGui::SameLine(0, ImGui::GetFontSize() * 2);
    ImGui::TextDisabled("%s", warp_sums);
  } else if (!short_panel) {
    ImGui::TextDisabled("%s", warp_sums);
  } else if (ImGui::GetItemRectMax().x + ImGui::GetFontSize() + ImGui::CalcTextSize(warp_sums).x <=
             ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) {
    ImGui::SameLine(0, ImGui::GetFontSize());
    ImGui::TextDisabled("%s", warp_sums);
  } else if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", warp_sums);
  }
  // The bar needs its own room below the flow when there are several blocks.
  const bool multi_block = cache.view.all_block_outputs.size() > 1;
  const float bar_h = (short_panel ? 16 : 44) * dpi_scale;
  const float bar_room =
      multi_block ? (short_panel ? 0 : ImGui::GetTextLineHeightWithSpacing()) + bar_h + 14 * dpi_scale : 0;
  ImGui::BeginChild("flow", ImVec2(0, -bar_room), false,
                    fill ? ImGuiWindowFlags_NoBackground : ImGuiWindowFlags_HorizontalScrollbar);
  // What the steps played so far have written (a step animating in has not yet).
  const view::BlockProgress progress =
      view::block_progress(cache.view, playback.order(), playback.position(), playback.shown_step());
  draw_flow(*this, cache.view, progress, fill);
  ImGui::EndChild();
  if (multi_block) draw_blocks_bar(*this, cache, bar_h, !short_panel);
  return true;
}

}  // namespace warpviz::app
