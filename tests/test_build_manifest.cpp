// A cached program is exactly its inputs: every file the compiler read (its
// own -MMD list) and every .incbin target, hashed at build time and again at
// each lookup. Each case below is a way the old hand-written #include scan
// missed a header: the header changes, the file runs again, the new value is
// printed.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "warpviz/build_manifest.h"
#include "warpviz/user_file.h"
#include "temp_dir.h"

using namespace warpviz::user;
namespace fs = std::filesystem;

namespace {

// A temporary folder that is also the compile cache's, for one test.
struct CacheSandbox : warpviz::testing_support::TempDir {
  explicit CacheSandbox(const std::string& tag) : TempDir("deps-" + tag) {
    ::setenv("WARPVIZ_CACHE_DIR", (path / "cache").c_str(), 1);
  }
  ~CacheSandbox() { ::unsetenv("WARPVIZ_CACHE_DIR"); }
};

// A whole program that prints VALUE, which some header defines.
std::string printing_program(const std::string& includes) {
  return includes + "\n#include <cstdio>\nint main() { std::printf(\"value %d\\n\", VALUE); return 0; }\n";
}

// Files saved in the file system's clock tick in which a build starts count
// as saved during it; the tests' own first saves stay clear of that.
void let_the_clock_tick() { std::this_thread::sleep_for(std::chrono::milliseconds(30)); }

FileRun run_program(const fs::path& file, FileRequest request = {}) {
  request.path = file.string();
  request.backend = FileBackend::Cpu;
  FileRun run = run_user_file(request);
  INFO(run.message << "\n" << run.compiler_output);
  REQUIRE(run.ok());
  return run;
}

bool watches(const FileRun& run, const fs::path& file) {
  const std::string want = fs::absolute(file).lexically_normal().string();
  return std::find(run.watched_files.begin(), run.watched_files.end(), want) != run.watched_files.end();
}

size_t build_folders_left(const fs::path& cache) {
  size_t n = 0;
  std::error_code ec;
  for (fs::directory_iterator it(cache / "cpu", ec), end; !ec && it != end; it.increment(ec))
    n += it->path().filename().string().find(".tmp") != std::string::npos;
  return n;
}

// Runs `file`, changes `header` to define VALUE 2, runs again: the second
// run prints 2 and did not come from the cache. An unchanged third run does.
void check_header_change_is_seen(const CacheSandbox& box, const fs::path& file, const std::string& header,
                                 const FileRequest& request = {}) {
  let_the_clock_tick();
  const FileRun first = run_program(file, request);
  CHECK(first.program_output.find("value 1") != std::string::npos);
  CHECK(watches(first, box.path / header));
  box.write(header, "#define VALUE 2\n");
  let_the_clock_tick();
  const FileRun second = run_program(file, request);
  CHECK(second.program_output.find("value 2") != std::string::npos);
  CHECK_FALSE(second.timing.cached);
  let_the_clock_tick();
  const FileRun third = run_program(file, request);
  CHECK(third.timing.cached);
  CHECK(third.program_output.find("value 2") != std::string::npos);
}

}  // namespace

TEST_CASE("make rules: continuations, escaped spaces, hashes and dollars", "[user][cache][deps]") {
  const auto deps = parse_make_rule("warpviz-unit: /w/unit.cpp /a\\ b/h\\ 1.h \\\n  /c/x\\#y.h /d/$$z.h\n");
  REQUIRE(deps);
  CHECK(*deps == std::vector<std::string>{"/w/unit.cpp", "/a b/h 1.h", "/c/x#y.h", "/d/$z.h"});
  // Only the first rule: -MP's empty rules for headers are not prerequisites.
  const auto first = parse_make_rule("t: a.h\na.h:\n");
  REQUIRE(first);
  CHECK(*first == std::vector<std::string>{"a.h"});
  CHECK(parse_make_rule("t:")->empty());
  CHECK_FALSE(parse_make_rule("no rule here\n"));
  CHECK_FALSE(parse_make_rule(""));
}

