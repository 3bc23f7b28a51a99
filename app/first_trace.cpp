#include "first_trace.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cctype>
#include <cstdio>
#include <filesystem>

#include "app_view.h"
#include "data_dirs.h"
#include "warpviz/trace_io.h"
#include "warpviz/view/play_order.h"
#include "warpviz/view/settings.h"
#include "warpviz/view/user_file_session.h"

namespace warpviz::app {

bool start_first_trace(AppView& app, const Options& opt, std::future<Trace>* pending_file) {
  if (!opt.lesson.empty()) {
    app.trust_lessons = opt.trust_lesson;
    if (app.open_lesson(lesson_argument_path(opt.lesson), opt.slide)) return true;
    std::fprintf(stderr, "warpviz: %s\n", app.error_message.c_str());  // names the file, line and field
    return false;
  }
  if (view::is_cuda_source(opt.file)) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(opt.file, ec)) {
      std::fprintf(stderr, "warpviz: %s: no such file\n", opt.file.c_str());
      return false;
    }
    user::FileRequest request = opt.file_request;
    request.time_limit_s = opt.timeout.value_or(app.settings.time_limit_s);
    if (!request.memory_limit_bytes) request.memory_limit_bytes = app.settings.memory_limit_bytes;
    view::FilePlace place;  // applied once the run is done
    if (!opt.launch.empty() && std::all_of(opt.launch.begin(), opt.launch.end(), ::isdigit))
      parse_count(opt.launch, &place.launch);
    else
      place.kernel = opt.launch;
    place.step = opt.step.value_or(0);  // a play position: the timeline's step number - 1
    app.open_user_file(std::move(request), std::move(place));
    return true;
  }
  if (!opt.file.empty()) {
    *pending_file = std::async(std::launch::async, [path = opt.file] { return load_trace(path); });
    return true;
  }
  ScenarioRequest request = opt.request;
  if (request.scenario.empty())
    request.scenario = find_scenario(app.settings.scenario) ? app.settings.scenario : std::string("warp_sum");
  if (app.run_scenario(request, opt.backend)) return true;
  std::fprintf(stderr, "warpviz: %s\n", app.error_message.c_str());
  return false;
}

int finish_first_trace(AppView& app, const Options& opt, std::future<Trace>& pending_file, bool* file_failed) {
  if (pending_file.valid()) {
    try {
      app.show_file_trace(pending_file.get(), opt.file);
      view::remember_recent_file(app.settings, opt.file);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "warpviz: %s\n", e.what());  // TraceFileError names the file and the problem
      if (!opt.frames_dir.empty() || opt.bench_frames > 0 || !opt.export_path.empty()) return 2;  // nothing to animate
      *file_failed = true;  // a --screenshot shows the error and still exits 2, so scripts notice
      app.error_message = e.what();
      app.file_dialog_request = AppView::FileDialog::Open;
      app.file_dialog_start_path = opt.file;
    }
  }
  if (app.user_file && opt.offscreen()) {
    // A screenshot of a .cu file is of its finished run (or its errors);
    // WARPVIZ_CAPTURE_RUNNING=S makes it of the run S seconds in (its progress bar).
    if (const char* running = std::getenv("WARPVIZ_CAPTURE_RUNNING")) {
      const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(std::atof(running));
      while (std::chrono::steady_clock::now() < until) app.user_file->update(), usleep(20000);
    } else if (!app.user_file->wait_until_settled(app.user_file->request().time_limit_s + 300))
      std::fprintf(stderr, "warpviz: %s is still compiling or running; the capture shows it so\n", opt.file.c_str());
    app.poll_user_file();
  }
  // A .cu file's run applied its place (the --step) itself; a capture of one
  // that ran still checks the number. One that did not run shows its errors.
  const bool file_ran = !app.user_file || app.user_file->shown_trace();
  if (opt.step && !*file_failed && file_ran && (!app.user_file || opt.offscreen())) {
    const auto numbered = view::numbered_step(app.trace, app.playback.order(), *opt.step + 1);
    if (!numbered) {
      std::fprintf(stderr, "warpviz: %s\n",
                   view::step_number_error("--step", *opt.step + 1, app.playback.step_count()).c_str());
      return 2;
    }
    app.playback.seek_position(numbered->position);  // as the timeline numbers steps: in play order
  }
  return 0;
}

}  // namespace warpviz::app
