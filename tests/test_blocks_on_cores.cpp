// A user's launch runs its blocks on every core when the program's device
// code has nothing that lets one block see another (block_sharing_in_device_code),
// and one after another when it has. The two must give the same outputs and
// the same trace; faults and the time limit still name the kernel's line.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "trace_compare.h"
#include "warpviz/user_file.h"
#include "warpviz/warp_scheduler.h"
#include "warpviz/user_source.h"

using namespace warpviz;
using namespace warpviz::user;

namespace {

std::string fixture(const std::string& name) { return std::string(WARPVIZ_TEST_USER_FILES) + "/blocks/" + name; }

// The emulator's OS threads for the program's run (the child inherits it).
struct EmulatorThreads {
  explicit EmulatorThreads(const char* count) { setenv("WARPVIZ_EMU_THREADS", count, 1); }
  ~EmulatorThreads() { unsetenv("WARPVIZ_EMU_THREADS"); }
};

FileRun run_program(const std::string& name, const char* threads, double time_limit_s = 60) {
  EmulatorThreads set(threads);
  FileRequest request;
  request.path = fixture(name);
  request.backend = FileBackend::Cpu;
  request.time_limit_s = time_limit_s;
  return run_user_file(request);
}

}  // namespace

TEST_CASE("block sharing: the words of device code that let blocks see one another", "[user][blocks]") {
  CHECK(block_sharing_in_device_code("__global__ void k(int* o) { o[blockIdx.x] = 1; }").empty());
  CHECK(block_sharing_in_device_code("__global__ void k(int* o) { atomicAdd(o, 1); }").find("atomicAdd") !=
        std::string::npos);
  CHECK(block_sharing_in_device_code("__device__ void f() { printf(\"x\"); }").find("printf") != std::string::npos);
  CHECK(block_sharing_in_device_code("__global__ void k(volatile int* o) { o[0] = 1; }").find("volatile") !=
        std::string::npos);
  // Host code may use them freely: only device code counts.
  CHECK(block_sharing_in_device_code("int main() { printf(\"x\"); std::atomic<int> a; }").empty());
  // A macro that device code may expand counts, as does a fence.
  CHECK(block_sharing_in_device_code("#define BUMP(p) atomicInc(p, 9)\n__global__ void k(unsigned* p) { BUMP(p); }")
            .find("atomicInc") != std::string::npos);
  CHECK(block_sharing_in_device_code("__global__ void k() { __threadfence(); }").find("__threadfence") !=
        std::string::npos);
  // Where the compiler plugin judges atomic calls, they are left to it; a
  // fence or a cuda::atomic_ref still counts.
  CHECK(block_sharing_in_device_code("__global__ void k(int* o) { atomicAdd_block(o, 1); atomicCAS(o, 0, 1); }", true)
            .empty());
  CHECK(block_sharing_in_device_code("__global__ void k(int* o) { atomicAdd(o, 1); __threadfence(); }", true)
            .find("__threadfence") != std::string::npos);
  CHECK(block_sharing_in_device_code("__global__ void k(int* o) { cuda::atomic_ref<int> r(*o); }", true)
            .find("atomic_ref") != std::string::npos);
  // Words inside comments and strings are not code.
  CHECK(block_sharing_in_device_code("__global__ void k(int* o) { /* atomicAdd */ o[0] = 1; // printf\n }").empty());
}

TEST_CASE("blocks that never meet run on two cores: the same sums and the same trace as on one", "[user][blocks]") {
  const FileRun apart = run_program("disjoint_sums.cu", "2");
  INFO(apart.message << apart.program_output);
  REQUIRE(apart.ok());
  CHECK(apart.blocks_in_order_because.empty());
  REQUIRE(apart.launch_work.size() == 1);
  CHECK(apart.launch_work[0].workers == 2);
  CHECK(apart.launch_work[0].threads == 96 * 128);
  CHECK(apart.program_output.find("0 of 96 block sums wrong") != std::string::npos);

  const FileRun alone = run_program("disjoint_sums.cu", "1");
  REQUIRE(alone.ok());
  CHECK(alone.launch_work[0].workers == 1);
  REQUIRE(alone.launches.size() == 1);
  REQUIRE(apart.launches.size() == 1);
  // The first blocks are recorded; the join puts their steps in block order.
  const Trace &a = apart.launches[0], &b = alone.launches[0];
  REQUIRE(a.steps.size() == b.steps.size());
  REQUIRE(a.steps.size() > 0);
  for (size_t i = 0; i < a.steps.size(); ++i) {
    INFO("step " << i);
    CHECK(test::same_step(a.steps[i], b.steps[i]));
  }
  CHECK(apart.program_output.substr(0, apart.program_output.find('\n')) ==
        alone.program_output.substr(0, alone.program_output.find('\n')));
}

