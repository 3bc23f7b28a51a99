// The table of panels (panel_table.h), built from the rows of panel_list.h.
// AppView::draw (app_view.cpp) opens a window for each open one, the View
// menu lists them, first_use_layout (panel_layout.cpp) puts each in its slot,
// settings.json keeps their visibility by id, and the layout report lists them.
#include "panel_table.h"

#include "app_view.h"

namespace warpviz::app {

const std::vector<PanelSpec>& panel_table() {
  // Each row of panel_list.h, in its order; a has-content expression becomes
  // a lambda on `app` (unused where the expression is `true`).
#define WARPVIZ_PANEL(id, draw_member, english, chinese, slot, shown, width, height, ...)          \
  {id, english, chinese, &AppView::draw_member, FirstUseSlot::slot, shown,                        \
   []([[maybe_unused]] const AppView& app) -> bool { return __VA_ARGS__; }, width, height, nullptr},
#define WARPVIZ_FLOATING_PANEL(id, draw_member, english, chinese, place_member, shown, ...)       \
  {id, english, chinese, &AppView::draw_member, FirstUseSlot::Floating, shown,                    \
   []([[maybe_unused]] const AppView& app) -> bool { return __VA_ARGS__; }, 0, 0, &AppView::place_member},
  static const std::vector<PanelSpec> table = {
#include "panel_list.h"
  };
  return table;
}

std::string panel_ids() {
  std::string out;
  for (const PanelSpec& panel : panel_table()) out += (out.empty() ? "" : ", ") + std::string(panel.id);
  return out;
}

const PanelSpec* find_panel(std::string_view id) {
  for (const PanelSpec& panel : panel_table())
    if (id == panel.id) return &panel;
  return nullptr;
}

PanelVisibility::PanelVisibility() {
  for (const PanelSpec& panel : panel_table()) flags_.push_back(Flag{panel.shown_by_default});
}

bool& PanelVisibility::shown(const PanelSpec& panel) {
  return flags_[size_t(&panel - panel_table().data())].on;
}

bool PanelVisibility::shown(std::string_view id) const {
  const PanelSpec* panel = find_panel(id);
  return panel && flags_[size_t(panel - panel_table().data())].on;
}

std::vector<std::pair<const char*, bool*>> PanelVisibility::by_id() {
  std::vector<std::pair<const char*, bool*>> out;
  for (const PanelSpec& panel : panel_table()) out.emplace_back(panel.id, &shown(panel));
  return out;
}

}  // namespace warpviz::app
