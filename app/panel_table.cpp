// The table of panels (panel_table.h). AppView::draw (app_view.cpp) opens a
// window for each open one, the View menu lists them, first_use_layout
// (panel_layout.cpp) puts each in its slot, settings.json keeps their
// visibility by id, and the layout report lists their ids.
#include "panel_table.h"

#include "app_view.h"

namespace warpviz::app {

const std::vector<PanelSpec>& panel_table() {
  using Slot = FirstUseSlot;
  // Later windows start on top: the scenario and source panels come last
  // of the laid-out ones, as they are where a student starts; the Cost panel
  // floats over the others.
  static const std::vector<PanelSpec> table = {
      {"lanes", view::Text::PanelLanes, &AppView::draw_lane_panel, Slot::Top, true, nullptr, 1100, 420},
      {"timeline", view::Text::PanelTimeline, &AppView::draw_timeline_panel, Slot::UnderTop, true, nullptr, 1100, 88},
      {"history", view::Text::PanelHistory, &AppView::draw_history_panel, Slot::LowerFirst, true, nullptr, 640, 440},
      {"votes", view::Text::PanelVotes, &AppView::draw_vote_panel, Slot::LowerSecond, true,
       [](const AppView& app) { return !app.trace_facts.no_votes; }, 720, 360},
      {"block", view::Text::PanelBlock, &AppView::draw_block_panel, Slot::LowerThird, true,
       [](const AppView& app) { return !app.trace_facts.no_block; }, 760, 420},
      {"bank", view::Text::PanelBank, &AppView::draw_bank_panel, Slot::LowerWide, true,
       [](const AppView& app) { return app.trace_facts.has_shared; }, 860, 560},
      // A trace with divergent branches has no block reduction: the block's place is free.
      {"paths", view::Text::PanelPaths, &AppView::draw_path_panel, Slot::LowerThird, true,
       [](const AppView& app) { return !app.trace_facts.divergent_regions.empty(); }, 520, 380},
      {"source", view::Text::PanelSource, &AppView::draw_source_panel, Slot::RightBottom, true, nullptr, 520, 480},
      {"scenario", view::Text::PanelScenario, &AppView::draw_scenario_panel, Slot::RightTop, true, nullptr, 500, 420},
      // Off by default: the layout has no room for it.
      {"cost", view::Text::PanelCost, &AppView::draw_cost_panel, Slot::Floating, false, nullptr, 0, 0,
       &AppView::place_cost_panel},
  };
  return table;
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
