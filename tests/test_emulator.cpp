// The CPU emulator's scheduler: kernels written here, in CUDA style, run as
// fibers; the tests check convergence, divergence, barriers, partial warps,
// per-lane operands and error handling.
#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

// Catch2 first: record.cuh defines CUDA's built-in names as macros.
#include "warpviz/record.cuh"

using namespace warpviz;

namespace {

template <class Kernel>
Trace launch(Dim3 grid, Dim3 block, Kernel body, emu::LaunchStats* stats = nullptr) {
  Trace trace;
  const emu::LaunchStats s = emu::launch_grid(grid, block, body, emu::RecordFilter{}, trace);
  if (stats) *stats = s;
  return trace;
}

}  // namespace

TEST_CASE("lanes meet at a shuffle and get the rule's result", "[emulator]") {
  std::vector<int> out(64, -1);
  const Trace t = launch(Dim3{1}, Dim3{64}, [&] {
    const int tid = threadIdx.x;
    out[tid] = __shfl_xor_sync(0xffffffff, tid * 10, 1);
  });
  for (int tid = 0; tid < 64; ++tid) CHECK(out[tid] == (tid ^ 1) * 10);
  REQUIRE(t.steps.size() == 2);
  CHECK(t.steps[0].warp == 0);
  CHECK(t.steps[1].warp == 1);
  CHECK(t.steps[1].lanes[0].in == 320u);
}

TEST_CASE("divergent lanes: a half-warp shuffle with exited partners", "[emulator][divergence]") {
  std::vector<int> out(32, -1);
  const Trace t = launch(Dim3{1}, Dim3{32}, [&] {
    const int lane = threadIdx.x;
    if (lane >= 16) return;  // lanes 16-31 exit before the shuffle
    out[lane] = __shfl_down_sync(0x0000ffff, lane + 100, 8);
  });
  REQUIRE(t.steps.size() == 1);
  const TraceStep& s = t.steps[0];
  CHECK(s.mask == 0x0000ffffu);
  for (int lane = 0; lane < 8; ++lane) CHECK(out[lane] == lane + 108);
  for (int lane = 8; lane < 16; ++lane) CHECK(s.lanes[lane].undefined());
  for (int lane = 16; lane < 32; ++lane) CHECK_FALSE(s.lanes[lane].active());
}

TEST_CASE("two branches of a warp shuffle separately", "[emulator][divergence]") {
  std::vector<int> out(32, -1);
  const Trace t = launch(Dim3{1}, Dim3{32}, [&] {
    const int lane = threadIdx.x;
    if (lane < 16)
      out[lane] = __shfl_sync(0x0000ffff, lane, 0);
    else
      out[lane] = __shfl_sync(0xffff0000, lane, 16);
  });
  REQUIRE(t.steps.size() == 2);
  for (int lane = 0; lane < 32; ++lane) CHECK(out[lane] == (lane < 16 ? 0 : 16));
  CHECK(t.steps[0].line != t.steps[1].line);
  CHECK(t.steps[0].seq == 0);
  CHECK(t.steps[1].seq == 1);
}

TEST_CASE("__activemask in an odd-lane branch is 0xaaaaaaaa", "[emulator][vote]") {
  std::vector<unsigned> out(32, 0);
  launch(Dim3{1}, Dim3{32}, [&] {
    const int lane = threadIdx.x;
    if (lane & 1) out[lane] = __activemask();
  });
  CHECK(out[1] == 0xaaaaaaaau);
  CHECK(out[31] == 0xaaaaaaaau);
}

TEST_CASE("__syncthreads orders shared memory across warps", "[emulator][barrier]") {
  std::vector<int> out(128, -1);
  launch(Dim3{2}, Dim3{128}, [&] {
    __shared__ int slots[128];
    const int tid = threadIdx.x;
    slots[tid] = tid + 1000 * int(blockIdx.x);
    __syncthreads();
    if (blockIdx.x == 1) out[tid] = slots[127 - tid];
  });
  for (int tid = 0; tid < 128; ++tid) CHECK(out[tid] == 127 - tid + 1000);
}

TEST_CASE("exited threads do not hold up __syncthreads", "[emulator][barrier]") {
  int after = 0;
  launch(Dim3{1}, Dim3{64}, [&] {
    if (threadIdx.x >= 40) return;
    __syncthreads();
    ++after;
  });
  CHECK(after == 40);
}

