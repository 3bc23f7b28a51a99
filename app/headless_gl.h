// A headless OpenGL context for --offscreen: EGL with no window, no X server
// and no GLFW, rendering into a framebuffer object of the requested size.
// Headless GPU servers (the NVIDIA driver's EGL) and software GL (Mesa's
// llvmpipe, surfaceless) both give one. Without libEGL at build time
// (WARPVIZ_HAVE_EGL unset) open() says so and returns nothing.
#pragma once

#include <memory>
#include <string>

namespace warpviz::app {

class HeadlessGl {
 public:
  // Whether this build can open one at all (it was linked with libEGL).
  static bool built_in();

  // An EGL display (the NVIDIA device when there is one, then any other EGL
  // device, Mesa's surfaceless platform, the default display: the first that
  // initialises), a desktop OpenGL 3.3 core context made current on this
  // thread, glad loaded through eglGetProcAddress, and a width x height RGBA8
  // framebuffer object bound for drawing and reading. Null, with `error`
  // naming the step and EGL's error code, when any of it fails.
  // WARPVIZ_EGL_PLATFORM=device|surfaceless|default tries that one alone.
  static std::unique_ptr<HeadlessGl> open(int width, int height, std::string* error);
  ~HeadlessGl();
  HeadlessGl(const HeadlessGl&) = delete;
  HeadlessGl& operator=(const HeadlessGl&) = delete;

  int width() const { return width_; }
  int height() const { return height_; }
  // Which EGL platform and device, e.g. "EGL 1.5, device platform (device 0
  // of 2, NVIDIA)", and the GL the context got (GL_RENDERER, GL_VERSION).
  const std::string& egl_description() const { return egl_; }
  std::string gl_renderer() const;
  std::string gl_version() const;

  // Binds the framebuffer object again for drawing and reading (the frame's
  // pixels are read from its colour attachment).
  void bind() const;
  // The end of a frame: there is no swap; the work is flushed to the driver
  // so frames do not pile up unsubmitted.
  void present() const;

 private:
  HeadlessGl() = default;
  struct Egl;  // EGL's handles, only in headless_gl.cpp
  std::unique_ptr<Egl> egl_handles_;
  int width_ = 0, height_ = 0;
  unsigned framebuffer_ = 0, colour_ = 0;
  std::string egl_;
};

}  // namespace warpviz::app
