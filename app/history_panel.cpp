// The register history: one warp's lanes (rows) through its steps (columns),
// each cell the value the lane got back, coloured by its rank in the column.
// A click on a cell jumps the timeline to that step.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>

#include "app_view.h"
#include "layout_report.h"
#include "panel_widgets.h"
#include "warpviz/view/history.h"
#include "warpviz/view/lane_view.h"

namespace warpviz::app {
namespace {

// Dear ImGui 1.86 keeps a table's columns in a 64-bit set; one is the lane label.
constexpr int kMaxStepColumns = 63;

constexpr ImU32 kUndefinedColour = IM_COL32(213, 94, 0, 255);  // the lane view's vermillion
constexpr ImU32 kInactiveColour = IM_COL32(72, 72, 76, 255);
constexpr ImU32 kCurrentColour = IM_COL32(255, 196, 0, 255);

// Viridis in five stops: perceptually even, and readable by colour-blind students.
ImU32 heat_colour(double heat) {
  static const float stops[5][3] = {
      {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  float t = float(std::clamp(heat, 0.0, 1.0)) * 4.0f;
  int i = std::min(int(t), 3);
  float f = t - float(i);
  auto mix = [&](int c) { return int(stops[i][c] + (stops[i + 1][c] - stops[i][c]) * f); };
  return IM_COL32(mix(0), mix(1), mix(2), 255);
}

// Dark text on the bright end of the ramp, light text elsewhere.
ImU32 text_colour_on(const view::HistoryCell& cell) {
  if (cell.active && !cell.undefined && cell.heat > 0.62) return IM_COL32(20, 20, 20, 255);
  return IM_COL32(240, 240, 240, 255);
}

using HistoryCache = HistoryState::Table;

// The table (HistoryState::Table), rebuilt only when its key changed.
const HistoryCache& cached_history(HistoryCache& cache, const Trace& trace, uint64_t generation,
                                   const view::PlayOrder& order, uint32_t block, uint32_t warp, bool hex,
                                   view::HistoryColumns columns, view::Language language) {
  if (cache.generation == generation && cache.block == block && cache.warp == warp && cache.order == order.kind() &&
      cache.hex == hex && cache.columns == columns && cache.language == language)
    return cache;
  cache = HistoryCache{generation, block, warp, order.kind(), hex, columns, language, {}, {}, {}};
  cache.table = view::history_table(trace, block, warp, hex, columns);
  for (size_t col = 0; col < cache.table.step_indices.size(); ++col) {
    // Words over two lines ("val" over "round 2/5"): the column stays as
    // narrow as its longer line.
    cache.headers.push_back(view::history_header(trace, order, cache.table.step_indices[col], language));
    const std::string& header = cache.headers.back();
    const size_t newline = header.find('\n');
    size_t chars = newline == std::string::npos ? header.size() : std::max(newline, header.size() - newline - 1);
    for (const auto& row : cache.table.cells)
      if (col < row.size()) chars = std::max(chars, row[col].text.size());
    cache.column_chars.push_back(chars);
  }
  return cache;
}


// A legend entry continues the line it is on where it fits. Where it does
// not, it starts a new line if the panel has height to spare; in a short
// panel it is left out (the lane view's legend has the same colours), as the
// table's rows need the height more than a cut-off word.
void legend_box(ImU32 colour, const char* label) {
  float h = ImGui::GetTextLineHeight();
  const float width = h + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(label).x;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetCursorScreenPos().x + width > right) {
    if (ImGui::GetContentRegionAvail().y < 14 * ImGui::GetTextLineHeightWithSpacing()) return;
    ImGui::NewLine();
  }
  ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + h, p.y + h), colour, 2.0f);
  ImGui::Dummy(ImVec2(h, h));
  ImGui::SameLine();
  ImGui::TextUnformatted(label);
  ImGui::SameLine(0, h);
}

// Which columns the table shows, and where the playback is.
struct Window {
  int first = 0, shown = 0;  // columns first .. first + shown - 1
  int current = -1;          // the current step's column, -1 when not in the table
  bool follow = false;       // the step changed: scroll its column into view
};

// One cell: the heat as background, the value, a click target and a tooltip.
void draw_cell(AppView& app, const view::HistoryTable& table, int lane, int col, bool current, float row_h) {
  const view::HistoryCell& cell = table.cells[lane][col];
  ImU32 bg = cell.undefined ? kUndefinedColour : !cell.active ? kInactiveColour : heat_colour(cell.heat);
  ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, bg);

