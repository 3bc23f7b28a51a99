// The app's session for a user's .cu file, headless: a run on a background
// thread, live reload on save keeping the user's place, a compile error that
// keeps the last good trace (marked stale), cancel, and the launch picker.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "warpviz/user_source.h"
#include "warpviz/view/play_order.h"
#include "warpviz/view/user_file_session.h"
#include "temp_dir.h"

using namespace warpviz;
using namespace warpviz::view;
namespace fs = std::filesystem;

namespace {

constexpr double kSettle = 240;  // seconds: a cold compile on a busy two-core machine

std::string fixture(const std::string& name) { return std::string(WARPVIZ_TEST_USER_FILES) + "/" + name; }

std::string read(const std::string& path) { return user::read_text_file(path); }

using warpviz::testing_support::TempDir;

// Writes `text` and moves the file's time on by a second, so the save is seen
// whatever the file system's time resolution.
void save(const fs::path& file, const std::string& text) {
  std::error_code ec;
  const auto before = fs::last_write_time(file, ec);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
  if (!ec) fs::last_write_time(file, before + std::chrono::seconds(1));
}

const std::string kSum =
    "__global__ void my_sum(const int* in, int* out) {\n"
    "    int v = in[threadIdx.x];\n"
    "    for (int offset = 16; offset > 0; offset >>= 1)\n"
    "        v += __shfl_down_sync(0xffffffff, v, offset);\n"
    "    out[threadIdx.x] = v;\n"
    "}\n";

user::FileRequest request_for(const fs::path& file) {
  user::FileRequest request;
  request.path = file.string();
  request.inputs.emplace_back("", "iota");
  return request;
}

Trace launch_of(const std::string& kernel, size_t steps) {
  Trace t;
  t.meta.params["kernel"] = kernel;
  for (size_t i = 0; i < steps; ++i) t.steps.push_back(TraceStep{});
  return t;
}

}  // namespace

TEST_CASE("session: a save re-runs the file and keeps the step", "[user][session]") {
  // Prepare
  TempDir dir;
  const fs::path file = dir.path / "k.cu";
  std::ofstream(file) << kSum;
  UserFileSession session;
  session.open(request_for(file));
  CHECK(session.busy());
  CHECK(session.source_text() == kSum);  // the text is there before the run ends
  REQUIRE(session.wait_until_settled(kSettle));
  REQUIRE(session.state() == FileRunState::Done);
  REQUIRE(session.shown_trace() != nullptr);
  REQUIRE(session.shown_trace()->steps.size() > 3);
  CHECK_THAT(session.status_text(), Catch::StartsWith("done in"));
  session.place.step = 3;
  const uint64_t trace_before = session.trace_generation(), source_before = session.source_generation();

  // Run: the user saves a new version (one more line at the top).
  const std::string edited = "// edited\n" + kSum;
  save(file, edited);
  session.check_files_now();
  CHECK(session.update());

  // Verify: the new text at once, then the new trace at the same step.
  CHECK(session.source_generation() == source_before + 1);
  CHECK(session.source_text() == edited);
  CHECK(session.busy());
  REQUIRE(session.wait_until_settled(kSettle));
  CHECK(session.state() == FileRunState::Done);
  CHECK(session.trace_generation() > trace_before);
  CHECK(session.place.step == 3);
  CHECK(session.place.kernel == "my_sum");
  REQUIRE(session.shown_trace() != nullptr);
  CHECK(session.shown_trace()->meta.source_text == edited);
  CHECK_FALSE(session.stale());

  // Saving the same text again re-runs from the cache.
  save(file, edited);
  session.check_files_now();
  session.update();
  REQUIRE(session.wait_until_settled(kSettle));
  CHECK_THAT(session.status_text(), Catch::EndsWith("(cached)"));
  CHECK(session.place.step == 3);
}

