// The shared-memory bank view of one ld.shared / st.shared step: the tile as
// its grid of cells coloured by bank with the cells this step touches lit and
// numbered by lane; beside (or below) it the 32 banks as columns, each lane's
// hit stacked, one row per wavefront, so a 32-way conflict is a tower and a
// conflict-free access a single flat row. The padding toggle re-runs the
// scenario with the other column count and animates the hits to their new banks.
//
// [SECTION] Colours and small drawing
// [SECTION] Geometry: where the tile and the chart go
// [SECTION] Tile grid
// [SECTION] Bank chart
// [SECTION] Header and measured figures
// [SECTION] Padding toggle
// [SECTION] Panel
#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "app_view.h"
#include "layout_report.h"
#include "panel_widgets.h"
#include "warpviz/scenario.h"
#include "warpviz/view/bank_view.h"

namespace warpviz::app {
namespace {

// ---------------------------------------------------------------------------
// [SECTION] Colours and small drawing
// ---------------------------------------------------------------------------

constexpr ImU32 kBackground = IM_COL32(24, 25, 30, 255);    // behind the tile and the chart
constexpr ImU32 kTouchedEdge = IM_COL32(255, 255, 255, 255);
constexpr ImU32 kConflictColour = IM_COL32(213, 94, 0, 255);  // Okabe-Ito vermilion
constexpr ImU32 kCleanColour = IM_COL32(0, 158, 115, 255);    // bluish green
constexpr ImU32 kGridLine = IM_COL32(70, 72, 80, 255);
constexpr ImU32 kDimText = IM_COL32(150, 150, 150, 255);
constexpr ImU32 kDarkText = IM_COL32(16, 16, 16, 255);
constexpr ImU32 kLightText = IM_COL32(245, 245, 245, 255);
// Untouched cells keep this share of their bank colour: the stripes stay
// readable, the touched cells stand out.
constexpr float kUntouchedShare = 0.40f;

ImU32 mix(ImU32 a, ImU32 b, float t) {
  auto ch = [&](int shift) {
    const float x = float((a >> shift) & 255u), y = float((b >> shift) & 255u);
    return ImU32(std::lround(x + (y - x) * std::clamp(t, 0.0f, 1.0f))) << shift;
  };
  return ch(IM_COL32_R_SHIFT) | ch(IM_COL32_G_SHIFT) | ch(IM_COL32_B_SHIFT) | ch(IM_COL32_A_SHIFT);
}

ImU32 with_alpha(ImU32 c, float alpha) {
  return (c & ~IM_COL32_A_MASK) | (ImU32(std::lround(255 * std::clamp(alpha, 0.0f, 1.0f))) << IM_COL32_A_SHIFT);
}

ImU32 text_on_bank(int bank) { return view::bank_luminance(bank) > 0.30f ? kDarkText : kLightText; }

// Text centred in [lo, hi] at the largest size up to `px` that fits; nothing
// when even 7 px would not (the tooltip still names the lanes).
void fitted_text(ImDrawList* draw, ImVec2 lo, ImVec2 hi, ImU32 colour, const std::string& text, float px,
                 float dpi) {
  if (text.empty()) return;
  ImFont* font = ImGui::GetFont();
  const float w = hi.x - lo.x - 1 * dpi, h = hi.y - lo.y;
  float size = std::min(px, h * 0.92f);
  const ImVec2 at_size = font->CalcTextSizeA(size, FLT_MAX, 0, text.c_str());
  if (at_size.x > w) size *= w / at_size.x;
  if (size < 7 * dpi) return;
  const ImVec2 ts = font->CalcTextSizeA(size, FLT_MAX, 0, text.c_str());
  draw->AddText(font, size, ImVec2((lo.x + hi.x - ts.x) / 2, (lo.y + hi.y - ts.y) / 2), colour, text.c_str());
}

// "first  ·  second" when it fits `width`, else "first", else as much of
// first as fits with "…".
std::string caption_fitting(const std::string& first, const std::string& second, float width) {
  const std::string both = second.empty() ? first : first + "  ·  " + second;
  if (ImGui::CalcTextSize(both.c_str()).x <= width) return both;
  if (ImGui::CalcTextSize(first.c_str()).x <= width) return first;
  std::string cut = first;
  while (!cut.empty() && ImGui::CalcTextSize((cut + "…").c_str()).x > width) {
    // One whole character: its continuation bytes, then its first byte.
    while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0x80) cut.pop_back();
    if (!cut.empty()) cut.pop_back();
  }
  return cut.empty() ? std::string() : cut + "…";
}

// ---------------------------------------------------------------------------
// [SECTION] Geometry
// ---------------------------------------------------------------------------

// Both frames of an animation share one geometry (the larger grid, the taller
// chart), so a hit's pixel position moves only because its cell or bank does.
struct BankGeometry {
  // Tile
  ImVec2 tile_lo;
  float cell_w = 0, cell_h = 0;
  int rows = 0, cols = 0;
  // Chart
  ImVec2 chart_lo;          // top left of the boxes' area
  float chart_w = 0, chart_h = 0;
  float pitch = 0;          // one bank column
  float level_h = 0;
  int levels = 0;
  float label_h = 0;        // bank numbers under the chart
  bool side_by_side = true;

