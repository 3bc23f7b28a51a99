// Checks on warpviz's layout report (--layout-report OUT.json, written with
// --screenshot): measurable properties of a frame, for the GUI tests.
//
//   check_layout REPORT.json CHECK...
//
//   --panels-apart               no two panels overlap, each lies in the window
//   --texts-inside               no text run crosses its panel's edge or is cut by a clip
//                                rectangle, except where the panel scrolls to it
//   --texts-apart                no two text runs of one panel overlap
//   --role-at-least A B          every text of role A is at least as large as every text of role B
//   --role-fits R                texts of role R exist and lie inside the window
//   --role-min-size R PX         every text of role R is at least PX pixels
//   --role-count R N             exactly N texts of role R (0: none drawn)
//   --role-text R TEXT           one text of role R is exactly TEXT
//   --texts-on-screen            every text run (every glyph drawn) lies inside the window
//   --panel-text-at-least PX     every shown panel's texts are PX pixels or more, at the median
//                                (a 4K window's panels grow, not only the lanes)
//   --no-text-ending PANEL END   no text run of PANEL ends in END (e.g. "…": nothing cut short)
//   --role-clear-of R PANEL      texts of role R exist and PANEL, shown, lies over none of them
//   --text-present PANEL TEXT    some text run of PANEL contains TEXT
//   --role-contains R TEXT       some text of role R contains TEXT
//   --roles-apart R PX           texts of role R on one line are at least PX pixels apart
//   --role-spans R FRACTION      the texts of role R span at least FRACTION of the window's width
//   --window-unscrolled PART     the text runs of windows whose name contains PART exist, and
//                                none scrolls or is cut
//   --role-one-line R            texts of role R exist, none holds a line break and
//                                none is taller than one line of its size
//   --role-inside A B            every text of role A lies inside a rectangle of role B
//                                (lane_value in lane_cell: a value fits its cell)
//   --expect-panel ID            the panel is shown
//   --reject-panel ID            the panel is not shown (ID must be one of the
//                                report's app_panels: a misspelt id is a usage error)
//   --panels-as-listed           the app's panels are app/panel_list.h's rows, in order,
//                                titled (View menu, shown windows) in the report's language
//   --role-matches R REGEX       some text of role R matches REGEX (ECMAScript, searched)
//   --role-all-match R REGEX     texts of role R exist and every one matches REGEX
//   --role-none-match R REGEX    texts of role R exist and none matches REGEX
//   --role-absent R              no text has role R
//
// Prints what each check measured; exit 1 when one failed, 2 on a usage or
// file error.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

// app/panel_list.h's rows: what the app's table of panels is built from.
struct ListedPanel {
  std::string id, english, chinese;
};
const ListedPanel kListedPanels[] = {
#define WARPVIZ_PANEL(id, draw_member, english, chinese, ...) {id, english, chinese},
#define WARPVIZ_FLOATING_PANEL(id, draw_member, english, chinese, ...) {id, english, chinese},
#include "panel_list.h"
};

using nlohmann::json;

struct Rect {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  double w() const { return x1 - x0; }
  double h() const { return y1 - y0; }
};

Rect rect_of(const json& j) { return Rect{j[0].get<double>(), j[1].get<double>(), j[2].get<double>(), j[3].get<double>()}; }

// Width and height of the overlap (negative: apart).
std::pair<double, double> overlap(const Rect& a, const Rect& b) {
  return {std::min(a.x1, b.x1) - std::max(a.x0, b.x0), std::min(a.y1, b.y1) - std::max(a.y0, b.y0)};
}

bool inside(const Rect& inner, const Rect& outer, double slack) {
  return inner.x0 >= outer.x0 - slack && inner.y0 >= outer.y0 - slack && inner.x1 <= outer.x1 + slack &&
         inner.y1 <= outer.y1 + slack;
}

std::string show(const Rect& r) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%.0f,%.0f)-(%.0f,%.0f)", r.x0, r.y0, r.x1, r.y1);
  return buf;
}

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "check_layout: %s\n", why.c_str());
  std::exit(2);
}