TEST_CASE("session: a compile error keeps the last good trace and marks it stale", "[user][session]") {
  // Prepare: a good run.
  TempDir dir;
  const fs::path file = dir.path / "k.cu";
  std::ofstream(file) << kSum;
  UserFileSession session;
  session.open(request_for(file));
  REQUIRE(session.wait_until_settled(kSettle));
  REQUIRE(session.shown_trace() != nullptr);
  const uint64_t good = session.trace_generation();
  const size_t good_steps = session.shown_trace()->steps.size();

  // Run: a save with a missing ';' on line 2.
  std::string broken = kSum;
  broken.replace(broken.find("in[threadIdx.x];"), 16, "in[threadIdx.x]");
  save(file, broken);
  session.check_files_now();
  session.update();
  REQUIRE(session.wait_until_settled(kSettle));

  // Verify: the error is at its line, the old trace stays and is stale.
  CHECK(session.state() == FileRunState::Failed);
  REQUIRE(session.last_run() != nullptr);
  CHECK(session.last_run()->outcome == user::FileOutcome::CompileError);
  CHECK(session.status_text() == "compile error");
  CHECK(session.stale());
  CHECK(session.trace_generation() == good);
  REQUIRE(session.shown_trace() != nullptr);
  CHECK(session.shown_trace()->steps.size() == good_steps);
  const auto errors = session.diagnostics_in_file();
  REQUIRE_FALSE(errors.empty());
  CHECK(errors.front().severity == "error");
  CHECK((errors.front().line == 2 || errors.front().line == 3));  // g++ names the line the ';' is missing after or before
  CHECK(session.diagnostics_elsewhere().empty());
  CHECK(session.source_text() == broken);

  // Fixing it clears the mark.
  save(file, kSum);
  session.check_files_now();
  session.update();
  REQUIRE(session.wait_until_settled(kSettle));
  CHECK(session.state() == FileRunState::Done);
  CHECK_FALSE(session.stale());
  CHECK(session.diagnostics_in_file().empty());
  CHECK(session.trace_generation() > good);
}

TEST_CASE("session: cancel stops a run of endless.cu", "[user][session]") {
  // Prepare: a time limit far beyond the test's patience.
  user::FileRequest request;
  request.path = fixture("endless.cu");
  request.time_limit_s = 600;
  UserFileSession session;
  session.open(request);

  // Run: wait until the program runs (past compiling), then cancel.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(int(kSettle));
  while (session.state() != FileRunState::Running && session.busy() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    session.update();
  }
  REQUIRE(session.state() == FileRunState::Running);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto cancelled_at = std::chrono::steady_clock::now();
  session.cancel();

  // Verify: it stops within seconds, as cancelled.
  REQUIRE(session.wait_until_settled(30));
  CHECK(std::chrono::steady_clock::now() - cancelled_at < std::chrono::seconds(10));
  CHECK(session.state() == FileRunState::Failed);
  REQUIRE(session.last_run() != nullptr);
  CHECK(session.last_run()->outcome == user::FileOutcome::Cancelled);
  CHECK(session.status_text() == "cancelled");
  CHECK(session.shown_trace() == nullptr);
}

namespace {

// Until the run's program is running (past compiling), updating as the app's loop does.
bool wait_until_running(UserFileSession& session) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(int(kSettle));
  while (session.state() != FileRunState::Running && session.busy() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    session.update();
  }
  return session.state() == FileRunState::Running;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("session: close returns at once while a forked child holds the program's stdout", "[user][session][ui]") {
  // fork_leaves_group.cu's child leaves the process group, so the run's
  // thread waits for its pipe after the kill; fork_keeps_stdout.cu's stays.
  for (const char* name : {"fork_leaves_group.cu", "fork_keeps_stdout.cu"}) {
    INFO(name);
    // Prepare: the program runs, and has forked.
    std::atomic<int> wakes{0};
    UserFileSession session([&wakes] { ++wakes; });
    user::FileRequest request;
    request.path = fixture(name);
    request.time_limit_s = 600;
    session.open(request);
    REQUIRE(wait_until_running(session));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));

    // Run
    const auto t0 = std::chrono::steady_clock::now();
    session.close();
    const double close_ms = ms_since(t0);

    // Verify: the frame was not held; the abandoned run neither wakes the
    // app nor shows up, and the session takes a new file at once.
    CHECK(close_ms < 100);
    CHECK_FALSE(session.busy());
    CHECK(session.state() == FileRunState::Idle);
    CHECK(session.path().empty());
    const int wakes_at_close = wakes;
    std::this_thread::sleep_for(std::chrono::milliseconds(800));
    CHECK_FALSE(session.update());
    CHECK(wakes == wakes_at_close);
    CHECK(session.last_run() == nullptr);
  }
}

