// Documents do not run code (view/run_consent.h): which .cu files a lesson
// would run, when the app must ask first, how the answer is remembered in
// settings.json, and what Save proposes and may replace without asking.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "warpviz/trace_io.h"
#include "warpviz/view/run_consent.h"
#include "warpviz/view/settings.h"

using namespace warpviz;
using namespace warpviz::view;
namespace fs = std::filesystem;

namespace {

// A folder of its own with a lesson in a subfolder and .cu files beside and
// outside it, removed afterwards.
struct ConsentFiles {
  fs::path dir = fs::temp_directory_path() /
                 ("warpviz_consent_" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  fs::path lesson_dir = dir / "lessons";
  ConsentFiles() { fs::create_directories(lesson_dir); }
  ~ConsentFiles() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  fs::path write(const fs::path& path, const std::string& text) const {
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
};

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const char* kKernel = "__global__ void k(int* out) { out[threadIdx.x] = threadIdx.x; }\n";

}  // namespace

TEST_CASE("A lesson names every cu file it would run once with resolved paths", "[view][consent]") {
  // Prepare
  ConsentFiles f;
  f.write(f.lesson_dir / "near.cu", kKernel);
  f.write(f.dir / "outside.cu", kKernel);
  const std::string text = R"(
[[slide]]
scenario = "warp_sum"
caption = "a scenario runs nothing of the user's"
[[slide]]
cu = "near.cu"
caption = "beside the lesson"
[[slide]]
trace = "../outside.cu"
caption = "a trace key naming a .cu compiles it too"
[[slide]]
cu = "./near.cu"
caption = "named again"
)";
  const Lesson lesson = parse_lesson(text, (f.lesson_dir / "lesson.toml").string());
  AppSettings settings;

  // Run
  const std::vector<std::string> files = runs_needing_consent(lesson, text, settings);

