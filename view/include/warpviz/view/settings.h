// What the app remembers between runs: window size, panel layout (Dear
// ImGui's ini text), the last scenario, language, recent files, the time and memory limits. A JSON file; a damaged one is
// ignored with a message, never fatal.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warpviz::view {

// A lesson or .cu file the user let run (view/run_consent.h): its content
// hash, and what it was, for a person reading the file.
struct TrustedRun {
  std::string hash;  // 16 hex digits of XXH3-64
  std::string what;  // the lesson's or .cu file's path
  bool operator==(const TrustedRun& o) const { return hash == o.hash && what == o.what; }
};

struct AppSettings {
  int window_w = 1600, window_h = 900;
  std::string imgui_layout;  // ImGui::SaveIniSettingsToMemory
  std::string scenario = "warp_sum";
  std::string language = "en";  // "en" or "zh"
  double speed = 1.0;
  // The timeline: "causal" (a block's warps round by round) or "per_warp"
  // (as stored); how long each landed step stays while playing; whether play
  // stops at the end of each round.
  std::string play_order = "causal";
  double hold_s = 0.0;
  bool pause_after_round = false;
  // Panel visibility by the panel's window id ("lanes", "bank", ...); a panel
  // missing here keeps the app's default.
  std::map<std::string, bool> panels;
  // Files opened, the latest first (File > Open Recent): absolute paths.
  std::vector<std::string> recent_files;
  // How long a user's .cu file may run before it is stopped, in seconds.
  double time_limit_s = 10.0;
  // The resident memory it and all it starts may hold, in bytes; 0 is the
  // runner's default share of the machine (user::default_memory_limit).
  uint64_t memory_limit_bytes = 0;
  // The user's zoom over the monitor's content scale (Ctrl+= / Ctrl+- / Ctrl+0);
  // files written before it existed read as 1.
  double zoom = 1.0;
  // Lessons and .cu files the user let run, the latest first: opened again
  // with the same content they run without asking.
  std::vector<TrustedRun> trusted_runs;
};

constexpr size_t kMaxRecentFiles = 10;
constexpr size_t kMaxTrustedRuns = 256;
constexpr double kMinTimeLimit = 0.5, kMaxTimeLimit = 3600.0;  // a saved limit beyond these is damage
constexpr double kMaxHoldSeconds = 10.0;
constexpr uint64_t kMinMemoryLimit = uint64_t(1) << 20;  // as the CLI's --memory-limit: at least 1M                        // Playback's range for the hold

// Puts `path` (made absolute) first in the recent files, once, keeping at most
// kMaxRecentFiles.
void remember_recent_file(AppSettings& settings, const std::string& path);

// $XDG_CONFIG_HOME/warpviz/settings.json, else ~/.config/warpviz/settings.json.
std::string default_settings_path();
// Missing file: defaults. Unreadable or corrupt: defaults, and `warning` says
// why; a damaged file's text (not JSON, a field of the wrong kind) is copied
// to damaged_settings_path(path) first, which the warning names.
AppSettings load_settings(const std::string& path, std::string* warning);
std::string damaged_settings_path(const std::string& path);  // PATH.bad

// Two instances: what `mine` changed since `as_loaded` (what this instance
// read at its start) applied over `on_disk` (the file now). Recent files:
// the ones this instance opened first, then the file's, less the ones this
// instance removed. Trusted runs: this instance's new ones, then the file's.
AppSettings merge_settings(const AppSettings& mine, const AppSettings& as_loaded, const AppSettings& on_disk);
// Reads `path` again and saves merge_settings over it (atomically, as save_settings).
bool save_settings_merged(const AppSettings& mine, const AppSettings& as_loaded, const std::string& path,
                          std::string* error);
// Writes to a temporary file and renames (write_file_replacing): a crash never
// leaves half a file; the mode and a symlink are kept.
bool save_settings(const AppSettings& settings, const std::string& path, std::string* error);

}  // namespace warpviz::view