TEST_CASE("incbin names: in a C string, in assembly, and broken ones left out", "[user][cache][deps]") {
  CHECK(incbin_names("asm(\".section .rodata\\n.incbin \\\"data.bin\\\"\\n.text\");") ==
        std::vector<std::string>{"data.bin"});
  CHECK(incbin_names("  .incbin \"/abs/blob.raw\", 4\n.incbin\t\"two\"\n") ==
        std::vector<std::string>{"/abs/blob.raw", "two"});
  CHECK(incbin_names(".incbin data.bin\n.incbin \"unclosed\n.incbin \"\"\n").empty());
}

TEST_CASE("manifests: written, read back, and stale once a listed file changes", "[user][cache][deps]") {
  CacheSandbox box("manifest");
  const fs::path h = box.write("h.h", "one");
  BuildManifest m;
  m.program_hash = content_hash("program bytes");
  m.dependencies = {{h.string(), file_content_hash(h.string())}, {(box.path / "absent.bin").string(), ""}};
  CHECK(m.dependencies[0].hash.size() == 32);
  CHECK(m.dependencies[0].hash == content_hash("one"));
  const auto back = read_manifest(manifest_json(m));
  REQUIRE(back);
  CHECK(back->program_hash == m.program_hash);
  REQUIRE(back->dependencies.size() == 2);
  CHECK(back->dependencies[1].path == m.dependencies[1].path);
  CHECK_FALSE(changed_dependency(*back));  // the missing file is still missing
  box.write("absent.bin", "");             // an empty file is not a missing one
  CHECK(changed_dependency(*back) == m.dependencies[1].path);
  fs::remove(box.path / "absent.bin");
  box.write("h.h", "two");
  CHECK(changed_dependency(*back) == h.string());

  std::string why;
  CHECK_FALSE(read_manifest("{\"version\": 9}", &why));
  CHECK(why.find("manifest version 9") != std::string::npos);
  CHECK_FALSE(read_manifest("not json", &why));
  CHECK(why.find("not a build manifest") != std::string::npos);
}

TEST_CASE("a header included through a macro: its change is run", "[user][cache][deps][run]") {
  CacheSandbox box("macro");
  box.write("h.h", "#define VALUE 1\n");
  const fs::path file = box.write("k.cu", printing_program("#define HEADER \"h.h\"\n#include HEADER"));
  check_header_change_is_seen(box, file, "h.h");
}

TEST_CASE("an include with a comment inside: its change is run", "[user][cache][deps][run]") {
  CacheSandbox box("comment");
  box.write("h.h", "#define VALUE 1\n");
  const fs::path file = box.write("k.cu", printing_program("#include /* the value */ \"h.h\""));
  check_header_change_is_seen(box, file, "h.h");
}

TEST_CASE("a nested header found through the file's own folder: its change is run", "[user][cache][deps][run]") {
  // sub/a.h includes "b.h", which is not beside it but beside k.cu: the
  // compiler finds it through -iquote (the file's folder), a scan relative
  // to sub/ does not.
  CacheSandbox box("nested");
  box.write("b.h", "#define VALUE 1\n");
  box.write("sub/a.h", "#include \"b.h\"\n");
  const fs::path file = box.write("k.cu", printing_program("#include \"sub/a.h\""));
  check_header_change_is_seen(box, file, "b.h");
}

TEST_CASE("a header found through the user's -I folder: its change is run", "[user][cache][deps][run]") {
  CacheSandbox box("include-dir");
  box.write("inc/value.h", "#define VALUE 1\n");
  const fs::path file = box.write("src/k.cu", printing_program("#include \"value.h\""));
  FileRequest request;
  request.compiler.include_dirs = {(box.path / "inc").string()};
  check_header_change_is_seen(box, file, "inc/value.h", request);
}