  ImVec2 cell_lo(float col, float row) const { return ImVec2(tile_lo.x + col * cell_w, tile_lo.y + row * cell_h); }
  ImVec2 box_lo(float bank, float level) const {
    return ImVec2(chart_lo.x + bank * pitch, chart_lo.y + chart_h - (level + 1) * level_h);
  }
};

BankGeometry bank_geometry(const view::BankFrame& f, const view::BankFrame* from, ImVec2 lo, ImVec2 size,
                           float dpi) {
  BankGeometry g;
  const float line = ImGui::GetTextLineHeight();
  g.rows = std::max({1, f.grid.rows, from ? from->grid.rows : 0});
  g.cols = std::max({1, f.grid.cols, from ? from->grid.cols : 0});
  // A full 32-way conflict is the chart's least height: padded and unpadded
  // are drawn to one scale, so the tower and the flat row compare at a glance.
  g.levels = std::max({32, f.height, from ? from->height : 0});
  g.label_h = line + 2 * dpi;
  const float gap = 18 * dpi;
  const float caption = line + 4 * dpi;  // a caption above each part
  // Side by side when the panel is wide: the tile left, the chart right.
  g.side_by_side = size.x > size.y * 1.45f;
  if (g.side_by_side) {
    const float body_h = size.y - caption - g.label_h;  // the label row: bank numbers, "pad"
    // Shares by column count, the tile at most half: a 64-word row of doubles
    // must not squeeze the banks.
    const float share = std::min(0.5f, float(g.cols) / float(g.cols + kSharedBanks + 2));
    const float tile_w = (size.x - gap) * share;
    g.cell_w = tile_w / g.cols;
    g.cell_h = std::min(body_h / g.rows, g.cell_w * 1.25f);
    g.tile_lo = ImVec2(lo.x, lo.y + caption);
    g.chart_lo = ImVec2(lo.x + g.cols * g.cell_w + gap, lo.y + caption);
    g.chart_w = lo.x + size.x - g.chart_lo.x;
    g.chart_h = std::max(body_h, 10 * dpi);
  } else {
    const float tile_h = (size.y - 2 * caption - gap) * 0.5f - g.label_h;
    g.cell_w = size.x / g.cols;
    g.cell_h = std::min(tile_h / g.rows, g.cell_w * 1.25f);
    g.tile_lo = ImVec2(lo.x, lo.y + caption);
    g.chart_lo = ImVec2(lo.x, g.tile_lo.y + g.rows * g.cell_h + g.label_h + gap + caption);
    g.chart_w = size.x;
    g.chart_h = std::max(lo.y + size.y - g.chart_lo.y - g.label_h, 10 * dpi);
  }
  // A panel squeezed to nothing still draws (clipped), never divides by zero.
  g.cell_w = std::max(g.cell_w, 1.0f);
  g.cell_h = std::max(g.cell_h, 1.0f);
  g.chart_w = std::max(g.chart_w, float(kSharedBanks));
  g.pitch = g.chart_w / kSharedBanks;
  g.level_h = g.chart_h / g.levels;
  return g;
}

// ---------------------------------------------------------------------------
// [SECTION] Tile grid
// ---------------------------------------------------------------------------

std::string tile_name(const Trace& trace, const view::TileGrid& grid, DType dtype) {
  const char* type = nullptr;
  if (grid.elem == 4) type = dtype == DType::F32 ? "float" : dtype == DType::I32 ? "int" : "uint32_t";
  else if (grid.elem == 1) type = "uint8_t";
  else if (grid.elem == 2) type = "uint16_t";
  else if (grid.elem == 8) type = "uint2";
  else type = "uint4";
  const bool tile = scenario_traits(trace.meta.scenario).shows_tile;
  char text[96];
  if (tile) std::snprintf(text, sizeof text, "%s tile[%d][%d]", type, grid.rows, grid.tile_cols);
  else std::snprintf(text, sizeof text, "%s shared[] (%u-byte rows)", type, grid.row_bytes);
  return text;
}

// Cells of the tile, coloured by bank; `from` (during the padding animation)
// blends each cell's colour from its old bank to its new one.
void draw_tile(ImDrawList* draw, const view::BankFrame& f, const view::BankFrame* from, float t,
               const BankGeometry& g, const char* pad_word, float dpi) {
  const view::TileGrid& grid = f.grid;
  const float e = view::ease(t);
  const bool animating = from != nullptr;
  const float inset = g.cell_w >= 5 * dpi ? 0.5f * dpi : 0.0f;
  // Only the rows inside the window's clip rectangle are drawn.
  const ImVec2 clip_lo = draw->GetClipRectMin(), clip_hi = draw->GetClipRectMax();
  const int first = std::max(0, int((clip_lo.y - g.tile_lo.y) / g.cell_h));
  const int last = std::min(grid.rows, int((clip_hi.y - g.tile_lo.y) / g.cell_h) + 1);
  // The data columns of the bank scenario's tile are 32 elements wide; the rest is padding.
  const int data_cols = int(std::min<uint32_t>(uint32_t(grid.cols), 32u * uint32_t(grid.elem) / grid.cell_bytes));
  for (int r = first; r < last; ++r) {
    for (int c = 0; c < grid.cols; ++c) {
      ImU32 colour = view::bank_colour(grid.bank(r, c));
      if (animating) {
        const bool existed = r < from->grid.rows && c < from->grid.cols;
        const ImU32 before = existed ? view::bank_colour(from->grid.bank(r, c)) : kBackground;
        colour = mix(before, colour, e);
      }
      const bool touched = !animating && f.cell(r, c).lanes != 0;
      const ImU32 fill = touched ? colour : mix(kBackground, colour, c < data_cols ? kUntouchedShare : 0.18f);
      const ImVec2 lo = g.cell_lo(float(c), float(r));
      draw->AddRectFilled(ImVec2(lo.x + inset, lo.y + inset), ImVec2(lo.x + g.cell_w - inset, lo.y + g.cell_h - inset),
                          fill);
    }
  }
  // "pad" under the padding column(s): the one word a row that shifts every row's banks.
  if (data_cols < grid.cols && last == grid.rows) {
    const char* pad = pad_word;
    const ImVec2 lo = g.cell_lo(float(data_cols), float(grid.rows));
    const float w = (grid.cols - data_cols) * g.cell_w, tw = ImGui::CalcTextSize(pad).x;
    draw->AddText(ImVec2(lo.x + (w - tw) / 2, lo.y + 3 * dpi), kDimText, pad);
  }
  if (animating) return;
  // Touched cells last, so that their outlines sit on top of the neighbours.
  for (int r = first; r < last; ++r)
    for (int c = 0; c < grid.cols; ++c) {
      const uint32_t lanes = f.cell(r, c).lanes;
      if (!lanes) continue;
      const ImVec2 lo = g.cell_lo(float(c), float(r)), hi(lo.x + g.cell_w, lo.y + g.cell_h);
      draw->AddRect(lo, hi, kTouchedEdge, 0, 0, 1.5f * dpi);
      fitted_text(draw, lo, hi, text_on_bank(grid.bank(r, c)), view::lanes_label(lanes), ImGui::GetFontSize(), dpi);
    }
}

// The lanes' hits as small labelled boxes travelling between their old and
// new cells (the padding animation).
void draw_tile_motion(ImDrawList* draw, const view::BankFrame& f, const view::BankFrame& from,
                      const std::vector<view::HitMotion>& motions, float t, const BankGeometry& g, float dpi) {
  const float e = view::ease(t);
  for (const view::HitMotion& m : motions) {
    const view::HitAt at = view::hit_at(m, t);
    if (!at.place.in_tile) continue;
    const int bank_from = from.grid.bank(int(m.from.row), int(m.from.col));
    const int bank_to = f.grid.bank(int(m.to.row), int(m.to.col));
    const ImU32 colour = with_alpha(mix(view::bank_colour(bank_from), view::bank_colour(bank_to), e), at.alpha);
    const ImVec2 lo = g.cell_lo(at.place.col, at.place.row), hi(lo.x + g.cell_w, lo.y + g.cell_h);
    draw->AddRectFilled(lo, hi, colour);
    draw->AddRect(lo, hi, with_alpha(kTouchedEdge, at.alpha), 0, 0, 1.5f * dpi);
    if (m.part == 0)
      fitted_text(draw, lo, hi, with_alpha(text_on_bank(bank_to), at.alpha), std::to_string(m.lane),
                  ImGui::GetFontSize(), dpi);
  }
}

// The cell under the mouse: its place, byte offset, bank and lanes.
void tile_tooltip(const view::BankFrame& f, const BankGeometry& g, const AppView& app) {
  if (!ImGui::IsWindowHovered()) return;
  const ImVec2 m = ImGui::GetIO().MousePos;
  const int c = int(std::floor((m.x - g.tile_lo.x) / g.cell_w)), r = int(std::floor((m.y - g.tile_lo.y) / g.cell_h));
  if (c < 0 || r < 0 || c >= f.grid.cols || r >= f.grid.rows) return;
  const uint32_t offset = f.grid.cell_offset(r, c);
  ImGui::BeginTooltip();
  ImGui::Text("byte %u  ·  word %u  ·  bank %d", offset, offset / 4, f.grid.bank(r, c));
  if (f.grid.cell_bytes == 4 && f.grid.elem >= 4)
    ImGui::Text("tile[%d][%u]", r, uint32_t(c) * 4 / uint32_t(f.grid.elem));
  else
    ImGui::Text("tile[%d][%d]", r, c);
  if (const uint32_t lanes = f.cell(r, c).lanes)
    ImGui::Text("%s %s", app.tr("lanes", "lane"), view::lanes_label(lanes).c_str());
  ImGui::EndTooltip();
}

// ---------------------------------------------------------------------------
// [SECTION] Bank chart
// ---------------------------------------------------------------------------

// The chart's frame: a strip of each bank's colour at the foot of its column,
// the bank numbers, one faint line per wavefront, and each phase's first row.
void draw_chart_frame(ImDrawList* draw, const view::BankFrame& f, const BankGeometry& g, float dpi) {
  const ImVec2 lo = g.chart_lo, hi(lo.x + g.chart_w, lo.y + g.chart_h);
  draw->AddRectFilled(lo, hi, kBackground);
  if (g.level_h >= 4 * dpi)
    for (int level = 1; level < g.levels; ++level) {
      const float y = hi.y - level * g.level_h;
      draw->AddLine(ImVec2(lo.x, y), ImVec2(hi.x, y), IM_COL32(40, 42, 48, 255), 1.0f);
    }
  const float number_w = ImGui::CalcTextSize("31").x + 2 * dpi;
  const int every = g.pitch >= number_w ? 1 : g.pitch * 2 >= number_w ? 2 : 4;
  for (int b = 0; b < kSharedBanks; ++b) {
    const float x0 = lo.x + b * g.pitch;
    draw->AddRectFilled(ImVec2(x0 + 1 * dpi, hi.y + 1 * dpi), ImVec2(x0 + g.pitch - 1 * dpi, hi.y + 4 * dpi),
                        view::bank_colour(b));
    if (b % every) continue;
    const std::string n = std::to_string(b);
    const float w = ImGui::CalcTextSize(n.c_str()).x;
    draw->AddText(ImVec2(x0 + (g.pitch - w) / 2, hi.y + 4 * dpi), kDimText, n.c_str());
  }
  // Phases of 64- and 128-bit accesses (half or quarter warps): each starts a
  // band of rows, labelled with its lanes.
  if (f.phase_base.size() > 1)
    for (size_t p = 0; p < f.phase_base.size(); ++p) {
      const float y = hi.y - f.phase_base[p] * g.level_h;
      if (p > 0) draw->AddLine(ImVec2(lo.x, y), ImVec2(hi.x, y), kDimText, 1.0f * dpi);
      const std::string label = "phase " + std::to_string(p) + ": lanes " + view::lanes_label(f.phase_lanes[p]);
      const float w = ImGui::CalcTextSize(label.c_str()).x;
      draw->AddText(ImVec2(hi.x - w - 4 * dpi, y - ImGui::GetTextLineHeight() - 1 * dpi), kDimText, label.c_str());
    }
  draw->AddLine(ImVec2(lo.x, hi.y), ImVec2(hi.x, hi.y), kGridLine, 1.0f * dpi);
}

// The stack's height is the step's cost: a line across the chart at the
// tallest stack, labelled with the wavefronts (t: the animation's height).
void draw_height_line(ImDrawList* draw, const AppView& app, float height, uint32_t wavefronts, bool conflicts,
                      const BankGeometry& g, float dpi) {
  if (height <= 0) return;
  const float y = g.chart_lo.y + g.chart_h - height * g.level_h;
  const ImU32 colour = conflicts ? kConflictColour : kCleanColour;
  draw->AddLine(ImVec2(g.chart_lo.x, y), ImVec2(g.chart_lo.x + g.chart_w, y), colour, 1.5f * dpi);
  char label[64];
  std::snprintf(label, sizeof label, "%u %s", wavefronts,
                app.tr(wavefronts == 1 ? view::Text::Wavefront : view::Text::Wavefronts));
  const ImVec2 ts = ImGui::CalcTextSize(label);
  const float x = g.chart_lo.x + g.chart_w - ts.x - 4 * dpi;
  // Above the line, or below it when the line runs along the chart's top.
  const float label_y = y - ts.y - 2 * dpi < g.chart_lo.y ? y + 2 * dpi : y - ts.y - 2 * dpi;
  draw->AddText(ImVec2(x, label_y), colour, label);
}

void draw_boxes(ImDrawList* draw, const view::BankFrame& f, const BankGeometry& g, float dpi) {
  const float gap = g.pitch >= 8 * dpi ? 1.5f * dpi : 0.5f * dpi;
  const float vgap = g.level_h >= 6 * dpi ? 1.0f * dpi : 0.0f;
  for (const view::BankBox& box : f.boxes) {
    const ImVec2 lo = g.box_lo(float(box.bank), float(box.level));
    const ImVec2 a(lo.x + gap, lo.y + vgap), b(lo.x + g.pitch - gap, lo.y + g.level_h);
    draw->AddRectFilled(a, b, view::bank_colour(box.bank), 2 * dpi);
    fitted_text(draw, a, b, text_on_bank(box.bank), view::lanes_label(box.lanes), ImGui::GetFontSize(), dpi);
  }
}

void draw_box_motion(ImDrawList* draw, const std::vector<view::HitMotion>& motions, float t, const BankGeometry& g,
                     float dpi) {
  const float e = view::ease(t);
  const float gap = g.pitch >= 8 * dpi ? 1.5f * dpi : 0.5f * dpi;
  for (const view::HitMotion& m : motions) {
    const view::HitAt at = view::hit_at(m, t);
    const ImVec2 lo = g.box_lo(at.place.bank, at.place.level);
    const ImVec2 a(lo.x + gap, lo.y), b(lo.x + g.pitch - gap, lo.y + g.level_h);
    const int to_bank = int(m.to.bank);
    const ImU32 colour = mix(view::bank_colour(int(m.from.bank)), view::bank_colour(to_bank), e);
    draw->AddRectFilled(a, b, with_alpha(colour, at.alpha), 2 * dpi);
    fitted_text(draw, a, b, with_alpha(text_on_bank(to_bank), at.alpha), std::to_string(m.lane),
                ImGui::GetFontSize(), dpi);
  }
}

void box_tooltip(const view::BankFrame& f, const BankGeometry& g, const AppView& app) {
  if (!ImGui::IsWindowHovered()) return;
  for (const view::BankBox& box : f.boxes) {
    const ImVec2 lo = g.box_lo(float(box.bank), float(box.level));
    if (!ImGui::IsMouseHoveringRect(lo, ImVec2(lo.x + g.pitch, lo.y + g.level_h))) continue;
    ImGui::BeginTooltip();
    ImGui::Text("bank %d  ·  word %u (byte %u)", box.bank, box.word, box.word * 4);
    ImGui::Text("%s %d  ·  phase %d", app.tr("wavefront", "wavefront"), box.level + 1, box.phase);
    ImGui::Text("%s %s", app.tr("lanes", "lane"), view::lanes_label(box.lanes).c_str());
    if (std::popcount(box.lanes) > 1)
      ImGui::TextDisabled("%s", f.store ? app.tr("one write survives", "只有一个写入生效")
                                        : app.tr("one read, multicast to every lane", "一次读取，广播给所有 lane"));
    ImGui::EndTooltip();
    return;
  }
}

// ---------------------------------------------------------------------------
// [SECTION] Header and measured figures
// ---------------------------------------------------------------------------

const char* figure_label(const AppView& app, view::Figure figure) {
  switch (figure) {
    case view::Figure::LoadWavefronts: return app.tr(view::Text::LoadWavefronts);
    case view::Figure::LoadConflicts: return app.tr(view::Text::LoadConflicts);
    case view::Figure::StoreWavefronts: return app.tr(view::Text::StoreWavefronts);
    case view::Figure::StoreConflicts: return app.tr(view::Text::StoreConflicts);
    case view::Figure::LatencyCycles: return app.tr(view::Text::LatencyCycles);
    case view::Figure::ThroughputCycles: return app.tr(view::Text::ThroughputCycles);
  }
  return "";
}

// The model's counts, large: what the lesson is about.
void draw_counts(AppView& app, const view::BankFrame& f) {
  ImFont* wanted = app.presentation ? app.fonts.huge : app.fonts.large;  // a projector's headline
  ImFont* large = wanted ? wanted : ImGui::GetFont();
  ImGui::PushFont(large);
  const BankAnalysis& a = f.analysis;
  ImGui::TextColored(ImColor(a.conflicts > 0 ? kConflictColour : kCleanColour), "%u %s  ·  %u %s", a.wavefronts,
                     app.tr(a.wavefronts == 1 ? view::Text::Wavefront : view::Text::Wavefronts), a.conflicts,
                     app.tr(a.conflicts == 1 ? view::Text::Conflict : view::Text::Conflicts));
  if (app.presentation)  // the headline of presentation mode at a shared access
    layout_report().role("presentation_header", "counts", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                         ImGui::GetFontSize());
  ImGui::PopFont();
}

// The model beside the hardware: ncu's counters for the whole kernel, and the
// cycles measured on the GPU.
float measured_height(const std::vector<view::MeasuredRow>& rows) {
  if (rows.empty()) return 0;
  return (rows.size() + 1) * ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
}

void draw_measured(const AppView& app, const std::vector<view::MeasuredRow>& rows) {
  if (rows.empty()) return;
  const ImGuiTableFlags flags = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV;
  if (!ImGui::BeginTable("measured", 3, flags)) return;
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn(app.tr(view::Text::Model));
  ImGui::TableSetupColumn((std::string(app.tr(view::Text::Measured)) + " (" + app.trace.meta.device + ")").c_str());
  ImGui::TableHeadersRow();
  for (const view::MeasuredRow& row : rows) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(figure_label(app, row.figure));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", row.name.c_str());
    ImGui::TableSetColumnIndex(1);
    if (row.has_model) ImGui::Text("%.0f", row.model);
    else ImGui::TextDisabled("-");
    ImGui::TableSetColumnIndex(2);
    if (!row.has_model) ImGui::Text("%.1f", row.measured);
    else ImGui::TextColored(ImColor(row.agrees() ? kCleanColour : kConflictColour), "%.0f", row.measured);
  }
  ImGui::EndTable();
}