TEST_CASE("session: reopening and ending a session never wait for the run in flight", "[user][session][ui]") {
  // Prepare
  TempDir dir;
  const fs::path file = dir.path / "k.cu";
  std::ofstream(file) << kSum;
  auto session = std::make_unique<UserFileSession>();
  user::FileRequest slow;
  slow.path = fixture("fork_leaves_group.cu");
  slow.time_limit_s = 600;
  session->open(slow);
  REQUIRE(wait_until_running(*session));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));

  // Run: another file opened over it; its result is the new file's.
  auto t0 = std::chrono::steady_clock::now();
  session->open(request_for(file));
  CHECK(ms_since(t0) < 100);
  REQUIRE(session->wait_until_settled(kSettle));
  REQUIRE(session->last_run() != nullptr);
  CHECK(session->last_run()->ok());
  CHECK(session->path() == file.string());

  // A run that is running when the session ends (the app quits).
  session->open(slow);
  REQUIRE(wait_until_running(*session));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  t0 = std::chrono::steady_clock::now();
  session.reset();
  CHECK(ms_since(t0) < 100);
}

TEST_CASE("session: every error line of two_errors.cu is in the file and none elsewhere", "[user][session]") {
  // Prepare
  user::FileRequest request;
  request.path = fixture("two_errors.cu");
  UserFileSession session;

  // Run
  session.open(request);
  REQUIRE(session.wait_until_settled(kSettle));

  // Verify: the source panel marks what diagnostics_in_file gives: both lines.
  REQUIRE(session.last_run() != nullptr);
  CHECK(session.last_run()->outcome == user::FileOutcome::CompileError);
  std::vector<int> lines;
  for (const user::Diagnostic& d : session.diagnostics_in_file()) lines.push_back(d.line);
  CHECK(lines == std::vector<int>{4, 5});
  CHECK(session.diagnostics_elsewhere().empty());
}

TEST_CASE("session: a run past its memory limit says so and names the app's setting", "[user][session][memory]") {
  // Prepare
  user::FileRequest request;
  request.path = fixture("memory_hog.cu");
  request.memory_limit_bytes = uint64_t(256) << 20;
  UserFileSession session;

  // Run
  session.open(request);
  REQUIRE(session.wait_until_settled(kSettle));

  // Verify: the outcome and message the scenario panel's error box shows.
  REQUIRE(session.last_run() != nullptr);
  INFO(session.last_run()->message);
  CHECK(session.last_run()->outcome == user::FileOutcome::MemoryLimit);
  CHECK(session.status_text() == "memory limit");
  CHECK_THAT(session.last_run()->message, Catch::Contains("memory limit of 256.0 MiB") &&
                                              Catch::Contains(UserFileSession::kMemoryLimitHint));
  CHECK_THAT(session.last_run()->message, !Catch::Contains("--memory-limit"));
}

TEST_CASE("session: a whole program's launches, picked and kept across a reload", "[user][session]") {
  // Prepare: warp_shuffle.cu copied, so a save does not touch the fixture.
  TempDir dir;
  const fs::path file = dir.path / "warp_shuffle.cu";
  fs::copy_file(fixture("warp_shuffle.cu"), file);
  user::FileRequest request;
  request.path = file.string();
  UserFileSession session;
  session.open(request);
  REQUIRE(session.wait_until_settled(kSettle));
  REQUIRE(session.last_run() != nullptr);
  REQUIRE(session.last_run()->ok());
  REQUIRE(session.shown_run()->launches.size() >= 2);
  CHECK_THAT(session.last_run()->program_output, Catch::Contains("Warp"));

  // Run: pick launch 1, then save the file unchanged.
  const std::string kernel1 = session.shown_run()->launches[1].meta.params.at("kernel");
  session.select_launch(1);
  CHECK(session.place.kernel == kernel1);
  CHECK(session.shown_trace() == &session.shown_run()->launches[1]);
  session.place.step = 2;
  save(file, read(file.string()));
  session.check_files_now();
  session.update();
  REQUIRE(session.wait_until_settled(kSettle));

  // Verify
  CHECK(session.place.launch == 1);
  CHECK(session.place.kernel == kernel1);
  CHECK(session.place.step == 2);
  CHECK_THAT(launch_label(session.shown_run()->launches[1], 1), Catch::StartsWith("launch 1: " + kernel1 + " <<<"));
}

