// warpviz: the desktop app. One straight main loop, as in Dear ImGui's
// example_glfw_opengl3: parse the command line, get the first trace, open a GL
// 3.3 core window, load the fonts, then per frame poll (or wait), update, draw,
// render, swap. --screenshot, --frames and --bench-frames run the same frame
// a fixed number of times and exit.
//
// [SECTION] Command line
// [SECTION] Window callbacks
// [SECTION] Fonts
// [SECTION] --offscreen: the headless EGL context in place of the window
// [SECTION] One frame
// [SECTION] Interactive loop
// [SECTION] Offscreen modes (--screenshot, --frames, --bench-frames)
// [SECTION] main

#include <glad/gl.h>  // before GLFW, so GLFW does not pull in the system GL header
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cfloat>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <future>
#include <memory>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>  // sysconf(_SC_CLK_TCK)

#include <atomic>
#include <cctype>

#include "app_view.h"
#include "data_dirs.h"
#include "headless_gl.h"
#include "warpviz/trace_io.h"
#include "lane_renderer.h"
#include "layout_report.h"
#include "warpviz/view/ui_scale.h"
#include "screenshot.h"
#include "video_export.h"
#include "warpviz/view/svg_export.h"
#include "warpviz/view/settings.h"
#include "warpviz/version.h"
#include "warpviz/view/strings.h"
#include "warpviz/view/user_file_session.h"

using namespace warpviz;
using warpviz::app::AppView;
using warpviz::app::layout_report;

// Milliseconds since the kernel started this process (exec), from
// /proc/self/stat's start time (clock ticks since boot, 10 ms resolution):
// "start to first frame" includes loading the program and its libraries.
// Falls back to 0 (time from main) where /proc is missing.
double ms_since_exec_at_main() {
  std::FILE* stat = std::fopen("/proc/self/stat", "r");
  if (!stat) return 0;
  char buf[1024] = {};
  const size_t n = std::fread(buf, 1, sizeof buf - 1, stat);
  std::fclose(stat);
  // Field 22; the command name (field 2) may hold spaces, so count after its ')'.
  const char* p = std::strrchr(buf, ')');
  if (!p || n == 0) return 0;
  int field = 2;
  while (*p && field < 22)
    if (*p++ == ' ') ++field;
  const double start_ticks = std::strtod(p, nullptr);
  timespec boot{};
  clock_gettime(CLOCK_BOOTTIME, &boot);
  const double now_ms = double(boot.tv_sec) * 1e3 + double(boot.tv_nsec) * 1e-6;
  return std::max(0.0, now_ms - start_ticks * 1e3 / double(sysconf(_SC_CLK_TCK)));
}

// With WARPVIZ_STARTUP_TIMES set, how long after exec each start-up phase
// ended (the "open a trace to first frame" goal is measured with it).
void startup_phase(const char* what) {
  static const bool on = std::getenv("WARPVIZ_STARTUP_TIMES") != nullptr;
  static const double at_main = on ? ms_since_exec_at_main() : 0;
  static const auto main_time = std::chrono::steady_clock::now();
  if (on)
    std::fprintf(stderr, "startup: %7.1f ms  %s\n",
                 at_main + std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - main_time).count(),
                 what);
}

namespace {

// ============================================================================
// [SECTION] Command line
// ============================================================================

constexpr const char* kUsage =
    "usage: warpviz [FILE.wvt|FILE.json|FILE.cu] [options]\n"
    "\n"
    "Shows a trace of CUDA warp-level ops lane by lane: a file, or a scenario run\n"
    "on the CPU emulator (or the GPU). Without a file it runs the last scenario\n"
    "(warp_sum the first time) and starts playing. A .cu file of your own runs on\n"
    "the CPU emulator, and again each time you save it.\n"
    "\n"
    "  --scenario NAME     run this scenario (warpviz-cli list shows them)\n"
    "  --set NAME=VALUE    a scenario parameter; repeatable\n"
    "  --input SPEC        iota, ones, const:X, random:SEED, values:a,b,... or bits:hex,...\n"
    "  --backend B         cpu, cuda or auto (default: the GPU when present)\n"
    "\n"
    "For FILE.cu (as warpviz-cli run takes them):\n"
    "  --kernel NAME       the kernel to launch (default: the file's only one)\n"
    "  --grid X[,Y[,Z]]    blocks (default 1)\n"
    "  --block X[,Y[,Z]]   threads per block (default 32)\n"
    "  --shared BYTES      extern __shared__ memory per block (default 0)\n"
    "  --input [NAME=]SPEC fill the input arrays (or the array NAME); repeatable\n"
    "  --arg NAME=VALUE    a scalar parameter; repeatable\n"
    "  --len NAME=N        an array's length; repeatable\n"
    "  --launch N|NAME     the launch to show first (a whole program's)\n"
    "  --timeout SECONDS   stop a run after this long (default: the setting, 10 s)\n"
    "  -- ARGS...          a whole program's own arguments\n"
    "\n"
    "  --lesson FILE       open a lesson (a TOML file of slides; PageDown/PageUp walk it,\n"
    "                      and it reloads when saved). The built-in one:\n"
    "                      assets/lessons/article.toml\n"
    "  --slide N           with --lesson: start at slide N (1-based)\n"
    "  --lang en|zh        language of the interface\n"
    "  --presentation      lanes and op only, large type\n"
    "  --panel ID          open a panel (cost, paths, bank, ...) whatever the settings say\n"
    "  --size WxH          window size in pixels (default: the last one, or 1600x900)\n"
    "  --step N            show step N (1-based, as the timeline numbers them; warpviz-cli\n"
    "                      dump numbers from 0, so its step K is --step K+1)\n"
    "  --hex               show values as hex bits (as H does)\n"
    "  --zoom Z            zoom the interface (0.5 to 3; Ctrl+= Ctrl+- Ctrl+0; remembered)\n"
    "  --scale S           the monitor's content scale, instead of what it reports (0.5 to 4)\n"
    "  --layout-report OUT.json  with --screenshot: every panel's and text's rectangle, for tests\n"
    "  --screenshot OUT.png  render a few frames, write the window to OUT.png, exit\n"
    "  --frames DIR        write DIR/frame_0000.png ... for the whole trace, 8 per step, exit\n"
    "  --bench-frames N    render N frames without vsync, print the frame CPU time, exit\n"
    "  --offscreen         with --screenshot, --frames, --bench-frames or --export: render\n"
    "                      through a headless EGL context (GPU driver or Mesa), no display\n"
    "                      or window needed (WARPVIZ_EGL_PLATFORM=device|surfaceless|default)\n"
    "  --export OUT        write OUT and exit: .mp4, .webm or .gif (needs ffmpeg), each step\n"
    "                      one second (N steps: N x fps frames); .svg: the --step as vector graphics\n"
    "  --steps A:B         with a video --export: steps A to B (1-based, inclusive; A: or :B)\n"
    "  --fps N             with a video --export: frames per second (default 30)\n"
    "  --help              this text\n"
    "\n"
    "Keys: space play/pause, Left/Right step, Home/End, Up/Down speed, F5 re-run,\n"
    "P pad the shared tile to 33 columns or back (bank, transpose),\n"
    "PageDown/PageUp the next/previous slide of the lesson (the built-in one without --lesson),\n"
    "F11 presentation, H hex, L language, Ctrl+O open, Ctrl+S save, Ctrl+= Ctrl+- Ctrl+0 zoom. A trace file\n"
    "dropped on the window opens. --screenshot and --frames need a display (under\n"
    "Xvfb, xvfb-run -a warpviz --screenshot out.png) or --offscreen.\n";

struct Options {
  std::string file;
  // For a .cu file: its request, and which options were given (a trace file
  // or a scenario takes none of them).
  user::FileRequest file_request;
  std::vector<std::string> inputs;  // every --input, read once the file's kind is known
  std::vector<std::string> file_options;
  std::string launch;
  std::optional<double> timeout;
  ScenarioRequest request;  // scenario empty: the one in the settings
  BackendChoice backend = BackendChoice::Auto;
  std::string screenshot;
  std::string frames_dir;
  std::optional<size_t> step;
  int width = 0, height = 0;  // 0: the saved size
  std::optional<view::Language> language;
  bool presentation = false;
  bool hex = false;  // values as hex bits, as H toggles
  int bench_frames = 0;
  std::optional<float> zoom;           // --zoom: over the saved zoom
  std::optional<float> content_scale;  // --scale: instead of the monitor's (tests, odd monitors)
  std::string layout_report;           // --layout-report: with --screenshot
  std::vector<std::string> panels;     // --panel ID: shown whatever the settings say (e.g. cost)
  std::string export_path;             // --export: video (video_export.h) or SVG
  std::string export_steps;            // --steps A:B, checked once the trace is known
  int fps = app::kDefaultExportFps;
  std::string lesson;                  // --lesson FILE: its slides instead of a file or scenario
  size_t slide = 0;                    // --slide N, 0-based here
  bool headless_gl = false;            // --offscreen: a headless EGL context, no window (headless_gl.h)

