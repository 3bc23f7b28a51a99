// Settings: a small JSON file. Reading never fails (a damaged file means
// defaults and a message); writing goes through write_file_replacing.
#include "warpviz/view/settings.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>
#include <type_traits>

#include "warpviz/file_write.h"
#include "warpviz/view/ui_scale.h"
#include "warpviz/view/play_order.h"

namespace warpviz::view {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kMinWindow = 200, kMaxWindow = 16384;  // a saved size beyond these is damage
constexpr double kMinSpeed = 0.1, kMaxSpeed = 20.0;  // Playback's range

void append(std::string* warning, const std::string& text) {
  if (!warning) return;
  if (!warning->empty()) *warning += "; ";
  *warning += text;
}

// One field: taken when present and of the right kind, otherwise the default
// stays and the warning names the field.
template <typename T, typename Check>
void read_field(const json& doc, const char* name, T* value, Check valid, std::string* problems) {
  const auto it = doc.find(name);
  if (it == doc.end()) return;  // older files lack newer fields: not an error
  try {
    // An integer field takes only a JSON number that fits it: nlohmann's get<int>
    // of 1e300 is undefined behaviour, and of 4294968896 wraps to 1600 (found by
    // tests/fuzz/fuzz_settings).
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      bool fits = false;
      if (it->is_number_unsigned()) {
        fits = it->template get<uint64_t>() <= uint64_t(std::numeric_limits<T>::max());
      } else if (it->is_number_integer()) {
        const int64_t v = it->template get<int64_t>();
        fits = v >= int64_t(std::numeric_limits<T>::min()) && v <= int64_t(std::numeric_limits<T>::max());
      } else if (it->is_number_float()) {
        const double v = it->template get<double>();
        fits = v >= double(std::numeric_limits<T>::min()) && v <= double(std::numeric_limits<T>::max());
      }
      if (!fits) {
        append(problems, std::string("\"") + name + "\" has an invalid value " + it->dump());
        return;
      }
    }
    T read = it->get<T>();
    if (valid(read)) {
      *value = read;
      return;
    }
  } catch (const json::exception&) {
  }
  append(problems, std::string("\"") + name + "\" has an invalid value " + it->dump());
}

}  // namespace

std::string default_settings_path() {
  // The XDG spec says a relative XDG_CONFIG_HOME is to be ignored.
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg && xdg[0] == '/') return (fs::path(xdg) / "warpviz" / "settings.json").string();
  const char* home = std::getenv("HOME");
  if (home && home[0] != '\0') return (fs::path(home) / ".config" / "warpviz" / "settings.json").string();
  return "warpviz-settings.json";  // no home at all: the working directory
}