TEST_CASE("atomics whose order nobody sees: the blocks run on two cores and no update is lost", "[user][blocks]") {
  // Run: 2000 blocks, each thread an atomicAdd and an atomicMax on global
  // memory (results unused) and an atomicAdd on a __shared__ tally (used).
  const FileRun run = run_program("counted_blocks.cu", "2");
  INFO(run.message << run.program_output);
  REQUIRE(run.ok());
  REQUIRE(run.launch_work.size() == 1);
  if (run.notes.empty()) {  // the compiler plugin judged the atomics
    CHECK(run.launch_work[0].workers == 2);
    CHECK(run.blocks_in_order_because.empty());
  }
  // Verify: every update landed.
  CHECK(run.program_output.find("256000 threads counted, highest block 1999, 2000 blocks tallied all their threads") !=
        std::string::npos);
}

TEST_CASE("an atomic whose result is used keeps the blocks in order, and the run says which", "[user][blocks]") {
  const FileRun run = run_program("slots_in_block_order.cu", "2");
  INFO(run.message << run.program_output);
  REQUIRE(run.ok());
  REQUIRE(run.launch_work.size() == 1);
  CHECK(run.launch_work[0].workers == 1);
  // Verify: block b took slot b, as one block after another gives.
  CHECK(run.program_output.find("300 of 300 slots in block order") != std::string::npos);
  CHECK(run.blocks_in_order_because.find("atomicAdd on line 9") != std::string::npos);
  CHECK(run.blocks_in_order_because.find("slots_in_block_order.cu") != std::string::npos);
}

TEST_CASE("a float sum by atomicAdd keeps the blocks in order: the sum of one thread after another", "[user][blocks]") {
  const FileRun run = run_program("float_sum.cu", "2");
  INFO(run.message << run.program_output);
  REQUIRE(run.ok());
  REQUIRE(run.launch_work.size() == 1);
  CHECK(run.launch_work[0].workers == 1);
  CHECK(run.blocks_in_order_because.find("atomicAdd on line 6") != std::string::npos);
  // Verify: the additions in thread order, block after block.
  float total = 0;
  for (int i = 0; i < 64 * 64; ++i) total += 1.0f / float(i + 1);
  char expected[64];
  std::snprintf(expected, sizeof expected, "sum %a\n", double(total));
  CHECK(run.program_output.find(expected) != std::string::npos);
}

TEST_CASE("blocks on two cores: a crash and the time limit still name the kernel's line", "[user][blocks][faults]") {
  SECTION("a write far past the array, in block 5") {
    const FileRun run = run_program("faults_apart.cu", "2");
    INFO(run.message << run.program_output);
    if (!warpviz::emu::lands_memory_faults()) {  // under AddressSanitizer: the crash report
      CHECK(run.outcome == FileOutcome::Crash);
      CHECK(run.message.find("faults_apart.cu:9") != std::string::npos);
      CHECK(run.message.find("block (5,0,0)") != std::string::npos);
      return;
    }
    // As on a GPU: the launch ends with an illegal address, which the program's
    // synchronize returns; the note names the line and the block.
    CHECK(run.outcome == FileOutcome::ProgramFailed);
    CHECK(run.program_output.find("synchronize: an illegal memory access was encountered\n") != std::string::npos);
    REQUIRE_FALSE(run.notes.empty());
    CHECK(run.notes[0].find("faults_apart.cu:9") != std::string::npos);
    CHECK(run.notes[0].find("block (5,0,0)") != std::string::npos);
  }
  SECTION("block 3 spins for ever") {
    const FileRun run = run_program("spins_apart.cu", "2", 1.5);
    INFO(run.message);
    CHECK(run.outcome == FileOutcome::Timeout);
    CHECK(run.message.find("spins_apart.cu:8") != std::string::npos);
  }
}
