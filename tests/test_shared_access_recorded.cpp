// A user's own loads and stores of `__shared__` variables, with no
// annotation, recorded as warp-wide accesses (the compiler plugin's
// cuda_cpu/compiler_plugin/shared_access.cpp and the emulator's
// cuda_cpu/scheduler/src/shared_access.cpp): what the banks panel and
// `warpviz-cli run`'s bank summary show for a student's transpose.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "warpviz/bank_model.h"
#include "warpviz/user_file.h"

using namespace warpviz;
using namespace warpviz::user;

namespace {

FileRun run_shared_file(const std::string& name, bool record_shared = true) {
  FileRequest request;
  request.path = std::string(WARPVIZ_TEST_USER_FILES) + "/shared_memory/" + name;
  request.backend = FileBackend::Cpu;
  request.record_shared_memory = record_shared;
  return run_user_file(request);
}

size_t shared_steps(const Trace& trace) {
  size_t n = 0;
  for (const TraceStep& s : trace.steps) n += op_is_shared(s.op);
  return n;
}

float as_float(uint64_t bits) {
  const uint32_t low = uint32_t(bits);
  float f;
  std::memcpy(&f, &low, 4);
  return f;
}

}  // namespace

TEST_CASE("a user's tile transpose records its shared accesses: 32 wavefronts down a column, 1 with padding",
          "[shared][user]") {
  if (!WARPVIZ_HAVE_DEVICE_SEMANTICS_PLUGIN) {
    WARN("skipped: the device-semantics plugin was not built (no GCC plugin headers)");
    return;
  }
  const FileRun run = run_shared_file("tile_transpose.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  CHECK(run.program_output == "transposed: PASS\n");
  REQUIRE(run.launches.size() == 2);
  const int n = 64;
  for (int launch = 0; launch < 2; ++launch) {
    const uint32_t columns = launch == 0 ? 32 : 33;
    const uint32_t column_wavefronts = launch == 0 ? 32 : 1;
    size_t loads = 0, stores = 0;
    for (const TraceStep& step : run.launches[launch].steps) {
      REQUIRE(op_is_shared(step.op));  // the kernel has no other warp operation
      const BankAnalysis banks = analyze_shared_access(shared_access_of(step));
      const uint32_t bx = step.block % 2, by = step.block / 2;  // grid (2, 2)
      const uint32_t row = step.warp;                          // threadIdx.y
      CHECK(std::popcount(step.mask) == 32);
      for (uint32_t lane = 0; lane < 32; ++lane) {
        const LaneRecord& rec = step.lanes[lane];
        REQUIRE(rec.active());
        CHECK(rec.bytes == 4);
        if (step.op == Op::StoreShared) {
          // tile[threadIdx.y][threadIdx.x] = in[y * n + x]
          CHECK(rec.addr == (row * columns + lane) * 4);
          CHECK(as_float(rec.in) == float((by * 32 + row) * n + bx * 32 + lane));
        } else {
          // tile[threadIdx.x][threadIdx.y]: what the store of (row lane, column row) put there
          CHECK(rec.addr == (lane * columns + row) * 4);
          CHECK(as_float(rec.out) == float((by * 32 + lane) * n + bx * 32 + row));
        }
      }
      if (step.op == Op::StoreShared) {
        ++stores;
        CHECK(step.line == 13);
        CHECK(banks.wavefronts == 1);
      } else {
        ++loads;
        CHECK(step.line == 17);
        CHECK(banks.wavefronts == column_wavefronts);
      }
    }
    // 4 blocks of 32 warps, one store and one load each.
    CHECK(stores == 128);
    CHECK(loads == 128);
  }
}

TEST_CASE("shared variables of 1, 2, 4 and 8 bytes record their widths and values, and sum as on a GPU",
          "[shared][user]") {
  if (!WARPVIZ_HAVE_DEVICE_SEMANTICS_PLUGIN) {
    WARN("skipped: the device-semantics plugin was not built (no GCC plugin headers)");
    return;
  }
  const FileRun run = run_shared_file("widths.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  // -(sum of 0.25 i over the block's 128) - 7 + 128
  CHECK(run.program_output == "-1911.00 -6007.00\n");
  REQUIRE(run.launches.size() == 1);
  bool saw_byte = false, saw_short = false, saw_int = false, saw_double_sum = false;
  for (const TraceStep& step : run.launches[0].steps) {
    if (!op_is_shared(step.op)) continue;
    const int lane = std::countr_zero(step.mask);
    const LaneRecord& rec = step.lanes[lane];
    if (step.line == 14 && step.op == Op::StoreShared) {  // sign[t] = t % 3 == 0 ? -1 : 1
      saw_byte = true;
      CHECK(rec.bytes == 1);
      CHECK(std::popcount(step.mask) == 32);
      for (uint32_t l = 0; l < 32; ++l)
        CHECK(uint8_t(step.lanes[l].in) == ((step.warp * 32 + l) % 3 == 0 ? 0xff : 1));
    } else if (step.line == 16) {  // count = 0, by thread 0 alone
      saw_short = true;
      CHECK(rec.bytes == 2);
      CHECK(step.mask == 1u);
    } else if (step.line == 17) {  // first = -7
      saw_int = true;
      CHECK(rec.bytes == 4);
      CHECK(step.dtype == DType::I32);
      CHECK(uint32_t(rec.in) == uint32_t(-7));
    } else if (!saw_double_sum && step.line == 22 && step.op == Op::StoreShared && step.block == 0 &&
               step.warp == 0) {  // the first round: partial[t] += partial[t + 64]
      saw_double_sum = true;
      CHECK(rec.bytes == 8);
      double v;
      std::memcpy(&v, &step.lanes[5].in, 8);
      CHECK(v == 0.25 * 5 + 0.25 * 69);
      CHECK(step.lanes[5].addr == 5 * 8);
    }
  }
  CHECK(saw_byte);
  CHECK(saw_short);
  CHECK(saw_int);
  CHECK(saw_double_sum);
}

TEST_CASE("with --record-memory none no shared access is recorded, and the program computes the same",
          "[shared][user]") {
  if (!WARPVIZ_HAVE_DEVICE_SEMANTICS_PLUGIN) {
    WARN("skipped: the device-semantics plugin was not built (no GCC plugin headers)");
    return;
  }
  const FileRun recorded = run_shared_file("tile_transpose.cu");
  const FileRun plain = run_shared_file("tile_transpose.cu", false);
  INFO(plain.message << plain.compiler_output << plain.program_output);
  REQUIRE(plain.ok());
  CHECK(plain.program_output == recorded.program_output);
  REQUIRE(plain.launches.size() == 2);
  CHECK(shared_steps(plain.launches[0]) == 0);
  CHECK(shared_steps(plain.launches[1]) == 0);
  CHECK(shared_steps(recorded.launches[0]) == 256);
}

TEST_CASE("a block sum over extern __shared__ memory records its accesses: interleaved addressing conflicts, "
          "sequential does not",
          "[shared][user]") {
  if (!WARPVIZ_HAVE_DEVICE_SEMANTICS_PLUGIN) {
    WARN("skipped: the device-semantics plugin was not built (no GCC plugin headers)");
    return;
  }
  const FileRun run = run_shared_file("dynamic_reduce.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  // Prepare: the sums of i % 7 over each block of 256.
  long sums[2] = {0, 0};
  for (int i = 0; i < 512; ++i) sums[i / 256] += i % 7;
  CHECK(run.program_output == "interleaved: " + std::to_string(sums[0]) + " " + std::to_string(sums[1]) +
                                  "\nsequential: " + std::to_string(sums[0]) + " " + std::to_string(sums[1]) + "\n");
  REQUIRE(run.launches.size() == 2);

  // Interleaved: round s (1, 2, 4, ...) has thread t add at word 2*s*t. Each
  // recorded access of warp 0 in a round costs, in wavefronts, the most
  // distinct words any bank serves among its active lanes.
  size_t checked = 0;
  for (const TraceStep& step : run.launches[0].steps) {
    if (!op_is_shared(step.op) || step.line != 14 || step.warp != 0) continue;
    const SharedAccess access = shared_access_of(step);
    uint32_t words_per_bank[32] = {};
    uint32_t stride_words = 0;  // 2*s, read back from lane 1's word (lane 0's is 0 or s)
    for (uint32_t lane = 0; lane < 32; ++lane) {
      if (!((step.mask >> lane) & 1u)) continue;
      ++words_per_bank[(step.lanes[lane].addr / 4) % 32];
    }
    if ((step.mask >> 1) & 1u) stride_words = step.lanes[1].addr / 4 - step.lanes[0].addr / 4;
    uint32_t expected = 0;
    for (uint32_t n : words_per_bank) expected = std::max(expected, n);
    CHECK(analyze_shared_access(access).wavefronts == expected);
    // The lanes step through the words 2*s apart, as the source says.
    for (uint32_t lane = 1; lane < 32 && ((step.mask >> lane) & 1u); ++lane)
      CHECK(step.lanes[lane].addr - step.lanes[lane - 1].addr == stride_words * 4);
    ++checked;
  }
  // 8 rounds (s = 1 ... 128) of two loads and a store, in each of the 2 blocks.
  CHECK(checked == 2 * 8 * 3);
  // The first round is the textbook's 2-way conflict.
  bool found_first = false;
  for (const TraceStep& step : run.launches[0].steps)
    if (op_is_shared(step.op) && step.line == 14 && step.warp == 0 && step.block == 0) {
      CHECK(analyze_shared_access(shared_access_of(step)).wavefronts == 2);
      found_first = true;
      break;
    }
  CHECK(found_first);

  // Sequential: conflict-free throughout, `*mine` (a pointer derived from the array) included.
  size_t sequential = 0;
  bool saw_pointer_store = false;
  for (const TraceStep& step : run.launches[1].steps) {
    if (!op_is_shared(step.op)) continue;
    ++sequential;
    CHECK(analyze_shared_access(shared_access_of(step)).wavefronts == 1);
    if (step.line == 24) {
      saw_pointer_store = true;
      CHECK(step.op == Op::StoreShared);
      CHECK(step.lanes[3].addr == (step.warp * 32 + 3) * 4);
    }
  }
  CHECK(saw_pointer_store);
  CHECK(sequential > 16);
}
