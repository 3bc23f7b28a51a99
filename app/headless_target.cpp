#include "headless_target.h"

#include <glad/gl.h>
#include <imgui.h>

namespace warpviz::app {

std::unique_ptr<HeadlessTarget> HeadlessTarget::open(int width, int height, std::string* error) {
  std::unique_ptr<HeadlessGl> gl = HeadlessGl::open(width, height, error);
  if (!gl) return nullptr;
  return std::unique_ptr<HeadlessTarget>(new HeadlessTarget(std::move(gl)));
}

std::string HeadlessTarget::description() const {
  return "GL_RENDERER " + gl_->gl_renderer() + "; GL_VERSION " + gl_->gl_version() + "; " + gl_->egl_description();
}

PixelSize HeadlessTarget::framebuffer_size() const { return {gl_->width(), gl_->height()}; }

// What ImGui_ImplGlfw_NewFrame would set: the display's size and scale, and the
// time step (a fixed one where the caller has none, as captures do). The
// framebuffer object is bound again in case a panel bound its own.
void HeadlessTarget::new_frame(double dt) {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(float(gl_->width()), float(gl_->height()));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  io.DeltaTime = dt > 0 ? float(dt) : 1.0f / 60;
  gl_->bind();
}

void HeadlessTarget::present() { gl_->present(); }

bool HeadlessTarget::read_rgb(std::vector<unsigned char>* pixels, std::string* error) {
  gl_->bind();
  return read_gl_pixels(GL_COLOR_ATTACHMENT0, framebuffer_size(), pixels, error);
}

}  // namespace warpviz::app
