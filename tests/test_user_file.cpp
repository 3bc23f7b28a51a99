// A user's own .cu file: scanned, rewritten, compiled against the kit, run in
// a child process on the CPU emulator, and read back launch by launch.
#include <catch2/catch.hpp>
#include <signal.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "warpviz/user_file.h"
#include "warpviz/user_source.h"

using namespace warpviz;
using namespace warpviz::user;
namespace fs = std::filesystem;

namespace {

std::string fixture(const std::string& name) { return std::string(WARPVIZ_TEST_USER_FILES) + "/" + name; }

std::string read(const std::string& path) { return read_text_file(path); }

FileRun run_file(const std::string& name, FileRequest request = {}) {
  request.path = fixture(name);
  return run_user_file(request);
}

int64_t as_i32(uint64_t bits) { return int32_t(uint32_t(bits)); }

}  // namespace

TEST_CASE("scan: kernels, parameter names, defaults, templates and main", "[user][scan]") {
  const UserSource two = scan_user_source("two.cu", read(fixture("two_kernels.cu")));
  REQUIRE(two.kernels.size() == 2);
  CHECK(two.kernels[0].name == "scale");
  CHECK(two.kernels[0].is_template);
  REQUIRE(two.kernels[0].params.size() == 3);
  CHECK(two.kernels[0].params[2].name == "factor");
  CHECK(two.kernels[0].params[2].default_text == "2");
  CHECK(two.kernels[1].name == "offset_by");  // past __launch_bounds__(256)
  CHECK_FALSE(two.kernels[1].is_template);
  CHECK(two.kernels[1].line == 6);
  CHECK_FALSE(two.has_main);

  const UserSource seed = scan_user_source("w.cu", read(fixture("warp_shuffle.cu")));
  CHECK(seed.has_main);
  REQUIRE(seed.kernels.size() == 2);
  CHECK(seed.kernels[0].name == "reduce_sum");
  CHECK(seed.kernels[1].name == "test_shuffle");

  // Comments and strings are no code; unnamed parameters get a name.
  const UserSource odd = scan_user_source(
      "o.cu", "// __global__ void fake(int a) {}\nconst char* s = \"__global__ void nope(){}\";\n"
              "__global__ void real(const float*, unsigned n = 1u << 4) {}\n");
  REQUIRE(odd.kernels.size() == 1);
  CHECK(odd.kernels[0].name == "real");
  CHECK(odd.kernels[0].params[0].name == "arg0");
  CHECK(odd.kernels[0].params[1].default_text == "1u << 4");
}

TEST_CASE("rewrite: launches and extern __shared__ keep every line where it was", "[user][scan]") {
  const std::string text =
      "extern __shared__ __align__(16) float smem[];\n"
      "int main() {\n"
      "  k<<<grid, 256,\n    64 * sizeof(float)>>>(a, b);  // k<<<1, 1>>>() in a comment\n"
      "  ns::t<float, 4><<<1, 32>>>();\n"
      "}\n";
  const std::string out = rewrite_for_host(text);
  CHECK(std::count(out.begin(), out.end(), '\n') == std::count(text.begin(), text.end(), '\n'));
  CHECK(out.find("float* const smem WARPVIZ_SHARED_POINTER = ::warpviz::user::dynamic_shared<float>();") != std::string::npos);
  CHECK(out.find("::warpviz::user::kernel_call([&](const auto&... warpviz_args) { k(warpviz_args...); }) ->* "
                 "::warpviz::user::launch_config(\"k\", grid, 256,\n    64 * sizeof(float))(a, b);") !=
        std::string::npos);
  CHECK(out.find("// k<<<1, 1>>>() in a comment") != std::string::npos);
  CHECK(out.find("launch_config(\"ns::t<float,4>\", 1, 32)()") != std::string::npos);
}