  // Verify: absolute, normalised (the ../ resolved), each once, in slide order.
  REQUIRE(files.size() == 2);
  CHECK(files[0] == (f.lesson_dir / "near.cu").lexically_normal().string());
  CHECK(files[1] == (f.dir / "outside.cu").lexically_normal().string());
}

TEST_CASE("A lesson of scenarios and traces needs no consent", "[view][consent]") {
  const std::string text = "[[slide]]\nscenario = \"vote\"\ncaption = \"x\"\n";
  const Lesson lesson = parse_lesson(text, "lesson.toml");
  CHECK(runs_needing_consent(lesson, text, AppSettings{}).empty());
}

TEST_CASE("A lesson the user let run runs again until it or one of its cu files changes", "[view][consent]") {
  // Prepare
  ConsentFiles f;
  const fs::path cu = f.write(f.lesson_dir / "k.cu", kKernel);
  const std::string text = "[[slide]]\ncu = \"k.cu\"\ncaption = \"x\"\n";
  const Lesson lesson = parse_lesson(text, (f.lesson_dir / "lesson.toml").string());
  AppSettings settings;
  REQUIRE(runs_needing_consent(lesson, text, settings).size() == 1);

  // Run: the user says Run.
  trust_run(settings, lesson_run_hash(lesson, text), lesson.path);

  // Verify
  CHECK(runs_needing_consent(lesson, text, settings).empty());
  // The lesson's text edited: asks again.
  const std::string edited = text + "# a comment\n";
  CHECK(runs_needing_consent(parse_lesson(edited, lesson.path), edited, settings).size() == 1);
  // The .cu file edited: asks again.
  f.write(cu, std::string(kKernel) + "// edited\n");
  CHECK(runs_needing_consent(lesson, text, settings).size() == 1);
}

TEST_CASE("A cu file from Open Recent or a drop asks unless it ran before with the same bytes", "[view][consent]") {
  ConsentFiles f;
  const fs::path cu = f.write(f.dir / "mine.cu", kKernel);
  const fs::path trace_file = f.write(f.dir / "run.wvt", "");
  AppSettings settings;
  CHECK(file_needs_consent(cu.string(), settings));
  CHECK_FALSE(file_needs_consent(trace_file.string(), settings));  // a trace runs nothing

  trust_run(settings, file_run_hash(cu.string()), cu.string());
  CHECK_FALSE(file_needs_consent(cu.string(), settings));
  f.write(cu, "int main() { return 0; }\n");
  CHECK(file_needs_consent(cu.string(), settings));
}

TEST_CASE("Trusted runs are kept newest first within their bound", "[view][consent]") {
  AppSettings settings;
  for (size_t i = 0; i < kMaxTrustedRuns + 5; ++i) {
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016zx", i);
    trust_run(settings, hash, "file" + std::to_string(i));
  }
  REQUIRE(settings.trusted_runs.size() == kMaxTrustedRuns);
  CHECK(settings.trusted_runs.front().what == "file" + std::to_string(kMaxTrustedRuns + 4));
  CHECK_FALSE(is_trusted(settings, "0000000000000000"));  // the oldest fell off
}

TEST_CASE("Trusted runs survive settings json and a second instance's save", "[view][consent][settings]") {
  // Prepare
  ConsentFiles f;
  const std::string path = (f.dir / "settings.json").string();
  AppSettings first;
  trust_run(first, "00000000000000aa", "/a/lesson.toml");
  REQUIRE(save_settings(first, path, nullptr));

  // Run: a second instance trusts another while the first's is on disk.
  const AppSettings as_loaded;
  AppSettings mine = as_loaded;
  trust_run(mine, "00000000000000bb", "/b/k.cu");
  std::string error;
  REQUIRE(save_settings_merged(mine, as_loaded, path, &error));

  // Verify
  std::string warning;
  const AppSettings read = load_settings(path, &warning);
  CHECK(warning.empty());
  CHECK(is_trusted(read, "00000000000000aa"));
  CHECK(is_trusted(read, "00000000000000bb"));
}

TEST_CASE("A damaged trusted runs field is named and ignored", "[view][consent][settings]") {
  ConsentFiles f;
  const fs::path path = f.write(f.dir / "settings.json", R"({"trusted_runs": [{"hash": "not hex"}]})");
  std::string warning;
  const AppSettings read = load_settings(path.string(), &warning);
  CHECK(read.trusted_runs.empty());
  CHECK_THAT(warning, Catch::Contains("trusted_runs"));
}

TEST_CASE("Save proposes NAME.wvt for a cu file and keeps a trace file's name", "[view][consent][save]") {
  CHECK(proposed_save_name("/home/s/my_sum.cu", "") == "/home/s/my_sum.wvt");
  CHECK(proposed_save_name("/home/s/kernels.CUH", "") == "/home/s/kernels.wvt");
  CHECK(proposed_save_name("/t/run.wvt", "") == "/t/run.wvt");
  CHECK(proposed_save_name("/t/run.json", "") == "/t/run.json");
  CHECK(proposed_save_name("scenario", "warp_sum") == "warp_sum.wvt");
  CHECK(proposed_save_name("", "") == "trace.wvt");
}

TEST_CASE("A trace may replace only a missing file or a trace", "[view][consent][save]") {
  // Prepare
  ConsentFiles f;
  Trace trace;
  trace.meta.scenario = "warp_sum";
  const fs::path binary = f.dir / "t.wvt", json_form = f.dir / "t.json";
  save_trace(trace, binary.string());
  save_trace(trace, json_form.string());
  const fs::path cu = f.write(f.dir / "k.cu", kKernel);
  const fs::path other_json = f.write(f.dir / "package.json", R"({"format": "something else"})");
  const fs::path empty = f.write(f.dir / "empty.wvt", "");

  // Verify
  CHECK(may_write_trace_over((f.dir / "new.wvt").string()));
  CHECK(may_write_trace_over(binary.string()));
  CHECK(may_write_trace_over(json_form.string()));
  CHECK_FALSE(may_write_trace_over(cu.string()));
  CHECK_FALSE(may_write_trace_over(other_json.string()));
  CHECK_FALSE(may_write_trace_over(empty.string()));
  CHECK_FALSE(may_write_trace_over(f.dir.string()));  // a folder
}

TEST_CASE("Saving with a cu file open writes NAME.wvt and leaves the source byte-identical", "[view][consent][save]") {
  // Prepare: the app's Save path, as draw_file_dialog and save_file take it.
  ConsentFiles f;
  const fs::path cu = f.write(f.dir / "my_sum.cu", kKernel);
  Trace trace;
  trace.meta.scenario = "user";
  trace.meta.source_path = cu.string();

  // Run
  const std::string proposed = proposed_save_name(cu.string(), trace.meta.scenario);
  REQUIRE(may_write_trace_over(proposed));
  save_trace(trace, proposed);

  // Verify
  CHECK(proposed == (f.dir / "my_sum.wvt").string());
  CHECK(read_all(cu) == kKernel);
  CHECK(load_trace(proposed).meta.source_path == cu.string());
  // Typing the source's own name back in: the app must ask.
  CHECK_FALSE(may_write_trace_over(cu.string()));
}