  bool offscreen() const {
    return !screenshot.empty() || !frames_dir.empty() || bench_frames > 0 || !export_path.empty();
  }
};

enum class ParseResult { Run, Help, Bad };

template <typename T>
bool parse_number(std::string_view text, T* out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

// The options of a .cu file, into o.file_request (or o.launch, o.timeout).
bool parse_file_option(const std::string& a, const std::string& v, Options& o, std::string& error) {
  user::FileRequest& r = o.file_request;
  std::string why;
  if (a == "--kernel") {
    r.kernel = v;
  } else if (a == "--grid" || a == "--block") {
    if (!view::parse_dims(v, a == "--grid" ? &r.grid : &r.block, &why)) return error = a + " " + why, false;
  } else if (a == "--shared") {
    if (!parse_number(v, &r.shared)) return error = "--shared " + v + ": expected a number of bytes", false;
  } else if (a == "--arg" || a == "--len") {
    std::pair<std::string, std::string> pair;
    if (!view::parse_name_value(v, &pair, &why)) return error = a + " " + why, false;
    (a == "--arg" ? r.args : r.lens).push_back(std::move(pair));
  } else if (a == "--launch") {
    o.launch = v;
  } else if (a == "--timeout") {
    double seconds = 0;
    if (!parse_number(v, &seconds) || !(seconds >= view::kMinTimeLimit) || seconds > view::kMaxTimeLimit)
      return error = "--timeout " + v + ": expected seconds from 0.5 to 3600", false;
    o.timeout = seconds;
  }
  return true;
}

ParseResult parse_args(int argc, char** argv, Options& o, std::string& error) {
  auto value_of = [&](int& i, const std::string& name) -> std::optional<std::string> {
    if (i + 1 >= argc) {
      error = name + " needs a value";
      return std::nullopt;
    }
    return std::string(argv[++i]);
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    std::optional<std::string> v;
    if (a == "--help" || a == "-h") return ParseResult::Help;
    if (a == "--presentation") {
      o.presentation = true;
    } else if (a == "--panel") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      o.panels.push_back(*v);
    } else if (a == "--lesson") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      o.lesson = *v;
    } else if (a == "--slide") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      if (!parse_number(*v, &o.slide) || o.slide == 0) {
        error = "--slide " + *v + ": expected a slide number (1, 2, ...)";
        return ParseResult::Bad;
      }
      --o.slide;
    } else if (a == "--hex") {
      o.hex = true;
    } else if (a == "--scenario") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      o.request.scenario = *v;
    } else if (a == "--set") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      const size_t eq = v->find('=');
      if (eq == std::string::npos || eq == 0) {
        error = "--set " + *v + ": expected NAME=VALUE";
        return ParseResult::Bad;
      }
      o.request.sets.emplace_back(v->substr(0, eq), v->substr(eq + 1));
    } else if (a == "--input") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      o.inputs.push_back(*v);
    } else if (a == "--kernel" || a == "--grid" || a == "--block" || a == "--shared" || a == "--arg" ||
               a == "--len" || a == "--launch" || a == "--timeout") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      if (!parse_file_option(a, *v, o, error)) return ParseResult::Bad;
      o.file_options.push_back(a);
    } else if (a == "--") {
      o.file_request.program_args.assign(argv + i + 1, argv + argc);
      o.file_options.push_back(a);
      break;
    } else if (a == "--backend") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      const auto b = parse_backend(*v);
      if (!b) {
        error = "--backend " + *v + ": expected cpu, cuda or auto";
        return ParseResult::Bad;
      }
      o.backend = *b;
    } else if (a == "--screenshot") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      o.screenshot = *v;
    } else if (a == "--export" || a == "--steps") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      (a == "--export" ? o.export_path : o.export_steps) = *v;
    } else if (a == "--fps") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      if (!parse_number(*v, &o.fps) || o.fps < 1 || o.fps > 120) {
        error = "--fps " + *v + ": expected frames per second from 1 to 120";
        return ParseResult::Bad;
      }
    } else if (a == "--frames") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      o.frames_dir = *v;
    } else if (a == "--step") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      size_t step = 0;
      // 1-based, as the timeline, history and bank panels number steps.
      if (!parse_number(*v, &step) || step == 0) {
        error = "--step " + *v + ": expected a step number (1, 2, ...)";
        return ParseResult::Bad;
      }
      o.step = step - 1;
    } else if (a == "--size") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      const size_t x = v->find('x');
      if (x == std::string::npos || !parse_number(std::string_view(*v).substr(0, x), &o.width) ||
          !parse_number(std::string_view(*v).substr(x + 1), &o.height) || o.width < 64 || o.height < 64 ||
          o.width > 16384 || o.height > 16384) {
        error = "--size " + *v + ": expected WIDTHxHEIGHT in pixels, e.g. 1600x900";
        return ParseResult::Bad;
      }
    } else if (a == "--lang") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      if (*v == "en") {
        o.language = view::Language::English;
      } else if (*v == "zh") {
        o.language = view::Language::Chinese;
      } else {
        error = "--lang " + *v + ": expected en or zh";
        return ParseResult::Bad;
      }
    } else if (a == "--zoom" || a == "--scale") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      float x = 0;
      const bool zoom = a == "--zoom";
      const float lo = zoom ? view::kMinZoom : 0.5f, hi = zoom ? view::kMaxZoom : 4.0f;
      if (!parse_number(*v, &x) || !(x >= lo && x <= hi)) {
        error = a + " " + *v + (zoom ? ": expected a zoom from 0.5 to 3" : ": expected a scale from 0.5 to 4");
        return ParseResult::Bad;
      }
      (zoom ? o.zoom : o.content_scale) = x;
    } else if (a == "--layout-report") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      o.layout_report = *v;
    } else if (a == "--offscreen") {  // ---- --offscreen ----
      o.headless_gl = true;
    } else if (a == "--bench-frames") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      if (!parse_number(*v, &o.bench_frames) || o.bench_frames < 1) {
        error = "--bench-frames " + *v + ": expected a positive number of frames";
        return ParseResult::Bad;
      }
    } else if (a.size() > 1 && a[0] == '-') {
      error = "unknown option " + a;
      return ParseResult::Bad;
    } else if (o.file.empty()) {
      o.file = a;
    } else {
      error = "one trace file at a time (got " + o.file + " and " + a + ")";
      return ParseResult::Bad;
    }
  }
  const bool cuda_file = view::is_cuda_source(o.file);
  if (cuda_file) {
    for (const std::string& input : o.inputs) o.file_request.inputs.push_back(view::parse_input_option(input));
    o.file_request.path = o.file;
  } else if (!o.inputs.empty()) {
    o.request.input = o.inputs.back();  // a scenario's one input, the last given
  }
  if (!o.file.empty() && (!o.request.scenario.empty() || !o.request.sets.empty() || !o.request.input.empty())) {
    error = cuda_file ? "a .cu file is not a scenario: it takes --arg NAME=VALUE, not --scenario/--set"
                      : "a trace file already holds its scenario; give either FILE or --scenario/--set/--input";
    return ParseResult::Bad;
  }
  if (!cuda_file && !o.file_options.empty()) {
    error = o.file_options.front() + " is an option for a .cu file (warpviz FILE.cu " + o.file_options.front() + " ...)";
    return ParseResult::Bad;
  }
  if (!o.lesson.empty() && (!o.file.empty() || !o.request.scenario.empty() || !o.request.sets.empty() ||
                            !o.request.input.empty() || o.step)) {
    error = "a lesson names its slides' files, scenarios and steps; give --lesson alone (with --slide N)";
    return ParseResult::Bad;
  }
  if (o.slide > 0 && o.lesson.empty()) {
    error = "--slide goes with --lesson";
    return ParseResult::Bad;
  }
  if (!o.layout_report.empty() && o.screenshot.empty()) {
    error = "--layout-report goes with --screenshot (it reports that frame)";
    return ParseResult::Bad;
  }
  const app::ExportFormat format = app::export_format(o.export_path);
  if (!o.export_path.empty() && format == app::ExportFormat::Unknown) {
    error = "--export " + o.export_path + ": expected OUT.mp4, OUT.webm, OUT.gif or OUT.svg";
    return ParseResult::Bad;
  }
  if ((!o.export_steps.empty() || o.fps != app::kDefaultExportFps) && !app::is_video(format)) {
    error = "--steps and --fps go with a video --export (OUT.mp4, OUT.webm, OUT.gif)";
    return ParseResult::Bad;
  }
  // ---- --offscreen: only for the runs that render a fixed set of frames ----
  if (o.headless_gl && !o.offscreen()) {
    error = "--offscreen goes with --screenshot, --frames, --bench-frames or --export (it opens no window)";
    return ParseResult::Bad;
  }
  const int modes = !o.screenshot.empty() + !o.frames_dir.empty() + (o.bench_frames > 0) + !o.export_path.empty();
  if (modes > 1) {
    error = "--screenshot, --frames, --bench-frames and --export are separate runs; give one";
    return ParseResult::Bad;
  }
  return ParseResult::Run;
}