TEST_CASE("scan and rewrite: long runs never overflow the stack, repeats stay linear", "[user][scan][hostile]") {
  // Before: std::regex recursed once per character, so 100 KB of spaces in
  // any of these places crashed the CLI or the app with a stack overflow; and
  // `__global__` repeated or many launches took minutes (quadratic).
  const std::string spaces(1'000'000, ' ');
  const auto start = std::chrono::steady_clock::now();
  CHECK(scan_user_source("m.cu", "int" + spaces + "main() {}\n").has_main);
  CHECK(scan_user_source("i.cu", "#include" + spaces + "\"missing.h\"\n").local_includes.empty());
  const UserSource lead = scan_user_source("t.cu", "template <int N>" + spaces + "__global__ void k(int a) {}\n");
  REQUIRE(lead.kernels.size() == 1);
  CHECK(lead.kernels[0].is_template);
  CHECK(scan_user_source("d.cu", spaces + "ScenarioDeclaration d;").declares_scenarios);
  const std::string shared = "__global__ void k() { extern __shared__ float" + spaces + "tile[]; }\n";
  CHECK(rewrite_for_host(shared).find("float* const tile WARPVIZ_SHARED_POINTER = ::warpviz::user::dynamic_shared<float>();") !=
        std::string::npos);
  const std::string aligned = "extern __shared__ __align__(" + spaces + "16) int2 pairs [ ] ;";
  CHECK(rewrite_for_host(aligned) == "int2* const pairs WARPVIZ_SHARED_POINTER = ::warpviz::user::dynamic_shared<int2>();");

  std::string repeated;
  for (int i = 0; i < 100'000; ++i) repeated += "__global__ ";
  const UserSource once = scan_user_source("g.cu", repeated + "void k(int n = 1) {}\n");
  REQUIRE(once.kernels.size() == 1);
  CHECK(once.kernels[0].params[0].default_text == "1");
  std::string many;
  for (int i = 0; i < 20'000; ++i) {
    const std::string k = "k" + std::to_string(i);
    many += "__global__ void " + k + "() {}\n" + k + "<<<1, 32>>>();\n";
  }
  const UserSource kernels = scan_user_source("many.cu", many);
  REQUIRE(kernels.kernels.size() == 20'000);
  CHECK(kernels.kernels.back().line == 39'999);
  const std::string rewritten = rewrite_for_host(many);
  CHECK(std::count(rewritten.begin(), rewritten.end(), '\n') == 40'000);
  CHECK(rewritten.find("k19999(warpviz_args...); }) ->* ::warpviz::user::launch_config(\"k19999\", 1, 32)();") !=
        std::string::npos);
  // Seconds at most even under a sanitizer; the quadratic version took minutes.
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 20.0);

  // A launch inside an `extern __shared__` declaration: one edit is left out
  // rather than two made over each other, and the lines stay.
  // A type over several lines (found by fuzz_user_source: its newlines were
  // written twice, once in the type and once after it).
  const std::string split = "extern __shared__ unsigned\n  long\n  long table[];\nint y;\n";
  CHECK(rewrite_for_host(split) ==
        "unsigned   long   long* const table WARPVIZ_SHARED_POINTER = ::warpviz::user::dynamic_shared<unsigned   long   long>();\n\n\nint y;\n");
  const std::string nested = "extern __shared__ k<<<1,\n1>>> a[];\nint x;\n";
  const std::string out = rewrite_for_host(nested);
  CHECK(std::count(out.begin(), out.end(), '\n') == 3);
  CHECK(out.find("int x;") != std::string::npos);
}

TEST_CASE("parse_diagnostics: g++ and nvcc lines, odd numbers and long quoted lines", "[user][scan][hostile]") {
  const std::vector<Diagnostic> d = parse_diagnostics(
      "k.cu: In function 'void f()':\n"
      "k.cu:3:5: error: 'x' was not declared in this scope\n"
      "/a:b/c d.cu:12:1: fatal error: y.h: No such file or directory\n"
      "k.cu(7): warning #177-D: variable \"v\" was declared but never referenced\n"
      "k.cu(9): catastrophic error: cannot open source file \"z.h\"\n"
      "k.cu(10): remark: something\n"
      "    3 | int v = x;\n");
  REQUIRE(d.size() == 5);
  CHECK((d[0].file == "k.cu" && d[0].line == 3 && d[0].column == 5 && d[0].severity == "error"));
  CHECK(d[0].message == "'x' was not declared in this scope");
  CHECK((d[1].file == "/a:b/c d.cu" && d[1].line == 12 && d[1].severity == "error"));
  CHECK(d[1].message == "y.h: No such file or directory");
  CHECK((d[2].file == "k.cu" && d[2].line == 7 && d[2].column == 0 && d[2].severity == "warning"));
  CHECK(d[2].message == "variable \"v\" was declared but never referenced");
  CHECK((d[3].line == 9 && d[3].severity == "error"));
  CHECK(d[4].severity == "note");

  // g++ quotes the user's line: a number beyond an int there made std::stoi
  // throw out of run_user_file, and a long line overflowed std::regex's stack.
  const std::vector<Diagnostic> quoted =
      parse_diagnostics("    1 | int v = ; // a:99999999999:1: error: b\n"
                        "k.cu:1:9: error: expected primary-expression before ';' token\n" +
                        std::string(1'000'000, 'x') + ":1:1: error: " + std::string(1'000'000, ' ') + "\n");
  REQUIRE(quoted.size() == 2);
  CHECK(quoted[0].line == 1);
  CHECK(quoted[1].file.size() == 1'000'000);
}

TEST_CASE("the issue's first file: five shfl.down steps, out[0] = 496", "[user][run]") {
  FileRequest request;
  request.inputs = {{"", "iota"}};
  const FileRun run = run_file("my_sum.cu", request);
  INFO(run.message << run.compiler_output);
  REQUIRE(run.ok());
  REQUIRE(run.launches.size() == 1);
  const Trace& t = run.launches[0];
  REQUIRE(t.steps.size() == 5);
  const int64_t deltas[] = {16, 8, 4, 2, 1};
  for (size_t i = 0; i < 5; ++i) {
    CHECK(t.steps[i].op == Op::ShflDown);
    CHECK(t.steps[i].args.b == deltas[i]);
    CHECK(t.steps[i].line == 4);  // the user's line, not a wrapper's
  }
  const TraceOutput* out = t.output("out");
  REQUIRE(out);
  REQUIRE(out->bits.size() == 32);
  CHECK(as_i32(out->bits[0]) == 496);
  CHECK(t.output("in") == nullptr);  // inputs are not outputs
  CHECK(t.meta.source_text == read(fixture("my_sum.cu")));
  CHECK(fs::path(t.meta.source_path).filename() == "my_sum.cu");
  CHECK(t.meta.params.at("kernel") == "my_sum");
}

TEST_CASE("a program's launches together record at most twice --max-steps, and the rest run whole", "[user][run]") {
  // Prepare: five steps a launch, a launch keeps at most 4, the program 8.
  FileRequest request;
  request.max_steps = 4;
  // Run.
  const FileRun run = run_file("many_launches.cu", request);
  INFO(run.message << run.compiler_output);
  REQUIRE(run.ok());
  // Verify: every launch ran (the total is ten sums of 0..31), two kept traces.
  CHECK(run.program_output == "total 4960\n");
  REQUIRE(run.launches.size() == 2);
  CHECK(run.launches[0].steps.size() == 4);
  CHECK(run.launches[1].steps.size() == 4);
  bool noted = false;
  for (const std::string& note : run.notes)
    noted |= note.find("launches from 2 on ran unrecorded") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("the seed demo runs whole: its output, and both launches recorded", "[user][run]") {
  const FileRun run = run_file("warp_shuffle.cu");
  INFO(run.message << run.compiler_output);
  REQUIRE(run.ok());
  CHECK(run.program_output.find("Thread 0 result: 2.0") != std::string::npos);
  CHECK(run.program_output.find("Thread 5 result: 10.0") != std::string::npos);
  CHECK(run.program_output.find("Sum: 1024 (expected: 1024)") != std::string::npos);
  CHECK(run.program_output.find("PASS") != std::string::npos);
  REQUIRE(run.launches.size() == 2);
  CHECK(run.launches[0].meta.params.at("kernel") == "test_shuffle");
  CHECK(run.launches[0].steps.size() == 2);
  CHECK(run.launches[0].steps[0].line == 94);  // the fixture starts at the seed's /** line  // __shfl_down_sync in test_shuffle
  CHECK(run.launches[1].meta.params.at("kernel") == "reduce_sum");
  CHECK(run.launches[1].meta.grid.x == 4);
  CHECK(run.launches[1].meta.block.x == 256);
  // Arrays are recorded under the variable cudaMalloc filled, with its type.
  const TraceOutput* d_out = run.launches[1].output("d_out");
  REQUIRE(d_out);
  CHECK(d_out->dtype == DType::F32);
  CHECK(d_out->bits[0] == 0x43800000u);  // 256.0f from each block
  std::string why;
  CHECK(pick_launch(run, "reduce_sum", &why) == &run.launches[1]);
  CHECK(pick_launch(run, "7", &why) == nullptr);
  CHECK(why.find("0 test_shuffle, 1 reduce_sum") != std::string::npos);
}

TEST_CASE("a user file watches its variables with WARPVIZ_WATCH, no include", "[user][run][watch]") {
  FileRequest request;
  request.inputs = {{"", "iota"}};
  const FileRun run = run_file("watched.cu", request);
  INFO(run.message << run.compiler_output);
  REQUIRE(run.ok());
  REQUIRE(run.launches.size() == 1);
  const Trace& t = run.launches[0];
  std::vector<TraceStep> watches;
  for (const TraceStep& s : t.steps)
    if (s.op == Op::Watch) watches.push_back(s);
  // v five times, then half, twice (in the branch), odd and phase.
  REQUIRE(watches.size() == 9);
  CHECK(t.steps.size() == 14);  // and the five shuffles
  const int32_t v0[] = {16, 48, 112, 240, 496};
  for (size_t k = 0; k < 5; ++k) {
    const TraceStep& w = watches[k];
    CHECK(watch_name(w.args) == "v");
    CHECK(w.dtype == DType::I32);
    CHECK(w.line == 8);  // the user's line
    CHECK(w.mask == 0xffffffffu);
    CHECK(as_i32(w.lanes[0].out) == v0[k]);
    CHECK(w.lanes[0].in == w.lanes[0].out);
  }
  const TraceStep& half = watches[5];
  CHECK(watch_name(half.args) == "half");
  CHECK(half.dtype == DType::F32);
  CHECK(half.line == 11);
  CHECK(half.lanes[0].out == 0x43780000u);  // 248.0f
  // Inside the branch only the lanes that took it: every fourth.
  const TraceStep& twice = watches[6];
  CHECK(watch_name(twice.args) == "twice");
  CHECK(twice.dtype == DType::F64);
  CHECK(twice.mask == 0x11111111u);
  CHECK(twice.lanes[0].out == 0x408f000000000000ull);  // 992.0
  CHECK_FALSE(twice.lanes[1].active());
  CHECK(twice.lanes[4].active());
  // After the branch the warp is together again: one step of all 32 lanes.
  const TraceStep& odd = watches[7];
  CHECK(watch_name(odd.args) == "odd");
  CHECK(odd.dtype == DType::U32);  // a bool, as C++ promotes it
  CHECK(odd.mask == 0xffffffffu);
  for (int lane = 0; lane < 32; ++lane) CHECK(odd.lanes[lane].out == uint64_t(lane % 2));
  const TraceStep& phase = watches[8];
  CHECK(watch_name(phase.args) == "phase");
  CHECK(phase.dtype == DType::U32);  // an enum of unsigned char: its underlying type, promoted
  CHECK(phase.lanes[9].out == 2u);
  // The values the kernel computed are unchanged by watching them.
  const TraceOutput* out = t.output("out");
  REQUIRE(out);
  CHECK(out->bits[0] == 0x43780000u);
}

TEST_CASE("a watched name over 16 characters is a compile error that says so", "[user][faults][watch]") {
  const FileRun run = run_file("watch_long_name.cu");
  CHECK(run.outcome == FileOutcome::CompileError);
  CHECK(run.message.find("WARPVIZ_WATCH(a_name_longer_than_sixteen): a watched name is 1 to 16 printable ASCII "
                         "characters") != std::string::npos);
  // The compiler places the assertion in the macro's header; its note names the user's line.
  CHECK(run.compiler_output.find("watch_long_name.cu:3:5: note: in expansion of macro") != std::string::npos);
}

TEST_CASE("kernels only: templates, scalars with defaults, lengths and the grid", "[user][run]") {
  FileRequest request;
  request.kernel = "scale<int>";
  request.inputs = {{"", "iota"}};
  FileRun run = run_file("two_kernels.cu", request);
  INFO(run.message << run.compiler_output);
  REQUIRE(run.ok());
  const TraceOutput* out = run.launches[0].output("out");
  REQUIRE(out);
  CHECK(as_i32(out->bits[5]) == 10);  // the default factor 2

  request.kernel = "offset_by";
  request.grid = Dim3{2};
  request.block = Dim3{64};
  request.args = {{"n", "100"}, {"delta", "0.5"}};
  run = run_file("two_kernels.cu", request);
  REQUIRE(run.ok());
  out = run.launches[0].output("out");
  REQUIRE(out);
  REQUIRE(out->bits.size() == 128);
  CHECK(out->bits[99] == 0x42c70000u);  // 99.5f
  CHECK(out->bits[100] == 0);           // i >= n: untouched

  request.args = {{"delta", "0.5"}};
  run = run_file("two_kernels.cu", request);
  CHECK(run.outcome == FileOutcome::RequestError);
  CHECK(run.message.find("`n` (int) needs a value: --arg n=VALUE") != std::string::npos);

  request.kernel = "";
  run = run_file("two_kernels.cu", request);
  CHECK(run.outcome == FileOutcome::RequestError);
  CHECK(run.message.find("scale, offset_by") != std::string::npos);

  request.kernel = "scale";
  run = run_file("two_kernels.cu", request);
  CHECK(run.outcome == FileOutcome::RequestError);
  CHECK(run.message.find("is a template") != std::string::npos);
}

TEST_CASE("extern __shared__ memory sized by the launch", "[user][run]") {
  FileRequest request;
  request.grid = Dim3{3};
  request.block = Dim3{128};
  request.shared = 4 * sizeof(float);
  request.inputs = {{"", "ones"}};
  request.lens = {{"out", "3"}};
  const FileRun run = run_file("dynamic_shared.cu", request);
  INFO(run.message << run.compiler_output);
  REQUIRE(run.ok());
  const TraceOutput* out = run.launches[0].output("out");
  REQUIRE(out);
  REQUIRE(out->bits.size() == 3);
  for (uint64_t b : out->bits) CHECK(b == 0x43000000u);  // 128.0f
}

namespace {

// The pids a fixture printed as "<who> pid N".
std::vector<int> printed_pids(const std::string& output) {
  std::vector<int> pids;
  for (size_t at = output.find(" pid "); at != std::string::npos; at = output.find(" pid ", at + 1))
    pids.push_back(std::atoi(output.c_str() + at + 5));
  return pids;
}

// Gone, or a zombie about to be reaped: no longer running.
bool still_running(int pid) {
  for (int tries = 0; tries < 100; ++tries) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return false;
    const size_t paren = line.rfind(')');
    if (paren == std::string::npos || line[paren + 2] == 'Z') return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

}  // namespace

TEST_CASE("a program whose forked child keeps stdout open: the limit, Cancel and exit end the whole group",
          "[user][faults][hang]") {
  SECTION("the time limit") {
    FileRequest request;
    request.time_limit_s = 1.0;
    const FileRun run = run_file("fork_keeps_stdout.cu", request);
    INFO(run.message << run.compiler_output << run.program_output);
    CHECK(run.outcome == FileOutcome::Timeout);
    CHECK(run.timing.run_ms < 4000);
    const std::vector<int> pids = printed_pids(run.program_output);
    REQUIRE(pids.size() == 2);
    for (int pid : pids) CHECK_FALSE(still_running(pid));
  }
  SECTION("Cancel") {
    FileRequest request;
    request.path = fixture("fork_keeps_stdout.cu");
    std::atomic<bool> cancel{false}, running{false};
    RunControl control;
    control.cancel = &cancel;
    control.on_status = [&](const std::string& s) { if (s == "running") running = true; };
    std::thread canceller([&] {
      while (!running) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      cancel = true;
    });
    const auto start = std::chrono::steady_clock::now();
    const FileRun run = run_user_file(request, control);
    canceller.join();
    INFO(run.message << run.program_output);
    CHECK(run.outcome == FileOutcome::Cancelled);
    CHECK(run.timing.run_ms < 3000);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(60));
    const std::vector<int> pids = printed_pids(run.program_output);
    REQUIRE(pids.size() == 2);
    for (int pid : pids) CHECK_FALSE(still_running(pid));
  }
  SECTION("the program exits, its child does not") {
    const FileRun run = run_file("fork_and_exit.cu");
    INFO(run.message << run.program_output);
    CHECK(run.ok());
    CHECK(run.timing.run_ms < 3000);
    CHECK(run.program_output.find("parent done") != std::string::npos);
    const std::vector<int> pids = printed_pids(run.program_output);
    REQUIRE(pids.size() == 1);
    CHECK_FALSE(still_running(pids[0]));
  }
}

TEST_CASE("a program past its memory limit is stopped with a message naming the limit", "[user][faults][memory]") {
  FileRequest request;
  request.memory_limit_bytes = uint64_t(256) << 20;
  const FileRun run = run_file("memory_hog.cu", request);
  INFO(run.message << run.program_output);
  CHECK(run.outcome == FileOutcome::MemoryLimit);
  CHECK(run.message.find("memory limit of 256.0 MiB") != std::string::npos);
  CHECK(run.message.find("it reached ") != std::string::npos);
  CHECK(run.message.find("--memory-limit SIZE") != std::string::npos);
  CHECK(run.program_output.find("never got here") == std::string::npos);
  CHECK(default_memory_limit() > (uint64_t(256) << 20));
}

TEST_CASE("memory sizes: parsed with their units, refused without sense", "[user][memory]") {
  CHECK(parse_memory_size("512M") == uint64_t(512) << 20);
  CHECK(parse_memory_size("8G") == uint64_t(8) << 30);
  CHECK(parse_memory_size("1.5GiB") == uint64_t(3) << 29);
  CHECK(parse_memory_size("100000") == 100000u);
  CHECK_FALSE(parse_memory_size("lots"));
  CHECK_FALSE(parse_memory_size("8X"));
  CHECK_FALSE(parse_memory_size("-1G"));
  CHECK(format_memory_size(uint64_t(7) << 30) == "7.0 GiB");
}

TEST_CASE("an extern __shared__ write with --shared 0: an out-of-bounds fault that names the line", "[user][faults][shared]") {
  FileRequest request;
  request.inputs = {{"", "iota"}};
  request.shared = 0;
  FileRun run = run_file("shared_past_end.cu", request);
  INFO(run.message << run.compiler_output);
  CHECK(run.outcome == FileOutcome::Crash);
  CHECK(run.message.find("0 bytes past the end of the dynamic shared memory (extern __shared__, 0 bytes") !=
        std::string::npos);
  CHECK(run.message.find("shared_past_end.cu:5") != std::string::npos);
  // Sized right, the same file runs and reverses the input.
  request.shared = 32 * sizeof(int);
  run = run_file("shared_past_end.cu", request);
  INFO(run.message);
  REQUIRE(run.ok());
  CHECK(as_i32(run.launches[0].output("out")->bits[0]) == 31);
}

TEST_CASE("a launch an sm_90 GPU refuses fails with the CUDA runtime's error", "[user][faults][launch]") {
  auto refused = [](Dim3 grid, Dim3 block, size_t shared) {
    FileRequest request;
    request.grid = grid;
    request.block = block;
    request.shared = shared;
    request.inputs = {{"", "ones"}};
    request.lens = {{"out", "3"}};
    return run_file("dynamic_shared.cu", request);
  };
  SECTION("--block 2048") {
    const FileRun run = refused(Dim3{1}, Dim3{2048}, 16);
    INFO(run.message << run.compiler_output);
    CHECK(run.outcome == FileOutcome::KernelError);
    CHECK(run.message.find("cudaErrorInvalidConfiguration: invalid configuration argument") != std::string::npos);
    CHECK(run.message.find("1024 threads a block") != std::string::npos);
    CHECK(run.launches.empty());
  }
  SECTION("--grid 1,65536") {
    const FileRun run = refused(Dim3{1, 65536}, Dim3{32}, 16);
    CHECK(run.outcome == FileOutcome::KernelError);
    CHECK(run.message.find("cudaErrorInvalidConfiguration") != std::string::npos);
    CHECK(run.message.find("grid (1,65536,1)") != std::string::npos);
  }
  SECTION("--shared 10^12") {
    const FileRun run = refused(Dim3{1}, Dim3{32}, size_t(1'000'000'000'000));
    CHECK(run.outcome == FileOutcome::KernelError);
    CHECK(run.message.find("cudaErrorInvalidValue: invalid argument (1000000000000 bytes of dynamic shared") !=
          std::string::npos);
  }
  SECTION("a grid whose thread count overflows") {
    const FileRun run = refused(Dim3{0x7fffffffu, 65535, 65535}, Dim3{1024}, 16);
    INFO(run.message);
    CHECK(run.outcome == FileOutcome::KernelError);
    CHECK(run.message.find("thread count") != std::string::npos);
    CHECK(run.message.find("overflows") != std::string::npos);
  }
  SECTION("exit(0) in a kernel") {
    FileRequest request;
    const FileRun run = run_file("exit_in_kernel.cu", request);
    INFO(run.message << run.compiler_output);
    CHECK(run.outcome == FileOutcome::KernelError);
    CHECK(run.message.find("kernel `quit_early` called exit()") != std::string::npos);
  }
  SECTION("a launch from device code (dynamic parallelism) names both kernels and the backend that runs it") {
    const FileRun run = run_file("launch_from_kernel.cu");
    INFO(run.message << run.compiler_output);
    CHECK(run.outcome == FileOutcome::RequestError);
    CHECK(run.message.find("kernel `parent` launches `child` from device code (dynamic parallelism") !=
          std::string::npos);
    CHECK(run.message.find("--backend cuda") != std::string::npos);
    CHECK(run.program_output.find("done") == std::string::npos);
  }
  SECTION("a whole program sees the error from cudaGetLastError, and the kernel does not run") {
    const FileRun run = run_file("launch_refused.cu");
    INFO(run.message << run.compiler_output << run.program_output);
    REQUIRE(run.ok());
    CHECK(run.program_output.find("block 2048: cudaErrorInvalidConfiguration: invalid configuration argument") !=
          std::string::npos);
    CHECK(run.program_output.find("cleared by get: cudaSuccess") != std::string::npos);
    CHECK(run.program_output.find("grid y 65536: cudaErrorInvalidConfiguration") != std::string::npos);
    CHECK(run.program_output.find("shared 300 KB: cudaErrorInvalidValue") != std::string::npos);
    CHECK(run.program_output.find("flag 0") != std::string::npos);
    CHECK(run.launches.empty());
  }
}

TEST_CASE("user_diagnostics: an error inside warpviz's headers is reported at the user's line in CUDA's words",
          "[user][scan][diagnostics]") {
  // Prepare: g++'s output as it is for reduce_float.cu and two_errors.cu
  // (curly quotes), and for a misspelt intrinsic (the C locale's quotes).
  DiagnosticSources sources;
  sources.user_file = "k.cu";
  sources.user_text =
      "__global__ void k(const float* in, float* out) {\n"
      "    float v = in[threadIdx.x];\n"
      "    float total = __reduce_add_sync(0xffffffff, v);\n"
      "    unsigned votes = __ballot_sync(0xffffffff);\n"
      "    unsigned b = ballot(0xffffffff, v > 0);\n"
      "    int id = lane_id();\n"
      "}\n";
  sources.kit_dirs = {"/kit/include", "/kit"};
  sources.intrinsic_macros =
      "#define __ballot_sync(...) ::warpviz::rec::ballot(__LINE__, __VA_ARGS__)\n"
      "#define __reduce_add_sync(...) ::warpviz::rec::redux(::warpviz::Op::ReduxAdd, __LINE__, __VA_ARGS__)\n"
      "#define __reduce_min_sync(...) ::warpviz::rec::redux(::warpviz::Op::ReduxMin, __LINE__, __VA_ARGS__)\n";
  const std::string output =
      "In file included from /kit/include/warpviz/record.cuh:18,\n"
      "                 from <command-line>:\n"
      "/kit/include/warpviz/record_host.h: In instantiation of \u2018T warpviz::rec::redux(warpviz::Op, uint32_t, "
      "unsigned int, T) [with T = float; uint32_t = unsigned int]\u2019:\n"
      "k.cu:3:19:   required from here\n"
      "/kit/include/warpviz/record_host.h:146:40: error: static assertion failed: __reduce_*_sync takes int or "
      "unsigned\n"
      "  146 |   static_assert(sizeof(T) == 4 && std::is_integral_v<T>, \"__reduce_*_sync takes int or unsigned\");\n"
      "/kit/include/warpviz/record_host.h:146:40: note: \u2018std::is_integral_v<float>\u2019 evaluates to false\n"
      "k.cu: In function \u2018void k(const float*, float*)\u2019:\n"
      "/kit/include/warpviz/recorded_intrinsics.h:12:50: error: too few arguments to function \u2018unsigned int "
      "warpviz::rec::ballot(uint32_t, unsigned int, int)\u2019\n"
      "k.cu:4:22: note: in expansion of macro \u2018__ballot_sync\u2019\n"
      "/kit/include/warpviz/record_host.h:123:17: note: declared here\n"
      "k.cu:5:18: error: 'ballot' was not declared in this scope; did you mean 'warpviz::rec::ballot'?\n"
      "/kit/include/warpviz/record_host.h:123:17: note: 'warpviz::rec::ballot' declared here\n"
      "k.cu:6:14: error: 'lane_id' was not declared in this scope\n"
      "k.cu:6:14: note: suggested alternatives:\n"
      "/kit/include/warpviz/record_host.h:171:17: note:   'warpviz::rec::lane_id'\n"
      "/kit/include/warpviz/cooperative_groups_rec.h:22:28: note:   'warpviz::cg::lane_id'\n";

  // Run
  const std::vector<Diagnostic> d = user_diagnostics(output, sources);

  // Verify: four errors, each at the user's line, none naming warpviz::.
  REQUIRE(d.size() == 4);
  for (const Diagnostic& one : d) {
    CHECK(one.file == "k.cu");
    CHECK(one.severity == "error");
    CHECK(one.message.find("warpviz") == std::string::npos);
  }
  CHECK((d[0].line == 3 && d[0].column == 19));
  CHECK(d[0].message == "__reduce_add_sync takes int or unsigned; you passed float");
  CHECK((d[1].line == 4 && d[1].column == 22));
  CHECK(d[1].message == "too few arguments to function \u2018__ballot_sync\u2019");
  CHECK(d[2].line == 5);
  CHECK(d[2].message == "'ballot' was not declared in this scope; did you mean '__ballot_sync'?");
  CHECK(d[3].line == 6);
  CHECK(d[3].message == "'lane_id' was not declared in this scope");

  // An error in a kit header with no line of the user's behind it stays
  // there, and parse_diagnostics (the raw reading) still sees every line.
  const std::vector<Diagnostic> alone =
      user_diagnostics("/kit/include/warpviz/x.h:1:1: error: 'warpviz::cg::grid' is odd\n", sources);
  REQUIRE(alone.size() == 1);
  CHECK(alone[0].file == "/kit/include/warpviz/x.h");
  CHECK(alone[0].message == "'cooperative_groups::grid' is odd");
  CHECK(parse_diagnostics(output).size() == 11);  // 4 errors, 7 notes
}

TEST_CASE("compile errors in warpviz's headers come back at the user's lines", "[user][faults][diagnostics]") {
  SECTION("a float given to __reduce_add_sync") {
    const FileRun run = run_file("reduce_float.cu");
    INFO(run.compiler_output);
    CHECK(run.outcome == FileOutcome::CompileError);
    REQUIRE_FALSE(run.diagnostics.empty());
    CHECK(run.diagnostics[0].file == fixture("reduce_float.cu"));
    CHECK(run.diagnostics[0].line == 4);
    CHECK(run.diagnostics[0].message == "__reduce_add_sync takes int or unsigned; you passed float");
    CHECK(run.message.find("reduce_float.cu:4:") != std::string::npos);
    CHECK(run.message.find("record_host.h") == std::string::npos);
  }
  SECTION("two mistakes: both lines, neither naming warpviz's internals") {
    const FileRun run = run_file("two_errors.cu");
    INFO(run.compiler_output);
    CHECK(run.outcome == FileOutcome::CompileError);
    std::vector<int> lines;
    for (const Diagnostic& d : run.diagnostics) {
      CHECK(d.message.find("warpviz::") == std::string::npos);
      if (d.severity == "error" && d.file == fixture("two_errors.cu")) lines.push_back(d.line);
    }
    CHECK(lines == std::vector<int>{4, 5});
  }
}

TEST_CASE("a user's mistakes end in clear outcomes, never a hang", "[user][faults]") {
  SECTION("a syntax error names the file and line") {
    const FileRun run = run_file("syntax_error.cu");
    CHECK(run.outcome == FileOutcome::CompileError);
    CHECK(run.message.find("syntax_error.cu:3:") != std::string::npos);  // where g++ sees the missing ;
    REQUIRE_FALSE(run.diagnostics.empty());
    CHECK(run.diagnostics[0].line == 3);
  }
  SECTION("an out-of-bounds write names the array, the thread and the line") {
    const FileRun run = run_file("out_of_bounds.cu");
    CHECK(run.outcome == FileOutcome::Crash);
    CHECK(run.message.find("past the end of `out` (128 bytes)") != std::string::npos);
    CHECK(run.message.find("thread (0,0,0) = warp 0, lane 0") != std::string::npos);
    CHECK(run.message.find("out_of_bounds.cu:4") != std::string::npos);
  }
  SECTION("an endless loop stops at the time limit and says where it was") {
    FileRequest request;
    request.time_limit_s = 1.0;
    const FileRun run = run_file("endless.cu", request);
    CHECK(run.outcome == FileOutcome::Timeout);
    CHECK(run.message.find("time limit of 1 s") != std::string::npos);
    CHECK(run.message.find("in kernel spin") != std::string::npos);
    CHECK(run.timing.run_ms < 3000);
  }
  SECTION("a deadlock: who waits at the barrier, and where the one they wait for is") {
    FileRequest request;
    request.block = Dim3{64};
    request.time_limit_s = 1.5;
    const FileRun run = run_file("deadlock.cu", request);
    INFO(run.message);
    CHECK(run.outcome == FileOutcome::Deadlock);
    CHECK(run.message.find("deadlock: 32 threads wait at __syncthreads() (the first, thread (0,0,0) (warp 0, lane 0), "
                           "on line 9)") != std::string::npos);
    CHECK(run.message.find("thread (32,0,0) = warp 1, lane 0, at ") != std::string::npos);
    // The spinning load's line (the report may land in its meeting point's code).
    CHECK(run.message.find("deadlock.cu:7") != std::string::npos);
    CHECK(run.timing.run_ms < 4000);
  }
}

// As the H200 ran it (docs/h200-results.md): the shuffle goes on without the
// lanes at the barrier, lane 15's read of lane 16 is 0 and undefined.
TEST_CASE("a shuffle whose partners wait at a barrier goes on without them, as on the H200", "[user][run]") {
  FileRequest request;
  request.inputs = {{"", "iota"}};
  const FileRun run = run_file("shuffle_vs_barrier.cu", request);
  INFO(run.message << run.compiler_output);
  REQUIRE(run.ok());
  const Trace& t = run.launches[0];
  REQUIRE(t.steps.size() == 1);
  CHECK(t.steps[0].lanes[15].undefined());
  CHECK_FALSE(t.steps[0].lanes[14].undefined());
  const TraceOutput* out = t.output("out");
  REQUIRE(out);
  for (int lane = 0; lane < 15; ++lane) CHECK(as_i32(out->bits[lane]) == lane + 1);
  CHECK(as_i32(out->bits[15]) == 0);
  for (int lane = 16; lane < 32; ++lane) CHECK(as_i32(out->bits[lane]) == lane);
}

TEST_CASE("the starter file runs as it is, and comes from the cache the second time", "[user][run]") {
  const fs::path dir = fs::temp_directory_path() / ("warpviz-starter-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "k.cu";
  std::ofstream(file) << starter_file_text();
  FileRequest request;
  request.path = file.string();
  request.inputs = {{"", "iota"}};
  const FileRun first = run_user_file(request);
  INFO(first.message << first.compiler_output);
  REQUIRE(first.ok());
  const Trace& t = first.launches[0];
  REQUIRE(t.output("sum"));
  REQUIRE(t.output("votes"));
  CHECK(as_i32(t.output("sum")->bits[0]) == 496);
  CHECK(t.output("votes")->bits[0] == 0xfffffffeu);  // every lane but lane 0 holds more than 0
  CHECK(t.steps.front().op == Op::Ballot);
  const FileRun again = run_user_file(request);
  REQUIRE(again.ok());
  CHECK(again.timing.cached);
  fs::remove_all(dir);
}

TEST_CASE("a file that declares its scenario: listed, then run with --set", "[user][run]") {
  FileRequest list;
  list.list_scenarios = true;
  FileRun run = run_file("declared.cu", list);
  INFO(run.message << run.compiler_output);
  REQUIRE(run.ok());
  CHECK(run.declared_scenarios.find("\"scale_add\"") != std::string::npos);
  CHECK(run.declared_scenarios.find("\"factor\"") != std::string::npos);

  FileRequest request;
  request.sets = {{"factor", "2"}, {"dtype", "i32"}};
  request.inputs = {{"", "iota"}};
  run = run_file("declared.cu", request);
  INFO(run.message << "\n" << run.program_output);
  REQUIRE(run.ok());
  REQUIRE(run.launches.size() == 1);
  const Trace& t = run.launches[0];
  CHECK(t.meta.scenario == "scale_add");
  CHECK(t.meta.params.at("factor") == "2");
  REQUIRE(t.steps.size() == 1);
  CHECK(t.steps[0].op == Op::ShflXor);
  CHECK(t.steps[0].line == 8);
  REQUIRE(t.output("out"));
  CHECK(as_i32(t.output("out")->bits[0]) == 2);   // 0*2 + 1*2
  CHECK(as_i32(t.output("out")->bits[2]) == 10);  // 2*2 + 3*2

  request.sets = {{"factor", "500"}};
  run = run_file("declared.cu", request);
  CHECK(run.outcome == FileOutcome::RequestError);
  CHECK(run.message.find("factor") != std::string::npos);
}

TEST_CASE("a kernel name is a name: code in --kernel is refused before anything is compiled", "[user][hostile]") {
  const fs::path dir = fs::temp_directory_path() / ("warpviz-kernel-name-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path marker = dir / "ran";
  const std::string hostile[] = {
      "scale<int>); system(\"touch " + marker.string() + "\"); (void)(0",
      "scale<int>\n#include <cstdlib>\nint x = system(\"touch " + marker.string() + "\");",
      "scale<int>>(0); int y = (system(\"touch " + marker.string() + "\")",
      "scale<(int)1>",
      "scale<int",
      "scale<int>x",
  };
  for (const std::string& name : hostile) {
    FileRequest request;
    request.kernel = name;
    request.inputs = {{"", "iota"}};
    const FileRun run = run_file("two_kernels.cu", request);
    INFO(name << " -> " << run.message);
    CHECK(run.outcome == FileOutcome::RequestError);
    CHECK(run.message.find("is not a kernel name") != std::string::npos);
    CHECK(run.message.find('\n') == std::string::npos);
    CHECK(run.launches.empty());
  }
  CHECK_FALSE(fs::exists(marker));

  FileRequest request;  // template arguments of the allowed kinds still run
  request.kernel = "scale<unsigned int>";
  request.inputs = {{"", "iota"}};
  const FileRun run = run_file("two_kernels.cu", request);
  INFO(run.message << run.compiler_output);
  CHECK(run.ok());
  fs::remove_all(dir);
}

TEST_CASE("a path with a newline or a quote compiles and names the user's line", "[user][hostile]") {
  const fs::path dir = fs::temp_directory_path() / ("warpviz-odd-path-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const std::string name : {"a\"b.cu", "line\nbreak.cu", "q?\?=.cu"}) {
    const fs::path path = dir / name;
    fs::copy_file(fixture("my_sum.cu"), path, fs::copy_options::overwrite_existing);
    FileRequest request;
    request.path = path.string();
    request.inputs = {{"", "iota"}};
    const FileRun run = run_user_file(request);
    INFO(name << ": " << run.message << run.compiler_output);
    REQUIRE(run.ok());
    REQUIRE(run.launches.size() == 1);
    REQUIRE(run.launches[0].steps.size() == 5);
    CHECK(run.launches[0].steps[0].line == 4);
  }
  fs::remove_all(dir);
}
