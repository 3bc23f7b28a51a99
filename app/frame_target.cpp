#include "frame_target.h"

#include <glad/gl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <cfloat>
#include <chrono>

#include "app_view.h"
#include "font_atlas.h"
#include "layout_report.h"

namespace warpviz::app {

bool read_gl_pixels(unsigned gl_read_buffer, PixelSize size, std::vector<unsigned char>* pixels, std::string* error) {
  if (size.w <= 0 || size.h <= 0) {
    if (error) *error = "the window has no pixels to read back";
    return false;
  }
  // RGB, not RGBA: ImGui's blending leaves the buffer's alpha below 1, which
  // an image viewer would show as see-through.
  pixels->resize(size_t(size.w) * size_t(size.h) * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GLenum(gl_read_buffer));
  glReadPixels(0, 0, size.w, size.h, GL_RGB, GL_UNSIGNED_BYTE, pixels->data());
  return true;
}

bool render_frame(FrameContext& frame, double dt, bool ignore_pointer, FrameTimes* times) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  AppView& app = frame.app;
  apply_scale(wanted_scale(app, float(frame.target.display_size().h)), app, frame.scale, true);
  layout_report().begin_frame();
  ImGui_ImplOpenGL3_NewFrame();
  frame.target.new_frame(dt);
  if (ignore_pointer) {
    // Xvfb's pointer sits mid-screen; a hover highlight there would make
    // screenshots depend on it.
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    for (bool& down : io.MouseDown) down = false;
  }
  ImGui::NewFrame();
  if (!ignore_pointer) app.handle_keys();
  const bool changed = app.update(dt);
  app.draw();
  ImGui::Render();
  const auto built = clock::now();

  const PixelSize fb = frame.target.framebuffer_size();
  glViewport(0, 0, fb.w, fb.h);
  glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (times) {
    times->ui_ms = std::chrono::duration<double, std::milli>(built - start).count();
    times->submit_ms = std::chrono::duration<double, std::milli>(clock::now() - built).count();
  }
  return changed;
}

}  // namespace warpviz::app
