// Cooperative groups: the grid barrier of a cooperative launch in the
// scheduler, and users' files that use every group and collective, checked
// lane by lane against models written from the CUDA Programming Guide's
// definitions (4.4 Cooperative Groups).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <atomic>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "warpviz/user_file.h"
#include "warpviz/warp_scheduler.h"
#include "trace_values.h"

using namespace warpviz;
using namespace warpviz::user;

namespace {

using warpviz::test::output_values;

std::string fixture(const std::string& name) { return std::string(WARPVIZ_TEST_USER_FILES) + "/cg/" + name; }

FileRun run_kernel(const std::string& name, uint32_t threads) {
  FileRequest request;
  request.path = fixture(name);
  request.block = Dim3{threads, 1, 1};
  request.inputs = {{"", "iota"}};
  request.backend = FileBackend::Cpu;
  return run_user_file(request);
}

FileRun run_program(const std::string& name) {
  FileRequest request;
  request.path = fixture(name);
  request.backend = FileBackend::Cpu;
  return run_user_file(request);
}

unsigned popcount(unsigned x) { return unsigned(__builtin_popcount(x)); }
// Rank of `lane` among the set bits of `members` (the group's thread_rank).
unsigned rank_in(unsigned members, unsigned lane) { return popcount(members & ((1u << lane) - 1u)); }

}  // namespace

// ---------------------------------------------------------------------------
// The scheduler: launch_grid_cooperative and grid_barrier
// ---------------------------------------------------------------------------

TEST_CASE("cooperative launch: no thread passes grid_barrier before every block arrived", "[cg][grid]") {
  // Prepare: 5 blocks of 40 threads (two warps, one partial).
  const Dim3 grid{5, 1, 1}, block{40, 1, 1};
  int arrived = 0;
  std::vector<int> seen_after(200, -1);
  std::vector<uint32_t> order;
  Trace trace;
  // Run: each thread counts itself in, waits, then reads the count.
  emu::launch_grid_cooperative(grid, block, [&] {
    const emu::ThreadCoords& c = emu::current_thread();
    if (c.linear_tid == 0) order.push_back(c.block_linear);
    ++arrived;
    emu::grid_barrier(__LINE__);
    seen_after[c.block_linear * 40 + c.linear_tid] = arrived;
    emu::grid_barrier(__LINE__);
    ++arrived;
  }, emu::RecordFilter{}, trace);
  // Verify: everyone saw all 200 arrivals, and the blocks started in order.
  CHECK(std::all_of(seen_after.begin(), seen_after.end(), [](int n) { return n == 200; }));
  CHECK(arrived == 400);
  CHECK(order == std::vector<uint32_t>{0, 1, 2, 3, 4});
}

TEST_CASE("cooperative launch: the blocks take turns, so a parked block's state is handed over", "[cg][grid]") {
  std::vector<std::pair<uint32_t, bool>> switches;
  Trace trace;
  emu::launch_grid_cooperative(Dim3{3, 1, 1}, Dim3{32, 1, 1}, [&] { emu::grid_barrier(1); },
                               emu::RecordFilter{}, trace,
                               [&](uint32_t b, bool parking) { switches.emplace_back(b, parking); });
  // Each block takes its turn, parks at the barrier, takes it back, ends.
  const std::vector<std::pair<uint32_t, bool>> expected = {{0, false}, {0, true}, {1, false}, {1, true},
                                                           {2, false}, {2, true}, {0, false}, {0, true},
                                                           {1, false}, {1, true}, {2, false}, {2, true}};
  CHECK(switches == expected);
}

TEST_CASE("cooperative launch: a block that ends before the barrier is a deadlock, not a hang", "[cg][grid]") {
  Trace trace;
  auto body = [] {
    if (emu::current_thread().block_linear == 2) return;
    emu::grid_barrier(7);
  };
  REQUIRE_THROWS_WITH(emu::launch_grid_cooperative(Dim3{4, 1, 1}, Dim3{32, 1, 1}, body, emu::RecordFilter{}, trace),
                      Catch::Contains("deadlock") && Catch::Contains("block 2") && Catch::Contains("line 7"));
}

