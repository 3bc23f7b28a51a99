// Kernel printf in the GPU's order: a converged warp prints statement by
// statement, lane 0 to 31 within each (CUDA Programming Guide, "Formatted
// Output": printf runs per thread; a warp runs a statement for its active
// lanes together). LaneOutputBuffer alone, then small users' programs run on
// the CPU emulator with the exact order asserted.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#include "temp_dir.h"
#include "warpviz/lane_output_buffer.h"
#include "warpviz/user_file.h"
#include "warpviz/warp_scheduler.h"

using namespace warpviz;
using namespace warpviz::user;

namespace {

std::string fixture(const std::string& name) { return std::string(WARPVIZ_TEST_USER_FILES) + "/printf/" + name; }

FileRun run_program(const std::string& name, double time_limit_s = 30) {
  FileRequest request;
  request.path = fixture(name);
  request.backend = FileBackend::Cpu;
  request.time_limit_s = time_limit_s;
  return run_user_file(request);
}

// "first 0\nfirst 1\n..." for lanes [from, to).
std::string lane_lines(const std::string& format_prefix, int from, int to, const std::string& suffix = "") {
  std::string text;
  for (int lane = from; lane < to; ++lane) text += format_prefix + std::to_string(lane) + suffix + "\n";
  return text;
}

// The program's own lines: the runner's summary and messages after them left out.
std::string program_part(const std::string& output) {
  const size_t summary = output.find("\nlaunch 0:");
  return summary == std::string::npos ? output : output.substr(0, summary + 1);
}

}  // namespace

// ---------------------------------------------------------------------------
// LaneOutputBuffer
// ---------------------------------------------------------------------------

TEST_CASE("lane output: held lines come out round by round, lanes ascending", "[printf]") {
  // Prepare: a sink that keeps what is written.
  std::string written;
  emu::LaneOutputBuffer buffer([&](std::string_view text) { written += text; });
  buffer.reset(2);
  // Run: lanes 0..2 print twice each in the emulator's order (lane by lane).
  for (uint32_t lane = 0; lane < 3; ++lane) {
    buffer.append(0, lane, "a" + std::to_string(lane) + " ");
    buffer.append(0, lane, "b" + std::to_string(lane) + " ");
  }
  // Verify: nothing is written before the sync; then the GPU's order.
  CHECK(written.empty());
  buffer.flush(0, 0xffffffffu);
  CHECK(written == "a0 a1 a2 b0 b1 b2 ");
  CHECK(buffer.empty());
}

TEST_CASE("lane output: a flush of some lanes leaves the others held, their rounds kept", "[printf]") {
  std::string written;
  emu::LaneOutputBuffer buffer([&](std::string_view text) { written += text; });
  buffer.reset(1);
  buffer.append(0, 3, "x3 ");
  buffer.append(0, 1, "x1 ");
  buffer.append(0, 2, "y2 ");
  // Lanes 1 and 3 meet at a collective; lane 2 is elsewhere.
  buffer.flush(0, (1u << 1) | (1u << 3));
  CHECK(written == "x1 x3 ");
  // Lane 1 starts its rounds again; lane 2's line is still its round 0.
  buffer.append(0, 1, "z1 ");
  buffer.append(0, 2, "w2 ");
  buffer.flush(0, 0xffffffffu);
  CHECK(written == "x1 x3 z1 y2 w2 ");
}

TEST_CASE("lane output: warps flush on their own; flush_all goes warp by warp", "[printf]") {
  std::string written;
  emu::LaneOutputBuffer buffer([&](std::string_view text) { written += text; });
  buffer.reset(2);
  buffer.append(1, 0, "w1 ");
  buffer.append(0, 0, "w0 ");
  buffer.flush(1, 0xffffffffu);
  CHECK(written == "w1 ");
  buffer.append(1, 4, "v1 ");
  buffer.flush_all();
  CHECK(written == "w1 w0 v1 ");
}

TEST_CASE("lane output: a crash's flush writes to a file descriptor once", "[printf]") {
  testing_support::TempDir dir("printf");
  const std::string path = dir.file("out.txt");
  FILE* file = std::fopen(path.c_str(), "w+");
  REQUIRE(file != nullptr);
  emu::LaneOutputBuffer buffer([](std::string_view) { FAIL("the sink is not the crash path"); });
  buffer.reset(1);
  buffer.append(0, 1, "b\n");
  buffer.append(0, 0, "a\n");
  buffer.flush_all_to_fd(fileno(file));
  buffer.flush_all_to_fd(fileno(file));  // a second report adds nothing
  std::fflush(file);
  std::rewind(file);
  char text[64] = {};
  const size_t n = std::fread(text, 1, sizeof text - 1, file);
  std::fclose(file);
  CHECK(std::string(text, n) == "a\nb\n");
}

