// Lesson files (view/lesson.h): parsing, defaults, every error the parser
// gives (file, line, field), both languages, paths relative to the lesson,
// and the shipped lesson against the registered scenarios.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>

#include "warpviz/scenario.h"
#include "warpviz/view/lesson.h"

using namespace warpviz;
using namespace warpviz::view;

namespace {

// The message parse_lesson throws for `text`, or "" when it parses.
std::string error_of(const std::string& text, const std::string& path = "/l/t.toml") {
  try {
    parse_lesson(text, path);
  } catch (const LessonError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a lesson parses slides of each kind in file order", "[lesson]") {
  const std::string text = R"(title = "Warps"
title_zh = "线程束"

[[slide]]
scenario = "warp_sum"
set = { dtype = "i32" }
input = "ones"
start = 3
stop = 7
panel = "lanes"
caption = "Sum"
caption_zh = "求和"

[[slide]]
cu = "kernels/my_sum.cu"
kernel = "my_sum"
grid = 2
block = [64, 2]
shared = 128
input = { in = "iota" }
args = { n = 256, scale = 1.5 }
lens = { out = 2 }
caption = """
A user's kernel."""

[[slide]]
trace = "/abs/run.wvt"
panel = "bank"
caption = "A trace"
)";
  const Lesson lesson = parse_lesson(text, "/home/me/lessons/t.toml");
  CHECK(lesson.path == "/home/me/lessons/t.toml");
  CHECK(lesson.title == "Warps");
  CHECK(lesson.title_zh == "线程束");
  REQUIRE(lesson.slides.size() == 3);

  const LessonSlide& s = lesson.slides[0];
  CHECK(s.source == SlideSource::Scenario);
  CHECK(s.line == 5);
  CHECK(s.scenario.scenario == "warp_sum");
  REQUIRE(s.scenario.sets.size() == 1);
  CHECK(s.scenario.sets[0] == std::make_pair(std::string("dtype"), std::string("i32")));
  CHECK(s.scenario.input == "ones");
  CHECK(s.start_step == 3);
  CHECK(s.stop_step == 7);
  CHECK(s.panel == SlidePanel::Lanes);
  CHECK(s.caption_in(Language::English) == "Sum");
  CHECK(s.caption_in(Language::Chinese) == "求和");
  CHECK(s.source_label() == "warp_sum");

  const LessonSlide& cu = lesson.slides[1];
  CHECK(cu.source == SlideSource::CudaFile);
  // Relative to the lesson file's folder, not the working directory.
  CHECK(cu.file.path == "/home/me/lessons/kernels/my_sum.cu");
  CHECK(cu.source_label() == "my_sum.cu");
  CHECK(cu.file.kernel == "my_sum");
  CHECK(cu.file.grid == Dim3(2));
  CHECK(cu.file.block == Dim3(64, 2));
  CHECK(cu.file.shared == 128);
  REQUIRE(cu.file.inputs.size() == 1);
  CHECK(cu.file.inputs[0] == std::make_pair(std::string("in"), std::string("iota")));
  REQUIRE(cu.file.args.size() == 2);
  CHECK(cu.file.args[0] == std::make_pair(std::string("n"), std::string("256")));
  CHECK(cu.file.args[1] == std::make_pair(std::string("scale"), std::string("1.5")));
  REQUIRE(cu.file.lens.size() == 1);
  CHECK(cu.file.lens[0].second == "2");
  CHECK(cu.caption == "A user's kernel.");
  // No Chinese caption: the English one stands in.
  CHECK(cu.caption_in(Language::Chinese) == "A user's kernel.");

  const LessonSlide& tr = lesson.slides[2];
  CHECK(tr.source == SlideSource::TraceFile);
  CHECK(tr.trace_path == "/abs/run.wvt");
  CHECK(tr.panel == SlidePanel::Bank);
}

TEST_CASE("a slide's defaults: step 1, no stop, the op's own panel, every input array", "[lesson]") {
  const Lesson lesson = parse_lesson("[[slide]]\nscenario = \"vote\"\ncaption = \"c\"\n"
                                     "[[slide]]\ncu = \"../k.cu\"\ninput = \"ones\"\ncaption = \"d\"\n",
                                     "lessons/a.toml");
  REQUIRE(lesson.slides.size() == 2);
  CHECK(lesson.title.empty());
  CHECK(lesson.slides[0].start_step == 1);
  CHECK(lesson.slides[0].stop_step == 0);
  CHECK(lesson.slides[0].panel == SlidePanel::Auto);
  CHECK(lesson.slides[0].scenario.sets.empty());
  CHECK(lesson.slides[0].scenario.input.empty());
  CHECK(lesson.slides[1].file.path == "k.cu");  // lessons/../k.cu
  CHECK(lesson.slides[1].file.grid == Dim3(1));
  CHECK(lesson.slides[1].file.block == Dim3(32));
  REQUIRE(lesson.slides[1].file.inputs.size() == 1);
  CHECK(lesson.slides[1].file.inputs[0].first.empty());
  CHECK(lesson.slides[1].file.inputs[0].second == "ones");
}

TEST_CASE("lesson errors name the file, the line and the field", "[lesson]") {
  const std::string head = "[[slide]]\n";
  // Syntax.
  CHECK_THAT(error_of("[[slide]]\nscenario = \"warp_sum\ncaption = \"c\"\n"),
             Catch::StartsWith("/l/t.toml:2: not valid TOML"));
  // The top level.
  CHECK(error_of("") == "/l/t.toml: no slides: each slide is a [[slide]] table with scenario, cu or trace and a caption");
  CHECK_THAT(error_of("title = \"x\"\n"), Catch::StartsWith("/l/t.toml: no slides"));
  CHECK_THAT(error_of("titel = \"x\"\n" + head + "scenario = \"a\"\ncaption = \"c\"\n"),
             Catch::StartsWith("/l/t.toml:1: titel: unknown field"));
  CHECK_THAT(error_of("title = 3\n" + head + "scenario = \"a\"\ncaption = \"c\"\n"),
             Catch::StartsWith("/l/t.toml:1: title: expected a string, got an integer"));
  CHECK_THAT(error_of("slide = 3\n"), Catch::StartsWith("/l/t.toml:1: slide: expected [[slide]] tables"));
  CHECK_THAT(error_of("[slide]\nscenario = \"a\"\n"), Catch::Contains("slide: expected [[slide]] tables, got a table"));
  CHECK_THAT(error_of("slide = []\n"), Catch::StartsWith("/l/t.toml:1: slide: no slides"));
  CHECK_THAT(error_of("slide = [1]\n"), Catch::Contains("slide 1: expected a [[slide]] table, got an integer"));
  // A slide's source.
  CHECK_THAT(error_of(head + "caption = \"c\"\n"), Catch::Contains("slide 1: names nothing to show"));
  CHECK_THAT(error_of(head + "scenario = \"a\"\ncu = \"b.cu\"\ncaption = \"c\"\n"),
             Catch::Contains("slide 1: ") && Catch::Contains("a slide shows one thing"));
  CHECK(error_of(head + "scenario = 5\ncaption = \"c\"\n") ==
        "/l/t.toml:2: slide 1: scenario: expected a string, got an integer");
  CHECK(error_of(head + "scenario = \"\"\ncaption = \"c\"\n") == "/l/t.toml:2: slide 1: scenario: is empty");
  // Fields.
  const std::string ok = head + "scenario = \"a\"\ncaption = \"c\"\n";
  CHECK(error_of(ok + head + "scenario = \"a\"\n") ==
        "/l/t.toml:5: slide 2: caption: missing: every slide has a caption in English (caption = \"...\")");
  CHECK(error_of(head + "scenario = \"a\"\ncaption = \"c\"\ncaptoin = \"d\"\n").find(
            "/l/t.toml:4: slide 1: captoin: unknown field") == 0);
  CHECK(error_of(head + "scenario = \"a\"\ncaption = \"c\"\ngrid = 2\n") ==
        "/l/t.toml:4: slide 1: grid: not a field of a scenario slide");
  CHECK(error_of(head + "trace = \"t.wvt\"\ncaption = \"c\"\nset = { a = 1 }\n") ==
        "/l/t.toml:4: slide 1: set: not a field of a trace slide");
  CHECK(error_of(ok + "start = 0\n") == "/l/t.toml:4: slide 1: start: expected a step number (1, 2, ...), got 0");
  CHECK(error_of(ok + "start = \"2\"\n") ==
        "/l/t.toml:4: slide 1: start: expected a step number (1, 2, ...), got a string");
  CHECK(error_of(ok + "start = 5\nstop = 4\n") == "/l/t.toml:5: slide 1: stop: step 4 comes before start (step 5)");
  CHECK(error_of(ok + "panel = \"lane\"\n") ==
        "/l/t.toml:4: slide 1: panel: 'lane' is not a panel (auto, lanes, votes, block, bank)");
  CHECK(error_of(ok + "set = 3\n") ==
        "/l/t.toml:4: slide 1: set: expected a table such as { name = value }, got an integer");
  CHECK(error_of(ok + "set = { n = [1] }\n") ==
        "/l/t.toml:4: slide 1: set.n: expected a string or a number, got an array");
  CHECK(error_of(ok + "input = 3\n") == "/l/t.toml:4: slide 1: input: expected a string, got an integer");
  CHECK(error_of(ok + "caption_zh = 1\n") == "/l/t.toml:4: slide 1: caption_zh: expected a string, got an integer");
  const std::string cu = head + "cu = \"k.cu\"\ncaption = \"c\"\n";
  CHECK(error_of(cu + "block = 0\n") == "/l/t.toml:4: slide 1: block: expected sizes from 1 to 2147483647");
  CHECK(error_of(cu + "grid = [1, 2, 3, 4]\n") ==
        "/l/t.toml:4: slide 1: grid: expected a size such as 256 or [4, 2], got an array");
  CHECK(error_of(cu + "shared = -1\n") == "/l/t.toml:4: slide 1: shared: expected a number of bytes, got an integer");
  CHECK(error_of(cu + "input = [\"iota\"]\n") ==
        "/l/t.toml:4: slide 1: input: expected a spec (\"iota\") or a table { name = \"spec\" }, got an array");
  CHECK(error_of(cu + "args = { n = { m = 1 } }\n") ==
        "/l/t.toml:4: slide 1: args.n: expected a string or a number, got a table");
  // No file name: "lesson" stands in.
  CHECK_THAT(error_of("", ""), Catch::StartsWith("lesson: no slides"));
}

TEST_CASE("a lesson file that cannot be read says so", "[lesson]") {
  CHECK_THROWS_WITH(load_lesson("/nonexistent/x.toml"), "/nonexistent/x.toml: cannot read the lesson file");
}

TEST_CASE("slides turn both ways and stop at the ends; a scenario finds its slide", "[lesson]") {
  const Lesson lesson = parse_lesson(
      "[[slide]]\nscenario = \"a\"\ncaption = \"1\"\n[[slide]]\nscenario = \"b\"\ncaption = \"2\"\n"
      "[[slide]]\ncu = \"b.cu\"\ncaption = \"3\"\n",
      "");
  CHECK(adjacent_slide(lesson, 0, 1) == std::optional<size_t>(1));
  CHECK(adjacent_slide(lesson, 1, 1) == std::optional<size_t>(2));
  CHECK(adjacent_slide(lesson, 2, -1) == std::optional<size_t>(1));
  CHECK_FALSE(adjacent_slide(lesson, 2, 1));   // the last slide: no wrap to the first
  CHECK_FALSE(adjacent_slide(lesson, 0, -1));  // the first: no wrap to the last
  CHECK_FALSE(adjacent_slide(lesson, 99, 1));  // not a slide: nowhere to turn from
  CHECK_FALSE(adjacent_slide(lesson, 99, -1));
  CHECK(find_scenario_slide(lesson, "b") == 1);
  CHECK(find_scenario_slide(lesson, "b.cu") == 3);  // a file's slide is not a scenario's
}

TEST_CASE("lesson_problems checks scenarios and files the parser cannot", "[lesson]") {
  const std::string folder = std::string(WARPVIZ_SOURCE_DIR) + "/tests/";
  const Lesson lesson = parse_lesson("[[slide]]\nscenario = \"warp_sum\"\ncaption = \"ok\"\n"
                                     "[[slide]]\nscenario = \"no_such\"\ncaption = \"x\"\n"
                                     "[[slide]]\nscenario = \"warp_sum\"\nset = { dtype = \"c64\" }\ncaption = \"x\"\n"
                                     "[[slide]]\ncu = \"user_files/my_sum.cu\"\ncaption = \"ok\"\n"
                                     "[[slide]]\ncu = \"user_files/none.cu\"\ncaption = \"x\"\n",
                                     folder + "l.toml");
  const std::vector<std::string> problems = lesson_problems(lesson);
  REQUIRE(problems.size() == 3);
  CHECK_THAT(problems[0], Catch::StartsWith(folder + "l.toml:5: slide 2: ") && Catch::Contains("no_such"));
  CHECK_THAT(problems[1], Catch::StartsWith(folder + "l.toml:8: slide 3: ") && Catch::Contains("c64"));
  CHECK(problems[2] == folder + "l.toml:15: slide 5: cu: " + folder + "user_files/none.cu: no such file");
}

TEST_CASE("the built-in lesson walks every scenario in the table's order, in both languages", "[lesson]") {
  const Lesson lesson = load_lesson(std::string(WARPVIZ_SOURCE_DIR) + "/assets/lessons/article.toml");
  CHECK(lesson_problems(lesson).empty());
  CHECK(!lesson.title.empty());
  CHECK(!lesson.title_zh.empty());
  // Its scenarios, first appearances only, are the table's order (warpviz-cli list).
  std::vector<std::string> shown;
  for (const LessonSlide& slide : lesson.slides) {
    CHECK(slide.source == SlideSource::Scenario);
    CHECK(!slide.caption.empty());
    CHECK(!slide.caption_zh.empty());
    CHECK(slide.caption_zh != slide.caption);
    if (std::find(shown.begin(), shown.end(), slide.scenario.scenario) == shown.end())
      shown.push_back(slide.scenario.scenario);
  }
  std::vector<std::string> table;
  for (const ScenarioSpec& spec : scenario_specs()) table.push_back(spec.name);
  CHECK(shown == table);
}

TEST_CASE("the README's example lesson runs a user's kernel from a path beside it", "[lesson]") {
  const std::string path = std::string(WARPVIZ_SOURCE_DIR) + "/examples/lessons/prefix_sum.toml";
  const Lesson lesson = load_lesson(path);
  CHECK(lesson_problems(lesson).empty());
  REQUIRE(lesson.slides.size() == 3);
  CHECK(lesson.slides[1].source == SlideSource::CudaFile);
  CHECK(std::filesystem::equivalent(lesson.slides[1].file.path,
                                    std::string(WARPVIZ_SOURCE_DIR) + "/kernels/examples/warp_prefix_sum.cu"));
  CHECK(lesson.slides[2].start_step == 6);
  CHECK(lesson.slides[2].panel == SlidePanel::Votes);
}

// ---- crafted lessons (also seeds of tests/fuzz/corpus/lesson) --------------------
namespace {
std::string corpus_lesson(const char* name) { return std::string(WARPVIZ_SOURCE_DIR) + "/tests/fuzz/corpus/lesson/" + name; }
}  // namespace

TEST_CASE("a lesson nested 100 000 deep is refused before toml11 recurses on it", "[lesson]") {
  const std::string nested = corpus_lesson("deep_nesting.toml");
  CHECK_THROWS_WITH(load_lesson(nested), Catch::StartsWith(nested + ":1: nested more than 32 deep"));
  const std::string dotted = corpus_lesson("deep_dotted_key.toml");
  CHECK_THROWS_WITH(load_lesson(dotted), Catch::StartsWith(dotted + ":1: a key of more than 32 dotted parts"));
  // Brackets and dots inside strings and comments are text, not nesting.
  const std::string text = std::string("# [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n[[slide]]\nscenario = \"warp_sum\"\ncaption = \"") +
                           std::string(40, '[') + std::string(40, '.') + "\"\ncaption_zh = '''" + std::string(40, '{') +
                           "'''\n";
  CHECK(parse_lesson(text, "ok.toml").slides.size() == 1);
}

TEST_CASE("a lesson's parse is bounded: a 40 000-key table, a long caption, a huge file", "[lesson]") {
  // A 40 000-key table took 76 s in toml11 (quadratic); one of 1025 keys is
  // refused before it parses, as a header's table or an inline one. 1024 parse.
  const auto start = std::chrono::steady_clock::now();
  const std::string wide = corpus_lesson("wide_table.toml");
  CHECK_THROWS_WITH(load_lesson(wide), Catch::StartsWith(wide + ":1029: a table of more than 1024 keys"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  const auto set_lesson = [](int n, bool inline_table) {
    std::string text = "[[slide]]\nscenario = \"warp_sum\"\ncaption = \"c\"\n";
    text += inline_table ? "set = {" : "[slide.set]\n";
    for (int i = 0; i < n; ++i) text += (inline_table && i ? ", k" : "k") + std::to_string(i) + (inline_table ? " = 1" : " = 1\n");
    return text + (inline_table ? "}\n" : "");
  };
  for (bool inline_table : {true, false}) {
    CHECK_THROWS_WITH(parse_lesson(set_lesson(40000, inline_table), "set.toml"),
                      Catch::Contains("a table of more than 1024 keys"));
    CHECK(parse_lesson(set_lesson(1024 - int(inline_table), inline_table), "set.toml").slides[0].scenario.sets.size() ==
          size_t(1024 - int(inline_table)));  // the inline table's own `set =` is a key of the slide's
  }

  const std::string caption = corpus_lesson("long_caption.toml");
  CHECK_THROWS_WITH(load_lesson(caption), Catch::Contains("caption: 5000 bytes; a caption is at most 4096"));
  const std::string huge = "[[slide]]\nscenario = \"warp_sum\"\ncaption = \"" + std::string(10 << 20, 'x') + "\"\n";
  CHECK_THROWS_WITH(parse_lesson(huge, "huge.toml"), Catch::StartsWith("huge.toml: ") && Catch::Contains("at most"));
}

TEST_CASE("a slide's cu naming a folder, a device or a FIFO says what it is", "[lesson]") {
  const auto problems_of = [](const std::string& cu) {
    return lesson_problems(parse_lesson("[[slide]]\ncu = \"" + cu + "\"\ncaption = \"c\"\n", "l.toml"));
  };
  const auto folder = problems_of(WARPVIZ_SOURCE_DIR);
  REQUIRE(folder.size() == 1);
  CHECK_THAT(folder[0], Catch::Contains("a directory, not a file"));
  const auto device = problems_of("/dev/null");
  REQUIRE(device.size() == 1);
  CHECK_THAT(device[0], Catch::Contains("/dev/null: a device, not a file"));

  // A FIFO is never opened (it would block): as a slide's file and as the lesson itself.
  const std::string fifo = (std::filesystem::temp_directory_path() / ("warpviz-lesson-fifo-" + std::to_string(::getpid()))).string();
  std::filesystem::remove(fifo);
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto pipe = problems_of(fifo);
  REQUIRE(pipe.size() == 1);
  CHECK_THAT(pipe[0], Catch::Contains("a FIFO (named pipe), not a file"));
  CHECK_THROWS_WITH(load_lesson(fifo), Catch::Contains("a FIFO"));
  std::filesystem::remove(fifo);
}
