// The app's command line: what `warpviz --help` prints, the options as one
// struct, and the parser that checks them (and their combinations) before
// anything opens. The options that say what to run (--set, --input, and a
// .cu file's --grid, --arg, ...) are parsed by view/run_options.h, as
// warpviz-cli parses them, so both programs say the same about a bad value.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "video_export.h"
#include "warpviz/backends.h"
#include "warpviz/scenario.h"
#include "warpviz/user_file.h"
#include "warpviz/view/strings.h"

namespace warpviz::app {

// What `warpviz --help` prints.
std::string usage_text();  // what --help prints

struct Options {
  std::string file;
  // For a .cu file: its request, and which options were given (a trace file
  // or a scenario takes none of them).
  user::FileRequest file_request;
  std::vector<std::string> inputs;  // every --input, read once the file's kind is known
  std::vector<std::string> file_options;
  std::string launch;
  std::optional<double> timeout;
  ScenarioRequest request;  // scenario empty: the one in the settings
  BackendChoice backend = BackendChoice::Auto;
  std::string screenshot;
  std::string frames_dir;
  std::optional<size_t> step;
  int width = 0, height = 0;  // 0: the saved size
  std::optional<view::Language> language;
  bool presentation = false;
  bool hex = false;  // values as hex bits, as H toggles
  int bench_frames = 0;
  std::optional<float> zoom;           // --zoom: over the saved zoom
  std::optional<float> content_scale;  // --scale: instead of the monitor's (tests, odd monitors)
  std::string layout_report;           // --layout-report: with --screenshot
  std::vector<std::string> panels;     // --panel ID: shown whatever the settings say (e.g. cost)
  std::string export_path;             // --export: video (video_export.h) or SVG
  std::string export_steps;            // --steps A:B, checked once the trace is known
  int fps = kDefaultExportFps;
  std::string lesson;                  // --lesson FILE: its slides instead of a file or scenario
  size_t slide = 0;                    // --slide N, 0-based here
  bool trust_lesson = false;           // --trust-lesson: its .cu files run without the consent dialog
  bool headless_gl = false;            // --offscreen: a headless EGL context, no window (headless_target.h)
  std::vector<int> keys;               // --keys: GLFW key codes pressed before --screenshot's capture

  bool offscreen() const {
    return !screenshot.empty() || !frames_dir.empty() || bench_frames > 0 || !export_path.empty();
  }
};

enum class ParseResult { Run, Help, Bad };

// Fills `o` from argv; Bad with `error` (without the "warpviz: " prefix).
ParseResult parse_args(int argc, char** argv, Options& o, std::string& error);

// A whole number that is all of `text`: "--launch 2" against "--launch reduce".
bool parse_count(const std::string& text, size_t* out);

}  // namespace warpviz::app
