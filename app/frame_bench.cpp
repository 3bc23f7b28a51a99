#include "frame_bench.h"

#include <glad/gl.h>
#include <imgui.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "app_view.h"
#include "offscreen_runs.h"

namespace warpviz::app {

namespace {

// CPU time of the calling thread, or of the whole process, in ms.
double cpu_ms(clockid_t which) {
  timespec ts{};
  clock_gettime(which, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

}  // namespace

// Each frame, swap included, three ways: wall time; the CPU time of the app's
// own thread (building the UI, issuing GL calls; with Mesa's llvmpipe also its
// vertex processing and binning, and the copy to the X server); and the CPU
// time of the rest of the process, which under llvmpipe is its rasteriser
// threads filling pixels: the work a GPU does on a real driver.
int run_bench(FrameContext& frame, int frames) {
  AppView& app = frame.app;
  using clock = std::chrono::steady_clock;
  constexpr double kFrameSeconds = 1.0 / 60;  // simulated frame time: the same animation on every machine
  app.playback.play();
  std::vector<double> wall_ms, thread_ms, raster_ms, ui_ms, submit_ms;
  long vertices = 0, indices = 0, commands = 0;
  for (int i = 0; i < kWarmupFrames + frames; ++i) {
    frame.target.poll_events();
    if (!app.playback.playing()) {  // loop the trace so every frame animates
      app.playback.jump_to_start();
      app.playback.play();
    }
    FrameTimes parts;
    const auto t0 = clock::now();
    const double thread0 = cpu_ms(CLOCK_THREAD_CPUTIME_ID), process0 = cpu_ms(CLOCK_PROCESS_CPUTIME_ID);
    render_frame(frame, kFrameSeconds, true, &parts);
    frame.target.present();
    glFinish();  // the frame's pixels are done: nothing of it spills into the next
    const double thread1 = cpu_ms(CLOCK_THREAD_CPUTIME_ID), process1 = cpu_ms(CLOCK_PROCESS_CPUTIME_ID);
    const auto t1 = clock::now();
    if (i < kWarmupFrames) continue;
    wall_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    thread_ms.push_back(thread1 - thread0);
    raster_ms.push_back(std::max(0.0, (process1 - process0) - (thread1 - thread0)));
    ui_ms.push_back(parts.ui_ms);
    submit_ms.push_back(parts.submit_ms);
    const ImDrawData* draw = ImGui::GetDrawData();
    vertices += draw->TotalVtxCount;
    indices += draw->TotalIdxCount;
    for (int l = 0; l < draw->CmdListsCount; ++l) commands += draw->CmdLists[l]->CmdBuffer.Size;
  }
  const auto mean_p95 = [](std::vector<double> v) {
    double mean = 0;
    for (double m : v) mean += m;
    mean /= double(v.size());
    std::sort(v.begin(), v.end());
    return std::make_pair(mean, v[std::min(v.size() - 1, size_t(std::ceil(0.95 * double(v.size()))) - 1)]);
  };
  const auto line = [&](const char* what, const std::vector<double>& v) {
    const auto [mean, p95] = mean_p95(v);
    std::printf("  %-58s mean %6.3f ms, p95 %6.3f ms\n", what, mean, p95);
  };
  const PixelSize size = frame.target.framebuffer_size();
  std::printf("%d frames at %d×%d, animation playing, every panel open; GL: %s\n", frames, size.w, size.h,
              reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  std::printf("  per frame: %ld vertices, %ld triangles, %ld draw calls\n", vertices / frames, indices / 3 / frames,
              commands / frames);
  line("wall time, swap and glFinish included:", wall_ms);
  line("  of it building the UI (wall):", ui_ms);
  line("  of it submitting ImGui's draw lists (wall):", submit_ms);
  line("CPU time of the rasteriser's threads (a GPU's work):", raster_ms);
  line("app thread CPU time per frame (the goal's figure):", thread_ms);
  return 0;
}

}  // namespace warpviz::app
