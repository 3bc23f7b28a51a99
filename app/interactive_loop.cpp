#include "interactive_loop.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "app_view.h"
#include "glfw_window.h"
#include "screenshot.h"
#include "video_export.h"
#include "warpviz/view/round_stops.h"
#include "warpviz/view/settings.h"
#include "warpviz/view/user_file_session.h"

namespace warpviz::app {

namespace {

// File > Export… as it runs: one frame a loop, rendered without the export
// window and piped to ffmpeg, then the loop's own frame shows the progress.
struct ExportRun {
  VideoExport video;
  std::vector<double> positions;
  bool saved_presentation = false;
  double saved_position = 0;
};

// A line in the menu bar's status for a few seconds.
void note(AppView& app, const std::string& text) {
  app.rerun_note = text;
  app.rerun_note_until = ImGui::GetTime() + 8;
}

// Starts, advances by one frame, cancels or finishes File > Export's video.
// Returns whether the export is still running (the loop must keep drawing).
bool step_export(FrameContext& frame, ExportRun& run) {
  AppView& app = frame.app;
  AppView::ExportState& e = app.export_state;
  std::string error;
  if (e.start_request) {
    e.start_request = false;
    size_t first = 0, last = app.playback.step_count() - 1;
    if (!e.steps.empty() && !parse_step_range(e.steps, app.playback.step_count(), &first, &last, &error))
      return app.error_message = error, false;
    const PixelSize size = frame.target.framebuffer_size();
    if (!run.video.start(e.path, size.w, size.h, e.fps, &error)) return app.error_message = error, false;
    run.positions =
        export_frame_positions(first, last, e.fps, view::watches_resting_with_round(app.trace, app.playback.order()));
    run.saved_presentation = app.presentation;
    run.saved_position = app.playback.position();
    app.playback.pause();
    app.presentation = e.presentation;
    e.running = true;
    e.cancel_request = false;
    e.frames_done = 0;
    e.frame_count = run.positions.size();
  }
  if (!e.running) return false;
  const auto end = [&](const std::string& what) {
    app.presentation = run.saved_presentation;
    app.playback.scrub(run.saved_position);
    e.running = false;
    if (!what.empty()) note(app, what);
    return false;
  };
  if (e.cancel_request) {
    run.video.cancel();
    return end(app.tr("export cancelled", "导出已取消"));
  }
  if (e.frames_done < run.positions.size()) {
    app.playback.scrub(run.positions[e.frames_done]);
    e.capturing = true;  // the frame without the export window
    render_frame(frame, 0.0, true);
    e.capturing = false;
    if (!run.video.add_frame(frame.target, &error)) {
      app.error_message = error;
      return end("");
    }
    ++e.frames_done;
  }
  if (e.frames_done == run.positions.size()) {
    if (!run.video.finish(&error)) {
      app.error_message = error;
      return end("");
    }
    e.dialog_open = false;
    return end(app.tr("wrote ", "已写入 ") + e.path);
  }
  return true;
}

// Ctrl+Shift+S: the frame just rendered, to a timestamped PNG.
void save_window_png(FrameContext& frame) {
  AppView& app = frame.app;
  app.png_request = false;
  const std::string path = app.png_path();
  std::string error;
  if (save_frame_png(frame.target, path, &error))
    note(app, app.tr("wrote ", "已写入 ") + std::filesystem::absolute(path).string());
  else
    app.error_message = error;
}

}  // namespace

void run_interactive(GlfwWindow& window, FrameContext& frame) {
  AppView& app = frame.app;
  ExportRun export_run;
  int& frames_wanted = window.frames_wanted;
  window.set_fullscreen(app.presentation);
  double last = glfwGetTime();
  while (!glfwWindowShouldClose(window.handle()) && !app.quit_requested) {
    if (app.playback.playing() || frames_wanted > 0) {
      glfwPollEvents();
    } else {
      // Idle: sleep until an event; the timeout keeps a text cursor blinking
      // and, with a .cu file open, checks it for a save five times a second.
      glfwWaitEventsTimeout(app.user_file ? view::UserFileSession::kPollInterval.count() / 1000.0 : 0.5);
    }
    if (glfwGetWindowAttrib(window.handle(), GLFW_ICONIFIED)) {
      glfwWaitEvents();  // nothing to show while minimised
      continue;
    }
    const double now = glfwGetTime();
    const double dt = std::min(now - last, 0.1);  // a long stall must not skip steps
    last = now;
    if (app.poll_user_file()) frames_wanted = std::max(frames_wanted, GlfwWindow::kFramesAfterInput);
    const bool woken = app.playback.playing() || frames_wanted > 0;
    if (!woken && !ImGui::GetIO().WantTextInput) continue;

    if (step_export(frame, export_run)) frames_wanted = std::max(frames_wanted, GlfwWindow::kFramesAfterInput);
    const bool changed = render_frame(frame, dt, false);
    if (app.png_request) save_window_png(frame);
    window.present();
    if (frames_wanted > 0) --frames_wanted;
    if (changed) frames_wanted = std::max(frames_wanted, 2);
    if (app.presentation != window.fullscreen() && !app.export_state.running) {  // an export keeps the window's size
      window.set_fullscreen(app.presentation);
      frames_wanted = GlfwWindow::kFramesAfterInput;
    }
  }
  window.set_fullscreen(false);
}

void save_session_settings(GlfwWindow& window, AppView& app, const view::AppSettings& as_loaded,
                           const std::string& settings_path) {
  app.settings.imgui_layout = ImGui::SaveIniSettingsToMemory();
  glfwGetWindowSize(window.handle(), &app.settings.window_w, &app.settings.window_h);
  app.settings.language = app.language == view::Language::Chinese ? "zh" : "en";
  app.settings.speed = app.playback.speed();
  app.settings.zoom = app.zoom;
  for (auto [id, shown] : app.panels.by_id()) app.settings.panels[id] = *shown;  // menu items, close buttons
  if (find_scenario(app.last_request.scenario)) app.settings.scenario = app.last_request.scenario;
  std::string save_error;
  if (!view::save_settings_merged(app.settings, as_loaded, settings_path, &save_error))
    std::fprintf(stderr, "warpviz: settings not saved: %s\n", save_error.c_str());
}

}  // namespace warpviz::app