  ImVec2 size(ImGui::GetContentRegionAvail().x, row_h - 2 * ImGui::GetStyle().CellPadding.y);
  if (ImGui::InvisibleButton("cell", ImVec2(std::max(size.x, 1.0f), std::max(size.y, 1.0f)))) {
    app.playback.pause();
    app.playback.seek(table.step_indices[col]);
  }
  ImDrawList* draw = ImGui::GetWindowDrawList();
  ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  if (current) {
    // Left and right edges of the cell, so the column reads as one band.
    ImVec2 pad = ImGui::GetStyle().CellPadding;
    float t = 2 * app.dpi_scale;
    draw->AddRect(ImVec2(lo.x - pad.x + t / 2, lo.y - pad.y), ImVec2(hi.x + pad.x - t / 2, hi.y + pad.y),
                  kCurrentColour, 0, 0, t);
  }
  const char* text = cell.active || cell.undefined ? cell.text.c_str() : "·";
  draw->AddText(ImVec2(lo.x, lo.y + (size.y - ImGui::GetTextLineHeight()) / 2), text_colour_on(cell), text);
  if (ImGui::IsItemHovered()) {
    const TraceStep& s = app.trace.steps[table.step_indices[col]];
    ImGui::BeginTooltip();
    char step_number[48];  // as the timeline counts: "step 3", never a bare "3 shfl.down"
    std::snprintf(step_number, sizeof step_number, app.tr(view::Text::StepNumber),
                  app.playback.order().position_of(table.step_indices[col]) + 1);
    ImGui::Text("lane %d  ·  %s: %s  (%s %u)", lane, step_number, op_name(s.op), app.tr("line", "行"), s.line);
    // A shuffle's value came from another lane: say which.
    if (cell.src >= 0)
      ImGui::Text("%s %s %d", cell.text.c_str(), app.tr("\xe2\x86\x90 read from lane", "\xe2\x86\x90 读自 lane"), cell.src);
    else
      ImGui::TextUnformatted(cell.text.c_str());
    if (cell.undefined) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", app.tr(view::Text::Undefined));
    if (!cell.active) ImGui::TextDisabled("%s", app.tr(view::Text::Inactive));
    ImGui::EndTooltip();
  }
}

float history_row_h(const AppView& app) { return ImGui::GetTextLineHeight() + 4 * app.dpi_scale; }

// The table's width with every column shown.
float table_width(const HistoryCache& cache, const Window& w) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float char_w = ImGui::CalcTextSize("0").x;
  float width = char_w * 4 + style.CellPadding.x * 2 + 1;
  for (int c = 0; c < w.shown; ++c) width += char_w * float(cache.column_chars[w.first + c] + 1) + style.CellPadding.x * 2 + 1;
  return width + style.ScrollbarSize;
}

// How many tables side by side the 32 lanes are split into: as few as show
// every lane in the panel's height, as long as they fit its width.
int lane_bands(const AppView& app, const HistoryCache& cache, const Window& w, ImVec2 avail) {
  const float row_h = history_row_h(app) + ImGui::GetStyle().CellPadding.y * 2;
  const float width = table_width(cache, w) + ImGui::GetStyle().ItemSpacing.x;
  const int lanes = int(cache.table.cells.size());
  int best = 1;
  for (int bands : {1, 2, 3, 4}) {
    if (bands > 1 && width * float(bands) > avail.x) break;
    best = bands;
    const int rows = (lanes + bands - 1) / bands;
    if (float(rows + 2) * row_h <= avail.y) break;  // every lane shows, the two-line header row included
  }
  return best;
}

void draw_table(AppView& app, const HistoryCache& cache, const Window& w, int first_lane, int end_lane,
                const char* id, float width) {
  const float char_w = ImGui::CalcTextSize("0").x;
  const float row_h = history_row_h(app);
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInner |
                                ImGuiTableFlags_BordersOuter | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable(id, w.shown + 1, flags, ImVec2(width, 0))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("lane", ImGuiTableColumnFlags_WidthFixed, char_w * 4);
  for (int c = 0; c < w.shown; ++c)
    ImGui::TableSetupColumn(cache.headers[w.first + c].c_str(), ImGuiTableColumnFlags_WidthFixed,
                            char_w * float(cache.column_chars[w.first + c] + 1));

  // Header row, the current step's header in the highlight colour.
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c <= w.shown; ++c) {
    if (!ImGui::TableSetColumnIndex(c)) continue;
    if (c > 0 && w.first + c - 1 == w.current) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, kCurrentColour);
    ImGui::PushID(c);
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    layout_report().role("history_header", ImGui::TableGetColumnName(c), ImGui::GetItemRectMin(),
                         ImGui::GetItemRectMax(), ImGui::GetFontSize());
    ImGui::PopID();
  }

  // Only the rows and columns on screen are drawn: the clipper skips rows,
  // TableSetColumnIndex returns false for columns scrolled out of view.
  ImGuiListClipper clipper;
  clipper.Begin(end_lane - first_lane);
  while (clipper.Step()) {
    for (int lane = first_lane + clipper.DisplayStart; lane < first_lane + clipper.DisplayEnd; ++lane) {
      ImGui::TableNextRow(ImGuiTableRowFlags_None, row_h);
      if (ImGui::TableSetColumnIndex(0)) ImGui::TextDisabled("%2d", lane);
      for (int c = 0; c < w.shown; ++c) {
        const int col = w.first + c;
        const bool visible = ImGui::TableSetColumnIndex(c + 1);
        ImGui::PushID(lane * 64 + c);
        if (visible) {
          draw_cell(app, cache.table, lane, col, col == w.current, row_h);
        } else if (w.follow && col == w.current && lane == first_lane + clipper.DisplayStart) {
          ImGui::Dummy(ImVec2(1, 1));  // scrolling to a column needs an item there, even a clipped one
        }
        if (w.follow && col == w.current && lane == first_lane + clipper.DisplayStart) ImGui::SetScrollHereX(0.5f);
        ImGui::PopID();
      }
    }
  }
  ImGui::EndTable();
}

}  // namespace

