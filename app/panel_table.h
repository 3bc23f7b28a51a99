// The app's panels, one row each (built in panel_table.cpp from the rows of
// panel_list.h): what the View menu lists, what AppView::draw opens a window
// for, where the first-use layout puts it, what settings.json keeps of it,
// and what the layout report knows as a panel. A new panel is its file (a
// draw_x_panel member of AppView drawing the window's contents) and one row
// of panel_list.h.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "warpviz/view/strings.h"

namespace warpviz::app {

class AppView;

// A panel's place in the first-use layout (AppView::first_use_layout). The
// left column holds the lanes, the timeline under them, and a lower row; the
// right column the scenario over the source. Panels may share a slot: the one
// with something to show for the trace is drawn there.
enum class FirstUseSlot {
  Top,          // left column, top: the biggest place
  UnderTop,     // a strip one line of buttons high under it
  LowerFirst,   // the lower row, left to right (stacked beside LowerWide when
  LowerSecond,  // the trace has shared-memory steps)
  LowerThird,
  LowerWide,    // most of the lower row when the trace has shared-memory steps, else all of it
  RightTop,
  RightBottom,
  Floating,     // not laid out: the panel places itself when opened (PanelSpec::place_window)
};

struct PanelSpec {
  const char* id;   // the window's "###id" (its identity across languages) and its key in settings.json
  const char* english;  // the title, in the window's title bar and the View menu
  const char* chinese;
  // The window's contents: AppView::draw opens the window around it.
  void (AppView::*draw)();
  FirstUseSlot slot;
  bool shown_by_default;
  // Whether the shown trace has anything for the panel; one without is not
  // drawn and is greyed in View.
  bool (*has_content)(const AppView&);
  // The window's size when no layout places it, in UI units (times dpi_scale).
  float width, height;
  // A Floating panel's own first place and size, instead of width x height.
  void (AppView::*place_window)() = nullptr;

  const char* title(view::Language language) const {
    return language == view::Language::Chinese ? chinese : english;
  }
};

// In drawing order: later windows start on top.
const std::vector<PanelSpec>& panel_table();
const PanelSpec* find_panel(std::string_view id);  // nullptr for no such panel
std::string panel_ids();  // "lanes, timeline, ...": every id, in order, for messages

// Which panels are open (View menu, close buttons, --panel, settings.json).
class PanelVisibility {
 public:
  PanelVisibility();  // every panel as its row says
  bool& shown(const PanelSpec& panel);
  bool shown(std::string_view id) const;  // false for no such panel
  // Each flag by its panel's id: what settings.json saves.
  std::vector<std::pair<const char*, bool*>> by_id();

 private:
  struct Flag {
    bool on = false;
  };
  std::vector<Flag> flags_;  // by row of panel_table()
};

}  // namespace warpviz::app
