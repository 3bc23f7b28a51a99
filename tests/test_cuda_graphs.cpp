// CUDA graphs, stream capture, cuda::barrier and cuda::pipeline in users'
// programs on the CPU backend (cuda_graphs_cpu.cpp, <cuda/barrier>,
// <cuda/pipeline>), each checked against what the CUDA Programming Guide and
// the runtime API documentation define: a graph runs its nodes in dependency
// order, a capture records instead of running, a barrier's wait holds a
// thread until its phase completes, a pipeline's stage is reused only after
// its consumers released it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "warpviz/user_file.h"
#include "warpviz/user_source.h"
#include "trace_values.h"

using namespace warpviz;
using namespace warpviz::user;

namespace {

using warpviz::test::output_values;

std::string fixture(const std::string& name) { return std::string(WARPVIZ_TEST_USER_FILES) + "/graphs/" + name; }

FileRun run_program(const std::string& name) {
  FileRequest request;
  request.path = fixture(name);
  request.backend = FileBackend::Cpu;
  return run_user_file(request);
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("graph built by hand: dependency order, not insertion order, and the exec and child keep copies",
          "[graphs][user]") {
  const FileRun run = run_program("graph_manual.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  const std::string& out = run.program_output;
  // 6 nodes; only the H2D copy depends on nothing; cudaGraphNodeTypeKernel is 0.
  CHECK(has(out, "nodes 6 roots 1 kernel type 0\n"));
  CHECK(has(out, "instantiate cudaSuccess\nbefore launch 0\n"));
  // add_one then times_two (the edge added after both): (i + 1) * 2, the host
  // node after the copy back, before cudaGraphLaunch returns.
  CHECK(has(out, "graph 1: 2 4 68 128\nlaunch cudaSuccess\n"));
  // The node added after instantiation is not in the exec: one report.
  CHECK(has(out, "graph 2: 2 4 68 128\ngraph 3: 2 4 68 2002\ngraph 4: 2 4 68 2002\n"));
  CHECK(has(out, "cycle cudaErrorInvalidValue, 7 nodes listed\n"));
  // add_one twice, from host_in with its [63] = 1000.
  CHECK(has(out, "set params cudaSuccess\ngraph 5: 2 3 35 1002\n"));
  CHECK(!has(out, "graph 6"));
  // Each kernel node is a recorded launch: 2 per run, 4 runs.
  REQUIRE(run.launches.size() == 8);
  CHECK(run.launches[7].meta.params.at("kernel") == "add_one");
  CHECK(run.launches[0].meta.params.at("kernel") == "add_one");
  CHECK(run.launches[1].meta.params.at("kernel") == "times_two");
  const std::vector<int64_t> d = output_values(run.launches[5], "d");
  REQUIRE(d.size() == 64);
  for (int i = 0; i < 63; ++i) CHECK(d[size_t(i)] == (i + 1) * 2);
  CHECK(d[63] == 2002);
}

TEST_CASE("stream capture: nothing runs while captured, a fork and its join run in order, unjoined is an error",
          "[graphs][user]") {
  const FileRun run = run_program("graph_capture.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  const std::string& out = run.program_output;
  CHECK(has(out, "capturing 1\nend capture cudaSuccess\ncapturing 0\n"));
  // fill a, fill b, scale b, combine, add_to, the copy and the host function;
  // the two fills start the two streams, so both are roots.
  CHECK(has(out, "before launch out[0] 0 result[0] 0, nodes 7 roots 2\n"));
  // a = 1 + i, b = (5 + i) * 2, out = a * 100 + b + 7.
  CHECK(has(out, "host node: 117 219 3279\n"));
  CHECK(has(out, "unjoined cudaErrorStreamCaptureUnjoined graph null\nside after 9\n"));
  // The graph's five kernels, then the launch after the failed capture.
  REQUIRE(run.launches.size() == 6);
  CHECK(run.launches[4].meta.params.at("kernel") == "add_to");
  const std::vector<int64_t> result = output_values(run.launches[4], "out");
  for (int i = 0; i < 32; ++i) CHECK(result[size_t(i)] == (1 + i) * 100 + (5 + i) * 2 + 7);
}

TEST_CASE("host rewrite: plain kernels are registered by address, alignas moves past a __shared__ name",
          "[graphs][scan]") {
  const std::string text =
      "__global__ void plain(int* p) { p[0] = 1; }\n"
      "template <int N> __global__ void templ(int* p) { p[0] = N; }\n"
      "__global__ void twice(int* p) {}\n__global__ void twice(float* p) {}\n"
      "__global__ void k() {\n  __shared__ alignas(16) float tile[4][8];\n"
      "  extern __shared__ alignas(16) float dyn[];\n}\n"
      "#define KERNEL(NAME) __global__ void NAME##_k(int* p) { p[0] = 2; }\n"
      "#define SPLIT __global__ void split(int* p) { \\\n  p[0] = 3; } \\\n\n";
  const std::string out = rewrite_for_host(text);
  CHECK(std::count(out.begin(), out.end(), '\n') == std::count(text.begin(), text.end(), '\n'));
  CHECK(has(out, "p[0] = 1; } WARPVIZ_REGISTER_KERNEL(plain)\n"));
  CHECK(has(out, "\n} WARPVIZ_REGISTER_KERNEL(k)\n"));
  // No one address: a template, an overloaded name.
  CHECK(!has(out, "WARPVIZ_REGISTER_KERNEL(templ)"));
  CHECK(!has(out, "WARPVIZ_REGISTER_KERNEL(twice)"));
  // Nor inside a #define: a pasted name, a body whose line continues.
  CHECK(!has(out, "WARPVIZ_REGISTER_KERNEL(_k)"));
  CHECK(!has(out, "WARPVIZ_REGISTER_KERNEL(split)"));
  CHECK(has(out, "__shared__  float tile alignas(16)[4][8];"));
  CHECK(has(out, "float* const dyn WARPVIZ_SHARED_POINTER = ::warpviz::user::dynamic_shared<float>();"));
}

TEST_CASE("graph kernel node of a template kernel: refused, naming the call", "[graphs][user]") {
  const FileRun run = run_program("graph_template_node.cu");
  CHECK_FALSE(run.ok());
  CHECK(run.exit_code == 2);
  CHECK(has(run.message + run.program_output, "cudaGraphAddKernelNode"));
  CHECK(has(run.message + run.program_output, "not supported by warpviz"));
}

TEST_CASE("cuda::barrier: wait holds a thread until its phase completes, with arrive_and_drop and a completion",
          "[graphs][barrier][user]") {
  const FileRun run = run_program("barrier_phases.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  CHECK(has(run.program_output, "phases 3, cudaSuccess"));
  REQUIRE(run.launches.size() == 1);
  const std::vector<int64_t> out = output_values(run.launches[0], "out");
  const std::vector<int64_t> after = output_values(run.launches[0], "after_drop");
  REQUIRE(out.size() == 64);
  for (int t = 0; t < 64; ++t) {
    // The other warp's t * t, warp 1's written only after warp 0 waited.
    CHECK(out[size_t(t)] == int64_t((t + 32) % 64) * ((t + 32) % 64));
    if (t < 63) CHECK(after[size_t(t)] == -(62 - t));
  }
  CHECK(after[63] == 0x7f7f7f7f);  // thread 63 left before writing
}

TEST_CASE("cuda::barrier: too few arrivals is a deadlock, reported", "[graphs][barrier][user]") {
  const FileRun run = run_program("barrier_deadlock.cu");
  CHECK(run.outcome == FileOutcome::KernelError);
  CHECK(has(run.message, "deadlock"));
  CHECK(has(run.message, "cuda::barrier"));
}

TEST_CASE("cuda::pipeline: producer and consumer roles over a 2-stage ring, a thread's own, cg::memcpy_async",
          "[graphs][pipeline][user]") {
  const FileRun run = run_program("pipeline_roles.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  REQUIRE(run.launches.size() == 1);
  const Trace& t = run.launches[0];
  // in[j] = 3 j + 1; a consumer lane sums in[32 c + lane] over chunks c = 0..4.
  const std::vector<int64_t> sums = output_values(t, "sums");
  REQUIRE(sums.size() == 32);
  for (int lane = 0; lane < 32; ++lane) CHECK(sums[size_t(lane)] == 960 + 15 * lane + 5);
  const std::vector<int64_t> own = output_values(t, "own");
  const std::vector<int64_t> whole = output_values(t, "whole");
  for (int i = 0; i < 64; ++i) {
    const int j = i * 4 % 160;
    CHECK(own[size_t(i)] == (3 * j + 1) + (3 * (j + 3) + 1));
    CHECK(whole[size_t(i)] == 3 * (159 - i) + 1);
  }
}