// ---------------------------------------------------------------------------
// [SECTION] Padding toggle
// ---------------------------------------------------------------------------

// The trace's scenario pads its tile through a parameter, and the trace is
// the last request's run (re-running it with the other value is the toggle).
bool can_pad(const AppView& app) {
  const std::string& s = app.trace.meta.scenario;
  return !scenario_traits(s).pad_param.empty() && app.last_request.scenario == s;
}

}  // namespace

void AppView::toggle_bank_padding() {
  if (!can_pad(*this)) return;
  std::optional<view::BankFrame> from =
      view::bank_frame(trace, view::shared_step_near(trace, playback.order(), playback.shown_position()));
  const int cols = from ? from->grid.tile_cols : 32;
  ScenarioRequest request = last_request;
  const std::string& pad_param = scenario_traits(trace.meta.scenario).pad_param;
  const std::string other = cols == 33 ? "32" : "33";
  auto it = std::find_if(request.sets.begin(), request.sets.end(),
                         [&](const auto& set) { return set.first == pad_param; });
  if (it != request.sets.end()) it->second = other;
  else request.sets.emplace_back(pad_param, other);
  const size_t shown = playback.shown_step();
  if (!run_scenario(request, backend)) return;  // error_message says why
  // Padding changes no step's place (transpose: the same access, moved), so
  // the view stays on the access it showed.
  if (shown < playback.step_count()) playback.seek(shown);
  // The old trace's layout is where the hits start from.
  BankState& state = panel_state.bank;
  state.from = std::move(from);
  state.from_generation = trace_generation;
  if (state.from) state.animation.start();
  else state.animation.stop();
}

