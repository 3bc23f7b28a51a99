#include "headless_gl.h"

#include <glad/gl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#if WARPVIZ_HAVE_EGL
#include <EGL/egl.h>
#include <EGL/eglext.h>
#endif

namespace warpviz::app {

#if !WARPVIZ_HAVE_EGL

struct HeadlessGl::Egl {};

bool HeadlessGl::built_in() { return false; }

std::unique_ptr<HeadlessGl> HeadlessGl::open(int, int, std::string* error) {
  if (error)
    *error = "not built in: this warpviz was built without EGL (install libegl-dev, "
             "scripts/install-deps.sh, and configure again)";
  return nullptr;
}

HeadlessGl::~HeadlessGl() = default;

#else  // WARPVIZ_HAVE_EGL

struct HeadlessGl::Egl {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  EGLSurface surface = EGL_NO_SURFACE;
};

namespace {

std::string egl_error_name(EGLint code) {
  switch (code) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP";
    case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
    case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST";
    default: {
      char hex[16];
      std::snprintf(hex, sizeof hex, "0x%04x", unsigned(code));
      return std::string("EGL error ") + hex;
    }
  }
}

// "what failed: EGL_BAD_MATCH", from EGL's last error on this thread.
std::string egl_failure(const char* what) { return std::string(what) + " failed: " + egl_error_name(eglGetError()); }

// Whether a space-separated extension string names `name` exactly.
bool has_extension(const char* extensions, std::string_view name) {
  if (!extensions) return false;
  std::string_view rest(extensions);
  while (!rest.empty()) {
    const size_t space = rest.find(' ');
    if (rest.substr(0, space) == name) return true;
    if (space == std::string_view::npos) break;
    rest.remove_prefix(space + 1);
  }
  return false;
}

template <typename Function>
Function egl_function(const char* name) {
  return reinterpret_cast<Function>(eglGetProcAddress(name));
}

// One display to try, and what to call it in messages.
struct Candidate {
  EGLDisplay display = EGL_NO_DISPLAY;
  std::string name;
};

// Every EGL device, the NVIDIA driver's first (its devices carry
// EGL_NV_device_cuda), then other hardware, then software (Mesa's llvmpipe
// device carries EGL_MESA_device_software).
void add_devices(std::vector<Candidate>& out, std::string& errors) {
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!has_extension(client, "EGL_EXT_platform_device") || !has_extension(client, "EGL_EXT_platform_base")) {
    errors += "device platform: EGL_EXT_platform_device not offered; ";
    return;
  }
  const auto query_devices = egl_function<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
  const auto device_string = egl_function<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
  const auto platform_display = egl_function<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
  if (!query_devices || !device_string || !platform_display) {
    errors += "device platform: eglQueryDevicesEXT, eglQueryDeviceStringEXT or eglGetPlatformDisplayEXT missing; ";
    return;
  }
  EGLDeviceEXT devices[16];
  EGLint count = 0;
  if (!query_devices(16, devices, &count) || count == 0) {
    errors += count == 0 ? "device platform: no EGL devices; " : "device platform: " + egl_failure("eglQueryDevicesEXT") + "; ";
    return;
  }
  struct Ranked {
    int rank;
    EGLint index;
    std::string kind;
  };
  std::vector<Ranked> ranked;
  for (EGLint i = 0; i < count; ++i) {
    const char* extensions = device_string(devices[i], EGL_EXTENSIONS);
    if (has_extension(extensions, "EGL_NV_device_cuda"))
      ranked.push_back({0, i, "NVIDIA"});
    else if (has_extension(extensions, "EGL_MESA_device_software"))
      ranked.push_back({2, i, "software"});
    else
      ranked.push_back({1, i, "hardware"});
    if (has_extension(extensions, "EGL_EXT_device_drm"))
      if (const char* file = device_string(devices[i], EGL_DRM_DEVICE_FILE_EXT)) ranked.back().kind += std::string(" ") + file;
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) { return a.rank < b.rank; });
  for (const Ranked& r : ranked) {
    const std::string name = "device platform (device " + std::to_string(r.index) + " of " + std::to_string(count) +
                             ", " + r.kind + ")";
    const EGLDisplay display = platform_display(EGL_PLATFORM_DEVICE_EXT, devices[r.index], nullptr);
    if (display == EGL_NO_DISPLAY)
      errors += name + ": " + egl_failure("eglGetPlatformDisplayEXT") + "; ";
    else
      out.push_back({display, name});
  }
}

