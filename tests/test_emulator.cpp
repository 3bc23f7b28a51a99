// The CPU emulator's scheduler: kernels written here, in CUDA style, run as
// fibers; the tests check convergence, divergence, barriers, partial warps,
// per-lane operands, error handling, and blocks spread over OS threads.
#include <algorithm>
#include <cstring>
#include <bit>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "trace_compare.h"
#include "warpviz/backends.h"
#include "warpviz/scenario.h"

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
  // docs/warp-rules.md#store-races: the H200 kept the lowest-numbered lane's store.
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
    const LaneRecord st = t.steps[0].lanes[lane];
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

// ---- blocks on several OS threads ---------------------------------------------
// A launch spreads its blocks over threads; the trace must be the one-thread
// trace, step for step, and so must the outputs and the statistics.

namespace {

using test::same_step;

// Field by field, so that a failure names the first field that differs; then
// the encoded steps byte for byte (the trace in memory, as a file holds it).
void require_same_steps(const TraceSteps& a, const TraceSteps& b) {
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    if (same_step(a[i], b[i])) continue;
    INFO("step " << i);
    const TraceStep& x = a[i];
    const TraceStep& y = b[i];
    REQUIRE(x.block == y.block);
    REQUIRE(x.warp == y.warp);
    REQUIRE(x.seq == y.seq);
    REQUIRE(x.line == y.line);
    REQUIRE(x.mask == y.mask);
    REQUIRE(x.op == y.op);
    REQUIRE(x.dtype == y.dtype);
    REQUIRE(x.step_flags == y.step_flags);
    REQUIRE(x.args.b == y.args.b);
    REQUIRE(x.args.width == y.args.width);
    REQUIRE(x.args.c == y.args.c);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      INFO("lane " << lane);
      REQUIRE(x.lanes[lane].in == y.lanes[lane].in);
      REQUIRE(x.lanes[lane].out == y.lanes[lane].out);
      REQUIRE(x.lanes[lane].addr == y.lanes[lane].addr);
      REQUIRE(x.lanes[lane].src == y.lanes[lane].src);
      REQUIRE(x.lanes[lane].flags == y.lanes[lane].flags);
      REQUIRE(x.lanes[lane].bytes == y.lanes[lane].bytes);
    }
  }
  REQUIRE(a.encoded_bytes() == b.encoded_bytes());
  for (size_t i = 0; i < a.size(); ++i) {
    REQUIRE(a.step_size(i) == b.step_size(i));
    REQUIRE(std::memcmp(a.step_bytes(i), b.step_bytes(i), a.step_size(i)) == 0);
  }
}

void require_same_stats(const emu::LaunchStats& a, const emu::LaunchStats& b) {
  CHECK(a.threads == b.threads);
  CHECK(a.warp_ops == b.warp_ops);
  CHECK(a.lane_ops == b.lane_ops);
  CHECK(a.context_switches == b.context_switches);
}

// A scenario run with a given thread count (set_emulator_threads, as the bench does).
Trace run_scenario_with(unsigned threads, const std::string& name, std::vector<std::pair<std::string, std::string>> sets,
                        const std::string& input, emu::LaunchStats* stats, const emu::RecordFilter& filter = {}) {
  struct Restore {
    ~Restore() { emu::set_emulator_threads(0); }
  } restore;
  emu::set_emulator_threads(threads);
  return run_scenario_cpu(resolve_scenario({name, std::move(sets), input}), filter, stats);
}

void require_same_scenario_run(const std::string& name, std::vector<std::pair<std::string, std::string>> sets,
                               const std::string& input, const emu::RecordFilter& filter = {}) {
  emu::LaunchStats one_stats;
  const Trace one = run_scenario_with(1, name, sets, input, &one_stats, filter);
  REQUIRE(one.meta.grid.count() > 1);
  for (unsigned threads : {2u, 3u, 8u}) {
    INFO(name << " on " << threads << " threads");
    emu::LaunchStats stats;
    const Trace many = run_scenario_with(threads, name, sets, input, &stats, filter);
    require_same_steps(one.steps, many.steps);
    CHECK(one.overflow == many.overflow);
    REQUIRE(one.outputs.size() == many.outputs.size());
    for (size_t i = 0; i < one.outputs.size(); ++i) CHECK(one.outputs[i].bits == many.outputs[i].bits);
    require_same_stats(one_stats, stats);
  }
}

// Blocks that diverge differently by block index, force a group past a
// barrier, touch __shared__ and write their own slice of global memory.
struct DivergentKernel {
  std::vector<int>* out;
  void operator()() const {
    __shared__ int partial[8];
    const int tid = int(threadIdx.x), lane = tid % 32, warp = tid / 32;
    const int b = int(blockIdx.x + 3 * blockIdx.y);
    int v = tid * 7 + b;
    if (lane % (b % 4 + 2) == 0) v += __shfl_down_sync(0xffffffff & ~(1u << (b % 32)), v, 1 + b % 5);
    else v -= __ballot_sync(0xffffffff, v & 1) & 0xff;
    if (lane < 16 + b % 16) v += __shfl_xor_sync(0xffffffff, v, 2);  // lanes past it wait: forced
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    if (warp == 1 && b % 3 == 0) return;
    v += partial[(warp + 1) % int(blockDim.x / 32)];
    for (int round = 0; round < b % 3 + 1; ++round) v = __reduce_add_sync(__activemask(), unsigned(v));
    (*out)[size_t(b) * blockDim.x + size_t(tid)] = v;
  }
};

}  // namespace