// ---------------------------------------------------------------------------
// [SECTION] Panel
// ---------------------------------------------------------------------------

void AppView::draw_bank_panel() {
  // A step that is no shared access says so: another step's banks and
  // wavefronts would read as this step's.
  const std::string elsewhere = view::no_shared_access_at(trace, playback.order(), playback.shown_position(), language);
  if (trace.steps.empty()) {
    centred_message(tr(view::Text::NothingToShow));
  } else if (!elsewhere.empty()) {
    centred_message(elsewhere.c_str());
    layout_report().role("bank_message", elsewhere, ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                         ImGui::GetFontSize());
  } else if (!draw_bank_view()) {
    centred_message(tr(view::Text::NoSharedAccess));
  }
}

bool AppView::draw_bank_view() {
  BankState& state = panel_state.bank;
  // The toggle's starting frame belongs to the trace it showed; any other trace shows as it is.
  const view::BankFrame* toggled_from =
      state.from && state.from_generation == trace_generation ? &*state.from : nullptr;
  BankState::View& cache = state.cache;
  if (cache.generation != trace_generation || cache.order != playback.order().kind() ||
      cache.shown_step != playback.shown_step()) {
    cache.generation = trace_generation;
    cache.order = playback.order().kind();
    cache.shown_step = playback.shown_step();
    cache.index = view::shared_step_near(trace, playback.order(), playback.shown_position());
    cache.frame = view::bank_frame(trace, cache.index);
    cache.measured = view::measured_rows(trace);
    cache.motions = cache.frame && toggled_from ? view::hit_motions(*toggled_from, *cache.frame)
                                                : std::vector<view::HitMotion>{};
  }
  const size_t index = cache.index;
  const std::optional<view::BankFrame>& frame = cache.frame;
  if (!frame) return false;
  const float s = dpi_scale;
  const view::BankFrame& f = *frame;
  const TraceStep& step = trace.steps[index];
  const bool animating = state.animation.running() && toggled_from;
  const view::BankFrame* from = animating ? toggled_from : nullptr;
  const float t = state.animation.time();

  // Header: the counts large, the padding toggle on the right.
  draw_counts(*this, f);
  if (can_pad(*this)) {
    const char* label = tr(f.grid.tile_cols == 33 ? view::Text::UnpadTile : view::Text::PadTile);
    const float w = ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2;
    ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - w));
    if (ImGui::Button(label)) toggle_bank_padding();
  }
  char step_number[48];  // 1-based, as the timeline numbers steps (in play order)
  std::snprintf(step_number, sizeof step_number, tr(view::Text::StepNumber), playback.order().position_of(index) + 1);
  ImGui::TextDisabled("%s  ·  %d-byte  ·  %s  ·  %s %u  ·  %s %u  ·  %s", op_name(step.op), f.bytes,
                      tile_name(trace, f.grid, step.dtype).c_str(), tr("ideal", "理想"), f.analysis.ideal,
                      tr(view::Text::Broadcasts), f.analysis.broadcasts, step_number);

  const std::vector<view::MeasuredRow>& rows = cache.measured;
  const ImVec2 lo = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 size(avail.x, std::max(avail.y - measured_height(rows), 120 * s));
  const BankGeometry g = bank_geometry(f, from, lo, size, s);

  ImDrawList* draw = ImGui::GetWindowDrawList();
  // Captions: what the colours mean, and what a row of the chart is.
  // Side by side, the tile's caption ends where the chart's begins: it drops
  // its second half, then is cut with "…", rather than run under "banks".
  const float caption_w = g.side_by_side ? g.chart_lo.x - g.tile_lo.x - 8 * s : size.x;
  draw->AddText(ImVec2(g.tile_lo.x, g.tile_lo.y - ImGui::GetTextLineHeight() - 3 * s), kDimText,
                caption_fitting(tile_name(trace, f.grid, step.dtype), tr(view::Text::BankOfCell), caption_w).c_str());
  draw->AddText(ImVec2(g.chart_lo.x, g.chart_lo.y - ImGui::GetTextLineHeight() - 3 * s), kDimText,
                caption_fitting(tr(view::Text::Banks), "", g.side_by_side ? g.chart_w : size.x).c_str());

  draw_tile(draw, f, from, t, g, tr(view::Text::Padding), s);
  draw_chart_frame(draw, f, g, s);
  const float height = from ? from->height + (f.height - from->height) * view::ease(t) : float(f.height);
  draw_height_line(draw, *this, height, f.analysis.wavefronts, f.analysis.conflicts > 0, g, s);
  if (from) {
    const std::vector<view::HitMotion>& motions = cache.motions;
    draw_tile_motion(draw, f, *from, motions, t, g, s);
    draw_box_motion(draw, motions, t, g, s);
  } else {
    draw_boxes(draw, f, g, s);
    tile_tooltip(f, g, *this);
    box_tooltip(f, g, *this);
  }
  ImGui::Dummy(size);
  draw_measured(*this, rows);
  return true;
}

}  // namespace warpviz::app