struct Report {
  Rect display;
  json panels, texts, roles;
  std::vector<std::string> app_panels;  // every panel the app has, by id
  std::vector<std::string> app_panel_titles;  // and their titles, in the report's language
  bool chinese = false;
  std::string panel_title_glyphs_missing;  // characters of those titles the font lacks
  std::string ui_glyphs_missing;           // characters of the app's inline strings the font lacks
  std::vector<json> shown_panels() const {  // the panels proper: not popups, not ImGui's fallback window
    std::vector<json> out;
    for (const json& p : panels)
      if (!p["popup"].get<bool>() && p["id"].get<std::string>().rfind("Debug##", 0) != 0) out.push_back(p);
    return out;
  }
  const json* panel(const std::string& id) const {
    for (const json& p : panels)
      if (p["id"] == id) return &p;
    return nullptr;
  }
};

int failures = 0;
void verdict(bool ok, const std::string& what) {
  std::printf("%s  %s\n", ok ? "ok  " : "FAIL", what.c_str());
  if (!ok) ++failures;
}

void panels_apart(const Report& r) {
  const auto panels = r.shown_panels();
  int bad = 0;
  for (size_t i = 0; i < panels.size(); ++i) {
    const Rect a = rect_of(panels[i]["rect"]);
    if (!inside(a, r.display, 1)) {
      verdict(false, "panel " + panels[i]["id"].get<std::string>() + " " + show(a) + " leaves the window");
      ++bad;
    }
    for (size_t k = i + 1; k < panels.size(); ++k) {
      const auto [w, h] = overlap(a, rect_of(panels[k]["rect"]));
      if (w > 2 && h > 2) {
        verdict(false, "panels " + panels[i]["id"].get<std::string>() + " and " + panels[k]["id"].get<std::string>() +
                           " overlap");
        ++bad;
      }
    }
  }
  verdict(bad == 0, std::to_string(panels.size()) + " panels, none overlapping, all in the window");
}

void texts_inside(const Report& r) {
  int bad = 0, count = 0;
  for (const json& t : r.texts) {
    ++count;
    if (t["scrollable"].get<bool>()) continue;  // the panel scrolls to what its edge cuts
    const std::string id = t["panel"];
    const json* panel = r.panel(id);
    const Rect text = rect_of(t["rect"]);
    const bool cut = t["clipped"].get<bool>();
    const bool out = panel && !inside(text, rect_of((*panel)["rect"]), 1);
    if (cut || out) {
      if (bad < 12)
        verdict(false, "text in " + id + " at " + show(text) + (cut ? " is cut by a clip rectangle" : " leaves its panel"));
      ++bad;
    }
  }
  verdict(bad == 0, std::to_string(count) + " text runs, " + std::to_string(bad) + " cut or outside their panel");
}

void texts_apart(const Report& r) {
  int bad = 0;
  const size_t n = r.texts.size();
  for (size_t i = 0; i < n; ++i) {
    // A run a scroll region cuts shows only its uncut part: it hides under nothing.
    if (r.texts[i]["clipped"].get<bool>()) continue;
    const Rect a = rect_of(r.texts[i]["rect"]);
    for (size_t k = i + 1; k < n; ++k) {
      if (r.texts[i]["panel"] != r.texts[k]["panel"] || r.texts[k]["clipped"].get<bool>()) continue;
      const Rect b = rect_of(r.texts[k]["rect"]);
      const auto [w, h] = overlap(a, b);
      // Glyph boxes of neighbouring lines may touch; a third of a line is text over text.
      if (w > 2 && h > std::min(a.h(), b.h()) / 3) {
        if (bad < 12)
          verdict(false, "texts in " + r.texts[i]["panel"].get<std::string>() + " overlap: " + show(a) + " and " + show(b));
        ++bad;
      }
    }
  }
  verdict(bad == 0, std::to_string(n) + " text runs, " + std::to_string(bad) + " overlapping pairs");
}