TEST_CASE("lane output: a lane printing without end is written before it holds too much", "[printf]") {
  size_t written = 0;
  emu::LaneOutputBuffer buffer([&](std::string_view text) { written += text.size(); });
  buffer.reset(1);
  const std::string line(1000, 'x');
  for (size_t i = 0; i * line.size() <= emu::LaneOutputBuffer::kMaxHeldBytes; ++i) buffer.append(0, 0, line);
  CHECK(written > emu::LaneOutputBuffer::kMaxHeldBytes);
}

// ---------------------------------------------------------------------------
// Users' programs on the emulator
// ---------------------------------------------------------------------------

TEST_CASE("kernel printf: a converged warp prints statement by statement, lane 0 to 31", "[printf][user]") {
  const FileRun run = run_program("converged_warp.cu");
  REQUIRE(run.ok());
  // The host's lines stay where the program put them, around the launch;
  // printf in a kernel returns the arguments it parsed (two).
  const std::string expected = "host before\n" + lane_lines("first ", 0, 32) + lane_lines("second ", 0, 32, " of 32") +
                               "host after: printf returned 2\n";
  CHECK(program_part(run.program_output) == expected);
}

TEST_CASE("kernel printf: two warps each print in lane order, __syncthreads() between the statements",
          "[printf][user]") {
  const FileRun run = run_program("two_warps.cu");
  REQUIRE(run.ok());
  // Which warp of a block prints first is the GPU's choice; the emulator
  // runs warp 0 first. Every "before" line precedes every "after" line.
  std::string expected;
  for (const char* word : {"before", "after"})
    for (int warp = 0; warp < 2; ++warp)
      expected += lane_lines(std::string(word) + " w" + std::to_string(warp) + " l", 0, 32);
  CHECK(program_part(run.program_output) == expected);
}

TEST_CASE("kernel printf: a divergent branch prints round by round, then the joined warp", "[printf][user]") {
  const FileRun run = run_program("divergent.cu");
  REQUIRE(run.ok());
  // Both sides' first printf is round 0: lanes ascending, the `if` side's
  // lanes 0..15 then the `else` side's 16..31 (the order a GPU that runs the
  // `if` side first gives); __syncwarp() then writes them before "joined".
  const std::string expected = lane_lines("low ", 0, 16) + lane_lines("high ", 16, 32) + lane_lines("joined ", 0, 32);
  CHECK(program_part(run.program_output) == expected);
}

TEST_CASE("kernel printf: what was printed before a crash comes out, in lane order", "[printf][user]") {
  const FileRun run = run_program("printf_then_crash.cu");
  // Lanes 0..5 printed (lane 5 faulted right after its printf, before lanes
  // 6..31 ran); then the host meets the error (a crash report under
  // AddressSanitizer, which keeps the old way).
  const std::string expected = "host before\n" + lane_lines("line ", 0, 6);
  CHECK(run.program_output.substr(0, expected.size()) == expected);
  CHECK(run.program_output.find("line 6\n") == std::string::npos);
  if (warpviz::emu::lands_memory_faults()) {
    CHECK(run.ok());
    CHECK(run.program_output.substr(expected.size()) == "host after: an illegal memory access was encountered\n");
  } else {
    CHECK(run.outcome == FileOutcome::Crash);
    CHECK(run.program_output.find("host after") == std::string::npos);
  }
}

TEST_CASE("kernel printf: a kernel stopped at the time limit has its lines written", "[printf][user]") {
  const FileRun run = run_program("printf_then_hang.cu", 2);
  CHECK((run.outcome == FileOutcome::Timeout || run.outcome == FileOutcome::Deadlock));
  CHECK(run.program_output.find("lane 0 is here\n") != std::string::npos);
}

TEST_CASE("kernel printf: every block's lines before grid.sync() come before any after it", "[printf][user]") {
  const FileRun run = run_program("grid_sync.cu");
  REQUIRE(run.ok());
  // grid.sync() orders the whole grid: no thread prints "after" before every
  // thread printed "before". The order of the blocks is the GPU's choice; the
  // emulator's blocks take turns in order, 0 then 1.
  std::string expected;
  for (const char* word : {"before", "after"})
    for (int block = 0; block < 2; ++block)
      expected += lane_lines(std::string(word) + " b" + std::to_string(block) + " l", 0, 32);
  CHECK(program_part(run.program_output) == expected);
}

// ---------------------------------------------------------------------------
// The launch's figures (launches.jsonl -> FileRun::launch_work), which
// `warpviz-cli bench corpus` prints
// ---------------------------------------------------------------------------

TEST_CASE("launch work: a run carries each launch's warp operations and lanes", "[printf][bench]") {
  const FileRun run = run_program("two_warp_shuffle.cu");
  REQUIRE(run.ok());
  REQUIRE(run.launch_work.size() == 1);
  // 64 threads are two warps; each runs the one __shfl_sync with all 32 lanes.
  CHECK(run.launch_work[0].threads == 64);
  CHECK(run.launch_work[0].warp_ops == 2);
  CHECK(run.launch_work[0].lane_ops == 64);
  CHECK(run.launch_work[0].seconds > 0);
}