TEST_CASE("several threads give the one-thread trace: divergent blocks", "[emulator][threads][divergence]") {
  const Dim3 grid{7, 3}, block{64};
  std::vector<int> one_out(grid.count() * block.count(), -1);
  Trace one;
  const emu::LaunchStats one_stats =
      emu::launch_grid(grid, block, DivergentKernel{&one_out}, emu::RecordFilter{}, one, 1);
  REQUIRE(one.steps.size() > 21 * 2 * 3);
  // The blocks really diverge: masks other than the full warp were recorded.
  CHECK(std::any_of(one.steps.begin(), one.steps.end(), [](const TraceStep& s) { return s.mask != 0xffffffffu; }));
  for (unsigned threads : {2u, 4u, 21u, 64u}) {
    INFO(threads << " threads");
    std::vector<int> out(one_out.size(), -1);
    Trace many;
    const emu::LaunchStats stats = emu::launch_grid(grid, block, DivergentKernel{&out}, emu::RecordFilter{}, many, threads);
    require_same_steps(one.steps, many.steps);
    CHECK(out == one_out);
    require_same_stats(one_stats, stats);
  }
}

TEST_CASE("several threads give the one-thread trace: reduce_sum, reduce_int, transpose", "[emulator][threads]") {
  // 391 blocks, the last one partly past n.
  require_same_scenario_run("reduce_sum", {{"n", "100000"}, {"block", "256"}}, "random:5");
  require_same_scenario_run("reduce_sum", {{"n", "5000"}, {"block", "96"}}, "iota");
  require_same_scenario_run("reduce_int", {{"n", "20000"}, {"block", "128"}}, "random:3");
  require_same_scenario_run("transpose", {{"n", "128"}, {"cols", "32"}}, "");
  // A subset of blocks and warps recorded.
  emu::RecordFilter some;
  some.blocks = {0, 5, 17, 300};
  some.warps = {1, 6};
  require_same_scenario_run("reduce_sum", {{"n", "100000"}}, "ones", some);
}

TEST_CASE("several threads cut the trace at max_steps where one thread does", "[emulator][threads]") {
  // Cuts inside a block (its first steps to complete are kept, then sorted),
  // at a block's end, and at zero room.
  for (size_t max_steps : {size_t(1), size_t(1000), size_t(1001), size_t(1234)}) {
    INFO("max_steps " << max_steps);
    emu::RecordFilter filter;
    filter.max_steps = max_steps;
    emu::LaunchStats one_stats, stats;
    const Trace one = run_scenario_with(1, "reduce_sum", {{"n", "65536"}}, "random:9", &one_stats, filter);
    const Trace many = run_scenario_with(4, "reduce_sum", {{"n", "65536"}}, "random:9", &stats, filter);
    CHECK(one.overflow);
    CHECK(one.steps.size() == max_steps);
    CHECK(many.overflow == one.overflow);
    require_same_steps(one.steps, many.steps);
    CHECK(one.outputs[0].bits == many.outputs[0].bits);
    require_same_stats(one_stats, stats);
  }
  // A second launch into a trace gets only what the first left.
  for (unsigned threads : {1u, 3u}) {
    emu::RecordFilter filter;
    filter.max_steps = 50;
    Trace t;
    std::vector<int> out(4 * 64);
    emu::launch_grid(Dim3{2}, Dim3{64}, DivergentKernel{&out}, filter, t, threads);
    const size_t after_first = t.steps.size();
    emu::launch_grid(Dim3{4}, Dim3{64}, DivergentKernel{&out}, filter, t, threads);
    CHECK(after_first < 50);
    CHECK(t.steps.size() == 50);
    CHECK(t.overflow);
  }
}

TEST_CASE("several threads: the first block to throw, in block order, ends the launch", "[emulator][threads][errors]") {
  auto body = [] {
    __syncwarp();
    if (blockIdx.x % 10 == 7 && threadIdx.x == 33) throw std::runtime_error("block " + std::to_string(blockIdx.x));
    __syncwarp();
  };
  Trace one, many;
  CHECK_THROWS_WITH(emu::launch_grid(Dim3{40}, Dim3{64}, body, emu::RecordFilter{}, one, 1), "block 7");
  CHECK_THROWS_WITH(emu::launch_grid(Dim3{40}, Dim3{64}, body, emu::RecordFilter{}, many, 4), "block 7");
  // The trace holds blocks 0-7, as on one thread.
  require_same_steps(one.steps, many.steps);
  REQUIRE_FALSE(many.steps.empty());
  CHECK(many.steps.back().block == 7);
}

TEST_CASE("the emulator's thread count: set, from WARPVIZ_EMU_THREADS, or every core", "[emulator][threads]") {
  emu::set_emulator_threads(0);
  ::unsetenv(emu::kEmulatorThreadsEnv);
  CHECK(emu::emulator_threads() == std::max(1u, std::thread::hardware_concurrency()));
  ::setenv(emu::kEmulatorThreadsEnv, "3", 1);
  CHECK(emu::emulator_threads() == 3);
  emu::set_emulator_threads(5);
  CHECK(emu::emulator_threads() == 5);
  emu::set_emulator_threads(0);
  for (const char* bad : {"0", "-2", "two", "4x", "100000"}) {
    ::setenv(emu::kEmulatorThreadsEnv, bad, 1);
    CHECK_THROWS_WITH(emu::emulator_threads(), Catch::Contains("WARPVIZ_EMU_THREADS must be a thread count from 1 to 1024"));
  }
  ::unsetenv(emu::kEmulatorThreadsEnv);
}
