// The interactive loop, as in Dear ImGui's example_glfw_opengl3: poll events
// (or sleep until one comes while nothing moves), update, draw, render, swap.
// Besides frames it runs what needs the frame just rendered: File > Export's
// video, one frame a loop so the window stays live and Cancel clickable, and
// Ctrl+Shift+S's PNG of the window. On leaving it the window's size, layout,
// panels and preferences go to the settings file.
#pragma once

#include <string>

#include "frame_target.h"
#include "warpviz/view/settings.h"

namespace warpviz::app {

class GlfwWindow;

// Runs until the window closes or the app asks to quit.
void run_interactive(GlfwWindow& window, FrameContext& frame);

// What the session leaves for the next one, written to `settings_path`
// (a failure is a warning on stderr: the app has closed by then). Only what
// changed since `as_loaded` is written over the file as it is now: another
// instance's changes stay.
void save_session_settings(GlfwWindow& window, AppView& app, const view::AppSettings& as_loaded,
                           const std::string& settings_path);

}  // namespace warpviz::app