void add_surfaceless(std::vector<Candidate>& out, std::string& errors) {
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!has_extension(client, "EGL_MESA_platform_surfaceless")) {
    errors += "surfaceless platform: EGL_MESA_platform_surfaceless not offered; ";
    return;
  }
  const auto platform_display = egl_function<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
  const EGLDisplay display =
      platform_display ? platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr) : EGL_NO_DISPLAY;
  if (display == EGL_NO_DISPLAY)
    errors += "surfaceless platform: " + egl_failure("eglGetPlatformDisplayEXT") + "; ";
  else
    out.push_back({display, "Mesa surfaceless platform"});
}

void add_default(std::vector<Candidate>& out, std::string& errors) {
  const EGLDisplay display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (display == EGL_NO_DISPLAY)
    errors += "default display: " + egl_failure("eglGetDisplay") + "; ";
  else
    out.push_back({display, "default display"});
}

// Initialises `display` and makes a desktop GL 3.3 core context current on it,
// without a surface where the display allows (EGL_KHR_surfaceless_context),
// else on a 1x1 pbuffer. On failure everything made is released again.
bool make_context(const Candidate& c, EGLDisplay* display_out, EGLContext* context_out, EGLSurface* surface_out,
                  std::string* description, std::string* error) {
  const EGLDisplay display = c.display;
  EGLint major = 0, minor = 0;
  if (!eglInitialize(display, &major, &minor)) return *error = egl_failure("eglInitialize"), false;
  EGLContext context = EGL_NO_CONTEXT;
  EGLSurface surface = EGL_NO_SURFACE;
  const auto fail = [&](const std::string& why) {
    if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
    if (surface != EGL_NO_SURFACE) eglDestroySurface(display, surface);
    eglTerminate(display);
    *error = why;
    return false;
  };
  const char* apis = eglQueryString(display, EGL_CLIENT_APIS);
  if (!has_extension(apis, "OpenGL"))
    return fail(std::string("no desktop OpenGL (EGL_CLIENT_APIS: ") + (apis ? apis : "none") + ")");
  if (!eglBindAPI(EGL_OPENGL_API)) return fail(egl_failure("eglBindAPI(EGL_OPENGL_API)"));

  const bool surfaceless = has_extension(eglQueryString(display, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context");
  // EGL_SURFACE_TYPE 0: any config, none of them needs a surface when the
  // context goes without one.
  const EGLint surface_type = surfaceless ? 0 : EGL_PBUFFER_BIT;
  const EGLint config_attributes[] = {EGL_SURFACE_TYPE, surface_type, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                      EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  if (!eglChooseConfig(display, config_attributes, &config, 1, &configs)) return fail(egl_failure("eglChooseConfig"));
  if (configs == 0) return fail("eglChooseConfig: no config renders desktop OpenGL with 8-bit RGB");

  // The shaders are GLSL 330 core, as is Dear ImGui's OpenGL3 backend here.
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                       EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  if (context == EGL_NO_CONTEXT) return fail(egl_failure("eglCreateContext(OpenGL 3.3 core)"));
  if (!surfaceless) {
    const EGLint pbuffer_attributes[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
    surface = eglCreatePbufferSurface(display, config, pbuffer_attributes);
    if (surface == EGL_NO_SURFACE) return fail(egl_failure("eglCreatePbufferSurface(1x1)"));
  }
  if (!eglMakeCurrent(display, surface, surface, context)) return fail(egl_failure("eglMakeCurrent"));
  const char* vendor = eglQueryString(display, EGL_VENDOR);
  *description = "EGL " + std::to_string(major) + "." + std::to_string(minor) + " (" + (vendor ? vendor : "?") +
                 "), " + c.name + (surfaceless ? ", surfaceless" : ", 1x1 pbuffer");
  *display_out = display;
  *context_out = context;
  *surface_out = surface;
  return true;
}

}  // namespace

bool HeadlessGl::built_in() { return true; }

std::unique_ptr<HeadlessGl> HeadlessGl::open(int width, int height, std::string* error) {
  std::string errors;  // every display tried, and why it did not do
  const auto give_up = [&](const std::string& why) -> std::unique_ptr<HeadlessGl> {
    if (error) *error = why;
    return nullptr;
  };
  const char* only = std::getenv("WARPVIZ_EGL_PLATFORM");
  const std::string platform = only ? only : "";
  if (!platform.empty() && platform != "device" && platform != "surfaceless" && platform != "default")
    return give_up("WARPVIZ_EGL_PLATFORM=" + platform + ": expected device, surfaceless or default");

  std::vector<Candidate> candidates;
  if (platform.empty() || platform == "device") add_devices(candidates, errors);
  if (platform.empty() || platform == "surfaceless") add_surfaceless(candidates, errors);
  if (platform.empty() || platform == "default") add_default(candidates, errors);

  std::unique_ptr<HeadlessGl> gl(new HeadlessGl());
  gl->egl_handles_ = std::make_unique<Egl>();
  Egl& egl = *gl->egl_handles_;
  for (const Candidate& c : candidates) {
    std::string why;
    if (make_context(c, &egl.display, &egl.context, &egl.surface, &gl->egl_, &why)) break;
    errors += c.name + ": " + why + "; ";
  }
  if (egl.context == EGL_NO_CONTEXT) {
    if (errors.size() >= 2) errors.resize(errors.size() - 2);
    return give_up("no headless OpenGL 3.3 core context through EGL: " + errors);
  }

  // glad from EGL: core GL functions too (EGL 1.5, EGL_KHR_get_all_proc_addresses).
  const int version = gladLoadGL(eglGetProcAddress);
  if (version == 0) return give_up("cannot load the OpenGL functions through eglGetProcAddress (" + gl->egl_ + ")");
  if (GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 33)
    return give_up("the context is OpenGL " + std::to_string(GLAD_VERSION_MAJOR(version)) + "." +
                   std::to_string(GLAD_VERSION_MINOR(version)) + ", not 3.3 (" + gl->egl_ + ")");

  GLint max_size = 0, max_viewport[2] = {};
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, max_viewport);
  if (width > max_size || height > max_size || width > max_viewport[0] || height > max_viewport[1])
    return give_up("--size " + std::to_string(width) + "x" + std::to_string(height) + ": this GL renders at most " +
                   std::to_string(std::min<GLint>(max_size, std::min(max_viewport[0], max_viewport[1]))) +
                   " pixels a side (" + gl->gl_renderer() + ")");
  gl->width_ = width;
  gl->height_ = height;
  glGenRenderbuffers(1, &gl->colour_);
  glBindRenderbuffer(GL_RENDERBUFFER, gl->colour_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glGenFramebuffers(1, &gl->framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, gl->framebuffer_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, gl->colour_);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%04x", unsigned(status));
    return give_up(std::string("the ") + std::to_string(width) + "x" + std::to_string(height) +
                   " framebuffer object is incomplete (status " + hex + ", " + gl->gl_renderer() + ")");
  }
  gl->bind();
  return gl;
}

HeadlessGl::~HeadlessGl() {
  if (!egl_handles_ || egl_handles_->display == EGL_NO_DISPLAY) return;
  Egl& egl = *egl_handles_;
  if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
  if (colour_) glDeleteRenderbuffers(1, &colour_);
  eglMakeCurrent(egl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (egl.surface != EGL_NO_SURFACE) eglDestroySurface(egl.display, egl.surface);
  eglDestroyContext(egl.display, egl.context);
  eglTerminate(egl.display);
  eglReleaseThread();
}

#endif  // WARPVIZ_HAVE_EGL

std::string HeadlessGl::gl_renderer() const {
  const GLubyte* text = glGetString(GL_RENDERER);
  return text ? reinterpret_cast<const char*>(text) : "?";
}

std::string HeadlessGl::gl_version() const {
  const GLubyte* text = glGetString(GL_VERSION);
  return text ? reinterpret_cast<const char*>(text) : "?";
}

void HeadlessGl::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glViewport(0, 0, width_, height_);
}

void HeadlessGl::present() const { glFlush(); }

}  // namespace warpviz::app
