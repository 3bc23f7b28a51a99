// The CPU emulator's scheduler: kernels written here, in CUDA style, run as
// fibers; the tests check convergence, divergence, barriers, partial warps,
// per-lane operands and error handling.
#include <bit>
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

// Undefined in PTX (a divergent aligned barrier); the H200 runs the shuffle
// without the lanes at the barrier and goes on (tests/user_files/shuffle_vs_barrier.cu).
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

// ---------------------------------------------------------------------------
// Recorded shared-memory accesses (WARPVIZ_LOAD / WARPVIZ_STORE)
// ---------------------------------------------------------------------------

TEST_CASE("a shared store and load are one step each, addressed from the array", "[emulator][shared]") {
  std::vector<float> out(32, -1.0f);
  const Trace t = launch(Dim3{1}, Dim3{32}, [&] {
    __shared__ __align__(128) float tile[32][33];
    const int lane = threadIdx.x;
    WARPVIZ_STORE(tile, tile[0][lane], float(lane) + 0.5f);  // a row
    out[lane] = WARPVIZ_LOAD(tile, tile[lane][0]);           // a column: only lane 0 reads a stored word
  });
  REQUIRE(t.steps.size() == 2);
  const TraceStep& st = t.steps[0];
  const TraceStep& ld = t.steps[1];
  CHECK(st.op == Op::StoreShared);
  CHECK(ld.op == Op::LoadShared);
  CHECK(st.mask == 0xffffffffu);
  CHECK(ld.mask == 0xffffffffu);
  CHECK(st.dtype == DType::F32);
  CHECK(st.line + 1 == ld.line);
  for (int lane = 0; lane < 32; ++lane) {
    CHECK(st.lanes[lane].addr == uint32_t(4 * lane));
    CHECK(ld.lanes[lane].addr == uint32_t(4 * 33 * lane));
    CHECK(st.lanes[lane].bytes == 4);
    CHECK(st.lanes[lane].src == -1);
    CHECK(st.lanes[lane].flags == (kLaneActive | kLaneOk));
    CHECK(st.lanes[lane].in == std::bit_cast<uint32_t>(float(lane) + 0.5f));
    CHECK(st.lanes[lane].out == 0u);
  }
  CHECK(out[0] == 0.5f);
  CHECK(ld.lanes[0].out == std::bit_cast<uint32_t>(0.5f));
}

TEST_CASE("a same-word store race: the lowest lane's value survives", "[emulator][shared]") {
  // warp-semantics.md §4.1: the H200 kept the lowest-numbered lane's store.
  std::vector<int> out(32, -1);
  const Trace t = launch(Dim3{1}, Dim3{32}, [&] {
    __shared__ __align__(128) int words[64];
    const int lane = threadIdx.x;
    WARPVIZ_STORE(words, words[lane % 2], 100 + lane);  // even lanes to word 0, odd lanes to word 1
    if (lane >= 5) WARPVIZ_STORE(words, words[2], 200 + lane);  // lanes 5-31 race for word 2
    out[lane] = WARPVIZ_LOAD(words, words[lane % 3]);
  });
  REQUIRE(t.steps.size() == 3);
  CHECK(t.steps[1].mask == 0xffffffe0u);
  for (int lane = 0; lane < 32; ++lane) {
    const int expected[3] = {100, 101, 205};
    INFO("lane " << lane);
    CHECK(out[lane] == expected[lane % 3]);
  }
  CHECK(t.steps[2].dtype == DType::I32);
}

TEST_CASE("a shared access by some lanes: the step's mask is the lanes that ran it", "[emulator][shared]") {
  std::vector<unsigned> out(64, 7);
  const Trace t = launch(Dim3{1}, Dim3{64}, [&] {
    __shared__ __align__(128) unsigned words[64];
    const int tid = threadIdx.x;
    words[tid] = 0;
    __syncthreads();
    if (tid % 3 == 0) WARPVIZ_STORE(words, words[tid], unsigned(tid) * 10u);
    __syncthreads();
    if (tid % 2 == 1) out[tid] = WARPVIZ_LOAD(words, words[tid - 1]);
  });
  uint32_t stores0 = 0, stores1 = 0, odd = 0;
  for (int lane = 0; lane < 32; ++lane) {
    if (lane % 3 == 0) stores0 |= 1u << lane;
    if ((lane + 32) % 3 == 0) stores1 |= 1u << lane;
    if (lane % 2 == 1) odd |= 1u << lane;
  }
  REQUIRE(t.steps.size() == 4);  // warp 0: store, load; warp 1: store, load
  CHECK(t.steps[0].warp == 0);
  CHECK(t.steps[0].mask == stores0);
  CHECK(t.steps[1].mask == odd);
  CHECK(t.steps[2].mask == stores1);
  for (int lane = 0; lane < 32; ++lane) CHECK(t.steps[0].lanes[lane].active() == ((stores0 >> lane) & 1u));
  for (int tid = 1; tid < 64; tid += 2) {
    INFO("thread " << tid);
    CHECK(out[tid] == ((tid - 1) % 3 == 0 ? unsigned(tid - 1) * 10u : 0u));
  }
  CHECK(out[0] == 7u);
}

TEST_CASE("two branches access shared memory as two steps", "[emulator][shared][divergence]") {
  const Trace t = launch(Dim3{1}, Dim3{32}, [&] {
    __shared__ __align__(128) unsigned words[32];
    const int lane = threadIdx.x;
    if (lane < 8)
      WARPVIZ_STORE(words, words[lane], 1u);
    else
      WARPVIZ_STORE(words, words[lane], 2u);
  });
  REQUIRE(t.steps.size() == 2);
  CHECK(t.steps[0].mask == 0x000000ffu);
  CHECK(t.steps[1].mask == 0xffffff00u);
}