// ============================================================================
// [SECTION] Window callbacks
// ============================================================================

// Frames still to draw after an input event: ImGui settles hover, popups and
// layout within a couple of frames, then the loop sleeps until the next event.
constexpr int kFramesAfterInput = 3;

struct WindowState {
  AppView* app = nullptr;
  int frames_wanted = kFramesAfterInput;
  std::string last_glfw_error;
};
WindowState g_window_state;  // GLFW's error callback has no user pointer
// Whether glfwPostEmptyEvent may be called: a .cu file's run thread wakes the
// loop with it, and may finish before the window opens or after it closes.
std::atomic<bool> g_glfw_live{false};

void wake(GLFWwindow*) { g_window_state.frames_wanted = kFramesAfterInput; }

// Set before ImGui's GLFW backend installs its own: it chains to these.
void install_callbacks(GLFWwindow* window) {
  glfwSetCursorPosCallback(window, [](GLFWwindow* w, double, double) { wake(w); });
  glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int, int, int) { wake(w); });
  glfwSetScrollCallback(window, [](GLFWwindow* w, double, double) { wake(w); });
  glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int mods) {
    if (action != GLFW_RELEASE && g_window_state.app)
      g_window_state.app->key_presses.push_back({key, mods, action == GLFW_REPEAT});
    wake(w);
  });
  glfwSetCharCallback(window, [](GLFWwindow* w, unsigned int) { wake(w); });
  glfwSetWindowFocusCallback(window, [](GLFWwindow* w, int) { wake(w); });
  glfwSetCursorEnterCallback(window, [](GLFWwindow* w, int) { wake(w); });
  glfwSetWindowSizeCallback(window, [](GLFWwindow* w, int, int) { wake(w); });
  glfwSetFramebufferSizeCallback(window, [](GLFWwindow* w, int, int) { wake(w); });
  glfwSetWindowRefreshCallback(window, [](GLFWwindow* w) { wake(w); });
  // Moved to a monitor of another scale: the next frame rebuilds the fonts.
  glfwSetWindowContentScaleCallback(window, [](GLFWwindow* w, float x, float) {
    if (g_window_state.app && !g_window_state.app->content_scale_fixed) g_window_state.app->content_scale = x;
    wake(w);
  });
  glfwSetDropCallback(window, [](GLFWwindow* w, int count, const char** paths) {
    // One trace at a time: the first file dropped.
    if (count > 0 && g_window_state.app) g_window_state.app->open_file(paths[0]);
    wake(w);
  });
}

// ============================================================================
// [SECTION] Fonts
// ============================================================================

std::string find_cjk_font() {
  const std::string candidates[] = {
      "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",  // fonts-wqy-microhei
      ::warpviz::app::asset_dir() + "/fonts/wqy-microhei.ttc",
  };
  for (const auto& path : candidates)
    if (std::filesystem::exists(path)) return path;
  return {};
}

// The font atlas, built (every glyph rasterised) by build_fonts. A context of
// its own: it is built on a thread while the window and GL context open, and
// handed to ImGui::CreateContext. The glyph ranges live as long as the atlas.
struct FontBuild {
  std::unique_ptr<ImFontAtlas> atlas = std::make_unique<ImFontAtlas>();
  ImVector<ImWchar> body_ranges, display_ranges, large_ranges;
  app::UiFonts fonts;
  view::FontSizes sizes;
  std::string note;  // why the fallback font is used, if it is
};

