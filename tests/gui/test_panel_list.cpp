// The app's list of panels (app/panel_list.h), read here as the app reads it:
// each row's id and titles are fit for what the app does with them, and the
// built app's --panel message names every row. (A row's draw member, place
// member and has-content expression are compiled by the app itself: a
// duplicate member does not compile, nor does a misspelt one.) Whether the
// app's table, View menu titles and window titles are the list's is checked
// on a frame: gui_layout_panel_list_* (check_layout --panels-as-listed).
#include <sys/wait.h>

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

namespace {

struct ListedPanel {
  std::string id, english, chinese;
  bool floating = false;
  double width = 0, height = 0;
};

const std::vector<ListedPanel>& listed_panels() {
  static const std::vector<ListedPanel> rows = {
#define WARPVIZ_PANEL(id, draw_member, english, chinese, slot, shown, width, height, ...) \
  {id, english, chinese, false, width, height},
#define WARPVIZ_FLOATING_PANEL(id, draw_member, english, chinese, place_member, shown, ...) \
  {id, english, chinese, true, 0, 0},
#include "panel_list.h"
  };
  return rows;
}

// An id is a settings.json key, a --panel argument and ImGui's "###id":
// lower-case letters, digits and '_' need no quoting in any of them.
bool plain_id(const std::string& id) {
  if (id.empty()) return false;
  for (char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

}  // namespace

TEST_CASE("every panel of the list has a unique plain id and both titles", "[gui][panels]") {
  const std::vector<ListedPanel>& rows = listed_panels();
  REQUIRE(!rows.empty());
  std::set<std::string> ids;
  for (const ListedPanel& row : rows) {
    INFO("panel " << row.id);
    CHECK(plain_id(row.id));
    CHECK(ids.insert(row.id).second);  // unique: settings.json and the layout keep panels by id
    CHECK(!row.english.empty());
    CHECK(!row.chinese.empty());
    // ImGui reads "##" in a window title as the start of its id: the title would be cut.
    CHECK(row.english.find("##") == std::string::npos);
    CHECK(row.chinese.find("##") == std::string::npos);
    // A laid-out panel opens at its size where no saved layout places it.
    if (!row.floating) CHECK((row.width > 0 && row.height > 0));
  }
}

TEST_CASE("an unknown id given to --panel: the message names every panel of the list", "[gui][panels]") {
  // --offscreen --screenshot: no display needed; the id is checked before any window or context.
  const std::string command = std::string(WARPVIZ_APP_PATH) +
                              " --offscreen --screenshot /dev/null --scenario warp_sum --panel no_such_panel 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  const int status = pclose(pipe);
  INFO(out);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
  CHECK(out.find("--panel no_such_panel: no such panel") != std::string::npos);
  std::string listed;
  for (const ListedPanel& row : listed_panels()) listed += (listed.empty() ? "" : ", ") + row.id;
  CHECK(out.find("(" + listed + ")") != std::string::npos);
}
