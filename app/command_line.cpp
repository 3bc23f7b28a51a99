#include "command_line.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <charconv>
#include <iterator>
#include <string_view>

#include "panel_table.h"
#include "warpviz/view/run_options.h"
#include "warpviz/view/settings.h"
#include "warpviz/view/ui_scale.h"
#include "warpviz/view/user_file_session.h"

namespace warpviz::app {

namespace {
// {panel ids}: filled in by usage_text().
const char* const kUsage =
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
    "  --lesson FILE|NAME  open a lesson (a TOML file of slides; PageDown/PageUp walk it,\n"
    "                      and it reloads when saved), or a built-in one by name:\n"
    "                      --lesson article (the app's assets/lessons/article.toml)\n"
    "  --slide N           with --lesson: start at slide N (1-based)\n"
    "  --trust-lesson      with --lesson: run its .cu files without asking (scripts, tests);\n"
    "                      without it a lesson that runs .cu files asks first\n"
    "  --lang en|zh        language of the interface\n"
    "  --presentation      lanes and op only, large type\n"
    "  --panel ID          open a panel whatever the settings say; repeatable. The panels:\n"
    "                      {panel ids}\n"
    "  --size WxH          window size in pixels (default: the last one, or 1600x900)\n"
    "  --step N            show step N (1-based, as the timeline numbers them; warpviz-cli\n"
    "                      dump numbers from 0, so its step K is --step K+1)\n"
    "  --hex               show values as hex bits (as H does)\n"
    "  --zoom Z            zoom the interface (0.5 to 3; Ctrl+= Ctrl+- Ctrl+0; remembered)\n"
    "  --scale S           the monitor's content scale, instead of what it reports (0.5 to 4)\n"
    "  --layout-report OUT.json  with --screenshot: every panel's and text's rectangle, for tests\n"
    "  --keys K,K,...      with --screenshot: press these keys first, as the keyboard does (tests):\n"
    "                      Right Left Home End Up Down PageDown PageUp Space H P L\n"
    "  --screenshot OUT.png  render a few frames, write the window to OUT.png, exit\n"
    "  --frames DIR        write DIR/frame_0000.png ... for the whole trace, 8 per step, exit\n"
    "  --bench-frames N    render N frames without vsync, print the frame CPU time, exit\n"
    "  --export OUT        write OUT and exit: .mp4, .webm or .gif (needs ffmpeg), each step\n"
    "                      one second (N steps: N x fps frames; a watch rests with its round);\n"
    "                      .svg: the --step as vector graphics\n"
    "  --steps A:B         with a video --export: steps A to B (1-based, inclusive; A: or :B)\n"
    "  --fps N             with a video --export: frames per second (default 30)\n"
    "  --offscreen         with --screenshot, --frames, --bench-frames or --export: render\n"
    "                      through a headless EGL context (GPU driver or Mesa), no display\n"
    "                      or window needed (WARPVIZ_EGL_PLATFORM=device|surfaceless|default)\n"
    "  --help              this text\n"
    "\n"
    "Keys: space play/pause, Left/Right step, Home/End, Up/Down speed, F5 re-run,\n"
    "P pad the shared tile to 33 columns or back (bank, transpose),\n"
    "PageDown/PageUp the next/previous slide of the lesson (the built-in one without --lesson),\n"
    "F11 presentation, H hex, L language, Ctrl+O open, Ctrl+S save, Ctrl+= Ctrl+- Ctrl+0 zoom. A trace file\n"
    "dropped on the window opens. --screenshot and --frames need a display (under\n"
    "Xvfb, xvfb-run -a warpviz --screenshot out.png) or --offscreen.\n";
}  // namespace

std::string usage_text() {
  std::string text = kUsage;
  const std::string marker = "{panel ids}";
  text.replace(text.find(marker), marker.size(), panel_ids());  // from the panel list, never out of date
  return text;
}

namespace {

template <typename T>
bool parse_number(std::string_view text, T* out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

// The options of a .cu file that only the app takes as it does: --launch
// (the launch shown first) and --timeout (within the setting's range). The
// rest went through view::take_file_option.
bool parse_app_file_option(const std::string& a, const std::string& v, Options& o, std::string& error) {
  if (a == "--launch") {
    o.launch = v;
  } else if (a == "--timeout") {
    double seconds = 0;
    if (!parse_number(v, &seconds) || !(seconds >= view::kMinTimeLimit) || seconds > view::kMaxTimeLimit)
      return error = "--timeout " + v + ": expected seconds from 0.5 to 3600", false;
    o.timeout = seconds;
  }
  return true;
}

}  // namespace

bool parse_count(const std::string& text, size_t* out) { return parse_number(text, out); }

namespace {

// --keys: the keys a test may press, by the names the README's key list uses.
struct NamedKey {
  const char* name;
  int code;
};
constexpr NamedKey kNamedKeys[] = {
    {"Right", GLFW_KEY_RIGHT}, {"Left", GLFW_KEY_LEFT},           {"Home", GLFW_KEY_HOME},
    {"End", GLFW_KEY_END},     {"Up", GLFW_KEY_UP},               {"Down", GLFW_KEY_DOWN},
    {"PageDown", GLFW_KEY_PAGE_DOWN}, {"PageUp", GLFW_KEY_PAGE_UP}, {"Space", GLFW_KEY_SPACE},
    {"H", GLFW_KEY_H},         {"P", GLFW_KEY_P},                 {"L", GLFW_KEY_L},
};

bool parse_keys(const std::string& text, std::vector<int>* keys, std::string* error) {
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string name = text.substr(start, comma - start);
    const auto known = std::find_if(std::begin(kNamedKeys), std::end(kNamedKeys),
                                    [&](const NamedKey& k) { return name == k.name; });
    if (known == std::end(kNamedKeys)) {
      std::string names;
      for (const NamedKey& k : kNamedKeys) names += std::string(names.empty() ? "" : " ") + k.name;
      *error = "--keys " + text + ": '" + name + "' is not a key (" + names + ")";
      return false;
    }
    keys->push_back(known->code);
    start = comma + 1;
  }
  return true;
}

}  // namespace

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
    } else if (a == "--offscreen") {
      o.headless_gl = true;
    } else if (a == "--panel") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      o.panels.push_back(*v);
    } else if (a == "--lesson") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      o.lesson = *v;
    } else if (a == "--trust-lesson") {
      o.trust_lesson = true;
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
      if (view::take_scenario_option(a, *v, &o.request, &error) == view::RunOption::Bad) return ParseResult::Bad;
    } else if (a == "--input") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      o.inputs.push_back(*v);
    } else if (a == "--kernel" || a == "--grid" || a == "--block" || a == "--shared" || a == "--arg" ||
               a == "--len" || a == "--launch" || a == "--timeout") {
      if (!(v = value_of(i, a))) return ParseResult::Bad;
      if (view::take_file_option(a, *v, &o.file_request, &error) == view::RunOption::Bad ||
          !parse_app_file_option(a, *v, o, error))
        return ParseResult::Bad;
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
    } else if (a == "--keys") {
      if (!(v = value_of(i, a)) || !parse_keys(*v, &o.keys, &error)) return ParseResult::Bad;
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
    for (const std::string& input : o.inputs) view::take_file_option("--input", input, &o.file_request, &error);
    o.file_request.path = o.file;
  } else {
    for (const std::string& input : o.inputs) view::take_scenario_option("--input", input, &o.request, &error);
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
  if (o.trust_lesson && o.lesson.empty()) {
    error = "--trust-lesson goes with --lesson";
    return ParseResult::Bad;
  }
  if (o.slide > 0 && o.lesson.empty()) {
    error = "--slide goes with --lesson";
    return ParseResult::Bad;
  }
  if (!o.keys.empty() && o.screenshot.empty()) {
    error = "--keys goes with --screenshot (the keys are pressed before its frame)";
    return ParseResult::Bad;
  }
  if (!o.layout_report.empty() && o.screenshot.empty()) {
    error = "--layout-report goes with --screenshot (it reports that frame)";
    return ParseResult::Bad;
  }
  const ExportFormat format = export_format(o.export_path);
  if (!o.export_path.empty() && format == ExportFormat::Unknown) {
    error = "--export " + o.export_path + ": expected OUT.mp4, OUT.webm, OUT.gif or OUT.svg";
    return ParseResult::Bad;
  }
  if ((!o.export_steps.empty() || o.fps != kDefaultExportFps) && !is_video(format)) {
    error = "--steps and --fps go with a video --export (OUT.mp4, OUT.webm, OUT.gif)";
    return ParseResult::Bad;
  }
  const int modes = !o.screenshot.empty() + !o.frames_dir.empty() + (o.bench_frames > 0) + !o.export_path.empty();
  if (modes > 1) {
    error = "--screenshot, --frames, --bench-frames and --export are separate runs; give one";
    return ParseResult::Bad;
  }
  if (o.headless_gl && !o.offscreen()) {
    error = "--offscreen goes with --screenshot, --frames, --bench-frames or --export (it opens no window)";
    return ParseResult::Bad;
  }
  return ParseResult::Run;
}

}  // namespace warpviz::app
