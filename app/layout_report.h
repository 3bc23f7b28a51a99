// What a frame put where, for the screenshot tests: the ids and titles of the
// app's panels (panel_table.h), every shown panel's rectangle and title,
// every run of text (found from the glyphs in ImGui's draw lists, so no panel
// has to report its text) with its characters, its font size and whether a clip rectangle
// cut it, and the texts a panel names by role ("lane_value", "lane_number",
// "presentation_header"). --layout-report OUT.json writes it with the
// screenshot; tests/gui/check_layout.cpp asserts on it.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "warpviz/view/strings.h"

namespace warpviz::app {

class LayoutReport {
 public:
  // Off unless a report was asked for: role() costs nothing then.
  bool enabled = false;
  float ui_scale = 1;  // written with the report: the scale the frame was drawn at
  view::Language language = view::Language::English;  // the frame's: the panels' titles are in it

  // A text a panel drew, by what it is; the panel is the current window's.
  void role(const char* role, const std::string& text, ImVec2 min, ImVec2 max, float font_px);
  // Forgets the last frame's roles; call before the frame's panels draw.
  void begin_frame() { roles_.clear(); }
  // After ImGui::Render: the panels and the glyph runs of the frame just
  // built, with the roles, as JSON. False, with `error`, when it cannot be written.
  bool write(const std::string& path, std::string* error) const;

 private:
  struct Role {
    std::string panel, role, text;
    ImVec2 min, max;
    float font_px = 0;
  };
  std::vector<Role> roles_;
};

LayoutReport& layout_report();

}  // namespace warpviz::app