TEST_CASE("a partial last warp: missing lanes are inactive", "[emulator]") {
  std::vector<unsigned> ballots(48, 0);
  const Trace t = launch(Dim3{1}, Dim3{48}, [&] {
    ballots[threadIdx.x] = __ballot_sync(0xffffffff, 1);
  });
  CHECK(ballots[0] == 0xffffffffu);
  CHECK(ballots[40] == 0x0000ffffu);
  REQUIRE(t.steps.size() == 2);
  CHECK_FALSE(t.steps[1].lanes[20].active());
}

TEST_CASE("2D blocks number lanes x-fastest", "[emulator]") {
  std::vector<int> out(64, -1);
  launch(Dim3{1}, Dim3{8, 8}, [&] {
    const int linear = threadIdx.y * 8 + threadIdx.x;
    out[linear] = __shfl_sync(0xffffffff, linear, 0);
  });
  for (int i = 0; i < 32; ++i) CHECK(out[i] == 0);
  for (int i = 32; i < 64; ++i) CHECK(out[i] == 32);
}

TEST_CASE("per-lane srcLane is recorded per lane", "[emulator][shfl]") {
  std::vector<int> out(32, -1);
  const Trace t = launch(Dim3{1}, Dim3{32}, [&] {
    const int lane = threadIdx.x;
    out[lane] = __shfl_sync(0xffffffff, lane * 2, 31 - lane);
  });
  for (int lane = 0; lane < 32; ++lane) CHECK(out[lane] == (31 - lane) * 2);
  const TraceStep& s = t.steps[0];
  CHECK((s.step_flags & kStepPerLaneOperand) != 0);
  CHECK(s.lanes[3].addr == 28u);
  CHECK(s.lanes[3].src == 28);
}

TEST_CASE("a lane waiting for lanes stuck at a barrier does not hang the emulator", "[emulator][undefined]") {
  std::vector<int> out(32, -1);
  const Trace t = launch(Dim3{1}, Dim3{32}, [&] {
    const int lane = threadIdx.x;
    if (lane < 16) {
      out[lane] = __shfl_xor_sync(0xffffffff, lane, 16);  // its partners are at the barrier
    }
    __syncthreads();
  });
  REQUIRE(t.steps.size() == 1);
  for (int lane = 0; lane < 16; ++lane) CHECK(t.steps[0].lanes[lane].undefined());
}

TEST_CASE("an exception in a kernel reaches the launcher", "[emulator][errors]") {
  Trace trace;
  CHECK_THROWS_WITH(emu::launch_grid(Dim3{1}, Dim3{32},
                                     [] {
                                       if (threadIdx.x == 7) throw std::runtime_error("lane 7 failed");
                                       __syncwarp();
                                     },
                                     emu::RecordFilter{}, trace),
                    "lane 7 failed");
}

TEST_CASE("launch rejects impossible shapes and calls outside kernels", "[emulator][errors]") {
  Trace trace;
  CHECK_THROWS_WITH(emu::launch_grid(Dim3{1}, Dim3{2048}, [] {}, emu::RecordFilter{}, trace),
                    Catch::Contains("at most 1024"));
  CHECK_THROWS_WITH(emu::launch_grid(Dim3{0}, Dim3{32}, [] {}, emu::RecordFilter{}, trace),
                    Catch::Contains("must not be empty"));
  CHECK_THROWS_WITH(__ballot_sync(0xffffffff, 1), Catch::Contains("outside an emulated kernel"));
}

TEST_CASE("launch statistics count lanes and warp ops", "[emulator]") {
  emu::LaunchStats stats;
  launch(Dim3{4}, Dim3{64}, [] { __syncwarp(); }, &stats);
  CHECK(stats.threads == 256);
  CHECK(stats.warp_ops == 8);
  CHECK(stats.lane_ops == 256);
}

TEST_CASE("GpuFloat in a kernel: NaN results are canonical, as on sm_90", "[emulator][float]") {
  std::vector<uint32_t> out(32, 0);
  launch(Dim3{1}, Dim3{32}, [&] {
    const int lane = threadIdx.x;
    GpuFloat v = lane == 0 ? GpuFloat::from_bits(0x7fc00123u) : GpuFloat(1.0f);
    v += __shfl_down_sync(0xffffffff, v, 1);
    out[lane] = v.bits();
  });
  CHECK(out[0] == 0x7fffffffu);  // x86 would keep 0x7fc00123
  CHECK(out[1] == 0x40000000u);
}
