// Reading a rendered frame back into a PNG: --screenshot and --frames.
#pragma once

#include <string>

namespace warpviz::app {

// Reads the bound back buffer (width x height pixels, call before the swap) and
// writes it as an RGB PNG. False, with `error` set, when the file cannot be written.
// Points glReadPixels at the frame just drawn: a window's back buffer, or colour
// attachment 0 of the framebuffer object a headless context (--offscreen) draws into.
void read_from_frame();

bool save_back_buffer_png(int width, int height, const std::string& path, std::string* error);

}  // namespace warpviz::app
