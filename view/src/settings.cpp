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

// settings.json's "trusted_runs": [{"hash": "...", "what": "..."}].
void to_json(json& j, const TrustedRun& run) { j = json{{"hash", run.hash}, {"what", run.what}}; }
void from_json(const json& j, TrustedRun& run) {
  j.at("hash").get_to(run.hash);
  run.what = j.contains("what") ? j.at("what").get<std::string>() : std::string();
}

namespace {

constexpr int kMinWindow = 200, kMaxWindow = 16384;  // a saved size beyond these is damage
constexpr double kMinSpeed = 0.1, kMaxSpeed = 20.0;  // Playback's range

// A value as a warning shows it: a scalar as JSON, cut at 80 characters;
// an array or object by its kind only (dump() recurses: a settings.json
// nested 100 000 deep overflowed the stack printing its warning).
std::string describe(const json& value) {
  if (value.is_structured()) return std::string("(") + (value.is_array() ? "an array" : "an object") + ")";
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return text;
}

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
        append(problems, std::string("\"") + name + "\" has an invalid value " + describe(*it));
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
  append(problems, std::string("\"") + name + "\" has an invalid value " + describe(*it));
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

namespace {

// The file's settings; `damaged` when its text was read and is not all good
// (not JSON, not an object, a field of the wrong kind): what the next save
// would lose.
AppSettings read_settings(const std::string& path, std::string* warning, bool* damaged) {
  *damaged = false;
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
    *damaged = true;
    return settings;
  }
  if (!doc.is_object()) {
    append(warning, prefix + "expected a JSON object, found " + std::string(doc.type_name()) + "; using defaults");
    *damaged = true;
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
  read_field(doc, "memory_limit_bytes", &settings.memory_limit_bytes,
             [](uint64_t v) { return v == 0 || v >= kMinMemoryLimit; }, &problems);
  read_field(doc, "zoom", &settings.zoom,
             [](double v) { return std::isfinite(v) && v >= kMinZoom && v <= kMaxZoom; }, &problems);
  read_field(doc, "trusted_runs", &settings.trusted_runs,
             [](const std::vector<TrustedRun>& runs) {
               for (const TrustedRun& run : runs)
                 if (run.hash.size() != 16 || run.hash.find_first_not_of("0123456789abcdef") != std::string::npos ||
                     run.what.size() > 4096)
                   return false;
               return runs.size() <= kMaxTrustedRuns;
             },
             &problems);
  if (!problems.empty()) {
    append(warning, prefix + problems + "; using the defaults for those");
    *damaged = true;
  }
  return settings;
}

}  // namespace

std::string damaged_settings_path(const std::string& path) { return path + ".bad"; }

AppSettings load_settings(const std::string& path, std::string* warning) {
  std::string said;
  bool damaged = false;
  AppSettings settings = read_settings(path, &said, &damaged);
  if (damaged) {
    // Kept before the session's save writes the defaults over it.
    const std::string bad = damaged_settings_path(path);
    std::error_code ec;
    fs::copy_file(path, bad, fs::copy_options::overwrite_existing, ec);
    said += ec ? "; could not keep a copy as " + bad + " (" + ec.message() + ")" : "; the file is kept as " + bad;
  }
  if (warning) *warning = said;
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

AppSettings merge_settings(const AppSettings& mine, const AppSettings& as_loaded, const AppSettings& on_disk) {
  AppSettings out = on_disk;
  const auto take = [](auto& to, const auto& changed, const auto& was) {
    if (!(changed == was)) to = changed;
  };
  take(out.window_w, mine.window_w, as_loaded.window_w);
  take(out.window_h, mine.window_h, as_loaded.window_h);
  take(out.imgui_layout, mine.imgui_layout, as_loaded.imgui_layout);
  take(out.scenario, mine.scenario, as_loaded.scenario);
  take(out.language, mine.language, as_loaded.language);
  take(out.speed, mine.speed, as_loaded.speed);
  take(out.play_order, mine.play_order, as_loaded.play_order);
  take(out.hold_s, mine.hold_s, as_loaded.hold_s);
  take(out.pause_after_round, mine.pause_after_round, as_loaded.pause_after_round);
  take(out.time_limit_s, mine.time_limit_s, as_loaded.time_limit_s);
  take(out.memory_limit_bytes, mine.memory_limit_bytes, as_loaded.memory_limit_bytes);
  take(out.zoom, mine.zoom, as_loaded.zoom);
  for (const auto& [id, shown] : mine.panels) {
    const auto was = as_loaded.panels.find(id);
    if (was == as_loaded.panels.end() || was->second != shown) out.panels[id] = shown;
  }
  // Recent files: remember_recent_file puts a file first, so this
  // instance's list is what it opened (its front) followed by what it loaded,
  // less what it removed. Those it opened come first, then the file's list
  // less those it removed (the list's end dropped to keep ten is no removal).
  if (mine.recent_files != as_loaded.recent_files) {
    const auto has = [](const std::vector<std::string>& files, const std::string& f) {
      return std::find(files.begin(), files.end(), f) != files.end();
    };
    const std::vector<std::string>& now = mine.recent_files;
    const std::vector<std::string>& was = as_loaded.recent_files;
    size_t kept_from = now.size();  // now[kept_from..] is `was` in order, some left out
    for (size_t j = was.size(); kept_from > 0 && j > 0; --j)
      if (now[kept_from - 1] == was[j - 1]) --kept_from;
    std::vector<std::string> merged(now.begin(), now.begin() + long(kept_from));
    const bool full = now.size() >= kMaxRecentFiles;
    for (const std::string& f : on_disk.recent_files) {
      const bool removed = !full && has(was, f) && !has(now, f);
      if (!removed && !has(merged, f)) merged.push_back(f);
    }
    if (merged.size() > kMaxRecentFiles) merged.resize(kMaxRecentFiles);
    out.recent_files = std::move(merged);
  }
  // Trusted runs are only added: the ones this instance added, then the file's.
  if (mine.trusted_runs != as_loaded.trusted_runs) {
    std::vector<TrustedRun> merged;
    const auto has = [&](const TrustedRun& run) {
      return std::any_of(merged.begin(), merged.end(), [&](const TrustedRun& m) { return m.hash == run.hash; });
    };
    for (const TrustedRun& run : mine.trusted_runs)
      if (!has(run)) merged.push_back(run);
    for (const TrustedRun& run : on_disk.trusted_runs)
      if (!has(run)) merged.push_back(run);
    if (merged.size() > kMaxTrustedRuns) merged.resize(kMaxTrustedRuns);
    out.trusted_runs = std::move(merged);
  }
  return out;
}

bool save_settings_merged(const AppSettings& mine, const AppSettings& as_loaded, const std::string& path,
                          std::string* error) {
  std::string ignored;
  bool damaged = false;
  const AppSettings on_disk = read_settings(path, &ignored, &damaged);  // defaults when missing or damaged
  return save_settings(merge_settings(mine, as_loaded, on_disk), path, error);
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
      {"memory_limit_bytes", settings.memory_limit_bytes},
      {"zoom", settings.zoom},
      {"trusted_runs", settings.trusted_runs},
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
