// --offscreen's frame target: the headless EGL context (headless_gl.h) as a
// FrameTarget, so that --screenshot, --frames, --bench-frames and --export run
// unchanged with no display, no window and no GLFW. There is no platform
// backend: each frame sets Dear ImGui's display size and time step by hand, one
// pixel to a unit (content scale 1 unless --scale says otherwise).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "frame_target.h"
#include "headless_gl.h"

namespace warpviz::app {

class HeadlessTarget final : public FrameTarget {
 public:
  // The context, current on this thread, with a width x height framebuffer
  // object; null with `error` saying which EGL step failed, or that this build
  // has no EGL.
  static std::unique_ptr<HeadlessTarget> open(int width, int height, std::string* error);

  // "GL_RENDERER ...; GL_VERSION ...; EGL ..., device platform (...)": what the
  // app prints on stderr, so a benchmark says which driver it measured.
  std::string description() const;

  PixelSize framebuffer_size() const override;
  PixelSize display_size() const override { return framebuffer_size(); }
  void new_frame(double dt) override;
  void present() override;
  bool read_rgb(std::vector<unsigned char>* pixels, std::string* error) override;

 private:
  explicit HeadlessTarget(std::unique_ptr<HeadlessGl> gl) : gl_(std::move(gl)) {}
  std::unique_ptr<HeadlessGl> gl_;
};

}  // namespace warpviz::app
