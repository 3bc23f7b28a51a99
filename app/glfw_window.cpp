#include "glfw_window.h"

#include <glad/gl.h>  // before GLFW, so GLFW does not pull in the system GL header
#include <GLFW/glfw3.h>
#include <imgui_impl_glfw.h>

#include <mutex>

#include "app_view.h"

namespace warpviz::app {

namespace {

std::string g_last_glfw_error;  // GLFW's error callback has no user pointer

// Whether glfwPostEmptyEvent may be called: a .cu file's run thread wakes the
// loop with it, and may finish before the window opens or after GLFW ended.
// The lock makes "live, so post" one step against glfwTerminate.
std::mutex g_live_mutex;
bool g_live = false;

GlfwWindow* owner(GLFWwindow* w) { return static_cast<GlfwWindow*>(glfwGetWindowUserPointer(w)); }
void wake(GLFWwindow* w) { owner(w)->frames_wanted = GlfwWindow::kFramesAfterInput; }

}  // namespace

GlfwWindow::~GlfwWindow() {
  detach();
  if (window_) glfwDestroyWindow(window_);
  if (initialised_) {
    {
      std::lock_guard<std::mutex> lock(g_live_mutex);
      g_live = false;
    }
    glfwTerminate();
  }
}

bool GlfwWindow::init(std::string* error) {
  glfwSetErrorCallback([](int, const char* description) { g_last_glfw_error = description; });
  if (!glfwInit()) {
    *error = g_last_glfw_error.empty() ? "glfwInit failed" : g_last_glfw_error;
    return false;
  }
  initialised_ = true;
  std::lock_guard<std::mutex> lock(g_live_mutex);
  g_live = true;
  return true;
}

float GlfwWindow::monitor_scale() const {
  float x = 1, y = 1;
  if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) glfwGetMonitorContentScale(monitor, &x, &y);
  return x;
}

bool GlfwWindow::open(int w, int h, bool fixed, std::string* error) {
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);  // macOS requires it; harmless elsewhere
  if (fixed) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
  window_ = glfwCreateWindow(w, h, "warpviz", nullptr, nullptr);
  if (!window_) {
    *error = "cannot open an OpenGL 3.3 core window: " + g_last_glfw_error;
    return false;
  }
  glfwSetWindowUserPointer(window_, this);
  glfwMakeContextCurrent(window_);
  if (!gladLoadGL(glfwGetProcAddress)) {
    *error = "cannot load the OpenGL 3.3 functions";
    return false;
  }
  glfwSwapInterval(fixed ? 0 : 1);  // vsync, except where frames are timed or captured
  return true;
}

float GlfwWindow::content_scale() const {
  float x = 1, y = 1;
  glfwGetWindowContentScale(window_, &x, &y);
  return x;
}

void GlfwWindow::attach(AppView& app) {
  app_ = &app;
  // Set before ImGui's GLFW backend installs its own: it chains to these.
  glfwSetCursorPosCallback(window_, [](GLFWwindow* w, double, double) { wake(w); });
  glfwSetMouseButtonCallback(window_, [](GLFWwindow* w, int, int, int) { wake(w); });
  glfwSetScrollCallback(window_, [](GLFWwindow* w, double, double) { wake(w); });
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int mods) {
    if (action != GLFW_RELEASE && owner(w)->app_) owner(w)->app_->key_presses.push_back({key, mods, action == GLFW_REPEAT});
    wake(w);
  });
  glfwSetCharCallback(window_, [](GLFWwindow* w, unsigned int) { wake(w); });
  glfwSetWindowFocusCallback(window_, [](GLFWwindow* w, int) { wake(w); });
  glfwSetCursorEnterCallback(window_, [](GLFWwindow* w, int) { wake(w); });
  glfwSetWindowSizeCallback(window_, [](GLFWwindow* w, int, int) { wake(w); });
  glfwSetFramebufferSizeCallback(window_, [](GLFWwindow* w, int, int) { wake(w); });
  glfwSetWindowRefreshCallback(window_, [](GLFWwindow* w) { wake(w); });
  // Moved to a monitor of another scale: the next frame rebuilds the fonts.
  glfwSetWindowContentScaleCallback(window_, [](GLFWwindow* w, float x, float) {
    AppView* app = owner(w)->app_;
    if (app && !app->content_scale_fixed) app->content_scale = x;
    wake(w);
  });
  glfwSetDropCallback(window_, [](GLFWwindow* w, int count, const char** paths) {
    // One trace at a time: the first file dropped. A dropped .cu file asks
    // before it runs (a drag can start by mistake).
    if (count > 0 && owner(w)->app_) owner(w)->app_->open_file_asking(paths[0]);
    wake(w);
  });
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  imgui_attached_ = true;
}

void GlfwWindow::detach() {
  if (imgui_attached_) ImGui_ImplGlfw_Shutdown();
  imgui_attached_ = false;
  app_ = nullptr;
}

void GlfwWindow::wake_from_any_thread() {
  std::lock_guard<std::mutex> lock(g_live_mutex);
  if (g_live) glfwPostEmptyEvent();
}

void GlfwWindow::set_fullscreen(bool on) {
  if (on == fullscreen_) return;
  fullscreen_ = on;
  if (on) {
    glfwGetWindowPos(window_, &windowed_x_, &windowed_y_);
    glfwGetWindowSize(window_, &windowed_w_, &windowed_h_);
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    if (mode) glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else if (glfwGetWindowMonitor(window_)) {
    glfwSetWindowMonitor(window_, nullptr, windowed_x_, windowed_y_, windowed_w_, windowed_h_, 0);
  }
}

PixelSize GlfwWindow::framebuffer_size() const {
  PixelSize size;
  glfwGetFramebufferSize(window_, &size.w, &size.h);
  return size;
}

PixelSize GlfwWindow::display_size() const {
  PixelSize size;
  glfwGetWindowSize(window_, &size.w, &size.h);
  return size;
}

void GlfwWindow::poll_events() { glfwPollEvents(); }

// GLFW's backend measures the time between frames itself.
void GlfwWindow::new_frame(double) { ImGui_ImplGlfw_NewFrame(); }

void GlfwWindow::present() { glfwSwapBuffers(window_); }

bool GlfwWindow::read_rgb(std::vector<unsigned char>* pixels, std::string* error) {
  return read_gl_pixels(GL_BACK, framebuffer_size(), pixels, error);
}

}  // namespace warpviz::app
