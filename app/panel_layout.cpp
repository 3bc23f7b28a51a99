// Where panels go: the first-use layout, which puts each panel of
// panel_table() in its slot, and the changes as the trace changes: a switch
// to another kind of trace (shared-memory steps or none) lays the lower row
// out again for it. A trace
// with no vote or match step has nothing for the votes panel, one that is not
// a block reduction nothing for the block panel: rather than two empty
// panels, their place goes to the register history beside them (which then
// shows its 32 lanes in side-by-side bands, history_panel.cpp), and comes back
// when a trace that needs them is shown. And the zoom menu.
//
// [SECTION] First-use layout
// [SECTION] Empty panels
// [SECTION] Window size
// [SECTION] Zoom
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>

#include "app_view.h"
#include "warpviz/scenario.h"
#include "warpviz/view/ui_scale.h"
#include "warpviz/view/vote_view.h"

namespace warpviz::app {

// ============================================================================
// [SECTION] First-use layout
// ============================================================================

// Right column: scenario over source. Left: lanes, the timeline under them,
// then history, votes and block side by side. The timeline and the menu bar
// keep a fixed height (one font), the rest shares what is left. A trace with
// shared-memory steps gives the lower row to the bank panel, whose tile and
// bank chart need the room; history, votes and block stack beside it.
std::map<std::string, PanelRect> AppView::first_use_places(float width, float height) const {
  const float s = dpi_scale;
  // The main menu bar: one line of body type plus padding (fonts are loaded by now).
  const ImFontConfig* body = fonts.regular ? fonts.regular->ConfigData : nullptr;
  const float top = std::round((body ? body->SizePixels : 15 * s) + ImGui::GetStyle().FramePadding.y * 2);
  const float avail_h = std::max(height - top, 200.0f);
  const float right_w = std::round(std::clamp(width * 0.31f, 360 * s, 620 * s));
  const float left_w = std::max(width - right_w, 200.0f);
  const float timeline_h = std::round(88 * s);
  // A block reduction's few warpSums accesses need no big bank panel: its
  // lower row keeps the block view wide, the banks beside the votes.
  const bool reduction = scenario_traits(trace.meta.scenario).block_reduction;
  const bool shared = trace_facts.has_shared && !reduction;
  // A small window still gives the lanes room for readable values (two rows of cells).
  const float lanes_h = std::round(std::max((avail_h - timeline_h) * (shared ? 0.27f : 0.52f),
                                            std::min(190 * s, (avail_h - timeline_h) * 0.45f)));
  const float bottom_y = top + lanes_h + timeline_h;
  const float bottom_h = avail_h - lanes_h - timeline_h;
  const float scenario_h = std::round(avail_h * 0.54f);

  // Each slot's rectangle: x, y, w, h.
  struct Place {
    float x, y, w, h;
  };
  std::map<FirstUseSlot, Place> slots;
  using Slot = FirstUseSlot;
  slots[Slot::Top] = {0, top, left_w, lanes_h};
  slots[Slot::UnderTop] = {0, top + lanes_h, left_w, timeline_h};
  if (shared) {
    const float bank_w = std::round(left_w * 0.78f);
    const float side_w = left_w - bank_w, third = std::round(bottom_h / 3);
    slots[Slot::LowerWide] = {0, bottom_y, bank_w, bottom_h};
    slots[Slot::LowerFirst] = {bank_w, bottom_y, side_w, bottom_h - 2 * third};
    slots[Slot::LowerSecond] = {bank_w, bottom_y + bottom_h - 2 * third, side_w, third};
    slots[Slot::LowerThird] = {bank_w, bottom_y + bottom_h - third, side_w, third};
  } else if (reduction) {
    // history | votes over banks | a wider block view.
    const float history_w = std::round(left_w * 0.30f), middle_w = std::round(left_w * 0.28f);
    const float votes_h = std::round(bottom_h / 3);
    slots[Slot::LowerFirst] = {0, bottom_y, history_w, bottom_h};
    slots[Slot::LowerSecond] = {history_w, bottom_y, middle_w, votes_h};
    slots[Slot::LowerWide] = {history_w, bottom_y + votes_h, middle_w, bottom_h - votes_h};
    slots[Slot::LowerThird] = {history_w + middle_w, bottom_y, left_w - history_w - middle_w, bottom_h};
  } else {
    // A trace with divergent branches gives the paths panel the block's place, wider.
    const bool paths = !trace_facts.divergent_regions.empty();
    const float history_w = std::round(left_w * (paths ? 0.30f : 0.40f));
    const float votes_w = std::round((left_w - history_w) * (paths ? 0.43f : 0.5f));
    slots[Slot::LowerFirst] = {0, bottom_y, history_w, bottom_h};
    slots[Slot::LowerSecond] = {history_w, bottom_y, votes_w, bottom_h};
    slots[Slot::LowerThird] = {history_w + votes_w, bottom_y, left_w - history_w - votes_w, bottom_h};
    // Shown once a trace with shared-memory steps is: over the lower row, where it fits.
    slots[Slot::LowerWide] = {0, bottom_y, left_w, bottom_h};
  }
  slots[Slot::RightTop] = {left_w, top, right_w, scenario_h};
  slots[Slot::RightBottom] = {left_w, top + scenario_h, right_w, avail_h - scenario_h};

  std::map<std::string, PanelRect> places;
  for (const PanelSpec& panel : panel_table()) {
    const auto slot = slots.find(panel.slot);
    if (slot == slots.end()) continue;  // Floating: the panel places itself
    const Place& p = slot->second;
    // Whole pixels, as the ini text holds them.
    const ImVec2 min(std::floor(p.x), std::floor(p.y)), size(std::floor(p.w), std::floor(p.h));
    places[panel.id] = PanelRect{min, ImVec2(min.x + size.x, min.y + size.y)};
  }
  return places;
}

PanelHomes AppView::first_use_rects(float width, float height) const {
  PanelHomes rects;
  for (const auto& [id, place] : first_use_places(width, height)) rects["###" + id] = place;
  return rects;
}

std::string AppView::first_use_layout(float width, float height) const {
  std::ostringstream ini;
  for (const auto& [window, r] : first_use_rects(width, height))
    ini << "[Window][" << window << "]\nPos=" << int(r.min.x) << ',' << int(r.min.y) << "\nSize=" << int(r.max.x - r.min.x)
        << ',' << int(r.max.y - r.min.y) << "\nCollapsed=0\n\n";
  return ini.str();
}

AppView::LowerRow AppView::lower_row() const {
  if (scenario_traits(trace.meta.scenario).block_reduction) return LowerRow::Reduction;
  if (trace_facts.has_shared) return LowerRow::Banks;
  return trace_facts.divergent_regions.empty() ? LowerRow::Plain : LowerRow::Paths;
}

// ============================================================================
// [SECTION] Empty panels
// ============================================================================

namespace {

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

float overlap_area(const PanelRect& a, const PanelRect& b) {
  const float w = std::min(a.max.x, b.max.x) - std::max(a.min.x, b.min.x);
  const float h = std::min(a.max.y, b.max.y) - std::max(a.min.y, b.min.y);
  return w > 0 && h > 0 ? w * h : 0.0f;
}

}  // namespace

namespace {

// Puts window `id` ("###bank") at `place`: the window itself when it exists,
// else its settings, which ImGui reads when it first creates the window.
void place_window(const std::string& id, const PanelRect& place) {
  const ImVec2 size(place.max.x - place.min.x, place.max.y - place.min.y);
  if (ImGui::FindWindowByName(id.c_str())) {
    ImGui::SetWindowPos(id.c_str(), place.min, ImGuiCond_Always);
    ImGui::SetWindowSize(id.c_str(), size, ImGuiCond_Always);
    return;
  }
  ImGuiWindowSettings* settings = ImGui::FindWindowSettings(ImHashStr(id.c_str()));
  if (!settings) settings = ImGui::CreateNewWindowSettings(id.c_str());
  settings->Pos = ImVec2ih(short(place.min.x), short(place.min.y));
  settings->Size = ImVec2ih(short(size.x), short(size.y));
  settings->Collapsed = false;
}

}  // namespace

bool AppView::place_lower_row() {
  // The banks over the history: the lower row was laid out for a trace
  // without shared-memory steps (its banks' slot is the whole row), or a
  // saved layout put them there.
  const auto covered = [&] {
    if (!panels.shown("bank") || !trace_facts.has_shared || !panels.shown("history")) return false;
    const std::optional<PanelRect> bank = panel_rect("###bank"), history = panel_rect("###history");
    if (!bank || !history) return false;
    const float history_area = (history->max.x - history->min.x) * (history->max.y - history->min.y);
    return overlap_area(*bank, *history) > 0.25f * history_area;
  };
  const LowerRow row = lower_row();
  const bool switched = lower_row_placed && *lower_row_placed != row;
  lower_row_placed = row;
  if (!switched && !covered()) return false;
  // The left column as a first use would lay it out for this trace; the
  // panels on the right stay where the user has them.
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  for (const auto& [id, place] : first_use_places(display.x, display.y)) {
    const PanelSpec* spec = nullptr;
    for (const PanelSpec& panel : panel_table())
      if (id == panel.id) spec = &panel;
    // The lanes and timeline too: the banks' row is taller, the lanes shorter.
    if (!spec || spec->slot == FirstUseSlot::RightTop || spec->slot == FirstUseSlot::RightBottom) continue;
    const std::string window = "###" + id;
    panel_homes.erase(window);
    place_window(window, place);
  }
  return true;
}

void AppView::arrange_empty_panels() {
  // Another kind of trace: its lower row first; the empty panels give way
  // next frame, once the windows have their new sizes.
  if (place_lower_row()) return;
  // An empty panel's place is not free while another panel drawn this frame
  // lies over it: the paths panel shares the block's slot.
  auto taken = [&](const PanelRect& place, const std::string& growing, const std::string& empty) {
    const float area = (place.max.x - place.min.x) * (place.max.y - place.min.y);
    for (const PanelSpec& panel : panel_table()) {
      const std::string window = std::string("###") + panel.id;
      if (window == growing || window == empty || !panels.shown(panel.id)) continue;
      if (!panel.has_content(*this)) continue;
      const std::optional<PanelRect> other = panel_rect(window.c_str());
      if (other && overlap_area(place, *other) > 0.25f * area) return true;
    }
    return false;
  };
  // `id` grows over the empty panels beside it; where it was is kept to go back to.
  auto grow = [&](const char* id, std::initializer_list<std::tuple<const char*, bool, bool>> neighbours) {
    const std::optional<PanelRect> rect = panel_rect(id);
    if (!rect) return;
    const auto saved = panel_homes.find(id);
    const PanelRect home = saved != panel_homes.end() ? saved->second : *rect;
    PanelRect wanted = home;
    bool grown = false;
    for (auto [neighbour_id, empty, open] : neighbours) {
      if (!empty || !open) continue;
      const std::optional<PanelRect> neighbour = panel_rect(neighbour_id);
      if (!neighbour || !shares_edge(wanted, *neighbour) || taken(*neighbour, id, neighbour_id)) continue;
      wanted = merged(wanted, *neighbour);
      grown = true;
    }
    if (grown) panel_homes[id] = home;
    else panel_homes.erase(id);
    // Moved only when it differs: the user may still move and resize it.
    if (!near(wanted.min.x, rect->min.x) || !near(wanted.min.y, rect->min.y) || !near(wanted.max.x, rect->max.x) ||
        !near(wanted.max.y, rect->max.y)) {
      // On the window itself: the panel's own SetNextWindowSize(FirstUseEver)
      // would replace a SetNextWindowSize given here.
      ImGui::SetWindowPos(id, wanted.min, ImGuiCond_Always);
      ImGui::SetWindowSize(id, ImVec2(wanted.max.x - wanted.min.x, wanted.max.y - wanted.min.y), ImGuiCond_Always);
    }
  };
  // The Cost panel shared the source's place (place_cost_panel): closed, the source gets all of it back.
  if (!panels.shown("cost")) {
    const auto source_home = panel_homes.find("###source");
    if (source_home != panel_homes.end()) {
      const PanelRect home = source_home->second;
      panel_homes.erase(source_home);
      ImGui::SetWindowPos("###source", home.min, ImGuiCond_Always);
      ImGui::SetWindowSize("###source", ImVec2(home.max.x - home.min.x, home.max.y - home.min.y), ImGuiCond_Always);
    }
  }
  // Votes first: in the first-use layout block sits beyond it.
  const bool votes = panels.shown("votes"), block = panels.shown("block");
  // A reduction's banks lie under the votes (reduce_sum's warpSums): empty
  // votes give them their place first, rather than leave a hole over them.
  if (panels.shown("bank") && trace_facts.has_shared)
    grow("###bank", {std::tuple{"###votes", trace_facts.no_votes, votes}});
  if (panels.shown("history"))
    grow("###history", {std::tuple{"###votes", trace_facts.no_votes, votes},
                        std::tuple{"###block", trace_facts.no_block, block}});
  // Votes without a block (vote, compact, match): the votes take the block's place.
  if (votes && !trace_facts.no_votes) grow("###votes", {std::tuple{"###block", trace_facts.no_block, block}});
}

// ============================================================================
// [SECTION] Window size
// ============================================================================

void AppView::follow_window_size(float width, float height) {
  if (width < 1 || height < 1) return;  // minimised: nothing to lay out for
  if (laid_out_w == 0) {
    // The first frame: the layout main loaded. Whether it is the first-use
    // one shows once the size changes.
    laid_out_w = width, laid_out_h = height, laid_out_scale = dpi_scale;
    laid_out_rects = first_use_rects(width, height);
    return;
  }
  if (laid_out_w == width && laid_out_h == height && laid_out_scale == dpi_scale) return;
  // Still the first-use layout: every laid-out panel where it put it (a grown
  // panel by its home; a panel never drawn by its settings).
  bool first_use = true;
  for (const auto& [window, wanted] : laid_out_rects) {
    const auto home = panel_homes.find(window);
    const std::optional<PanelRect> now = home != panel_homes.end() ? home->second : panel_rect(window.c_str());
    if (now && !(near(now->min.x, wanted.min.x) && near(now->min.y, wanted.min.y) && near(now->max.x, wanted.max.x) &&
                 near(now->max.y, wanted.max.y)))
      first_use = false;
  }
  if (first_use) {
    // Laid out afresh for the new size and scale; arrange_empty_panels grows
    // the panels beside empty ones again from their new places.
    const std::string layout = first_use_layout(width, height);
    ImGui::LoadIniSettingsFromMemory(layout.data(), layout.size());
    panel_homes.clear();
    laid_out_rects = first_use_rects(width, height);
  } else {
    // The user's own arrangement, stretched with the window.
    const float sx = width / laid_out_w, sy = height / laid_out_h;
    auto stretch = [&](PanelRect& r) {
      r.min = ImVec2(std::round(r.min.x * sx), std::round(r.min.y * sy));
      r.max = ImVec2(std::round(r.max.x * sx), std::round(r.max.y * sy));
    };
    for (const PanelSpec& panel : panel_table()) {
      const std::string window = std::string("###") + panel.id;
      std::optional<PanelRect> r = panel_rect(window.c_str());
      if (!r) continue;
      stretch(*r);
      ImGui::SetWindowPos(window.c_str(), r->min, ImGuiCond_Always);
      ImGui::SetWindowSize(window.c_str(), ImVec2(r->max.x - r->min.x, r->max.y - r->min.y), ImGuiCond_Always);
    }
    for (auto& [window, home] : panel_homes) stretch(home);
    for (auto& [window, rect] : laid_out_rects) stretch(rect);
  }
  laid_out_w = width, laid_out_h = height, laid_out_scale = dpi_scale;
}

// ============================================================================
// [SECTION] Zoom
// ============================================================================

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