TEST_CASE("a file pulled in with .incbin: its change is run", "[user][cache][deps][run]") {
  CacheSandbox box("incbin");
  const fs::path blob = box.write("blob.txt", "first");
  const fs::path file = box.write(
      "k.cu", "#include <cstdio>\n"
              "asm(\".section .rodata\\n.global user_blob\\nuser_blob:\\n.incbin \\\"" + blob.string() +
                  "\\\"\\n.byte 0\\n.text\");\n"
              "extern \"C\" const char user_blob[];\n"
              "int main() { std::printf(\"blob %s\\n\", user_blob); return 0; }\n");
  let_the_clock_tick();
  const FileRun first = run_program(file);
  CHECK(first.program_output.find("blob first") != std::string::npos);
  CHECK(watches(first, blob));
  box.write("blob.txt", "second");
  const FileRun second = run_program(file);
  CHECK(second.program_output.find("blob second") != std::string::npos);
  CHECK_FALSE(second.timing.cached);
}

TEST_CASE("a header saved while the program is built: run, not stored, then rebuilt", "[user][cache][deps][run]") {
  CacheSandbox box("during");
  const fs::path header = box.write("h.h", "#define VALUE 1\n");
  const fs::path file = box.write("k.cu", printing_program("#define HEADER \"h.h\"\n#include HEADER"));
  let_the_clock_tick();
  // Saved once the compiler is done with it: the program holds VALUE 1.
  RunControl control;
  control.on_status = [&](const std::string& status) {
    if (status == "linking") box.write("h.h", "#define VALUE 2\n");
  };
  FileRequest request;
  request.path = file.string();
  request.backend = FileBackend::Cpu;
  const FileRun during = run_user_file(request, control);
  INFO(during.message << "\n" << during.compiler_output);
  REQUIRE(during.ok());
  CHECK(during.program_output.find("value 1") != std::string::npos);  // what was built is what runs
  CHECK(build_folders_left(box.path / "cache") == 0);                  // not stored, and not left behind
  REQUIRE(during.saved_while_building.size() == 1);                    // live reload runs it again
  CHECK(fs::path(during.saved_while_building[0]).filename() == "h.h");

  const FileRun after = run_program(file);
  CHECK_FALSE(after.timing.cached);
  CHECK(after.program_output.find("value 2") != std::string::npos);
  CHECK(watches(after, header));
}

TEST_CASE("a compile error in a header included through a macro: that header is watched", "[user][cache][deps][run]") {
  CacheSandbox box("error");
  const fs::path header = box.write("h.h", "#define VALUE 1 +\n");
  const fs::path file = box.write("k.cu", printing_program("#define HEADER \"h.h\"\n#include HEADER"));
  FileRequest request;
  request.path = file.string();
  request.backend = FileBackend::Cpu;
  const FileRun run = run_user_file(request);
  CHECK(run.outcome == FileOutcome::CompileError);
  CHECK(watches(run, header));  // saving the fix re-runs the file in the app
  CHECK(watches(run, file));
  for (const std::string& w : run.watched_files) CHECK(w.find("warpviz_user_prelude") == std::string::npos);
}

// Not a timed test: prints what a cache hit costs, for the README's numbers.
TEST_CASE("benchmark: the cost of a cache hit", "[.][benchmark][user][cache]") {
  CacheSandbox box("bench");
  const fs::path file = box.write("k.cu", starter_file_text());
  FileRequest request;
  request.inputs = {{"", "iota"}};
  run_program(file, request);
  double lookup = 0, total = 0;
  constexpr int kRuns = 20;
  for (int i = 0; i < kRuns; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const FileRun hit = run_program(file, request);
    total += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    CHECK(hit.timing.cached);
    lookup += hit.timing.lookup_ms;
  }
  std::printf("cache hit: lookup %.3f ms (key and manifest), whole run %.1f ms, mean of %d\n", lookup / kRuns,
              total / kRuns, kRuns);
}
