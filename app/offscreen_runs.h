// The runs that render a fixed set of frames and exit, each the same frame
// the window shows (render_frame) into any FrameTarget: --screenshot (one
// frame, and --layout-report), --frames (every step's transition as PNGs),
// --export OUT.mp4|webm|gif (frames piped to ffmpeg) and --export OUT.svg
// (one step as vector graphics, no GL at all). Each returns main's exit
// status and says what went wrong on stderr.
#pragma once

#include <future>
#include <string>
#include <vector>

#include "command_line.h"
#include "frame_target.h"
#include "warpviz/trace.h"

namespace warpviz::app {

// Frames drawn before the first capture: ImGui sizes auto-fit windows and
// uploads the font atlas on the first one.
constexpr int kWarmupFrames = 2;

// `keys` (--keys, GLFW codes) are pressed after the first frame, each as a
// key press the keyboard handler takes; frames follow for what they move.
int run_screenshot(FrameContext& frame, const std::string& path, const std::string& report_path,
                   const std::vector<int>& keys = {});
int run_frames(FrameContext& frame, const std::string& dir);
int run_export(FrameContext& frame, const Options& opt);
// Takes the trace file still loading in `pending_file`, if any.
int run_svg_export(AppView& app, const Options& opt, std::future<Trace>& pending_file);

}  // namespace warpviz::app
