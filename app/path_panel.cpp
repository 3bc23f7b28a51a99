// The paths panel: where a warp's lanes split at a branch, for the current
// step. The 32 lanes coloured by the path they took, each path's mask, a
// small sequence diagram of the order the paths' steps ran in (the fork on
// top, one lifeline per path, the join at the foot), and where they joined.
// The order is the backend's: the emulator's paths take turns, a GPU may run
// one to its end first (view/path_view.h derives all of it from the trace).
//
// [SECTION] Colours
// [SECTION] Lanes by path
// [SECTION] Sequence diagram
// [SECTION] Panel
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include <imgui.h>

#include "app_view.h"
#include "panel_widgets.h"
#include "warpviz/view/path_view.h"

namespace warpviz::app {
namespace {

// ---------------------------------------------------------------------------
// [SECTION] Colours
// ---------------------------------------------------------------------------

// Okabe-Ito hues, distinct without colour vision; path A is sky blue, B orange.
constexpr ImU32 kPathColours[] = {
    IM_COL32(86, 180, 233, 255), IM_COL32(230, 159, 0, 255),  IM_COL32(0, 158, 115, 255),
    IM_COL32(204, 121, 167, 255), IM_COL32(240, 228, 66, 255), IM_COL32(0, 114, 178, 255),
    IM_COL32(213, 94, 0, 255),
};
constexpr ImU32 kNoPathColour = IM_COL32(70, 72, 78, 255);
constexpr ImU32 kConvergedColour = IM_COL32(150, 150, 156, 255);
constexpr ImU32 kCurrentColour = IM_COL32(255, 196, 0, 255);  // amber, as the history's current column
constexpr ImU32 kLifelineColour = IM_COL32(120, 120, 128, 255);
constexpr ImU32 kDarkText = IM_COL32(20, 20, 20, 255);
constexpr ImU32 kDimText = IM_COL32(150, 150, 150, 255);

ImU32 path_colour(int path) {
  if (path < 0) return kNoPathColour;
  return kPathColours[size_t(path) % (sizeof kPathColours / sizeof kPathColours[0])];
}

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

// ---------------------------------------------------------------------------
// [SECTION] Lanes by path
// ---------------------------------------------------------------------------

// One row of 32 boxes, lane 0 on the left, each in its path's colour and
// named by its letter; lane numbers every 8 lanes underneath.
void draw_lanes_by_path(const view::PathView& v, const AppView& app) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float dpi = app.dpi_scale;
  ImGui::TextDisabled("%s", app.tr(view::Text::PathLanes));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float gap = 2 * dpi, byte_gap = 4 * dpi;
  const float box_w = std::max(8 * dpi, (ImGui::GetContentRegionAvail().x - 31 * gap - 3 * byte_gap) / 32);
  const float box_h = ImGui::GetTextLineHeight() + 6 * dpi;
  int hovered_lane = -1;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const float x = origin.x + lane * (box_w + gap) + (lane / 8) * byte_gap;
    const ImVec2 lo(x, origin.y), hi(x + box_w, origin.y + box_h);
    const int path = v.lane_path[lane];
    draw->AddRectFilled(lo, hi, path_colour(path), 2 * dpi);
    if (path >= 0 && path == v.current_path) draw->AddRect(lo, hi, kCurrentColour, 2 * dpi, 0, 2 * dpi);
    const std::string letter = path >= 0 ? path_name(size_t(path)) : "·";
    const ImVec2 size = ImGui::CalcTextSize(letter.c_str());
    if (size.x <= box_w)
      draw->AddText(ImVec2(lo.x + (box_w - size.x) / 2, lo.y + (box_h - size.y) / 2), path >= 0 ? kDarkText : kDimText,
                    letter.c_str());
    if (lane % 8 == 0) draw->AddText(ImVec2(lo.x, hi.y + 2 * dpi), kDimText, std::to_string(lane).c_str());
    if (ImGui::IsMouseHoveringRect(lo, hi)) hovered_lane = lane;
  }
  ImGui::Dummy(ImVec2(32 * (box_w + gap) + 3 * byte_gap, box_h + ImGui::GetTextLineHeight() + 4 * dpi));
  if (hovered_lane >= 0) {
    const int path = v.lane_path[hovered_lane];
    if (path >= 0)
      ImGui::SetTooltip("lane %d: %s %s", hovered_lane, app.tr("path", "路径"), path_name(size_t(path)).c_str());
    else
      ImGui::SetTooltip("lane %d: %s", hovered_lane, app.tr(view::Text::PathNoStep));
  }
}

// Each path's colour, name, mask, first line, steps and when it started.
void draw_path_legend(const view::PathView& v, const AppView& app) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float h = ImGui::GetTextLineHeight();
  for (size_t p = 0; p < v.paths.size(); ++p) {
    const view::PathSummary& path = v.paths[p];
    const ImVec2 at = ImGui::GetCursorScreenPos();
    draw->AddRectFilled(at, ImVec2(at.x + h, at.y + h), path_colour(int(p)), 2 * app.dpi_scale);
    ImGui::Dummy(ImVec2(h, h));
    ImGui::SameLine();
    ImGui::Text("%s  %s %s  ·  %s %u  ·  %zu %s  ·  %s #%d", path_name(p).c_str(), app.tr(view::Text::PathMask),
                hex32(path.lanes).c_str(), app.tr("from line", "起始行"), path.first_line, path.steps,
                app.tr("steps", "步"), app.tr("started", "开始顺序"), path.ran_as + 1);
  }
}

// ---------------------------------------------------------------------------
// [SECTION] Sequence diagram
// ---------------------------------------------------------------------------