// Dear ImGui's own font, when the CJK font is missing: no Chinese glyphs.
void add_default_fonts(FontBuild& b) {
  auto add = [&](float px) {
    ImFontConfig cfg;
    cfg.SizePixels = std::round(px);
    return b.atlas->AddFontDefault(&cfg);
  };
  b.fonts.regular = add(b.sizes.body * 13 / 15);  // ProggyClean is drawn for 13 px
  b.fonts.mono = b.fonts.regular;  // ProggyClean is monospaced already
  b.fonts.large = add(b.sizes.large);
  b.fonts.huge = add(b.sizes.huge);
}

// Body text gets the 2500 common simplified characters (the seeds' comments are
// Chinese); the large and huge display sizes only the UI's own words, so the
// atlas stays small enough to build in a blink.
std::unique_ptr<FontBuild> build_fonts(view::FontSizes sizes, const std::string& extra_text) {
  auto b = std::make_unique<FontBuild>();
  b->sizes = sizes;
  ImFontAtlas& atlas = *b->atlas;
  const std::string path = find_cjk_font();
  if (path.empty()) {
    b->note = "warpviz: /usr/share/fonts/truetype/wqy/wqy-microhei.ttc not found (apt-get install "
              "fonts-wqy-microhei); using Dear ImGui's built-in font, without Chinese glyphs";
    add_default_fonts(*b);
    atlas.Build();
    return b;
  }

  ImFontGlyphRangesBuilder ui_words;
  for (int t = 0; t < int(view::Text::Count); ++t) ui_words.AddText(view::tr(view::Text(t), view::Language::Chinese));
  ui_words.AddText("→←↑↓·×…✓✗");  // marks the panels draw
  // The seed-claim callout quotes the seeds in the large font.
  for (const ScenarioSpec& spec : scenario_specs())
    for (const SeedClaim& claim : spec.seed_claims) ui_words.AddText(claim.text.c_str());

  // The common set lacks some characters the seeds use (迭代, ...): add every
  // character of the kernel sources, the seed claims and the first trace.
  ImFontGlyphRangesBuilder body = ui_words;
  body.AddRanges(atlas.GetGlyphRangesChineseSimplifiedCommon());
  std::string last_path;
  for (const ScenarioSpec& spec : scenario_specs()) {
    if (spec.source_path != last_path) body.AddText(kernel_source_text(spec.source_path).c_str());
    last_path = spec.source_path;
    for (const SeedClaim& claim : spec.seed_claims) body.AddText(claim.text.c_str());
  }
  body.AddText(extra_text.c_str());
  body.BuildRanges(&b->body_ranges);
  ui_words.AddRanges(atlas.GetGlyphRangesDefault());
  ui_words.BuildRanges(&b->display_ranges);
  // Presentation mode shows the current source line in the large face: the
  // kernels' own characters (their Chinese comments) besides the UI's words.
  ImFontGlyphRangesBuilder large_words = ui_words;
  for (const ScenarioSpec& spec : scenario_specs()) large_words.AddText(kernel_source_text(spec.source_path).c_str());
  large_words.AddText(extra_text.c_str());
  large_words.BuildRanges(&b->large_ranges);

  auto add = [&](float px, int face, const ImVector<ImWchar>& ranges, int oversample) {
    ImFontConfig cfg;
    cfg.FontNo = face;  // the .ttc holds Micro Hei (0) and Micro Hei Mono (1)
    // Thousands of CJK glyphs: horizontal oversampling would triple the atlas.
    cfg.OversampleH = oversample;
    cfg.OversampleV = 1;
    return atlas.AddFontFromFileTTF(path.c_str(), px, &cfg, ranges.Data);
  };
  app::UiFonts& fonts = b->fonts;
  fonts.regular = add(sizes.body, 0, b->body_ranges, 1);
  fonts.mono = add(sizes.body, 1, b->body_ranges, 1);
  fonts.large = add(sizes.large, 0, b->large_ranges, sizes.large > 40 ? 1 : 2);
  fonts.huge = add(sizes.huge, 0, b->display_ranges, 1);
  if (!fonts.regular || !fonts.mono || !fonts.large || !fonts.huge || !atlas.Build()) {
    b->note = "warpviz: cannot read " + path + "; using Dear ImGui's built-in font";
    atlas.Clear();
    b->fonts = {};
    add_default_fonts(*b);
    atlas.Build();
  }
  return b;
}

// Whether the body font has a glyph for every character of `text` (a trace
// file's kernel source may use characters no built-in source does).
bool has_every_glyph(const ImFont* font, const std::string& text) {
  ImFontGlyphRangesBuilder used;
  used.AddText(text.c_str());
  for (unsigned c = 0x80; c <= IM_UNICODE_CODEPOINT_MAX; ++c)
    if (used.GetBit(c) && !font->FindGlyphNoFallback(ImWchar(c))) return false;
  return true;
}

// ============================================================================
// [SECTION] Scale: content scale x zoom, fonts and style to match
// ============================================================================

// The font sizes and the panels' scale the app wants now: the content scale
// times the zoom, and in presentation mode what the window's height asks for.
struct WantedScale {
  view::FontSizes fonts;
  float panels = 1;
};

WantedScale wanted_scale(const AppView& app, float window_h) {
  const float ui = view::ui_scale(app.content_scale, app.zoom);
  const float display = app.presentation ? view::presentation_scale(ui, app.zoom, window_h) : ui;
  return {view::font_sizes(ui, display), display};
}

bool operator!=(const view::FontSizes& a, const view::FontSizes& b) {
  return a.body != b.body || a.large != b.large || a.huge != b.huge;
}

// Between frames: a zoom key, a move to a monitor of another scale or a switch
// to presentation mode rebuilds the atlas at the new sizes (Dear ImGui 1.86
// bakes glyphs at one size) and scales a fresh copy of the style.
struct ScaleState {
  std::unique_ptr<FontBuild> fonts;
  ImGuiStyle base_style;  // StyleColorsDark, unscaled
};

