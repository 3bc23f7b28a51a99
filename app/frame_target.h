// Where the app's frames go, and one frame drawn into it. A frame target is
// what rendering and capturing need of a window and nothing more: its size,
// the platform half of starting a Dear ImGui frame, showing the frame, and
// reading its pixels back. A GLFW window (glfw_window.h) is one; a headless
// GL context drawing into a framebuffer object of W x H pixels is another
// (no platform backend: it sets io.DisplaySize and io.DeltaTime by hand).
// The offscreen runs (offscreen_runs.h), the benchmark (frame_bench.h) and
// the interactive loop's capture paths only see this interface.
#pragma once

#include <string>
#include <vector>

namespace warpviz::app {

class AppView;
struct ScaleState;

struct PixelSize {
  int w = 0, h = 0;
};

class FrameTarget {
 public:
  virtual ~FrameTarget() = default;
  // The drawable's size in pixels: the viewport, a capture's and a video's size.
  virtual PixelSize framebuffer_size() const = 0;
  // Its size in Dear ImGui's units (a window's size in screen coordinates;
  // the framebuffer's for a headless target): what the layout and the
  // presentation scale are worked out from.
  virtual PixelSize display_size() const = 0;
  // Between offscreen frames: lets the platform handle its events (GLFW's
  // poll). A headless target has none.
  virtual void poll_events() {}
  // The platform half of a new frame, before ImGui::NewFrame: io.DisplaySize,
  // io.DeltaTime (`dt` seconds; > 0), input. The GL renderer's half is
  // render_frame's.
  virtual void new_frame(double dt) = 0;
  // Shows the frame just rendered (swap buffers); a headless target flushes.
  virtual void present() = 0;
  // The frame just rendered, before present(): framebuffer_size() pixels,
  // RGB, rows bottom-up as GL reads them. False with `error` when there is
  // nothing to read.
  virtual bool read_rgb(std::vector<unsigned char>* pixels, std::string* error) = 0;
};

// Reads `size` RGB pixels of the framebuffer bound for reading, from colour
// buffer `gl_read_buffer` (GL_BACK for a window, GL_COLOR_ATTACHMENT0 for a
// framebuffer object), bottom-up: the shared part of read_rgb.
bool read_gl_pixels(unsigned gl_read_buffer, PixelSize size, std::vector<unsigned char>* pixels, std::string* error);

// What drawing a frame needs: where it goes, the app, and the fonts and style
// at the app's scale (rebuilt between frames when the scale changes).
struct FrameContext {
  FrameTarget& target;
  AppView& app;
  ScaleState& scale;
};

// Where a frame's CPU time goes: building the UI (the panels, the lane
// renderer's GL calls included) and submitting ImGui's draw lists.
struct FrameTimes {
  double ui_ms = 0, submit_ms = 0;
};

// Builds and submits one frame, `dt` seconds after the last (0: the
// animation stands still); does not present it, so that it can be read back
// first. `ignore_pointer`: no hover and no keys (captures must not depend on
// where Xvfb's pointer is). Returns whether the app's state changed.
bool render_frame(FrameContext& frame, double dt, bool ignore_pointer, FrameTimes* times = nullptr);

}  // namespace warpviz::app