TEST_CASE("step N of dot.cu with two warps is play position N-1 of the timeline's order", "[user][session][steps]") {
  // Prepare: dot.cu with 64 threads, two warps of five shuffles each.
  user::FileRequest request = request_for(fixture("dot.cu"));
  request.block = Dim3{64, 1, 1};
  UserFileSession session;
  session.open(request);
  REQUIRE(session.wait_until_settled(kSettle));
  const Trace* trace = session.shown_trace();
  REQUIRE(trace != nullptr);
  REQUIRE(trace->steps.size() == 10);
  const PlayOrder order(*trace, PlayOrderKind::Causal);  // the app's default
  REQUIRE(order.size() == trace->steps.size());

  // Run / Verify: every number lands on its own position, whichever warp's
  // step plays there; the order the timeline plays is not the stored one.
  size_t moved = 0;
  for (size_t number = 1; number <= order.size(); ++number) {
    INFO("step " << number);
    const auto numbered = numbered_step(*trace, order, number);
    REQUIRE(numbered.has_value());
    CHECK(numbered->position == number - 1);
    CHECK(order.position_of(numbered->step) == number - 1);
    CHECK(numbered->block == trace->steps.block(numbered->step));
    CHECK(numbered->warp == trace->steps.warp(numbered->step));
    CHECK(warp_label(*trace, numbered->step, Language::English) ==
          "block 0, warp " + std::to_string(numbered->warp));
    if (numbered->step != number - 1) ++moved;
  }
  CHECK(moved > 0);  // the stored index is no step number
  // Causal: round 1 of warp 0, then round 1 of warp 1.
  CHECK(numbered_step(*trace, order, 1)->warp == 0);
  CHECK(numbered_step(*trace, order, 2)->warp == 1);
  CHECK_FALSE(numbered_step(*trace, order, 0).has_value());
  CHECK_FALSE(numbered_step(*trace, order, order.size() + 1).has_value());
  CHECK(step_number_error("--step", 11, order.size()) == "--step 11: the trace has 10 steps (1 to 10)");
  CHECK(warp_label(*trace, 1, Language::Chinese) == "线程块 0，warp " + std::to_string(trace->steps.warp(1)));
}

TEST_CASE("restore_place: the same launch and step, else the kernel's launch, else the nearest", "[user][session]") {
  user::FileRun run;
  run.launches = {launch_of("a", 10), launch_of("b", 4), launch_of("a", 6)};
  // Same index, same kernel: kept.
  FilePlace p = restore_place(run, {2, "a", 5});
  CHECK((p.launch == 2 && p.kernel == "a" && p.step == 5));
  // The step is past the launch's end: its last step.
  p = restore_place(run, {1, "b", 7});
  CHECK((p.launch == 1 && p.step == 3));
  // The kernel moved: found by name.
  p = restore_place(run, {0, "b", 2});
  CHECK((p.launch == 1 && p.kernel == "b" && p.step == 2));
  // Gone: the same index, or launch 0 past the end.
  p = restore_place(run, {2, "gone", 1});
  CHECK((p.launch == 2 && p.kernel == "a"));
  p = restore_place(run, {9, "gone", 1});
  CHECK((p.launch == 0 && p.kernel == "a" && p.step == 1));
  // No kernel named yet (a first run, --launch 1): the index.
  p = restore_place(run, {1, "", 0});
  CHECK(p.kernel == "b");
}

TEST_CASE("file options: dims, inputs, NAME=VALUE", "[user][session]") {
  Dim3 d;
  std::string error;
  CHECK(parse_dims("4", &d, &error));
  CHECK(d == Dim3(4));
  CHECK(parse_dims("4, 2", &d, &error));
  CHECK(d == Dim3(4, 2));
  CHECK(format_dims(Dim3(4, 2)) == "4,2");
  CHECK(format_dims(Dim3(256)) == "256");
  CHECK(format_dims(Dim3(1, 1, 3)) == "1,1,3");
  CHECK_FALSE(parse_dims("0", &d, &error));
  CHECK_FALSE(parse_dims("1,2,3,4", &d, &error));
  CHECK_FALSE(parse_dims("x", &d, &error));
  CHECK_FALSE(parse_dims("", &d, &error));
  CHECK_THAT(error, Catch::Contains("X[,Y[,Z]]"));

  CHECK(parse_input_option("iota") == std::pair<std::string, std::string>("", "iota"));
  CHECK(parse_input_option("in=random:7") == std::pair<std::string, std::string>("in", "random:7"));
  CHECK(parse_input_option("values:1,2") == std::pair<std::string, std::string>("", "values:1,2"));
  std::pair<std::string, std::string> nv;
  CHECK(parse_name_value("n=5", &nv, &error));
  CHECK(nv == std::pair<std::string, std::string>("n", "5"));
  CHECK_FALSE(parse_name_value("=5", &nv, &error));
  CHECK_FALSE(parse_name_value("n", &nv, &error));

  CHECK(is_cuda_source("a/k.cu"));
  CHECK(is_cuda_source("k.cuh"));
  CHECK_FALSE(is_cuda_source("k.wvt"));
}