void apply_scale(const WantedScale& want, AppView& app, ScaleState& state, bool upload) {
  if (want.fonts != state.fonts->sizes || app.fonts_stale) {
    app.fonts_stale = false;  // a lesson's captions are in font_text()
    std::unique_ptr<FontBuild> rebuilt = build_fonts(want.fonts, app.font_text());
    ImGui::GetIO().Fonts = rebuilt->atlas.get();
    if (upload) {
      ImGui_ImplOpenGL3_DestroyFontsTexture();
      ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    app.fonts = rebuilt->fonts;
    state.fonts = std::move(rebuilt);  // the old atlas goes once nothing points at it
  }
  if (want.panels != app.dpi_scale || upload == false) {
    app.dpi_scale = want.panels;
    ImGui::GetStyle() = state.base_style;
    ImGui::GetStyle().ScaleAllSizes(want.panels);
  }
}

ScaleState* g_scale = nullptr;  // main's, for render_frame

// ============================================================================
// [SECTION] --offscreen: the headless EGL context in place of the window
// ============================================================================
// With --offscreen there is no GLFW at all (no glfwInit, window is null): the
// frame and the offscreen modes ask these for what they would ask the window
// (its size, its events, the swap), and the headless context answers.

app::HeadlessGl* g_headless = nullptr;  // main's, set with --offscreen

void framebuffer_size(GLFWwindow* window, int* w, int* h) {
  if (window) return glfwGetFramebufferSize(window, w, h);
  *w = g_headless->width();
  *h = g_headless->height();
}

// Headless, a window unit is one pixel: content scale 1 unless --scale says.
void window_size(GLFWwindow* window, int* w, int* h) {
  if (window) return glfwGetWindowSize(window, w, h);
  framebuffer_size(window, w, h);
}

void poll_events(GLFWwindow* window) {
  if (window) glfwPollEvents();
}

void present(GLFWwindow* window) {
  if (window) return glfwSwapBuffers(window);
  g_headless->present();
}

// What ImGui_ImplGlfw_NewFrame sets, by hand: the display's size and scale
// and the time step (a fixed one where the caller has none, as captures do).
void headless_new_frame(double dt) {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(float(g_headless->width()), float(g_headless->height()));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  io.DeltaTime = dt > 0 ? float(dt) : 1.0f / 60;
}

// The context, current on this thread, or null after saying why on stderr.
std::unique_ptr<app::HeadlessGl> open_headless(int width, int height) {
  std::string error;
  std::unique_ptr<app::HeadlessGl> gl = app::HeadlessGl::open(width, height, &error);
  if (!gl) {
    std::fprintf(stderr, "warpviz: --offscreen: %s\n", error.c_str());
    return nullptr;
  }
  std::fprintf(stderr, "warpviz: --offscreen: GL_RENDERER %s; GL_VERSION %s; %s\n", gl->gl_renderer().c_str(),
               gl->gl_version().c_str(), gl->egl_description().c_str());
  return gl;
}

// ============================================================================
// [SECTION] One frame
// ============================================================================

// Builds and submits one frame (no swap: --screenshot reads the back buffer
// first). Returns whether the app's state changed (playback moved).
// Where a frame's CPU time goes: building the UI (the panels, the lane
// renderer's GL calls included) and submitting ImGui's draw lists.
struct FrameTimes {
  double ui_ms = 0, submit_ms = 0;
};

bool render_frame(GLFWwindow* window, AppView& app, double dt, bool ignore_pointer, FrameTimes* times = nullptr) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  if (g_scale) {
    int w = 0, h = 0;
    window_size(window, &w, &h);
    apply_scale(wanted_scale(app, float(h)), app, *g_scale, true);
  }
  layout_report().begin_frame();
  ImGui_ImplOpenGL3_NewFrame();
  if (window)
    ImGui_ImplGlfw_NewFrame();
  else
    headless_new_frame(dt);
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

  int fb_w = 0, fb_h = 0;
  framebuffer_size(window, &fb_w, &fb_h);
  if (!window) g_headless->bind();
  glViewport(0, 0, fb_w, fb_h);
  glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (times) {
    times->ui_ms = std::chrono::duration<double, std::milli>(built - start).count();
    times->submit_ms = std::chrono::duration<double, std::milli>(clock::now() - built).count();
  }
  return changed;
}

// ============================================================================
// [SECTION] Interactive loop
// ============================================================================

struct WindowedGeometry {
  int x = 0, y = 0, w = 0, h = 0;
};

