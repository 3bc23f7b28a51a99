// What the app remembers between runs: window size, panel layout (Dear
// ImGui's ini text), the last scenario, language. A JSON file; a damaged one is
// ignored with a message, never fatal.
#pragma once

#include <map>
#include <string>

namespace warpviz::view {

struct AppSettings {
  int window_w = 1600, window_h = 900;
  std::string imgui_layout;  // ImGui::SaveIniSettingsToMemory
  std::string scenario = "warp_sum";
  std::string language = "en";  // "en" or "zh"
  double speed = 1.0;
  // Panel visibility by the panel's window id ("lanes", "bank", ...); a panel
  // missing here keeps the app's default.
  std::map<std::string, bool> panels;
};

// $XDG_CONFIG_HOME/warpviz/settings.json, else ~/.config/warpviz/settings.json.
std::string default_settings_path();
// Missing file: defaults. Unreadable or corrupt: defaults, and `warning` says why.
AppSettings load_settings(const std::string& path, std::string* warning);
// Writes to a temporary file and renames (write_file_replacing): a crash never
// leaves half a file; the mode and a symlink are kept.
bool save_settings(const AppSettings& settings, const std::string& path, std::string* error);

}  // namespace warpviz::view
