// The app's window: GLFW with an OpenGL 3.3 core context (what the shaders and
// Dear ImGui's GL backend expect), as a FrameTarget. It also owns what only a
// real window has: GLFW's event callbacks (keys for the app, dropped files,
// a move to a monitor of another scale), the count of frames still to draw
// after an input event (the loop sleeps when there are none), and
// presentation mode's full screen. Destroying it closes the window and ends
// GLFW, whichever of the two had started.
#pragma once

#include <string>

#include "frame_target.h"

struct GLFWwindow;

namespace warpviz::app {

class AppView;

class GlfwWindow final : public FrameTarget {
 public:
  // Frames drawn after an input event: ImGui settles hover, popups and
  // layout within a couple of frames.
  static constexpr int kFramesAfterInput = 3;

  GlfwWindow() = default;
  GlfwWindow(const GlfwWindow&) = delete;
  GlfwWindow& operator=(const GlfwWindow&) = delete;
  ~GlfwWindow() override;

  // Starts GLFW. False with GLFW's own words in `error` (no display).
  bool init(std::string* error);
  // The primary monitor's content scale, 1 without one (after init).
  float monitor_scale() const;
  // Opens a w x h window (screen coordinates), makes its context current
  // and loads the GL functions. `fixed`: not resizable, no vsync (offscreen
  // runs, whose frames are captured or timed). False with `error`.
  bool open(int w, int h, bool fixed, std::string* error);
  float content_scale() const;  // the window's, once open

  // Sends input to `app` (keys, dropped files, scale changes) and to Dear
  // ImGui's GLFW backend, which chains to these callbacks. Needs a context.
  void attach(AppView& app);
  void detach();  // the ImGui backend's shutdown; the destructor calls it too

  // From any thread: wakes a loop sleeping in GLFW's wait, while GLFW lives
  // (a .cu file's run thread calls it when its run has news).
  static void wake_from_any_thread();

  // Presentation mode takes the whole monitor; leaving it restores the window.
  void set_fullscreen(bool on);
  bool fullscreen() const { return fullscreen_; }

  GLFWwindow* handle() const { return window_; }
  // Frames still to draw before the interactive loop sleeps again.
  int frames_wanted = kFramesAfterInput;

  // FrameTarget
  PixelSize framebuffer_size() const override;
  PixelSize display_size() const override;
  void poll_events() override;
  void new_frame(double dt) override;
  void present() override;
  bool read_rgb(std::vector<unsigned char>* pixels, std::string* error) override;

 private:
  GLFWwindow* window_ = nullptr;
  AppView* app_ = nullptr;
  bool initialised_ = false, imgui_attached_ = false, fullscreen_ = false;
  int windowed_x_ = 0, windowed_y_ = 0, windowed_w_ = 0, windowed_h_ = 0;  // before full screen
};

}  // namespace warpviz::app