// Presentation mode takes the whole monitor; leaving it restores the window.
void set_fullscreen(GLFWwindow* window, bool on, WindowedGeometry& windowed) {
  if (on) {
    glfwGetWindowPos(window, &windowed.x, &windowed.y);
    glfwGetWindowSize(window, &windowed.w, &windowed.h);
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    if (mode) glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else if (glfwGetWindowMonitor(window)) {
    glfwSetWindowMonitor(window, nullptr, windowed.x, windowed.y, windowed.w, windowed.h, 0);
  }
}

// File > Export… as it runs: one frame a loop, rendered without the export
// window and piped to ffmpeg, then the loop's own frame shows the progress
// (rendering in the loop keeps the window live and Cancel clickable).
struct ExportRun {
  app::VideoExport video;
  std::vector<double> positions;
  bool saved_presentation = false;
  double saved_position = 0;
};

void note(AppView& app, const std::string& text) {
  app.rerun_note = text;
  app.rerun_note_until = ImGui::GetTime() + 8;
}

void step_export(GLFWwindow* window, AppView& app, ExportRun& run) {
  AppView::ExportState& e = app.export_state;
  std::string error;
  if (e.start_request) {
    e.start_request = false;
    size_t first = 0, last = app.playback.step_count() - 1;
    if (!e.steps.empty() && !app::parse_step_range(e.steps, app.playback.step_count(), &first, &last, &error))
      return void(app.error_message = error);
    int w = 0, h = 0;
    glfwGetFramebufferSize(window, &w, &h);
    if (!run.video.start(e.path, w, h, e.fps, &error)) return void(app.error_message = error);
    run.positions = app::export_frame_positions(first, last, e.fps);
    run.saved_presentation = app.presentation;
    run.saved_position = app.playback.position();
    app.playback.pause();
    app.presentation = e.presentation;
    e.running = true;
    e.cancel_request = false;
    e.frames_done = 0;
    e.frame_count = run.positions.size();
  }
  if (!e.running) return;
  const auto end = [&](const std::string& what) {
    app.presentation = run.saved_presentation;
    app.playback.scrub(run.saved_position);
    e.running = false;
    if (!what.empty()) note(app, what);
  };
  if (e.cancel_request) {
    run.video.cancel();
    return end(app.tr("export cancelled", "导出已取消"));
  }
  if (e.frames_done < run.positions.size()) {
    app.playback.scrub(run.positions[e.frames_done]);
    e.capturing = true;
    render_frame(window, app, 0.0, true);
    e.capturing = false;
    if (!run.video.add_back_buffer(&error)) {
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
  g_window_state.frames_wanted = std::max(g_window_state.frames_wanted, kFramesAfterInput);
}

// Ctrl+Shift+S: the frame just rendered, to a timestamped PNG.
void save_window_png(GLFWwindow* window, AppView& app) {
  app.png_request = false;
  int w = 0, h = 0;
  glfwGetFramebufferSize(window, &w, &h);
  const std::string path = app.png_path();
  std::string error;
  if (app::save_back_buffer_png(w, h, path, &error))
    note(app, app.tr("wrote ", "已写入 ") + std::filesystem::absolute(path).string());
  else
    app.error_message = error;
}

void run_interactive(GLFWwindow* window, AppView& app) {
  ExportRun export_run;
  WindowedGeometry windowed;
  bool fullscreen = false;
  if (app.presentation) {
    set_fullscreen(window, true, windowed);
    fullscreen = true;
  }
  double last = glfwGetTime();
  while (!glfwWindowShouldClose(window) && !app.quit_requested) {
    const bool busy = app.playback.playing() || g_window_state.frames_wanted > 0;
    if (busy) {
      glfwPollEvents();
    } else {
      // Idle: sleep until an event; the timeout keeps a text cursor blinking
      // and, with a .cu file open, checks it for a save five times a second.
      glfwWaitEventsTimeout(app.user_file ? view::UserFileSession::kPollInterval.count() / 1000.0 : 0.5);
    }
    if (glfwGetWindowAttrib(window, GLFW_ICONIFIED)) {
      glfwWaitEvents();  // nothing to show while minimised
      continue;
    }
    const double now = glfwGetTime();
    const double dt = std::min(now - last, 0.1);  // a long stall must not skip steps
    last = now;
    if (app.poll_user_file()) g_window_state.frames_wanted = std::max(g_window_state.frames_wanted, kFramesAfterInput);
    const bool woken = app.playback.playing() || g_window_state.frames_wanted > 0;
    if (!woken && !ImGui::GetIO().WantTextInput) continue;

    step_export(window, app, export_run);
    const bool changed = render_frame(window, app, dt, false);
    if (app.png_request) save_window_png(window, app);
    glfwSwapBuffers(window);
    if (g_window_state.frames_wanted > 0) --g_window_state.frames_wanted;
    if (changed) g_window_state.frames_wanted = std::max(g_window_state.frames_wanted, 2);
    if (app.presentation != fullscreen && !app.export_state.running) {  // an export keeps the window's size
      fullscreen = app.presentation;
      set_fullscreen(window, fullscreen, windowed);
      g_window_state.frames_wanted = kFramesAfterInput;
    }
  }
  if (fullscreen) set_fullscreen(window, false, windowed);
}

// ============================================================================
// [SECTION] Offscreen modes (--screenshot, --frames, --bench-frames)
// ============================================================================

// Frames drawn before the first capture: ImGui sizes auto-fit windows and
// uploads the font atlas on the first one.
constexpr int kWarmupFrames = 2;
constexpr int kFramesPerStep = 8;

bool capture(GLFWwindow* window, const std::string& path) {
  int w = 0, h = 0;
  framebuffer_size(window, &w, &h);
  std::string error;
  if (!app::save_back_buffer_png(w, h, path, &error)) {
    std::fprintf(stderr, "warpviz: %s\n", error.c_str());
    return false;
  }
  return true;
}

int run_screenshot(GLFWwindow* window, AppView& app, const std::string& path, const std::string& report_path) {
  for (int i = 0; i <= kWarmupFrames; ++i) {
    poll_events(window);
    render_frame(window, app, 0.0, true);
    if (i == kWarmupFrames && !capture(window, path)) return 1;
    if (i == kWarmupFrames && !report_path.empty()) {
      std::string error;
      layout_report().ui_scale = app.dpi_scale;
      if (!layout_report().write(report_path, &error)) {
        std::fprintf(stderr, "warpviz: %s\n", error.c_str());
        return 1;
      }
      std::printf("wrote %s\n", report_path.c_str());
    }
    present(window);
    if (i == 0) {
      glFinish();  // on screen, not merely submitted
      startup_phase("first frame");
    }
  }
  std::printf("wrote %s\n", path.c_str());
  return 0;
}

int run_frames(GLFWwindow* window, AppView& app, const std::string& dir) {
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
    poll_events(window);
    render_frame(window, app, 0.0, true);
    present(window);
  }
  for (size_t frame = 0; frame < total; ++frame) {
    poll_events(window);
    app.playback.scrub(double(frame) / kFramesPerStep);
    render_frame(window, app, 0.0, true);
    char name[32];
    std::snprintf(name, sizeof name, "frame_%04zu.png", frame);
    if (!capture(window, (std::filesystem::path(dir) / name).string())) return 1;
    present(window);
  }
  std::printf("wrote %zu frames to %s\n", total, dir.c_str());
  return 0;
}

// --export OUT.mp4|webm|gif: the steps' frames (export_frame_positions),
// each rendered as --frames renders them and piped to ffmpeg.
int run_export(GLFWwindow* window, AppView& app, const Options& opt) {
  const size_t steps = app.playback.step_count();
  if (steps == 0) {
    std::fprintf(stderr, "warpviz: --export %s: the trace has no steps to animate\n", opt.export_path.c_str());
    return 2;
  }
  size_t first = 0, last = steps - 1;
  std::string error;
  if (!opt.export_steps.empty() && !app::parse_step_range(opt.export_steps, steps, &first, &last, &error)) {
    std::fprintf(stderr, "warpviz: %s\n", error.c_str());
    return 2;
  }
  for (int i = 0; i < kWarmupFrames; ++i) {
    poll_events(window);
    render_frame(window, app, 0.0, true);
    present(window);
  }
  int w = 0, h = 0;
  framebuffer_size(window, &w, &h);
  app::VideoExport video;
  if (!video.start(opt.export_path, w, h, opt.fps, &error)) {
    std::fprintf(stderr, "warpviz: %s\n", error.c_str());
    return 1;
  }
  const std::vector<double> positions = app::export_frame_positions(first, last, opt.fps);
  for (const double position : positions) {
    poll_events(window);
    app.playback.scrub(position);
    render_frame(window, app, 0.0, true);
    if (!video.add_back_buffer(&error)) {
      std::fprintf(stderr, "warpviz: %s\n", error.c_str());
      return 1;
    }
    present(window);
  }
  if (!video.finish(&error)) {
    std::fprintf(stderr, "warpviz: %s\n", error.c_str());
    return 1;
  }
  std::printf("wrote %s: steps %zu to %zu, %zu frames at %d fps, %dx%d\n", opt.export_path.c_str(), first + 1,
              last + 1, positions.size(), opt.fps, w, h);
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
    std::fprintf(stderr, "warpviz: --step %zu: the trace has %zu steps (1 to %zu)\n", position + 1,
                 app.playback.step_count(), app.playback.step_count());
    return 2;
  }
  view::SvgOptions options;
  options.width = opt.width > 0 ? float(opt.width) : options.width;
  options.hex = app.hex;
  options.high_contrast = app.presentation;
  options.language = app.language;
  std::string error;
  if (!app::write_step_svg(app.trace, app.playback.order(), position, options, opt.export_path, &error)) {
    std::fprintf(stderr, "warpviz: %s\n", error.c_str());
    return 1;
  }
  std::printf("wrote %s\n", opt.export_path.c_str());
  return 0;
}

// CPU time of the calling thread, or of the whole process, in ms.
double cpu_ms(clockid_t which) {
  timespec ts{};
  clock_gettime(which, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

// Each frame, swap included, three ways: wall time; the CPU time of the app's
// own thread (building the UI, issuing GL calls; with Mesa's llvmpipe also its
// vertex processing and binning, and the copy to the X server); and the CPU
// time of the rest of the process, which under llvmpipe is its rasteriser
// threads filling pixels: the work a GPU does on a real driver.
int run_bench(GLFWwindow* window, AppView& app, int frames) {
  using clock = std::chrono::steady_clock;
  constexpr double kFrameSeconds = 1.0 / 60;  // simulated frame time: the same animation on every machine
  app.playback.play();
  std::vector<double> wall_ms, thread_ms, raster_ms, ui_ms, submit_ms;
  long vertices = 0, indices = 0, commands = 0;
  for (int i = 0; i < kWarmupFrames + frames; ++i) {
    poll_events(window);
    if (!app.playback.playing()) {  // loop the trace so every frame animates
      app.playback.jump_to_start();
      app.playback.play();
    }
    FrameTimes parts;
    const auto t0 = clock::now();
    const double thread0 = cpu_ms(CLOCK_THREAD_CPUTIME_ID), process0 = cpu_ms(CLOCK_PROCESS_CPUTIME_ID);
    render_frame(window, app, kFrameSeconds, true, &parts);
    present(window);
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
  int w = 0, h = 0;
  framebuffer_size(window, &w, &h);
  std::printf("%d frames at %d×%d, animation playing, every panel open; GL: %s\n", frames, w, h,
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

}  // namespace

// ============================================================================
// [SECTION] main
// ============================================================================

int main(int argc, char** argv) {
  startup_phase("main");
  Options opt;
  std::string error;
  switch (parse_args(argc, argv, opt, error)) {
    case ParseResult::Help: std::fputs(kUsage, stdout); return 0;
    case ParseResult::Bad: std::fprintf(stderr, "warpviz: %s (warpviz --help lists the options)\n", error.c_str()); return 2;
    case ParseResult::Run: break;
  }

  const app::ExportFormat export_format = app::export_format(opt.export_path);
  if (app::is_video(export_format) && app::find_on_path("ffmpeg").empty()) {
    std::fprintf(stderr, "warpviz: %s\n", app::ffmpeg_missing_message(opt.export_path).c_str());
    return 2;
  }
  auto no_display = [&](const std::string& why) {
    if (opt.offscreen())
      std::fprintf(stderr, "warpviz: no display (%s) to render into; run it under Xvfb: xvfb-run -a warpviz ... %s\n",
                   why.c_str(), !opt.screenshot.empty() ? "--screenshot OUT.png" : !opt.frames_dir.empty() ? "--frames DIR"
                   : !opt.export_path.empty() ? "--export OUT" : "--bench-frames N");
    else
      std::fprintf(stderr, "warpviz: no display (%s); use --screenshot OUT.png under Xvfb, or warpviz-cli\n", why.c_str());
    return 2;
  };
  const char* x_display = std::getenv("DISPLAY");
  const char* wayland_display = std::getenv("WAYLAND_DISPLAY");
  const bool svg_export = export_format == app::ExportFormat::Svg;  // no window needed
  if (!svg_export && !opt.headless_gl && !(x_display && *x_display) && !(wayland_display && *wayland_display))
    return no_display("DISPLAY is not set");

  // Offscreen runs are reproducible: the saved settings neither apply nor change.
  const std::string settings_path = view::default_settings_path();
  view::AppSettings settings;
  if (!opt.offscreen()) {
    std::string warning;
    settings = view::load_settings(settings_path, &warning);
    if (!warning.empty()) std::fprintf(stderr, "warpviz: %s\n", warning.c_str());
  }
  if (opt.language) settings.language = *opt.language == view::Language::Chinese ? "zh" : "en";
  if (opt.width > 0) {
    settings.window_w = opt.width;
    settings.window_h = opt.height;
  }

  // The first trace. A file loads on a thread of its own while the window and
  // GL context open (both take a few hundred ms for a big trace); a scenario
  // runs here. A bad file or scenario is an argument error either way.
  if (opt.zoom) settings.zoom = *opt.zoom;
  AppView app(settings);
  app.zoom = float(settings.zoom);
  app.content_scale_fixed = opt.content_scale.has_value();
  app.presentation = opt.presentation;
  app.hex = opt.hex;
  for (const std::string& id : opt.panels) {
    bool known = false;
    for (auto [panel_id, shown] : app.panels.by_id())
      if (id == panel_id) *shown = known = true;
    if (!known) {
      std::fprintf(stderr, "warpviz: --panel %s: no such panel (lanes, timeline, source, history, votes, block, "
                           "scenario, bank, paths, cost)\n", id.c_str());
      return 2;
    }
  }
  app.wake_loop = [] {
    if (g_glfw_live) glfwPostEmptyEvent();
  };
  std::future<Trace> pending_file;
  if (!opt.lesson.empty()) {
    if (!app.open_lesson(opt.lesson, opt.slide)) {  // names the file, line and field
      std::fprintf(stderr, "warpviz: %s\n", app.error_message.c_str());
      return 2;
    }
  } else if (view::is_cuda_source(opt.file)) {
    // Runs on the session's thread while the window opens; the place waits
    // for the run (--launch, --step).
    user::FileRequest request = opt.file_request;
    request.time_limit_s = opt.timeout.value_or(settings.time_limit_s);
    view::FilePlace place;
    if (!opt.launch.empty() && std::all_of(opt.launch.begin(), opt.launch.end(), ::isdigit))
      parse_number(opt.launch, &place.launch);
    else
      place.kernel = opt.launch;
    place.step = opt.step.value_or(0);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(opt.file, ec)) {
      std::fprintf(stderr, "warpviz: %s: no such file\n", opt.file.c_str());
      return 2;
    }
    app.open_user_file(std::move(request), std::move(place));
  } else if (!opt.file.empty()) {
    pending_file = std::async(std::launch::async, [path = opt.file] { return warpviz::load_trace(path); });
  } else {
    ScenarioRequest request = opt.request;
    if (request.scenario.empty())
      request.scenario = find_scenario(settings.scenario) ? settings.scenario : std::string("warp_sum");
    if (!app.run_scenario(request, opt.backend)) {
      std::fprintf(stderr, "warpviz: %s\n", app.error_message.c_str());
      return 2;
    }
  }

  if (svg_export) {
    const int svg_rc = run_svg_export(app, opt, pending_file);
    app.close_user_file();
    return svg_rc;
  }

  // --- Window: GL 3.3 core, as the shaders and ImGui's backend expect --------
  glfwSetErrorCallback([](int, const char* description) { g_window_state.last_glfw_error = description; });
  // ---- --offscreen: a headless EGL context in place of the window; GLFW is
  // never initialised, so no display is needed ----
  std::unique_ptr<app::HeadlessGl> headless;
  GLFWwindow* window = nullptr;
  std::future<std::unique_ptr<FontBuild>> pending_fonts;
  if (opt.headless_gl) {
    app.content_scale = opt.content_scale.value_or(1.0f);
    pending_fonts = std::async(std::launch::async, build_fonts, wanted_scale(app, float(settings.window_h)).fonts,
                               app.font_text());
    if (!(headless = open_headless(settings.window_w, settings.window_h))) {
      app.close_user_file();
      return 1;
    }
    g_headless = headless.get();
  } else {  // ---- end --offscreen ----
    if (!glfwInit())
      return no_display(g_window_state.last_glfw_error.empty() ? "glfwInit failed" : g_window_state.last_glfw_error);
    g_glfw_live = true;
    // Glyphs are rasterised on a thread while the window and GL context open, at
    // the monitor's scale (the window's is checked once it exists).
    float monitor_scale = 1, unused_scale_y = 1;
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) glfwGetMonitorContentScale(monitor, &monitor_scale, &unused_scale_y);
    app.content_scale = opt.content_scale.value_or(std::max(1.0f, monitor_scale));
    pending_fonts =
        std::async(std::launch::async, build_fonts, wanted_scale(app, float(settings.window_h)).fonts,
                   app.font_text());
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);  // macOS requires it; harmless elsewhere
    if (opt.offscreen()) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
    window = glfwCreateWindow(settings.window_w, settings.window_h, "warpviz", nullptr, nullptr);
    if (!window) {
      std::fprintf(stderr, "warpviz: cannot open an OpenGL 3.3 core window: %s\n", g_window_state.last_glfw_error.c_str());
      app.close_user_file();
      g_glfw_live = false;
      glfwTerminate();
      return 1;
    }
    glfwMakeContextCurrent(window);
    if (!gladLoadGL(glfwGetProcAddress)) {
      std::fprintf(stderr, "warpviz: cannot load the OpenGL 3.3 functions\n");
      glfwDestroyWindow(window);
      app.close_user_file();
      g_glfw_live = false;
      glfwTerminate();
      return 1;
    }
    glfwSwapInterval(opt.offscreen() ? 0 : 1);  // vsync, except where frames are timed or captured
  }
  startup_phase("window and GL context");
  bool file_failed = false;  // a trace file from the command line that did not load
  if (pending_file.valid()) {
    try {
      app.show_file_trace(pending_file.get(), opt.file);
      view::remember_recent_file(app.settings, opt.file);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "warpviz: %s\n", e.what());  // TraceFileError names the file and the problem
      if (!opt.frames_dir.empty() || opt.bench_frames > 0 || !opt.export_path.empty()) {  // nothing to animate
        if (window) glfwDestroyWindow(window);  // null with --offscreen
        app.close_user_file();
        g_glfw_live = false;
        glfwTerminate();
        return 2;
      }
      // A window to put it right in: the error, then File > Open at that path.
      // A --screenshot shows the error and still exits 2, so scripts notice.
      file_failed = true;
      app.error_message = e.what();
      app.file_dialog_request = AppView::FileDialog::Open;
      app.file_dialog_start_path = opt.file;
    }
  }
  if (app.user_file && opt.offscreen()) {
    // A screenshot of a .cu file is of its finished run (or its errors).
    if (!app.user_file->wait_until_settled(app.user_file->request().time_limit_s + 300))
      std::fprintf(stderr, "warpviz: %s is still compiling or running; the capture shows it so\n", opt.file.c_str());
    app.poll_user_file();
  }
  startup_phase("trace loaded (or scenario run)");
  if (opt.step && !app.user_file && !file_failed) {
    if (*opt.step >= app.playback.step_count()) {
      std::fprintf(stderr, "warpviz: --step %zu: the trace has %zu steps (1 to %zu)\n", *opt.step + 1,
                   app.playback.step_count(), app.playback.step_count());
      if (window) glfwDestroyWindow(window);  // null with --offscreen
      app.close_user_file();
      g_glfw_live = false;
      glfwTerminate();
      return 2;
    }
    app.playback.seek_position(*opt.step);  // as the timeline numbers steps: in play order
  }
  float scale_x = 1, scale_y = 1;
  if (window) glfwGetWindowContentScale(window, &scale_x, &scale_y);  // --offscreen: 1
  if (!opt.content_scale) app.content_scale = std::max(1.0f, scale_x);
  int window_w = 0, window_h = 0;
  window_size(window, &window_w, &window_h);
  const WantedScale want = wanted_scale(app, float(window_h));
  app.dpi_scale = want.panels;
  g_window_state.app = &app;
  if (window) install_callbacks(window);

  // --- Dear ImGui --------------------------------------------------------------
  // Built again only if the window's scale is not the monitor's, or a trace
  // file's source (unknown when the build started) needs glyphs it lacks.
  std::unique_ptr<FontBuild> font_build = pending_fonts.get();
  const bool file_needs_glyphs = !opt.file.empty() && font_build->note.empty() &&
                                 !has_every_glyph(font_build->fonts.regular, app.font_text());
  if (font_build->sizes != want.fonts || file_needs_glyphs)
    font_build = build_fonts(want.fonts, app.font_text());
  if (!font_build->note.empty()) std::fprintf(stderr, "%s\n", font_build->note.c_str());
  app.fonts = font_build->fonts;
  app.fonts_stale = false;  // built with the lesson's captions already
  startup_phase("fonts");
  IMGUI_CHECKVERSION();
  ImGui::CreateContext(font_build->atlas.get());
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout lives in settings.json with the rest
  ScaleState scale_state;
  ImGui::StyleColorsDark(&scale_state.base_style);
  scale_state.fonts = std::move(font_build);
  apply_scale(want, app, scale_state, false);  // the style; the fonts are built already
  g_scale = &scale_state;
  layout_report().enabled = !opt.layout_report.empty();

  if (app.settings.imgui_layout.empty()) {
    int w = 0, h = 0;
    window_size(window, &w, &h);
    const std::string layout = app.first_use_layout(float(w), float(h));
    ImGui::LoadIniSettingsFromMemory(layout.data(), layout.size());
  } else {
    ImGui::LoadIniSettingsFromMemory(app.settings.imgui_layout.data(), app.settings.imgui_layout.size());
  }
  if (window) ImGui_ImplGlfw_InitForOpenGL(window, true);  // --offscreen: headless_new_frame
  ImGui_ImplOpenGL3_Init("#version 330 core");

  int rc = 0;
  if (!opt.screenshot.empty()) {
    rc = run_screenshot(window, app, opt.screenshot, opt.layout_report);
    if (file_failed && rc == 0) rc = 2;
  } else if (!opt.frames_dir.empty()) {
    rc = run_frames(window, app, opt.frames_dir);
  } else if (opt.bench_frames > 0) {
    rc = run_bench(window, app, opt.bench_frames);
  } else if (!opt.export_path.empty()) {
    rc = file_failed ? 2 : run_export(window, app, opt);
  } else {
    if (!opt.step && opt.lesson.empty()) app.playback.play();  // a lesson starts on its slide's step
    run_interactive(window, app);
    app.settings.imgui_layout = ImGui::SaveIniSettingsToMemory();
    glfwGetWindowSize(window, &app.settings.window_w, &app.settings.window_h);
    app.settings.language = app.language == view::Language::Chinese ? "zh" : "en";
    app.settings.speed = app.playback.speed();
    app.settings.zoom = app.zoom;
    for (auto [id, shown] : app.panels.by_id()) app.settings.panels[id] = *shown;  // menu items, close buttons
    if (find_scenario(app.last_request.scenario)) app.settings.scenario = app.last_request.scenario;
    std::string save_error;
    if (!view::save_settings(app.settings, settings_path, &save_error))
      std::fprintf(stderr, "warpviz: settings not saved: %s\n", save_error.c_str());
  }

  // GL objects go while their context still exists; a run in flight stops
  // before GLFW, which its thread wakes, goes.
  g_window_state.app = nullptr;
  app.close_user_file();
  g_glfw_live = false;
  app.lane_renderer.reset();
  ImGui_ImplOpenGL3_Shutdown();
  if (window) ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  g_scale = nullptr;  // its atlas outlived the context that used it
  if (window) {
    glfwDestroyWindow(window);
    glfwTerminate();
  }
  g_headless = nullptr;  // --offscreen: the context goes with `headless`
  return rc;
}
