// Warp-synchronous code without __syncwarp: a converged warp makes each
// volatile access for all its lanes before any lane goes on, and every lane's
// stores before any passes a fence, as the H200 does (the compiler plugin's
// meeting points, cuda_cpu/compiler_plugin/converged_access.cpp; __threadfence
// in cuda_cpu/device/include/warpviz/atomics.h). Each file's result is checked lane by lane against a
// model of the converged warp, and its whole output against the H200's
// (tests/h200_probes/lockstep/NAME.out, made by scripts/h200-probes.sh; the
// H200's racecheck calls the reduction's accesses hazards, and still sums 2080).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "warpviz/user_file.h"

using namespace warpviz;
using namespace warpviz::user;

namespace {

FileRun run_lockstep_file(const std::string& name) {
  FileRequest request;
  request.path = std::string(WARPVIZ_TEST_USER_FILES) + "/lockstep/" + name;
  request.backend = FileBackend::Cpu;
  return run_user_file(request);
}

// What the file printed on the H200 (plain nvcc -arch=sm_90).
std::string h200_output(const std::string& name) {
  std::ifstream in(std::string(WARPVIZ_SOURCE_DIR) + "/tests/h200_probes/lockstep/" + name + ".out");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> output_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("the unrolled volatile last-warp reduction sums as a converged warp does", "[lockstep]") {
  if (!WARPVIZ_HAVE_DEVICE_SEMANTICS_PLUGIN) {
    WARN("skipped: the device-semantics plugin was not built (no GCC plugin headers)");
    return;
  }
  // Prepare: the converged warp's model. Each `s[t] += s[t + d]` reads both
  // words in every lane before any lane stores.
  std::vector<long> s(64);
  for (int i = 0; i < 64; ++i) s[i] = i + 1;
  for (int d : {32, 16, 8, 4, 2, 1}) {
    std::vector<long> before = s;
    for (int t = 0; t < 32; ++t) s[t] = before[t] + before[t + d];
  }
  // Run.
  const FileRun run = run_lockstep_file("volatile_warp_reduce.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  // Verify: every lane's word, and the sum (one lane at a time gives less).
  int lanes_seen = 0;
  for (const std::string& line : output_lines(run.program_output)) {
    int lane = -1;
    long value = 0;
    if (std::sscanf(line.c_str(), "%d %ld", &lane, &value) != 2 || lane < 0 || lane >= 32) continue;
    INFO("lane " << lane);
    CHECK(value == s[lane]);
    ++lanes_seen;
  }
  CHECK(lanes_seen == 32);
  CHECK(run.program_output.find("sum 2080\n") != std::string::npos);
  CHECK(run.program_output == h200_output("volatile_warp_reduce"));
}

TEST_CASE("a warp's radix sort through a volatile ping-pong buffer sorts", "[lockstep]") {
  if (!WARPVIZ_HAVE_DEVICE_SEMANTICS_PLUGIN) {
    WARN("skipped: the device-semantics plugin was not built (no GCC plugin headers)");
    return;
  }
  // Prepare: the file's keys, sorted here.
  std::vector<unsigned> keys(32);
  unsigned seed = 12345u;
  for (unsigned& k : keys) {
    seed = seed * 1103515245u + 12345u;
    k = (seed >> 8) & 0xffffu;
  }
  std::sort(keys.begin(), keys.end());
  // Run.
  const FileRun run = run_lockstep_file("warp_ping_pong.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  // Verify.
  const std::vector<std::string> lines = output_lines(run.program_output);
  REQUIRE(lines.size() >= 33);
  for (int i = 0; i < 32; ++i) CHECK(lines[i] == std::to_string(keys[i]));
  CHECK(lines[32] == "sorted");
  CHECK(run.program_output == h200_output("warp_ping_pong"));
}

TEST_CASE("a lane spinning on a volatile flag lets the lane that sets it run", "[lockstep]") {
  if (!WARPVIZ_HAVE_DEVICE_SEMANTICS_PLUGIN) {
    WARN("skipped: the device-semantics plugin was not built (no GCC plugin headers)");
    return;
  }
  const FileRun run = run_lockstep_file("lane_waits_on_volatile_flag.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  CHECK(run.program_output == "lane 0 saw the flag: yes\n");
  CHECK(run.program_output == h200_output("lane_waits_on_volatile_flag"));
}

TEST_CASE("a lock a lane releases after a fence is free once the whole warp has written what it guards",
          "[lockstep]") {
  // Every lane's store before __threadfence() is made before any lane passes
  // it, so lane 1's release comes after lane 30 wrote the lock's word back
  // (with the bit still set, as it read it): each of the eight rounds takes
  // the lock. Lane after lane, only the first round would. The GPU's output
  // was taken on an H100 (sm_90, CUDA 13.0; no H200 came that session).
  const FileRun run = run_lockstep_file("lock_released_after_fence.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  const std::vector<std::string> lines = output_lines(run.program_output);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "rounds that took the lock: 8 of 8");
  CHECK(lines[1] == "word 0: 8, word 1: 0x00000000");
  CHECK(run.program_output == h200_output("lock_released_after_fence"));
}
