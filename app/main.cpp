// warpviz: the desktop app. One straight main loop, as in Dear ImGui's
// example_glfw_opengl3: parse the command line, get the first trace, open a GL
// 3.3 core window, load the fonts, then run the interactive loop (or one of
// the offscreen runs) and take it all down again in reverse, once, as the
// objects below go out of scope. The parts live in files of their own:
//   command_line      the options and their checks
//   first_trace       the trace it opens with
//   startup_timing    WARPVIZ_STARTUP_TIMES
//   font_atlas        the glyphs and the interface's scale
//   frame_target      where frames go, and one frame
//   glfw_window       the window, its callbacks, full screen
//   headless_target   --offscreen: a headless EGL context instead of a window
//   interactive_loop  the loop, File > Export, Ctrl+Shift+S, the saved session
//   offscreen_runs    --screenshot, --frames, --export
//   frame_bench       --bench-frames
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <memory>
#include <string>

#include "app_view.h"
#include "command_line.h"
#include "first_trace.h"
#include "font_atlas.h"
#include "frame_bench.h"
#include "frame_target.h"
#include "glfw_window.h"
#include "headless_target.h"
#include "interactive_loop.h"
#include "lane_renderer.h"
#include "layout_report.h"
#include "offscreen_runs.h"
#include "startup_timing.h"
#include "video_export.h"
#include "warpviz/view/settings.h"

using namespace warpviz;
using namespace warpviz::app;

namespace {

// Why nothing can be shown, and what to run instead; main's exit status.
int no_display(const Options& opt, const std::string& why) {
  if (opt.offscreen())
    std::fprintf(stderr, "warpviz: no display (%s) to render into; run it under Xvfb: xvfb-run -a warpviz ... %s\n",
                 why.c_str(), !opt.screenshot.empty() ? "--screenshot OUT.png" : !opt.frames_dir.empty() ? "--frames DIR"
                 : !opt.export_path.empty() ? "--export OUT" : "--bench-frames N");
  else
    std::fprintf(stderr, "warpviz: no display (%s); use --screenshot OUT.png under Xvfb, or warpviz-cli\n", why.c_str());
  return 2;
}

// Dear ImGui's context on a built atlas, with its GL renderer. Going, it takes
// down the app's GL objects and both backends while the GL context exists,
// then the context; the atlas (ScaleState) outlives it.
struct ImGuiSession {
  AppView& app;
  GlfwWindow* window;  // null with --offscreen: no platform backend
  ImGuiSession(ImFontAtlas* atlas, AppView& app, GlfwWindow* window) : app(app), window(window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext(atlas);
    ImGui::GetIO().IniFilename = nullptr;  // the layout lives in settings.json with the rest
  }
  ~ImGuiSession() {
    app.lane_renderer.reset();
    ImGui_ImplOpenGL3_Shutdown();
    if (window) window->detach();
    ImGui::DestroyContext();
  }
};

}  // namespace