AppSettings load_settings(const std::string& path, std::string* warning) {
  if (warning) warning->clear();
  AppSettings settings;
  std::error_code ec;
  if (!fs::exists(path, ec)) return settings;  // first run: silently the defaults

  const std::string prefix = "settings file " + path + ": ";
  if (fs::is_directory(path, ec)) {
    append(warning, prefix + "is a directory; using defaults");
    return settings;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    append(warning, prefix + "cannot read it (" + std::strerror(errno) + "); using defaults");
    return settings;
  }
  std::ostringstream text;
  text << in.rdbuf();
  json doc;
  try {
    doc = json::parse(text.str());
  } catch (const json::exception& e) {  // parse_error, and out_of_range for 1e3000
    append(warning, prefix + "not valid JSON (" + e.what() + "); using defaults");
    return settings;
  }
  if (!doc.is_object()) {
    append(warning, prefix + "expected a JSON object, found " + std::string(doc.type_name()) + "; using defaults");
    return settings;
  }

  std::string problems;
  auto window_ok = [](int v) { return v >= kMinWindow && v <= kMaxWindow; };
  read_field(doc, "window_w", &settings.window_w, window_ok, &problems);
  read_field(doc, "window_h", &settings.window_h, window_ok, &problems);
  read_field(doc, "imgui_layout", &settings.imgui_layout, [](const std::string&) { return true; }, &problems);
  read_field(doc, "scenario", &settings.scenario, [](const std::string& s) { return !s.empty(); }, &problems);
  read_field(doc, "language", &settings.language,
             [](const std::string& s) { return s == "en" || s == "zh"; }, &problems);
  read_field(doc, "speed", &settings.speed,
             [](double v) { return std::isfinite(v) && v >= kMinSpeed && v <= kMaxSpeed; }, &problems);
  read_field(doc, "play_order", &settings.play_order,
             [](const std::string& s) {
               PlayOrderKind kind;
               return parse_play_order(s, &kind);
             },
             &problems);
  read_field(doc, "hold_s", &settings.hold_s,
             [](double v) { return std::isfinite(v) && v >= 0 && v <= kMaxHoldSeconds; }, &problems);
  read_field(doc, "pause_after_round", &settings.pause_after_round, [](bool) { return true; }, &problems);
  read_field(doc, "panels", &settings.panels,
             [](const std::map<std::string, bool>& m) {
               for (const auto& [name, shown] : m)
                 if (name.empty()) return false;
               return true;
             },
             &problems);
  read_field(doc, "recent_files", &settings.recent_files,
             [](const std::vector<std::string>& files) {
               for (const std::string& f : files)
                 if (f.empty() || f.size() > 4096) return false;
               return files.size() <= kMaxRecentFiles;
             },
             &problems);
  read_field(doc, "time_limit_s", &settings.time_limit_s,
             [](double v) { return std::isfinite(v) && v >= kMinTimeLimit && v <= kMaxTimeLimit; }, &problems);
  read_field(doc, "zoom", &settings.zoom,
             [](double v) { return std::isfinite(v) && v >= kMinZoom && v <= kMaxZoom; }, &problems);
  if (!problems.empty()) append(warning, prefix + problems + "; using the defaults for those");
  return settings;
}

void remember_recent_file(AppSettings& settings, const std::string& path) {
  std::error_code ec;
  std::string absolute = fs::absolute(path, ec).lexically_normal().string();
  if (ec || absolute.empty()) absolute = path;
  auto& files = settings.recent_files;
  files.erase(std::remove(files.begin(), files.end(), absolute), files.end());
  files.insert(files.begin(), absolute);
  if (files.size() > kMaxRecentFiles) files.resize(kMaxRecentFiles);
}

bool save_settings(const AppSettings& settings, const std::string& path, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = "cannot save settings to " + path + ": " + why;
    return false;
  };
  json doc = {
      {"format", "warpviz-settings"},
      {"version", 1},
      {"window_w", settings.window_w},
      {"window_h", settings.window_h},
      {"scenario", settings.scenario},
      {"language", settings.language},
      {"speed", settings.speed},
      {"play_order", settings.play_order},
      {"hold_s", settings.hold_s},
      {"pause_after_round", settings.pause_after_round},
      {"panels", settings.panels},
      {"recent_files", settings.recent_files},
      {"time_limit_s", settings.time_limit_s},
      {"zoom", settings.zoom},
      {"imgui_layout", settings.imgui_layout},
  };
  // ImGui's ini text is normally UTF-8; a stray byte must not lose the whole file.
  const std::string text = doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";

  std::error_code ec;
  const fs::path target(path);
  if (target.has_parent_path()) {
    fs::create_directories(target.parent_path(), ec);
    if (ec) return fail("cannot create " + target.parent_path().string() + " (" + ec.message() + ")");
  }

  // Mode, symlinks (a dotfiles link is common here) and an unrelated
  // settings.json.tmp are all left as they are.
  try {
    write_file_replacing(path, text.data(), text.size());
  } catch (const FileWriteError& e) {
    if (error) *error = "cannot save settings: " + std::string(e.what());
    return false;
  }
  if (error) error->clear();
  return true;
}

}  // namespace warpviz::view