// Glyphs drawn past the window's edge: a clip rectangle hides them on
// screen, but a long text that is not clipped on the CPU still emits them.
void texts_on_screen(const Report& r) {
  int bad = 0;
  for (const json& t : r.texts) {
    const Rect text = rect_of(t["rect"]);
    if (!inside(text, r.display, 1)) {
      if (bad < 12) verdict(false, "text in " + t["panel"].get<std::string>() + " at " + show(text) + " leaves the window");
      ++bad;
    }
  }
  verdict(bad == 0, std::to_string(r.texts.size()) + " text runs, " + std::to_string(bad) + " outside the window");
}

std::vector<const json*> with_role(const Report& r, const std::string& role) {
  std::vector<const json*> out;
  for (const json& t : r.roles)
    if (t["role"] == role) out.push_back(&t);
  return out;
}

// The median size of each shown panel's texts: body text, whatever a panel
// also draws smaller to fit (bank numbers) or larger (headlines).
void panel_text_at_least(const Report& r, double px) {
  int panels = 0;
  for (const json& p : r.shown_panels()) {
    const std::string id = p["id"];
    std::vector<double> sizes;
    for (const json& t : r.texts)
      if (t["panel"] == id) sizes.push_back(t["size"].get<double>());
    if (sizes.empty()) continue;  // an empty frame (the menu bar's window when hidden)
    ++panels;
    std::sort(sizes.begin(), sizes.end());
    const double median = sizes[sizes.size() / 2];
    char buf[160];
    std::snprintf(buf, sizeof buf, "panel %s: median text %.1f px >= %.1f px (%zu texts, smallest %.1f)", id.c_str(),
                  median, px, sizes.size(), sizes.front());
    verdict(median >= px, buf);
  }
  verdict(panels > 0, std::to_string(panels) + " panels with text");
}

void no_text_ending(const Report& r, const std::string& panel, const std::string& end) {
  int count = 0, bad = 0;
  for (const json& t : r.texts) {
    if (t["panel"] != panel) continue;
    ++count;
    const std::string text = t.value("text", "");
    if (text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0) {
      if (bad < 12) verdict(false, "text in " + panel + " at " + show(rect_of(t["rect"])) + " ends in " + end + ": \"" + text + "\"");
      ++bad;
    }
  }
  verdict(count > 0 && bad == 0, std::to_string(count) + " texts in " + panel + ", " + std::to_string(bad) +
                                     " ending in \"" + end + "\"");
}

void text_present(const Report& r, const std::string& panel, const std::string& wanted) {
  for (const json& t : r.texts)
    if (t["panel"] == panel && t.value("text", "").find(wanted) != std::string::npos) {
      verdict(true, "panel " + panel + " shows \"" + t.value("text", "") + "\"");
      return;
    }
  verdict(false, "no text of panel " + panel + " contains \"" + wanted + "\"");
}

void role_clear_of(const Report& r, const std::string& role, const std::string& panel_id) {
  const json* panel = r.panel(panel_id);
  if (!panel) return verdict(false, "panel " + panel_id + " not shown");
  const Rect over = rect_of((*panel)["rect"]);
  int count = 0, covered = 0;
  for (const json& t : r.roles) {
    if (t["role"] != role) continue;
    ++count;
    const auto [w, h] = overlap(rect_of(t["rect"]), over);
    if (w > 2 && h > 2) {
      verdict(false, role + " at " + show(rect_of(t["rect"])) + " lies under " + panel_id + " " + show(over));
      ++covered;
    }
  }
  verdict(count > 0 && covered == 0, std::to_string(count) + " " + role + " texts, " + std::to_string(covered) +
                                         " under " + panel_id + " " + show(over));
}