// One lifeline per path, one row per step in the order they ran; the fork and
// the join are bars across every lifeline. A click on a row shows that step.
void draw_sequence(const view::PathView& v, AppView& app) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float dpi = app.dpi_scale;
  ImGui::TextDisabled("%s", app.tr(view::Text::PathOrder));
  const float row_h = ImGui::GetTextLineHeight() + 6 * dpi;
  const float label_w = ImGui::CalcTextSize(app.tr("join", "汇合")).x + 12 * dpi;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(120 * dpi, ImGui::GetContentRegionAvail().x);
  const size_t lanes = std::max<size_t>(1, v.paths.size());
  const float column_w = (width - label_w) / float(lanes);
  auto column_x = [&](int path) { return origin.x + label_w + column_w * (float(path) + 0.5f); };

  struct Row {
    size_t step;
    int path;  // -1: fork or join (every lifeline)
    std::string text;
    bool current;
  };
  std::vector<Row> rows;
  if (v.fork_step != kNoStep)
    rows.push_back({v.fork_step, -1, app.tr("fork", "分开") + std::string("  ·  ") + app.tr("line", "行") + " " +
                                         std::to_string(v.fork_line),
                    v.place == view::PathPlace::Fork});
  for (const view::PathSequenceRow& r : v.sequence)
    rows.push_back({r.step, r.path, std::string(op_name(r.op)) + "  " + app.tr("line", "行") + " " + std::to_string(r.line),
                    r.current});
  if (v.join_step != kNoStep)
    rows.push_back({v.join_step, -1, app.tr("join", "汇合") + std::string("  ·  ") + app.tr("line", "行") + " " +
                                         std::to_string(v.join_line),
                    v.place == view::PathPlace::Join});

  const float total_h = row_h * float(rows.size());
  // Lifelines under everything, with each path's name at the top.
  for (size_t p = 0; p < v.paths.size(); ++p) {
    const float x = column_x(int(p));
    draw->AddLine(ImVec2(x, origin.y), ImVec2(x, origin.y + total_h), kLifelineColour, 1.0f * dpi);
  }
  int clicked = -1;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    const float y = origin.y + row_h * float(i);
    const float x0 = row.path < 0 ? origin.x + label_w : column_x(row.path) - column_w / 2 + 3 * dpi;
    const float x1 = row.path < 0 ? origin.x + width : column_x(row.path) + column_w / 2 - 3 * dpi;
    const ImVec2 lo(x0, y + 1 * dpi), hi(x1, y + row_h - 1 * dpi);
    draw->AddRectFilled(lo, hi, row.path < 0 ? kConvergedColour : path_colour(row.path), 3 * dpi);
    if (row.current) draw->AddRect(ImVec2(lo.x - 2 * dpi, lo.y - 1 * dpi), ImVec2(hi.x + 2 * dpi, hi.y + 1 * dpi),
                                   kCurrentColour, 3 * dpi, 0, 2.5f * dpi);
    // The step number (1-based, as the timeline counts) on the left.
    draw->AddText(ImVec2(origin.x, y + 3 * dpi), row.current ? kCurrentColour : kDimText,
                  std::to_string(row.step + 1).c_str());
    ImGui::PushClipRect(lo, hi, true);
    draw->AddText(ImVec2(lo.x + 4 * dpi, y + 3 * dpi), kDarkText, row.text.c_str());
    ImGui::PopClipRect();
    if (ImGui::IsMouseHoveringRect(ImVec2(origin.x, y), ImVec2(origin.x + width, y + row_h))) {
      ImGui::SetTooltip("%s", row.text.c_str());
      if (ImGui::IsMouseClicked(0)) clicked = int(i);
    }
  }
  ImGui::Dummy(ImVec2(width, total_h + 4 * dpi));
  if (clicked >= 0) {
    app.playback.pause();
    app.playback.seek(rows[size_t(clicked)].step);
  }
}

}  // namespace

// ---------------------------------------------------------------------------
// [SECTION] Panel
// ---------------------------------------------------------------------------

void AppView::draw_path_panel() {
  const std::vector<DivergentRegion>& regions = trace_facts.divergent_regions;
  const TraceStep* step = current_step();
  const auto v = step ? view::path_view(trace.steps, regions, playback.step()) : std::nullopt;
  if (!step) {
    centred_message(tr(view::Text::NothingToShow));
  } else if (!v) {
    // Converged here: list the trace's branches, a click shows each one's first step.
    ImGui::TextWrapped("%s", tr(view::Text::NoDivergence));
    ImGui::Spacing();
    ImGui::TextDisabled("%s", tr(view::Text::PathRegions));
    for (const DivergentRegion& r : regions) {
      char label[160];
      std::snprintf(label, sizeof label, "block %u warp %u  ·  %s %zu-%zu  ·  %zu %s", r.block, r.warp,
                    tr("steps", "步骤"), r.begin + 1, r.end, r.paths.size(), tr("paths", "条路径"));
      if (ImGui::Selectable(label)) {
        playback.pause();
        playback.seek(r.begin);
      }
    }
  } else {
    ImGui::Text("block %u  warp %u", v->block, v->warp);
    ImGui::SameLine();
    if (v->join_line)
      ImGui::TextDisabled(tr(view::Text::PathJoined), v->join_line);
    else
      ImGui::TextDisabled("%s", tr(view::Text::PathNoJoin));
    draw_lanes_by_path(*v, *this);
    draw_path_legend(*v, *this);
    ImGui::Spacing();
    draw_sequence(*v, *this);
    if (v->paths.size() > 1) ImGui::TextUnformatted(tr(v->interleaved ? view::Text::PathInterleaved : view::Text::PathOneAfterAnother));
    if (v->same_code) ImGui::TextWrapped("%s", tr(view::Text::PathSameCode));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("%s (%s)", tr(view::Text::PathUnspecifiedOrder), badge_text().c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace warpviz::app