TEST_CASE("grid_barrier outside a cooperative launch is refused by name", "[cg][grid]") {
  Trace trace;
  REQUIRE_THROWS_WITH(emu::launch_grid(Dim3{2, 1, 1}, Dim3{32, 1, 1}, [] { emu::grid_barrier(3); },
                                       emu::RecordFilter{}, trace, 1),
                      Catch::Contains("not cooperative") && Catch::Contains("cudaLaunchCooperativeKernel"));
  REQUIRE_THROWS_WITH(emu::launch_grid_cooperative(Dim3{uint32_t(emu::kMaxCooperativeBlocks + 1), 1, 1},
                                                   Dim3{32, 1, 1}, [] {}, emu::RecordFilter{}, trace),
                      Catch::Contains("resident"));
}

// ---------------------------------------------------------------------------
// Users' programs: cudaLaunchCooperativeKernel and grid_group
// ---------------------------------------------------------------------------

TEST_CASE("grid.sync in a user's program: neighbours' values, grid ranks, the H200's co-residency limit",
          "[cg][grid][user]") {
  const FileRun run = run_program("grid_sync.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  const std::string& out = run.program_output;
  CHECK(out.find("launch: cudaSuccess") != std::string::npos);
  // Block b read block b+1's slot (written as rank * 10) after the barrier;
  // thread 0 of block b has grid rank 64 b; the grid has 8 * 64 threads.
  for (int b = 0; b < 8; ++b) {
    const std::string line = "block " + std::to_string(b) + " saw " + std::to_string((b + 1) % 8 * 10) + ", " +
                             std::to_string(uint64_t(b) * 64 * 1000 + 512);
    CHECK(out.find(line) != std::string::npos);
  }
  CHECK(out.find("valid 1") != std::string::npos);
  // 2048 threads an SM make 2 blocks of 1024, 264 on 132 SMs: 265 is refused.
  CHECK(out.find("too large: cudaErrorCooperativeLaunchTooLarge (too many blocks in cooperative launch), last "
                 "cudaErrorCooperativeLaunchTooLarge") != std::string::npos);
  CHECK(out.find("per sm 2") != std::string::npos);
  // simpleAWBarrier's H200 reference: "numBlocks = 264 blockSize = 1024".
  CHECK(out.find("potential: block 1024, grid 264") != std::string::npos);
  // Under 200: 128 threads (4 warps, 16 blocks) fill an SM's 64 warps; 64 ties and loses.
  CHECK(out.find("potential under 200: block 128, grid 2112") != std::string::npos);
  REQUIRE(run.launches.size() == 1);  // the refused launch ran nothing
}

TEST_CASE("grid.sync: each block's dynamic shared memory survives the barrier", "[cg][grid][user]") {
  const FileRun run = run_program("grid_shared.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  REQUIRE(run.launches.size() == 1);
  const std::vector<int64_t> out = output_values(run.launches[0], "out");
  REQUIRE(out.size() == 96);
  for (int b = 0; b < 6; ++b)
    for (int t = 0; t < 16; ++t) CHECK(out[size_t(b * 16 + t)] == b * 100 + (t + 1) % 16);
  CHECK(run.program_output.find("cudaSuccess 1 0 504") != std::string::npos);
}

TEST_CASE("grid.sync: a deadlock and a launch that is not cooperative are reported, never hang", "[cg][grid][user]") {
  const FileRun dead = run_program("grid_deadlock.cu");
  CHECK(dead.outcome == FileOutcome::KernelError);
  CHECK(dead.message.find("deadlock: grid.sync() on line 9") != std::string::npos);
  CHECK(dead.message.find("block 1 ended without reaching it") != std::string::npos);
  const FileRun plain = run_program("grid_not_cooperative.cu");
  CHECK(plain.outcome == FileOutcome::KernelError);
  CHECK(plain.message.find("grid.sync() on line 9 in a launch that is not cooperative") != std::string::npos);
}

// ---------------------------------------------------------------------------
// Tiles, partitions and collectives, lane by lane
// ---------------------------------------------------------------------------

TEST_CASE("thread_block_tile<8>: every method, lane by lane", "[cg][tile][user]") {
  const FileRun run = run_kernel("tile_methods.cu", 64);
  INFO(run.message << run.compiler_output);
  REQUIRE(run.ok());
  const Trace& t = run.launches.at(0);
  const auto shfl = output_values(t, "shfl"), up = output_values(t, "up"), down = output_values(t, "down"), xr = output_values(t, "xr"),
             votes = output_values(t, "votes"), ballot = output_values(t, "ballot"), match_any = output_values(t, "match_any"),
             match_all = output_values(t, "match_all"), ranks = output_values(t, "ranks");
  for (int i = 0; i < 64; ++i) {
    INFO("thread " << i);
    const int base = i / 8 * 8, rank = i % 8;  // in = iota: a value is its thread index
    CHECK(shfl[i] == base + 5);
    CHECK(up[i] == (rank >= 3 ? i - 3 : i));    // below rank 3: its own value
    CHECK(down[i] == (rank + 2 < 8 ? i + 2 : i));
    CHECK(xr[i] == base + (rank ^ 6));
    const bool any9 = base <= 9 && 9 < base + 8, all_below60 = base + 7 < 60;
    CHECK(votes[i] == int(any9) + 2 * int(all_below60));  // never all even
    unsigned b = 0, m = 0;
    for (int r = 0; r < 8; ++r) {
      if ((base + r) % 3 == 0) b |= 1u << r;
      if ((base + r) / 3 == i / 3) m |= 1u << r;
    }
    CHECK(ballot[i] == b);
    CHECK(match_any[i] == m);
    CHECK(match_all[i] == (0xffu | 1u << 16));  // v / 8 is the tile's index: all equal, pred 1
    CHECK(ranks[i] == rank + 10 * (i / 8) + 100 * 8 + 1000 * 8);
  }
}

TEST_CASE("run-time partitions: tiled_partition(block, 4), coalesced, labeled, binary, thread_group",
          "[cg][partition][user]") {
  const FileRun run = run_kernel("partitions.cu", 64);
  INFO(run.message << run.compiler_output);
  REQUIRE(run.ok());
  const Trace& t = run.launches.at(0);
  const auto tiled = output_values(t, "tiled"), coalesced = output_values(t, "coalesced"),
             coalesced_ballot = output_values(t, "coalesced_ballot"), labeled = output_values(t, "labeled"),
             binary = output_values(t, "binary"), erased = output_values(t, "erased");
  for (int i = 0; i < 64; ++i) {
    INFO("thread " << i);
    const unsigned lane = unsigned(i % 32), warp_base = unsigned(i / 32 * 32);
    CHECK(tiled[i] == i % 4 + 10 * 4);
    // The lanes that took the branch, ranked among themselves.
    unsigned active = 0, even = 0, same = 0, side = 0;
    for (unsigned l = 0; l < 32; ++l) {
      const unsigned v = warp_base + l;
      if (v % 3 == 0) active |= 1u << l;
      if (v % 5 == unsigned(i) % 5) same |= 1u << l;
      if ((v % 4 == 1) == (unsigned(i) % 4 == 1)) side |= 1u << l;
    }
    for (unsigned l = 0; l < 32; ++l)
      if ((active >> l & 1u) && (warp_base + l) % 2 == 0) even |= 1u << rank_in(active, l);
    if (i % 3 == 0) {
      unsigned third = 0;  // the lane of rank 2
      for (unsigned l = 0, r = 0; l < 32; ++l)
        if (active >> l & 1u && r++ == 2) third = l;
      CHECK(coalesced[i] == rank_in(active, lane) + 100 * popcount(active) + 10000 * (warp_base + third));
      CHECK(coalesced_ballot[i] == even);
    } else {
      CHECK(coalesced[i] == -1);
    }
    CHECK(labeled[i] == rank_in(same, lane) + 100 * popcount(same));
    CHECK(binary[i] == rank_in(side, lane) + 100 * popcount(side));
    CHECK(erased[i] == binary[i] + 10000 * 64 + 1000000);
  }
}

TEST_CASE("cg::reduce and the scans: every built-in operator and lambdas, tiles and coalesced groups",
          "[cg][reduce][user]") {
  const FileRun run = run_kernel("collectives.cu", 32);
  INFO(run.message << run.compiler_output);
  REQUIRE(run.ok());
  const Trace& t = run.launches.at(0);
  const auto sum = output_values(t, "sum"), low = output_values(t, "low"), high = output_values(t, "high"), bits = output_values(t, "bits"),
             scans = output_values(t, "scans"), odd = output_values(t, "odd");
  const TraceOutput* fsum = t.output("fsum");
  REQUIRE(fsum != nullptr);
  auto v = [](int i) { return i * 7 % 11; };
  for (int i = 0; i < 32; ++i) {
    INFO("thread " << i);
    const int base = i / 16 * 16;
    int s = 0, lo = 1 << 30, hi = -1, inclusive = 0, running_max = -1;
    for (int r = 0; r < 16; ++r) {
      s += v(base + r);
      lo = std::min(lo, v(base + r));
      hi = std::max(hi, v(base + r));
      if (base + r <= i) inclusive += v(base + r), running_max = std::max(running_max, v(base + r));
    }
    CHECK(sum[i] == s);
    CHECK(low[i] == lo);
    CHECK(high[i] == hi);
    // or: bits 0-7 and 8; and: bit 8 only; xor: each of bits 0-7 twice, bit 8 16 times.
    CHECK(bits[i] == (0x1ff ^ (0x100 << 12)));
    CHECK(scans[i] == inclusive + 1000 * (inclusive - v(i)) + 1000000 * running_max);
    float fs;
    const uint32_t fbits = uint32_t(fsum->bits[size_t(i)]);
    std::memcpy(&fs, &fbits, 4);
    CHECK(fs == float(s) * 0.5f);  // halves of small integers: exact in any order
    if (i % 2 == 1) {
      int total = 0, before = 0, smallest = 1 << 30;
      for (int l = 1; l < 32; l += 2) {
        total += v(l);
        smallest = std::min(smallest, v(l));
        if (l < i) before += v(l);
      }
      CHECK(odd[i] == total + 1000 * before + 1000000 * smallest);
    } else {
      CHECK(odd[i] == -1);
    }
  }
}

TEST_CASE("cooperative launch past the time limit: the report names the running block", "[cg][grid][user]") {
  FileRequest request;
  request.path = fixture("grid_spin.cu");
  request.backend = FileBackend::Cpu;
  request.time_limit_s = 2.0;
  const FileRun run = run_user_file(request);
  INFO(run.message);
  CHECK(run.outcome == FileOutcome::Timeout);
  CHECK(run.message.find("block (2,0,0), thread (0,0,0)") != std::string::npos);
  CHECK(run.message.find("grid_spin.cu:8") != std::string::npos);
}

TEST_CASE("the H200 probe prints on the emulator what it printed on the H200", "[cg][h200][user]") {
  // Prepare: the H200's output of the same file, built with plain nvcc and
  // CUDA's own header.
  const std::string probe = std::string(WARPVIZ_SOURCE_DIR) + "/tests/h200_probes/cooperative_groups";
  std::ifstream recorded(probe + ".out");
  REQUIRE(recorded.good());
  FileRequest request;
  request.path = probe + ".cu";
  request.backend = FileBackend::Cpu;
  // Run
  const FileRun run = run_user_file(request);
  INFO(run.message << run.compiler_output);
  REQUIRE(run.ok());
  // Verify: line by line; warpviz's own notes (the refused launch) aside.
  std::vector<std::string> expected, got;
  for (std::string line; std::getline(recorded, line);) expected.push_back(line);
  std::istringstream printed(run.program_output);
  for (std::string line; std::getline(printed, line);)
    if (line.rfind("warpviz:", 0) != 0) got.push_back(line);
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == expected[i]);
}
