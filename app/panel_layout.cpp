// Where panels go as the trace changes, and the zoom menu. A trace with no
// vote or match step has nothing for the votes panel, one that is not a
// block reduction nothing for the block panel: rather than two empty panels,
// their place goes to the register history beside them (which then shows its
// 32 lanes in side-by-side bands, history_panel.cpp), and comes back when a
// trace that needs them is shown.
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <map>
#include <string>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <optional>

#include "app_view.h"
#include "warpviz/scenario.h"
#include "warpviz/view/ui_scale.h"
#include "warpviz/view/vote_view.h"

namespace warpviz::app {

namespace {

struct PanelRect {
  ImVec2 min, max;
};

// A panel's place: its window's, or before its first frame its saved settings'.
std::optional<PanelRect> panel_rect(const char* id) {
  if (ImGuiWindow* w = ImGui::FindWindowByName(id))
    return PanelRect{w->Pos, ImVec2(w->Pos.x + w->Size.x, w->Pos.y + w->Size.y)};
  if (ImGuiWindowSettings* s = ImGui::FindWindowSettings(ImHashStr(id))) {
    const ImVec2 pos(s->Pos.x, s->Pos.y);
    return PanelRect{pos, ImVec2(pos.x + s->Size.x, pos.y + s->Size.y)};
  }
  return std::nullopt;
}

bool near(float a, float b) { return std::fabs(a - b) <= 2.0f; }

// `b` shares a whole edge with `a`: beside it in a row, or under it in a column.
bool shares_edge(const PanelRect& a, const PanelRect& b) {
  const bool row = near(a.min.y, b.min.y) && near(a.max.y, b.max.y) && (near(a.max.x, b.min.x) || near(b.max.x, a.min.x));
  const bool column = near(a.min.x, b.min.x) && near(a.max.x, b.max.x) && (near(a.max.y, b.min.y) || near(b.max.y, a.min.y));
  return row || column;
}

PanelRect merged(const PanelRect& a, const PanelRect& b) {
  return {ImVec2(std::min(a.min.x, b.min.x), std::min(a.min.y, b.min.y)),
          ImVec2(std::max(a.max.x, b.max.x), std::max(a.max.y, b.max.y))};
}

// A panel's own place while it holds its empty neighbours' too, by window id.
std::map<std::string, std::optional<PanelRect>> g_homes;

}  // namespace

void AppView::arrange_empty_panels() {
  // `id` grows over the empty panels beside it; where it was is kept to go back to.
  auto grow = [&](const char* id, std::initializer_list<std::tuple<const char*, bool, bool>> neighbours) {
    const std::optional<PanelRect> rect = panel_rect(id);
    if (!rect) return;
    std::optional<PanelRect>& saved = g_homes[id];
    PanelRect home = saved.value_or(*rect);
    PanelRect wanted = home;
    bool grown = false;
    for (auto [neighbour_id, empty, open] : neighbours) {
      if (!empty || !open) continue;
      const std::optional<PanelRect> neighbour = panel_rect(neighbour_id);
      if (!neighbour || !shares_edge(wanted, *neighbour)) continue;
      wanted = merged(wanted, *neighbour);
      grown = true;
    }
    if (grown) saved = home;
    else saved.reset();
    // Moved only when it differs: the user may still move and resize it.
    if (!near(wanted.min.x, rect->min.x) || !near(wanted.min.y, rect->min.y) || !near(wanted.max.x, rect->max.x) ||
        !near(wanted.max.y, rect->max.y)) {
      // On the window itself: the panel's own SetNextWindowSize(FirstUseEver)
      // would replace a SetNextWindowSize given here.
      ImGui::SetWindowPos(id, wanted.min, ImGuiCond_Always);
      ImGui::SetWindowSize(id, ImVec2(wanted.max.x - wanted.min.x, wanted.max.y - wanted.min.y), ImGuiCond_Always);
    }
  };
  // Votes first: in the first-use layout block sits beyond it.
  if (panels.history)
    grow("###history", {std::tuple{"###votes", empty_panels.votes, panels.votes},
                        std::tuple{"###block", empty_panels.block, panels.block}});
  // Votes without a block (vote, compact, match): the votes take the block's place.
  if (panels.votes && !empty_panels.votes)
    grow("###votes", {std::tuple{"###block", empty_panels.block, panels.block}});
}

void AppView::draw_zoom_menu_items() {
  char label[64];
  std::snprintf(label, sizeof label, "%s (%d%%)", tr("Zoom", "缩放"), int(std::lround(zoom * 100)));
  if (!ImGui::BeginMenu(label)) return;
  if (ImGui::MenuItem(tr("Zoom in", "放大"), "Ctrl+=", false, zoom < view::kMaxZoom)) zoom = view::zoom_step(zoom, +1);
  if (ImGui::MenuItem(tr("Zoom out", "缩小"), "Ctrl+-", false, zoom > view::kMinZoom)) zoom = view::zoom_step(zoom, -1);
  if (ImGui::MenuItem(tr("Actual size", "实际大小"), "Ctrl+0", false, zoom != 1.0f)) zoom = 1.0f;
  ImGui::EndMenu();
}

}  // namespace warpviz::app