// The table the app draws, lists in View and reports is panel_list.h's, row
// for row, and every shown panel's title bar says the row's title.
void panels_as_listed(const Report& r) {
  std::vector<std::string> ids, titles;
  for (const ListedPanel& row : kListedPanels) {
    ids.push_back(row.id);
    titles.push_back(r.chinese ? row.chinese : row.english);
  }
  auto joined = [](const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
    return out;
  };
  verdict(r.app_panels == ids, "app panels [" + joined(r.app_panels) + "] are the list's [" + joined(ids) + "]");
  verdict(r.app_panel_titles == titles,
          "their titles [" + joined(r.app_panel_titles) + "] are the list's [" + joined(titles) + "]");
  size_t titled = 0;
  for (const json& p : r.shown_panels()) {
    const std::string id = p["id"].get<std::string>(), title = p["title"].get<std::string>();
    const auto row = std::find(ids.begin(), ids.end(), id);
    if (row == ids.end()) continue;  // the menu bar
    ++titled;
    verdict(title == titles[size_t(row - ids.begin())], "window " + id + " titled \"" + title + "\"");
  }
  verdict(titled > 0, std::to_string(titled) + " listed panels shown");
  verdict(r.panel_title_glyphs_missing.empty(),
          "the font has every character of the titles (missing: \"" + r.panel_title_glyphs_missing + "\")");
  verdict(r.ui_glyphs_missing.empty(),
          "the font has every character of the panels' own strings (missing: \"" + r.ui_glyphs_missing + "\")");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) usage("usage: check_layout REPORT.json CHECK...");
  std::ifstream in(argv[1]);
  if (!in) usage(std::string("cannot read ") + argv[1]);
  Report r;
  try {
    const json doc = json::parse(in);
    r.display = Rect{0, 0, doc["display"][0].get<double>(), doc["display"][1].get<double>()};
    r.panels = doc["panels"], r.texts = doc["texts"], r.roles = doc["roles"];
    r.app_panels = doc["app_panels"].get<std::vector<std::string>>();
    r.app_panel_titles = doc["app_panel_titles"].get<std::vector<std::string>>();
    r.chinese = doc["language"].get<std::string>() == "zh";
    r.panel_title_glyphs_missing = doc["panel_title_glyphs_missing"].get<std::string>();
    r.ui_glyphs_missing = doc["ui_glyphs_missing"].get<std::string>();
    std::printf("%s: %.0fx%.0f, scale %.2f, %zu panels, %zu text runs, %zu role texts\n", argv[1], r.display.x1,
                r.display.y1, doc["ui_scale"].get<double>(), r.panels.size(), r.texts.size(), r.roles.size());
  } catch (const json::exception& e) {
    usage(std::string(argv[1]) + ": not a layout report (" + e.what() + ")");
  }
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--panels-apart") {
      panels_apart(r);
    } else if (a == "--texts-inside") {
      texts_inside(r);
    } else if (a == "--texts-apart") {
      texts_apart(r);
    } else if (a == "--role-at-least") {
      const std::string big = next(), small = next();
      const auto bigs = with_role(r, big), smalls = with_role(r, small);
      double least = 1e9, most = 0;
      for (const json* t : bigs) least = std::min(least, (*t)["size"].get<double>());
      for (const json* t : smalls) most = std::max(most, (*t)["size"].get<double>());
      char buf[160];
      std::snprintf(buf, sizeof buf, "smallest %s %.1f px (%zu texts) >= largest %s %.1f px (%zu texts)", big.c_str(),
                    least, bigs.size(), small.c_str(), most, smalls.size());
      verdict(!bigs.empty() && !smalls.empty() && least >= most - 0.05, buf);
    } else if (a == "--role-fits") {
      const std::string role = next();
      const auto texts = with_role(r, role);
      bool ok = !texts.empty();
      for (const json* t : texts) ok = ok && inside(rect_of((*t)["rect"]), r.display, 1);
      verdict(ok, role + ": " + std::to_string(texts.size()) + " texts, " +
                      (texts.empty() ? std::string("none") : show(rect_of((*texts[0])["rect"]))) + " inside the window");
    } else if (a == "--role-one-line") {
      const std::string role = next();
      const auto texts = with_role(r, role);
      int bad = 0;
      for (const json* t : texts) {
        const std::string text = (*t)["text"].get<std::string>();
        const bool broken = text.find('\n') != std::string::npos ||
                            rect_of((*t)["rect"]).h() > (*t)["size"].get<double>() * 1.5 + 1;
        if (broken && bad++ < 8) verdict(false, role + " \"" + text + "\" at " + show(rect_of((*t)["rect"])) + " is more than one line");
      }
      verdict(!texts.empty() && bad == 0,
              role + ": " + std::to_string(texts.size()) + " texts, " + std::to_string(bad) + " on more than one line");
    } else if (a == "--role-inside") {
      const std::string inner = next(), outer = next();
      const auto texts = with_role(r, inner), boxes = with_role(r, outer);
      int bad = 0;
      for (const json* t : texts) {
        const Rect text = rect_of((*t)["rect"]);
        bool in_one = false;
        for (const json* b : boxes) in_one = in_one || inside(text, rect_of((*b)["rect"]), 1);
        if (!in_one && bad++ < 8)
          verdict(false, inner + " \"" + (*t)["text"].get<std::string>() + "\" at " + show(text) + " is in no " + outer);
      }
      verdict(!texts.empty() && !boxes.empty() && bad == 0,
              inner + ": " + std::to_string(texts.size()) + " texts, " + std::to_string(bad) + " outside every " + outer);
    } else if (a == "--role-min-size") {
      const std::string role = next();
      const double px = std::atof(next().c_str());
      const auto texts = with_role(r, role);
      double least = 1e9;
      for (const json* t : texts) least = std::min(least, (*t)["size"].get<double>());
      char buf[128];
      std::snprintf(buf, sizeof buf, "%s: smallest %.1f px >= %.1f px (%zu texts)", role.c_str(), least, px, texts.size());
      verdict(!texts.empty() && least >= px, buf);
    } else if (a == "--role-count") {
      const std::string role = next();
      const size_t want = size_t(std::atol(next().c_str()));
      const size_t found = with_role(r, role).size();
      verdict(found == want, role + ": " + std::to_string(found) + " texts, expected " + std::to_string(want));
    } else if (a == "--role-text") {
      const std::string role = next(), text = next();
      bool found = false;
      for (const json* t : with_role(r, role)) found = found || (*t)["text"] == text;
      verdict(found, role + ": a text \"" + text + "\"" + (found ? "" : " not") + " found");
    } else if (a == "--texts-on-screen") {
      texts_on_screen(r);
    } else if (a == "--panel-text-at-least") {
      panel_text_at_least(r, std::atof(next().c_str()));
    } else if (a == "--no-text-ending") {
      const std::string panel = next();
      no_text_ending(r, panel, next());
    } else if (a == "--text-present") {
      const std::string panel = next();
      text_present(r, panel, next());
    } else if (a == "--role-clear-of") {
      const std::string role = next();
      role_clear_of(r, role, next());
    } else if (a == "--role-contains") {
      const std::string role = next(), text = next();
      const auto texts = with_role(r, role);
      std::string seen;
      bool found = false;
      for (const json* t : texts) {
        const std::string said = (*t)["text"].get<std::string>();
        found = found || said.find(text) != std::string::npos;
        seen += (seen.empty() ? "" : " | ") + said;
      }
      verdict(found, role + " says \"" + text + "\" (it says: \"" + seen + "\")");
    } else if (a == "--roles-apart") {
      const std::string role = next();
      const double px = std::atof(next().c_str());
      const auto texts = with_role(r, role);
      double closest = 1e9;
      std::string pair;
      for (size_t i = 0; i < texts.size(); ++i)
        for (size_t k = i + 1; k < texts.size(); ++k) {
          const Rect a = rect_of((*texts[i])["rect"]), b = rect_of((*texts[k])["rect"]);
          const auto [w, h] = overlap(a, b);
          if (h <= 0) continue;  // on different lines
          if (-w < closest) {
            closest = -w;
            pair = (*texts[i])["text"].get<std::string>() + "\" and \"" + (*texts[k])["text"].get<std::string>();
          }
        }
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s: %zu texts, the closest two on a line %.1f px apart (>= %.1f)", role.c_str(),
                    texts.size(), closest, px);
      verdict(texts.size() > 1 && closest >= px, std::string(buf) + (pair.empty() ? "" : ": \"" + pair + "\""));
    } else if (a == "--role-spans") {
      const std::string role = next();
      const double fraction = std::atof(next().c_str());
      const auto texts = with_role(r, role);
      double x0 = 1e9, x1 = -1e9;
      for (const json* t : texts) {
        const Rect box = rect_of((*t)["rect"]);
        x0 = std::min(x0, box.x0), x1 = std::max(x1, box.x1);
      }
      const double span = texts.empty() ? 0 : (x1 - x0) / r.display.w();
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s spans %.0f%% of the window's width (>= %.0f%%)", role.c_str(), span * 100,
                    fraction * 100);
      verdict(span >= fraction, buf);
    } else if (a == "--window-unscrolled") {
      const std::string part = next();
      int count = 0, bad = 0;
      for (const json& t : r.texts) {
        if (t["window"].get<std::string>().find(part) == std::string::npos) continue;
        ++count;
        if (t["scrollable"].get<bool>() || t["clipped"].get<bool>()) ++bad;
      }
      verdict(count > 0 && bad == 0, "windows named *" + part + "*: " + std::to_string(count) + " text runs, " +
                                         std::to_string(bad) + " scrolled or cut");
    } else if (a == "--expect-panel" || a == "--reject-panel") {
      const std::string id = next();
      if (std::find(r.app_panels.begin(), r.app_panels.end(), id) == r.app_panels.end())
        usage(a + " " + id + ": no such panel in the report's app_panels");
      bool shown = false;
      for (const json& p : r.shown_panels()) shown = shown || p["id"] == id;
      verdict(shown == (a == "--expect-panel"), "panel " + id + (shown ? " shown" : " not shown"));
    } else if (a == "--panels-as-listed") {
      panels_as_listed(r);
    } else if (a == "--role-matches" || a == "--role-all-match" || a == "--role-none-match") {
      const std::string role = next(), pattern = next();
      std::regex re;
      try {
        re = std::regex(pattern);
      } catch (const std::regex_error& e) {
        usage(a + " " + role + " " + pattern + ": not a regular expression (" + e.what() + ")");
      }
      const auto texts = with_role(r, role);
      size_t matching = 0;
      std::string example;  // the first text that decides the verdict, for the log
      for (const json* t : texts) {
        const std::string text = (*t)["text"].get<std::string>();
        const bool match = std::regex_search(text, re);
        matching += match;
        const bool telling = a == "--role-all-match" ? !match : match;
        if (example.empty() && telling) example = text;
      }
      if (example.empty() && !texts.empty()) example = (*texts[0])["text"].get<std::string>();
      const bool ok = a == "--role-matches"      ? matching > 0
                      : a == "--role-all-match" ? !texts.empty() && matching == texts.size()
                                                : !texts.empty() && matching == 0;
      verdict(ok, role + ": " + std::to_string(matching) + " of " + std::to_string(texts.size()) + " texts match /" +
                      pattern + "/ (" + a.substr(7) + "), e.g. \"" + example + "\"");
    } else if (a == "--role-absent") {
      const std::string role = next();
      const auto texts = with_role(r, role);
      verdict(texts.empty(), role + ": " + std::to_string(texts.size()) + " texts" +
                                 (texts.empty() ? std::string() : ", e.g. \"" + (*texts[0])["text"].get<std::string>() + "\""));
    } else {
      usage("unknown check " + a);
    }
  }
  return failures == 0 ? 0 : 1;
}
