// Where panels go as the trace changes, and the zoom menu. A trace with no
// vote or match step has nothing for the votes panel, one that is not a
// block reduction nothing for the block panel: rather than two empty panels,
// their place goes to the register history beside them (which then shows its
// 32 lanes in side-by-side bands, history_panel.cpp), and comes back when a
// trace that needs them is shown.
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
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

// The history's own place while it holds its neighbours' too.
std::optional<PanelRect> g_history_home;

}  // namespace

void AppView::arrange_empty_panels() {
  // What this trace has, worked out once per trace.
  static const TraceStep* seen_steps = nullptr;
  static size_t seen_count = SIZE_MAX;
  static std::string seen_scenario;
  static bool has_votes = true, has_block = true;
  if (seen_steps != trace.steps.data() || seen_count != trace.steps.size() || seen_scenario != trace.meta.scenario) {
    seen_steps = trace.steps.data(), seen_count = trace.steps.size(), seen_scenario = trace.meta.scenario;
    has_votes = std::any_of(trace.steps.begin(), trace.steps.end(), [](const TraceStep& s) {
      return view::ballot_view(s).has_value() || s.op == Op::MatchAny || s.op == Op::MatchAll;
    });
    has_block = scenario_traits(trace.meta.scenario).block_reduction;
  }
  // A trace without steps says so in every panel; nothing moves for it.
  empty_panels.votes = !trace.steps.empty() && !has_votes;
  empty_panels.block = !trace.steps.empty() && !has_block;

  if (!panels.history) return;
  const std::optional<PanelRect> history = panel_rect("###history");
  if (!history) return;
  PanelRect home = g_history_home.value_or(*history);
  PanelRect wanted = home;
  bool grown = false;
  // Votes first: in the first-use layout block sits beyond it.
  for (auto [id, empty, open] : {std::tuple{"###votes", empty_panels.votes, panels.votes},
                                 std::tuple{"###block", empty_panels.block, panels.block}}) {
    if (!empty || !open) continue;
    const std::optional<PanelRect> neighbour = panel_rect(id);
    if (!neighbour || !shares_edge(wanted, *neighbour)) continue;
    wanted = merged(wanted, *neighbour);
    grown = true;
  }
  if (grown) g_history_home = home;
  else g_history_home.reset();
  // Moved only when it differs: the user may still move and resize it.
  if (!near(wanted.min.x, history->min.x) || !near(wanted.min.y, history->min.y) ||
      !near(wanted.max.x, history->max.x) || !near(wanted.max.y, history->max.y)) {
    // On the window itself: the panel's own SetNextWindowSize(FirstUseEver)
    // would replace a SetNextWindowSize given here.
    ImGui::SetWindowPos("###history", wanted.min, ImGuiCond_Always);
    ImGui::SetWindowSize("###history", ImVec2(wanted.max.x - wanted.min.x, wanted.max.y - wanted.min.y), ImGuiCond_Always);
  }
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