void AppView::draw_history_panel() {
  const TraceStep* step = current_step();
  if (!step) {
    centred_message(tr(view::Text::NothingToShow));
    return;
  }
  // Watched values or op results: a trace with watches opens on the watched
  // values (a reduction's running sum, round by round); the choice is kept
  // until another trace is shown. Looked up once per trace: a walk of a
  // million steps every frame would cost more than the table.
  HistoryState& state = panel_state.history;
  bool& show_watched = state.show_watched;
  const bool& has_watches = state.has_watches;
  if (state.watches_generation != trace_generation) {
    state.watches_generation = trace_generation;
    state.has_watches = show_watched = view::trace_has_watches(trace);
  }
  if (has_watches) {
    // A narrow panel says "watches": both choices stay on one line.
    const char* watched = tr("watched values", "观察的变量");
    const char* ops = tr("op results", "指令结果");
    if (radio_button_width(watched) + ImGui::GetStyle().ItemSpacing.x + radio_button_width(ops) >
        ImGui::GetContentRegionAvail().x)
      watched = tr("watches", "观察");
    if (ImGui::RadioButton(watched, show_watched)) show_watched = true;
    same_line_if_fits(radio_button_width(ops));
    if (ImGui::RadioButton(ops, !show_watched)) show_watched = false;
  }
  const view::HistoryColumns which_columns =
      !has_watches ? view::HistoryColumns::All
                   : show_watched ? view::HistoryColumns::Watched : view::HistoryColumns::OpResults;
  const HistoryCache& cache =
      cached_history(state.cache, trace, trace_generation, playback.order(), step->block, step->warp, hex, which_columns,
                     language);
  const view::HistoryTable& table = cache.table;
  const int columns = int(table.step_indices.size());
  if (columns == 0 || table.cells.empty()) {
    ImGui::NewLine();
    centred_message(tr(view::Text::NothingToShow));
    return;
  }

  // The current step's column: its own, or its round's other step when the
  // table shows only watches or only ops.
  const size_t now = playback.step();
  const int current = view::history_column(trace, table, now);

  // A warp with more steps than a table can hold shows a window of them
  // around the current step.
  int first = 0;
  if (columns > kMaxStepColumns)
    first = std::clamp(std::max(current, 0) - kMaxStepColumns / 2, 0, columns - kMaxStepColumns);
  const int shown = std::min(columns, kMaxStepColumns);

  const std::string where = "block " + std::to_string(step->block) + "  ·  warp " + std::to_string(step->warp);
  if (has_watches) same_line_if_fits(ImGui::CalcTextSize(where.c_str()).x, ImGui::GetTextLineHeight());
  ImGui::TextUnformatted(where.c_str());
  if (columns > shown) {
    ImGui::SameLine();
    ImGui::TextDisabled("(%d–%d / %d)", first + 1, first + shown, columns);  // 1-based, as the headers
  }
  ImGui::SameLine(0, ImGui::GetTextLineHeight() * 2);
  legend_box(kUndefinedColour, tr(view::Text::Undefined));
  legend_box(kInactiveColour, tr(view::Text::Inactive));
  // "Round" only for a reduction's rounds; a vote or a match is a step.
  legend_box(kCurrentColour, view::step_place(trace, now).is_round ? tr(view::Text::Round)
                                                                    : tr(view::Text::CurrentStep));
  ImGui::NewLine();

  const bool follow = now != state.scrolled_to;
  state.scrolled_to = now;
  // When the lanes do not fit the panel's height but two or more tables fit
  // its width (the votes and block panels gave it their place), the lanes
  // come in bands side by side: 0-15 | 16-31.
  const Window window{first, shown, current, follow};
  const int bands = lane_bands(*this, cache, window, ImGui::GetContentRegionAvail());
  const int lanes = int(table.cells.size()), per_band = (lanes + bands - 1) / bands;
  for (int band = 0; band < bands; ++band) {
    if (band > 0) ImGui::SameLine();
    const char* ids[] = {"history", "history_2", "history_3", "history_4"};
    const float width = bands == 1 ? 0.0f : table_width(cache, window);
    draw_table(*this, cache, window, band * per_band, std::min(lanes, (band + 1) * per_band), ids[band], width);
  }
}

}  // namespace warpviz::app