TEST_CASE("wide store races: phases land in order, the lowest lane of the last phase survives", "[emulator][shared]") {
  // On the H200 a 64-bit store of every lane to one address kept lane 16's
  // value and a 128-bit one lane 24's: half- and quarter-warp phases land one
  // after another, each keeping its lowest lane's value (GPU tests, bank sweep).
  struct Result {
    unsigned long long wide;
    uint4 widest;
  };
  const auto race = [](uint32_t active) {
    Result r{};
    launch(Dim3{1}, Dim3{32}, [&] {
      __shared__ __align__(128) unsigned long long word[2];
      __shared__ __align__(128) uint4 quad[2];
      const unsigned lane = threadIdx.x;
      if ((active >> lane) & 1u) {
        WARPVIZ_STORE(word, word[0], 100ull + lane);
        WARPVIZ_STORE(quad, quad[0], make_uint4(200 + lane, 0, 0, 0));
      }
      if (lane == 0) {
        r.wide = WARPVIZ_LOAD(word, word[0]);
        r.widest = WARPVIZ_LOAD(quad, quad[0]);
      }
    });
    return r;
  };
  const Result all = race(0xffffffffu);
  CHECK(all.wide == 116);
  CHECK(all.widest.x == 224);
  const Result ends = race(0x80000001u);  // lane 0 alone in the first phase, lane 31 in the last
  CHECK(ends.wide == 131);
  CHECK(ends.widest.x == 231);
  const Result low = race(0x0000ffffu);  // only the first half-warp: its lowest lane
  CHECK(low.wide == 100);
  CHECK(low.widest.x == 208);  // the second quarter (lanes 8-15) lands last
}

TEST_CASE("16-byte shared values move whole; the step records the low 8 bytes", "[emulator][shared]") {
  std::vector<uint4> out(32);
  const Trace t = launch(Dim3{1}, Dim3{32}, [&] {
    __shared__ __align__(128) uint4 tile[32];
    __shared__ __align__(128) unsigned char bytes[64];
    const unsigned lane = threadIdx.x;
    WARPVIZ_STORE(tile, tile[31 - lane], make_uint4(lane, lane + 0x100, lane + 0x200, lane + 0x300));
    out[lane] = WARPVIZ_LOAD(tile, tile[lane]);
    WARPVIZ_STORE(bytes, bytes[2 * lane + 1], (unsigned char)(lane + 1));
  });
  REQUIRE(t.steps.size() == 3);
  for (unsigned lane = 0; lane < 32; ++lane) {
    const unsigned from = 31 - lane;
    CHECK(out[lane].x == from);
    CHECK(out[lane].y == from + 0x100);
    CHECK(out[lane].z == from + 0x200);
    CHECK(out[lane].w == from + 0x300);
    const LaneRecord& st = t.steps[0].lanes[lane];
    CHECK(st.addr == 16 * (31 - lane));
    CHECK(st.bytes == 16);
    CHECK(st.in == (uint64_t(lane + 0x100) << 32 | lane));
    CHECK(t.steps[1].lanes[lane].out == (uint64_t(from + 0x100) << 32 | from));
    CHECK(t.steps[2].lanes[lane].addr == 2 * lane + 1);
    CHECK(t.steps[2].lanes[lane].bytes == 1);
    CHECK(t.steps[2].lanes[lane].in == lane + 1);
  }
  CHECK(t.steps[0].dtype == DType::U64);
  CHECK(t.steps[2].dtype == DType::U32);
}

TEST_CASE("a shared access outside its array is an error", "[emulator][shared][errors]") {
  Trace trace;
  CHECK_THROWS_WITH(emu::launch_grid(Dim3{1}, Dim3{32},
                                     [] {
                                       __shared__ __align__(128) int a[32];
                                       __shared__ __align__(128) int b[32];
                                       WARPVIZ_STORE(a, b[threadIdx.x], 1);
                                     },
                                     emu::RecordFilter{}, trace),
                    Catch::Contains("not inside the array"));
}

TEST_CASE("lanes reconverge at a shared access after a branch and a loop", "[emulator][shared][divergence]") {
  // The hardware reconverges after the if and after the loop; so does the
  // emulator: lanes that skipped wait at the next access for the others.
  const Trace t = launch(Dim3{1}, Dim3{32}, [&] {
    __shared__ __align__(128) unsigned words[64];
    const unsigned lane = threadIdx.x;
    if (lane < 4) WARPVIZ_STORE(words, words[lane], lane);
    for (unsigned i = 0; i < lane % 3; ++i) WARPVIZ_STORE(words, words[32 + lane], i);
    WARPVIZ_STORE(words, words[lane], 7u);
  });
  REQUIRE(t.steps.size() == 4);  // the if, two loop trips, the last store
  CHECK(t.steps[0].mask == 0x0000000fu);
  uint32_t trip0 = 0, trip1 = 0;
  for (int lane = 0; lane < 32; ++lane) {
    if (lane % 3 >= 1) trip0 |= 1u << lane;
    if (lane % 3 >= 2) trip1 |= 1u << lane;
  }
  CHECK(t.steps[1].mask == trip0);
  CHECK(t.steps[2].mask == trip1);
  CHECK(t.steps[3].mask == 0xffffffffu);
}
