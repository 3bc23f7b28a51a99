#include "offscreen_runs.h"

#include <glad/gl.h>

#include <cstdio>
#include <filesystem>
#include <vector>

#include "app_view.h"
#include "layout_report.h"
#include "screenshot.h"
#include "startup_timing.h"
#include "video_export.h"
#include "warpviz/view/round_stops.h"
#include "warpviz/view/svg_export.h"

namespace warpviz::app {

namespace {

constexpr int kFramesPerStep = 8;

bool capture(FrameTarget& target, const std::string& path) {
  std::string error;
  if (!save_frame_png(target, path, &error)) {
    std::fprintf(stderr, "warpviz: %s\n", error.c_str());
    return false;
  }
  return true;
}

}  // namespace

int run_screenshot(FrameContext& frame, const std::string& path, const std::string& report_path,
                   const std::vector<int>& keys) {
  AppView& app = frame.app;
  // Pressed keys get frames of their own: a new trace's panels move into place
  // over two (panel_layout.cpp), then settle.
  const int last = kWarmupFrames + (keys.empty() ? 0 : kWarmupFrames + 1);
  for (int i = 0; i <= last; ++i) {
    frame.target.poll_events();
    render_frame(frame, 0.0, true);
    if (i == last && !capture(frame.target, path)) return 1;
    if (i == last && !report_path.empty()) {
      std::string error;
      layout_report().ui_scale = app.dpi_scale;
      layout_report().language = app.language;
      if (!layout_report().write(report_path, &error)) {
        std::fprintf(stderr, "warpviz: %s\n", error.c_str());
        return 1;
      }
      std::printf("wrote %s\n", report_path.c_str());
    }
    frame.target.present();
    if (i == 0) {
      glFinish();  // on screen, not merely submitted
      startup_phase("first frame");
      // Between frames, as main's key callback queues them; one at a time, in order.
      for (const int key : keys) {
        app.key_presses.push_back(KeyPress{key, 0, false});
        app.handle_keys();
      }
    }
  }
  std::printf("wrote %s\n", path.c_str());
  return 0;
}

int run_frames(FrameContext& frame, const std::string& dir) {
  AppView& app = frame.app;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "warpviz: cannot create %s: %s\n", dir.c_str(), ec.message().c_str());
    return 1;
  }
  const size_t steps = app.playback.step_count();
  // Every step's transition in kFramesPerStep frames; the last step has none.
  const size_t total = steps == 0 ? 1 : (steps - 1) * kFramesPerStep + 1;
  for (int i = 0; i < kWarmupFrames; ++i) {
    frame.target.poll_events();
    render_frame(frame, 0.0, true);
    frame.target.present();
  }
  for (size_t index = 0; index < total; ++index) {
    frame.target.poll_events();
    app.playback.scrub(double(index) / kFramesPerStep);
    render_frame(frame, 0.0, true);
    char name[32];
    std::snprintf(name, sizeof name, "frame_%04zu.png", index);
    if (!capture(frame.target, (std::filesystem::path(dir) / name).string())) return 1;
    frame.target.present();
  }
  std::printf("wrote %zu frames to %s\n", total, dir.c_str());
  return 0;
}

// --export OUT.mp4|webm|gif: the steps' frames (export_frame_positions),
// each rendered as --frames renders them and piped to ffmpeg.
int run_export(FrameContext& frame, const Options& opt) {
  AppView& app = frame.app;
  const size_t steps = app.playback.step_count();
  if (steps == 0) {
    std::fprintf(stderr, "warpviz: --export %s: the trace has no steps to animate\n", opt.export_path.c_str());
    return 2;
  }
  size_t first = 0, last = steps - 1;
  std::string error;
  if (!opt.export_steps.empty() && !parse_step_range(opt.export_steps, steps, &first, &last, &error)) {
    std::fprintf(stderr, "warpviz: %s\n", error.c_str());
    return 2;
  }
  for (int i = 0; i < kWarmupFrames; ++i) {
    frame.target.poll_events();
    render_frame(frame, 0.0, true);
    frame.target.present();
  }
  const PixelSize size = frame.target.framebuffer_size();
  VideoExport video;
  if (!video.start(opt.export_path, size.w, size.h, opt.fps, &error)) {
    std::fprintf(stderr, "warpviz: %s\n", error.c_str());
    return 1;
  }
  const std::vector<bool> resting = view::watches_resting_with_round(app.trace, app.playback.order());
  const std::vector<double> positions = export_frame_positions(first, last, opt.fps, resting);
  const size_t seconds = positions.size() / size_t(opt.fps);
  for (const double position : positions) {
    frame.target.poll_events();
    app.playback.scrub(position);
    render_frame(frame, 0.0, true);
    if (!video.add_frame(frame.target, &error)) {
      std::fprintf(stderr, "warpviz: %s\n", error.c_str());
      return 1;
    }
    frame.target.present();
  }
  if (!video.finish(&error)) {
    std::fprintf(stderr, "warpviz: %s\n", error.c_str());
    return 1;
  }
  // "(5 seconds: a watch rests with its round)" where watches gave no second of their own.
  const std::string folded =
      seconds != last - first + 1 ? " (" + std::to_string(seconds) + " seconds: a watch rests with its round)" : "";
  std::printf("wrote %s: steps %zu to %zu%s, %zu frames at %d fps, %dx%d\n", opt.export_path.c_str(), first + 1,
              last + 1, folded.c_str(), positions.size(), opt.fps, size.w, size.h);
  return 0;
}

// --export OUT.svg: the --step (the first without one) as vector graphics;
// needs no window.
int run_svg_export(AppView& app, const Options& opt, std::future<Trace>& pending_file) {
  try {
    if (pending_file.valid()) app.show_file_trace(pending_file.get(), opt.file);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "warpviz: %s\n", e.what());
    return 2;
  }
  if (app.user_file) {
    app.user_file->wait_until_settled(app.user_file->request().time_limit_s + 300);
    app.poll_user_file();
  }
  const size_t position = opt.step.value_or(0);
  if (app.playback.step_count() > 0 && position >= app.playback.step_count()) {
    std::fprintf(stderr, "warpviz: %s\n",
                 view::step_number_error("--step", position + 1, app.playback.step_count()).c_str());
    return 2;
  }
  view::SvgOptions options;
  options.width = opt.width > 0 ? float(opt.width) : options.width;
  options.hex = app.hex;
  options.high_contrast = app.presentation;
  options.language = app.language;
  std::string error;
  if (!write_step_svg(app.trace, app.playback.order(), position, options, opt.export_path, &error)) {
    std::fprintf(stderr, "warpviz: %s\n", error.c_str());
    return 1;
  }
  std::printf("wrote %s\n", opt.export_path.c_str());
  return 0;
}

}  // namespace warpviz::app