int main(int argc, char** argv) {
  startup_phase("main");
  Options opt;
  std::string error;
  switch (parse_args(argc, argv, opt, error)) {
    case ParseResult::Help: std::fputs(usage_text().c_str(), stdout); return 0;
    case ParseResult::Bad: std::fprintf(stderr, "warpviz: %s (warpviz --help lists the options)\n", error.c_str()); return 2;
    case ParseResult::Run: break;
  }
  const ExportFormat export_format = app::export_format(opt.export_path);
  if (is_video(export_format) && find_on_path("ffmpeg").empty()) {
    std::fprintf(stderr, "warpviz: %s\n", ffmpeg_missing_message(opt.export_path).c_str());
    return 2;
  }
  const bool svg_export = export_format == ExportFormat::Svg;  // no window needed
  const char* x_display = std::getenv("DISPLAY");
  const char* wayland_display = std::getenv("WAYLAND_DISPLAY");
  if (!svg_export && !opt.headless_gl && !(x_display && *x_display) && !(wayland_display && *wayland_display))
    return no_display(opt, "DISPLAY is not set");

  // Offscreen runs are reproducible: the saved settings neither apply nor change.
  const std::string settings_path = view::default_settings_path();
  view::AppSettings settings;
  if (!opt.offscreen()) {
    settings = view::load_settings(settings_path, &error);
    if (!error.empty()) std::fprintf(stderr, "warpviz: %s\n", error.c_str());
  }
  const view::AppSettings settings_as_loaded = settings;  // what a second instance may have changed since
  if (opt.language) settings.language = *opt.language == view::Language::Chinese ? "zh" : "en";
  if (opt.width > 0) settings.window_w = opt.width, settings.window_h = opt.height;
  if (opt.zoom) settings.zoom = *opt.zoom;

  AppView app(settings);  // goes last: its .cu file's run stops then
  if (!opt.offscreen() && !error.empty()) app.error_message = error;  // a damaged settings.json, kept as .bad
  app.zoom = float(settings.zoom);
  app.content_scale_fixed = opt.content_scale.has_value();
  app.presentation = opt.presentation;
  app.hex = opt.hex;
  for (const std::string& id : opt.panels) {
    bool known = false;
    for (auto [panel_id, shown] : app.panels.by_id())
      if (id == panel_id) *shown = known = true;
    if (!known) {
      std::fprintf(stderr, "warpviz: --panel %s: no such panel (%s)\n", id.c_str(), panel_ids().c_str());
      return 2;
    }
  }
  app.wake_loop = [] { GlfwWindow::wake_from_any_thread(); };
  std::future<Trace> pending_file;
  if (!start_first_trace(app, opt, &pending_file)) return 2;
  if (svg_export) return run_svg_export(app, opt, pending_file);

  // The window. Glyphs are rasterised on a thread meanwhile, at the monitor's
  // scale; rebuilt below only if the window's differs, or a trace file's
  // source (unknown when the build started) needs glyphs it lacks.
  // With --offscreen a headless EGL context takes the window's place, and GLFW
  // is never started, so no display is needed.
  GlfwWindow window;
  std::unique_ptr<HeadlessTarget> headless;
  if (!opt.headless_gl && !window.init(&error)) return no_display(opt, error);
  app.content_scale = opt.content_scale.value_or(opt.headless_gl ? 1.0f : std::max(1.0f, window.monitor_scale()));
  std::future<std::unique_ptr<FontBuild>> pending_fonts = std::async(
      std::launch::async, build_fonts, wanted_scale(app, float(settings.window_h)).fonts, app.font_text());
  if (opt.headless_gl ? !(headless = HeadlessTarget::open(settings.window_w, settings.window_h, &error))
                      : !window.open(settings.window_w, settings.window_h, opt.offscreen(), &error)) {
    std::fprintf(stderr, opt.headless_gl ? "warpviz: --offscreen: %s\n" : "warpviz: %s\n", error.c_str());
    return 1;
  }
  if (headless) std::fprintf(stderr, "warpviz: --offscreen: %s\n", headless->description().c_str());
  FrameTarget& target = headless ? static_cast<FrameTarget&>(*headless) : window;
  startup_phase("window and GL context");
  bool file_failed = false;
  if (const int rc = finish_first_trace(app, opt, pending_file, &file_failed)) return rc;
  startup_phase("trace loaded (or scenario run)");
  if (!opt.content_scale && !headless) app.content_scale = std::max(1.0f, window.content_scale());
  const WantedScale want = wanted_scale(app, float(target.display_size().h));
  app.dpi_scale = want.panels;

  ScaleState scale;  // the atlas outlives the ImGui context that uses it
  scale.fonts = settle_fonts(pending_fonts.get(), want.fonts, app.font_text(), !opt.file.empty());
  app.fonts = scale.fonts->fonts;
  app.fonts_stale = false;  // built with the lesson's captions already
  startup_phase("fonts");

  ImGuiSession imgui(scale.fonts->atlas.get(), app, headless ? nullptr : &window);
  ImGui::StyleColorsDark(&scale.base_style);
  apply_scale(want, app, scale, false);  // the style; the fonts are built already
  layout_report().enabled = !opt.layout_report.empty();
  const PixelSize display = target.display_size();
  const std::string layout = app.settings.imgui_layout.empty()
                                 ? app.first_use_layout(float(display.w), float(display.h))
                                 : app.settings.imgui_layout;
  ImGui::LoadIniSettingsFromMemory(layout.data(), layout.size());
  if (!headless) window.attach(app);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  FrameContext frame{target, app, scale};
  if (!opt.screenshot.empty()) {
    const int rc = run_screenshot(frame, opt.screenshot, opt.layout_report, opt.keys);
    return rc == 0 && file_failed ? 2 : rc;
  }
  if (!opt.frames_dir.empty()) return run_frames(frame, opt.frames_dir);
  if (opt.bench_frames > 0) return run_bench(frame, opt.bench_frames);
  if (!opt.export_path.empty()) return file_failed ? 2 : run_export(frame, opt);
  if (!opt.step && opt.lesson.empty()) app.playback.play();  // a lesson starts on its slide's step
  run_interactive(window, frame);
  save_session_settings(window, app, settings_as_loaded, settings_path);
  return 0;
}
