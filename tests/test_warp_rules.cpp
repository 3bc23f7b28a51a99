// The warp rules against the hardware results of docs/warp-rules.md.
// "Case N" is row N of the docs/warp-rules.md#cases list; unless a test says otherwise the mask is full,
// all 32 lanes are active, and each lane's value is its lane number.
#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "warpviz/trace.h"
#include "warpviz/warp_rules.h"

using namespace warpviz;
using rules::apply_step;
using rules::shfl_select;

namespace {

constexpr uint32_t kFull = 0xffffffffu;
constexpr uint8_t kFlagsAll = kLaneActive | kLaneOk | kLaneUndefined;

uint64_t lane_value(int lane) { return uint64_t(lane); }

// A step with `in` = value_of(lane) for the lanes in `active`. Inactive lanes get
// garbage in the result fields so the tests see that apply_step clears them.
template <class ValueOf>
TraceStep make_step(Op op, DType dtype, uint32_t mask, ValueOf value_of, uint32_t active = kFull) {
  TraceStep step;
  step.op = op;
  step.dtype = dtype;
  step.mask = mask;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    LaneRecord& rec = step.lanes[lane];
    rec.in = value_of(lane);
    if (active & (1u << lane)) {
      rec.flags = kLaneActive;
    } else {
      rec.flags = kLaneOk | kLaneUndefined;
      rec.out = 0xdead;
      rec.src = 7;
    }
  }
  return step;
}

TraceStep run_shuffle(Op op, int64_t b, int width, uint32_t mask = kFull, uint32_t active = kFull) {
  TraceStep step = make_step(op, DType::I32, mask, lane_value, active);
  step.args.b = b;
  step.args.width = width;
  apply_step(step);
  return step;
}

std::vector<uint64_t> outs(const TraceStep& step) {
  std::vector<uint64_t> v;
  for (const LaneRecord& rec : step.lanes) v.push_back(rec.out);
  return v;
}

// The doc's "n×k" notation: runs of (value, count).
std::vector<uint64_t> runs(std::initializer_list<std::pair<uint64_t, int>> list) {
  std::vector<uint64_t> v;
  for (auto [value, count] : list) v.insert(v.end(), size_t(count), value);
  return v;
}

std::vector<uint64_t> identity() {
  std::vector<uint64_t> v;
  for (int lane = 0; lane < kWarpSize; ++lane) v.push_back(lane_value(lane));
  return v;
}

// Every lane of a full, all-active shuffle is defined, reads lane `src`, and an
// out-of-range lane (p = 0) keeps its own value.
void check_defined_shuffle(const TraceStep& step) {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord& rec = step.lanes[lane];
    INFO("lane " << lane);
    CHECK_FALSE(rec.undefined());
    REQUIRE(rec.src >= 0);
    CHECK(rec.out == step.lanes[rec.src].in);
    if (!rec.ok()) CHECK(rec.src == lane);
  }
}

void check_untouched_inactive(const TraceStep& step, uint32_t active) {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (active & (1u << lane)) continue;
    const LaneRecord& rec = step.lanes[lane];
    INFO("inactive lane " << lane);
    CHECK(rec.out == 0);
    CHECK(rec.src == -1);
    CHECK((rec.flags & kFlagsAll) == 0);
  }
}

}  // namespace

TEST_CASE("shfl c operand is built as sm_30_intrinsics.hpp builds it", "[rules][shfl]") {
  // docs/warp-rules.md#shuffles: SASS for width 8 shows SHFL.DOWN 0x181f and SHFL.UP 0x1800.
  CHECK(rules::shfl_c_operand(Op::ShflDown, 8) == 0x181fu);
  CHECK(rules::shfl_c_operand(Op::ShflUp, 8) == 0x1800u);
  CHECK(rules::shfl_c_operand(Op::ShflIdx, 32) == 0x1fu);
  CHECK(rules::shfl_c_operand(Op::ShflXor, 32) == 0x1fu);
  CHECK(rules::shfl_c_operand(Op::ShflUp, 32) == 0u);
  CHECK(rules::shfl_c_operand(Op::ShflIdx, 1) == 0x1f1fu);
  // docs/warp-rules.md#widths: width 12 gives segmask 20; width 64 gives c[12:8] = 0.
  CHECK(((rules::shfl_c_operand(Op::ShflIdx, 12) >> 8) & 0x1f) == 20u);
  CHECK(((rules::shfl_c_operand(Op::ShflIdx, 64) >> 8) & 0x1f) == 0u);

  TraceStep step = run_shuffle(Op::ShflDown, 3, 8);
  CHECK(step.args.c == 0x181fu);  // stored into the step
}

TEST_CASE("case 1: shfl_up delta 3 width 8", "[rules][shfl]") {
  TraceStep step = run_shuffle(Op::ShflUp, 3, 8);
  CHECK(outs(step) == std::vector<uint64_t>{0,  1,  2,  0,  1,  2,  3,  4,  8,  9,  10,
                                            8,  9,  10, 11, 12, 16, 17, 18, 16, 17, 18,
                                            19, 20, 24, 25, 26, 24, 25, 26, 27, 28});
  for (int lane = 0; lane < kWarpSize; ++lane) {
    INFO("lane " << lane);
    CHECK(step.lanes[lane].ok() == ((lane & 7) >= 3));  // rel < delta: p = 0
  }
  check_defined_shuffle(step);
}

TEST_CASE("case 2: shfl_down delta 3 width 8", "[rules][shfl]") {
  TraceStep step = run_shuffle(Op::ShflDown, 3, 8);
  CHECK(outs(step) == std::vector<uint64_t>{3,  4,  5,  6,  7,  5,  6,  7,  11, 12, 13,
                                            14, 15, 13, 14, 15, 19, 20, 21, 22, 23, 21,
                                            22, 23, 27, 28, 29, 30, 31, 29, 30, 31});
  for (int lane = 0; lane < kWarpSize; ++lane) {
    INFO("lane " << lane);
    CHECK(step.lanes[lane].ok() == ((lane & 7) + 3 < 8));
  }
  check_defined_shuffle(step);
}

TEST_CASE("case 3: shfl_xor laneMask 9 width 8 reaches the earlier segment only",
          "[rules][shfl]") {
  TraceStep step = run_shuffle(Op::ShflXor, 9, 8);
  CHECK(outs(step) == std::vector<uint64_t>{0,  1,  2,  3,  4,  5,  6,  7,  1,  0,  3,
                                            2,  5,  4,  7,  6,  16, 17, 18, 19, 20, 21,
                                            22, 23, 17, 16, 19, 18, 21, 20, 23, 22});
  check_defined_shuffle(step);
}

TEST_CASE("case 4: shfl_xor 16 width 16: upper half reads lower half", "[rules][shfl]") {
  TraceStep step = run_shuffle(Op::ShflXor, 16, 16);
  std::vector<uint64_t> expected;
  for (int i = 0; i < 2; ++i)
    for (int lane = 0; lane < 16; ++lane) expected.push_back(uint64_t(lane));
  CHECK(outs(step) == expected);
  for (int lane = 0; lane < kWarpSize; ++lane) CHECK(step.lanes[lane].ok() == (lane >= 16));
  check_defined_shuffle(step);
}

TEST_CASE("cases 5, 6: srcLane 35 reads lane 3, srcLane -1 reads lane 31", "[rules][shfl]") {
  TraceStep step35 = run_shuffle(Op::ShflIdx, 35, 32);
  CHECK(outs(step35) == runs({{3, 32}}));
  check_defined_shuffle(step35);
  TraceStep step_minus1 = run_shuffle(Op::ShflIdx, -1, 32);
  CHECK(outs(step_minus1) == runs({{31, 32}}));
  check_defined_shuffle(step_minus1);
  for (int lane = 0; lane < kWarpSize; ++lane) CHECK(step_minus1.lanes[lane].ok());
}

TEST_CASE("case 7: shfl srcLane 10 width 8 gives 2, 10, 18, 26", "[rules][shfl]") {
  TraceStep step = run_shuffle(Op::ShflIdx, 10, 8);
  CHECK(outs(step) == runs({{2, 8}, {10, 8}, {18, 8}, {26, 8}}));
  check_defined_shuffle(step);
}

TEST_CASE("cases 8, 9: delta 33 uses only 5 bits (= 1)", "[rules][shfl]") {
  TraceStep up = run_shuffle(Op::ShflUp, 33, 32);
  std::vector<uint64_t> expected_up{0};
  for (int lane = 0; lane < 31; ++lane) expected_up.push_back(uint64_t(lane));
  CHECK(outs(up) == expected_up);
  CHECK_FALSE(up.lanes[0].ok());
  check_defined_shuffle(up);

  TraceStep down = run_shuffle(Op::ShflDown, 33, 32);
  std::vector<uint64_t> expected_down;
  for (int lane = 1; lane < 32; ++lane) expected_down.push_back(uint64_t(lane));
  expected_down.push_back(31);
  CHECK(outs(down) == expected_down);
  CHECK_FALSE(down.lanes[31].ok());
  check_defined_shuffle(down);
}

TEST_CASE("case 10: up 32, xor 32 and width-1 shuffles are the identity", "[rules][shfl]") {
  CHECK(outs(run_shuffle(Op::ShflUp, 32, 32)) == identity());
  CHECK(outs(run_shuffle(Op::ShflXor, 32, 32)) == identity());
  for (Op op : {Op::ShflIdx, Op::ShflUp, Op::ShflDown, Op::ShflXor}) {
    for (int64_t b : {0, 1, 5, 17, 31, -1}) {
      INFO("op " << int(op) << " b " << b);
      TraceStep step = run_shuffle(op, b, 1);
      check_defined_shuffle(step);
      if (op != Op::ShflXor || (b & 31) == 0) {
        CHECK(outs(step) == identity());
        continue;
      }
      // The doc's "any shfl with width 1" does not hold for xor with a non-zero
      // laneMask: by docs/warp-rules.md#lane-selection (as in case 3) bfly checks only the upper bound, so a lane
      // reads L ^ b whenever that is an earlier lane. The formula is what matched HW.
      for (int lane = 0; lane < kWarpSize; ++lane) {
        const int partner = lane ^ int(b & 31);
        CHECK(step.lanes[lane].out == uint64_t(partner < lane ? partner : lane));
      }
    }
  }
}

TEST_CASE("case 11: shfl_up delta 0xffffffff acts as delta 31", "[rules][shfl]") {
  std::vector<uint64_t> expected = identity();
  expected[31] = 0;
  for (int64_t b : {int64_t{0xffffffff}, int64_t{-1}}) {
    INFO("b " << b);
    TraceStep step = run_shuffle(Op::ShflUp, b, 32);
    CHECK(outs(step) == expected);
    for (int lane = 0; lane < kWarpSize; ++lane) CHECK(step.lanes[lane].ok() == (lane == 31));
    CHECK(step.lanes[31].src == 0);
    check_defined_shuffle(step);
  }
}

TEST_CASE("case 12: shfl_down delta 1 width 16", "[rules][shfl]") {
  std::vector<uint64_t> expected;
  for (int lane = 1; lane < 16; ++lane) expected.push_back(uint64_t(lane));
  expected.push_back(15);
  for (int lane = 17; lane < 32; ++lane) expected.push_back(uint64_t(lane));
  expected.push_back(31);
  TraceStep step = run_shuffle(Op::ShflDown, 1, 16);
  CHECK(outs(step) == expected);
  check_defined_shuffle(step);
}

TEST_CASE("case 13: invalid width 12 follows the formula", "[rules][shfl]") {
  TraceStep step = run_shuffle(Op::ShflIdx, 5, 12);
  CHECK(outs(step) == runs({{1, 4}, {5, 4}, {1, 4}, {5, 4}, {17, 4}, {21, 4}, {17, 4}, {21, 4}}));
  check_defined_shuffle(step);
}

TEST_CASE("case 14: shfl_down delta 3 width 12", "[rules][shfl]") {
  TraceStep step = run_shuffle(Op::ShflDown, 3, 12);
  CHECK(outs(step) == std::vector<uint64_t>{3,  4,  5,  6,  7,  8,  9,  10, 11, 9,  10,
                                            11, 15, 13, 14, 15, 19, 20, 21, 22, 23, 24,
                                            25, 26, 27, 25, 26, 27, 31, 29, 30, 31});
  check_defined_shuffle(step);
}

TEST_CASE("case 15: width 64 acts like 32, srcLane 40 reads lane 8", "[rules][shfl]") {
  TraceStep step = run_shuffle(Op::ShflIdx, 40, 64);
  CHECK(outs(step) == runs({{8, 32}}));
  check_defined_shuffle(step);
}

TEST_CASE("case 16: PTX shfl.up b=1 c=0x1f (clamp 31 on up): identity, p = 0",
          "[rules][shfl][ptx]") {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    INFO("lane " << lane);
    const rules::ShflSelection sel = shfl_select(Op::ShflUp, lane, 1, 0x1f);
    CHECK(sel.src == lane);
    CHECK_FALSE(sel.in_range);
  }
}

TEST_CASE("case 17: PTX shfl.bfly b=9 c=0x181f", "[rules][shfl][ptx]") {
  const std::vector<int> expected_d{0,  1,  2,  3,  4,  5,  6,  7,  1,  0,  3,  2,  5,  4,  7,  6,
                                    16, 17, 18, 19, 20, 21, 22, 23, 17, 16, 19, 18, 21, 20, 23, 22};
  for (int lane = 0; lane < kWarpSize; ++lane) {
    INFO("lane " << lane);
    const rules::ShflSelection sel = shfl_select(Op::ShflXor, lane, 9, 0x181f);
    CHECK(sel.src == expected_d[size_t(lane)]);
    CHECK(sel.in_range == (((lane >> 3) & 1) == 1));  // p = 0×8, 1×8, 0×8, 1×8
  }
}

TEST_CASE("case 18: PTX shfl.down b=4 c=0x0810", "[rules][shfl][ptx]") {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    INFO("lane " << lane);
    const rules::ShflSelection sel = shfl_select(Op::ShflDown, lane, 4, 0x0810);
    // d = [4..19, 16..31]; p = 1 for lanes 0-15.
    CHECK(sel.src == (lane < 16 ? lane + 4 : lane));
    CHECK(sel.in_range == (lane < 16));
  }
}

TEST_CASE("shfl_select uses only 5 bits of b", "[rules][shfl][ptx]") {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    for (Op op : {Op::ShflIdx, Op::ShflUp, Op::ShflDown, Op::ShflXor}) {
      const uint32_t c = rules::shfl_c_operand(op, 32);
      const auto narrow = shfl_select(op, lane, 7, c);
      const auto wide = shfl_select(op, lane, 7 + 32 * 5, c);
      CHECK(narrow.src == wide.src);
      CHECK(narrow.in_range == wide.in_range);
    }
  }
}

TEST_CASE("case 19: 64-bit shfl_down copies all 64 bits", "[rules][shfl]") {
  auto bits_of = [](int lane) {
    return (uint64_t(0x40000000u + unsigned(lane)) << 32) | (0x1000u + unsigned(lane));
  };
  for (DType dtype : {DType::F64, DType::I64, DType::U64}) {
    TraceStep step = make_step(Op::ShflDown, dtype, kFull, bits_of);
    step.args.b = 1;
    apply_step(step);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      INFO("lane " << lane);
      CHECK(step.lanes[lane].out == bits_of(lane < 31 ? lane + 1 : 31));
    }
    check_defined_shuffle(step);
  }
  // A NaN payload survives: a shuffle never changes bits.
  TraceStep nan_step =
      make_step(Op::ShflXor, DType::F64, kFull, [](int) { return 0xfff8000000000456ull; });
  nan_step.args.b = 1;
  apply_step(nan_step);
  CHECK(nan_step.lanes[0].out == 0xfff8000000000456ull);
}

TEST_CASE("case 20: half / bf16 values duplicated into a b32 shuffle", "[rules][shfl]") {
  // docs/warp-rules.md#shuffles: the 16-bit value fills both halves, the low half of the result is returned.
  auto pair = [](uint64_t h) { return (h << 16) | h; };
  TraceStep half = make_step(Op::ShflXor, DType::U32, kFull,
                             [&](int lane) { return pair(0x3c00u + unsigned(lane)); });
  half.args.b = 1;
  apply_step(half);
  for (int lane = 0; lane < kWarpSize; ++lane)
    CHECK((half.lanes[lane].out & 0xffff) == 0x3c00u + unsigned(lane ^ 1));

  TraceStep bf16 = make_step(Op::ShflDown, DType::U32, kFull,
                             [&](int lane) { return pair(0x3f80u + unsigned(lane)); });
  bf16.args.b = 2;
  apply_step(bf16);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    INFO("lane " << lane);
    CHECK((bf16.lanes[lane].out & 0xffff) == 0x3f80u + unsigned(lane < 30 ? lane + 2 : lane));
  }
}

TEST_CASE("inactive sources: a source outside the active lanes is undefined and reads 0",
          "[rules][shfl][undefined]") {
  // Lanes 0-15 run __shfl_down_sync(0xffff, v, 8); lanes 16-23 branched away.
  const uint32_t active = 0x0000ffffu;
  TraceStep step = run_shuffle(Op::ShflDown, 8, 32, 0x0000ffffu, active);
  for (int lane = 0; lane < 8; ++lane) {
    INFO("lane " << lane);
    CHECK(step.lanes[lane].out == uint64_t(lane + 8));
    CHECK(step.lanes[lane].ok());
    CHECK_FALSE(step.lanes[lane].undefined());
  }
  for (int lane = 8; lane < 16; ++lane) {
    INFO("lane " << lane);
    CHECK(step.lanes[lane].undefined());
    CHECK(step.lanes[lane].out == 0);         // what the H200 gave
    CHECK(step.lanes[lane].src == lane + 8);  // the formula's choice
    CHECK(step.lanes[lane].ok());             // p is still the formula's
    CHECK(step.lanes[lane].active());
  }
  check_untouched_inactive(step, active);
  for (int lane = 16; lane < kWarpSize; ++lane) CHECK(step.lanes[lane].in == uint64_t(lane));
}

TEST_CASE("a source that is active but outside the mask is undefined", "[rules][shfl][undefined]") {
  // All lanes active, mask 0xffff: lane 0 reads lane 16 (active, not a member).
  // The H200 hands over the register of a lane that ran the shuffle even when
  // the mask leaves it out (the GPU test sweep); only lanes that did not run it read 0.
  TraceStep step = run_shuffle(Op::ShflXor, 16, 32, 0x0000ffffu);
  for (int lane = 0; lane < 16; ++lane) {
    INFO("lane " << lane);
    CHECK(step.lanes[lane].undefined());
    CHECK(step.lanes[lane].out == step.lanes[lane ^ 16].in);
  }
}

TEST_CASE("a lane outside its own mask is undefined but keeps the formula's value",
          "[rules][shfl][undefined]") {
  TraceStep step = make_step(Op::ShflIdx, DType::I32, 0x0000ffffu,
                             [](int lane) { return uint64_t(lane + 100); });
  step.args.b = 0;
  apply_step(step);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    INFO("lane " << lane);
    CHECK(step.lanes[lane].out == 100);  // lane 0 is an active member
    CHECK(step.lanes[lane].undefined() == (lane >= 16));
    CHECK(step.lanes[lane].src == 0);
  }

  // Out of range for a non-member: it keeps its own value, which is a
  // non-member's, so the step is undefined; the H200 still returns that value.
  TraceStep down = run_shuffle(Op::ShflDown, 16, 32, 0x0000ffffu);
  CHECK(down.lanes[16].undefined());
  CHECK_FALSE(down.lanes[16].ok());
  CHECK(down.lanes[16].src == 16);
  CHECK(down.lanes[16].out == down.lanes[16].in);
}

TEST_CASE("a 32-lane shuffle reused after a partial one clears old results", "[rules][shfl]") {
  TraceStep step = run_shuffle(Op::ShflDown, 8, 32, 0x0000ffffu, 0x0000ffffu);
  step.mask = kFull;
  for (LaneRecord& rec : step.lanes) rec.flags |= kLaneActive;
  apply_step(step);
  for (int lane = 0; lane < kWarpSize; ++lane) CHECK_FALSE(step.lanes[lane].undefined());
  check_defined_shuffle(step);
}

TEST_CASE("case 27: int shfl_down and xor reductions through apply_step", "[rules][shfl]") {
  for (Op op : {Op::ShflDown, Op::ShflXor}) {
    std::vector<uint64_t> v = identity();
    for (int offset = 16; offset > 0; offset /= 2) {
      TraceStep step = make_step(op, DType::I32, kFull, [&](int lane) { return v[size_t(lane)]; });
      step.args.b = offset;
      apply_step(step);
      for (int lane = 0; lane < kWarpSize; ++lane)
        v[size_t(lane)] = uint32_t(v[size_t(lane)] + step.lanes[lane].out);
    }
    for (int lane = 0; lane < kWarpSize; ++lane) {
      INFO("lane " << lane);
      CHECK(v[size_t(lane)] == (op == Op::ShflDown ? 496u + 16u * unsigned(lane) : 496u));
    }
  }
}

TEST_CASE("case 21: ballot counts any non-zero predicate", "[rules][vote]") {
  TraceStep step =
      make_step(Op::Ballot, DType::I32, kFull, [](int lane) { return uint64_t(lane % 3 == 0); });
  apply_step(step);
  CHECK(outs(step) == runs({{0x49249249u, 32}}));

  // Predicates -1 (as i32 bits) and 2 are true.
  TraceStep mixed = make_step(Op::Ballot, DType::I32, kFull, [](int lane) -> uint64_t {
    if (lane & 1) return 0xffffffffu;
    return lane == 4 ? 2 : 0;
  });
  apply_step(mixed);
  CHECK(outs(mixed) == runs({{0xaaaaaabau, 32}}));
  for (const LaneRecord& rec : mixed.lanes) {
    CHECK(rec.ok());
    CHECK_FALSE(rec.undefined());
    CHECK(rec.src == -1);
  }
}

TEST_CASE("ballot counts only active lanes in the mask", "[rules][vote]") {
  auto all_true = [](int) { return uint64_t{1}; };
  TraceStep partial_active = make_step(Op::Ballot, DType::I32, kFull, all_true, 0x0000000fu);
  apply_step(partial_active);
  for (int lane = 0; lane < 4; ++lane) CHECK(partial_active.lanes[lane].out == 0xfu);
  check_untouched_inactive(partial_active, 0x0000000fu);

  TraceStep partial_mask = make_step(Op::Ballot, DType::I32, 0x00ff00ffu, all_true);
  apply_step(partial_mask);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    INFO("lane " << lane);
    const bool member = (0x00ff00ffu >> lane) & 1;
    CHECK(partial_mask.lanes[lane].out == 0x00ff00ffu);
    CHECK(partial_mask.lanes[lane].undefined() == !member);
    CHECK(partial_mask.lanes[lane].ok() == member);
  }
}

TEST_CASE("any / all reduce over the active lanes in the mask", "[rules][vote]") {
  auto run = [](Op op, uint32_t mask, uint32_t active, auto pred) {
    TraceStep step = make_step(op, DType::I32, mask, pred, active);
    apply_step(step);
    return step;
  };
  auto all_true = [](int) { return uint64_t{1}; };
  auto one_false = [](int lane) { return uint64_t(lane != 9); };
  auto all_false = [](int) { return uint64_t{0}; };
  auto odd_true = [](int lane) { return uint64_t(lane & 1); };

  CHECK(run(Op::All, kFull, kFull, all_true).lanes[0].out == 1);
  CHECK(run(Op::Any, kFull, kFull, all_true).lanes[31].out == 1);
  CHECK(run(Op::All, kFull, kFull, one_false).lanes[5].out == 0);
  CHECK(run(Op::Any, kFull, kFull, one_false).lanes[9].out == 1);
  CHECK(run(Op::Any, kFull, kFull, all_false).lanes[0].out == 0);
  CHECK(run(Op::All, kFull, kFull, all_false).lanes[0].out == 0);
  // Lane 9 is outside the mask, so its false predicate does not count.
  TraceStep masked = run(Op::All, ~(1u << 9), kFull, one_false);
  CHECK(masked.lanes[0].out == 1);
  CHECK(masked.lanes[9].undefined());
  CHECK_FALSE(masked.lanes[9].ok());
  // Only odd lanes active: all of them are true.
  TraceStep odd = run(Op::All, kFull, 0xaaaaaaaau, odd_true);
  CHECK(odd.lanes[1].out == 1);
  CHECK(odd.lanes[1].ok());
  check_untouched_inactive(odd, 0xaaaaaaaau);
  // Every participant gets the same value.
  TraceStep same = run(Op::Any, kFull, kFull, odd_true);
  for (const LaneRecord& rec : same.lanes) CHECK(rec.out == 1);
}

TEST_CASE("activemask in an odd-lane branch is 0xAAAAAAAA", "[rules][vote]") {
  TraceStep step = make_step(Op::ActiveMask, DType::U32, kFull, lane_value, 0xaaaaaaaau);
  apply_step(step);
  for (int lane = 1; lane < kWarpSize; lane += 2) CHECK(step.lanes[lane].out == 0xaaaaaaaau);
  check_untouched_inactive(step, 0xaaaaaaaau);
}

TEST_CASE("case 22: match_any compares bits: +0 / -0 and NaN payloads differ", "[rules][match]") {
  const std::vector<std::pair<uint64_t, uint64_t>> even_odd{
      {0x00000000u, 0x80000000u},  // +0.f / -0.f
      {0x7fc00000u, 0x7fc00001u},  // two NaN payloads
  };
  for (const auto& values : even_odd) {
    const uint64_t even = values.first, odd = values.second;
    TraceStep step =
        make_step(Op::MatchAny, DType::F32, kFull, [&](int lane) { return lane & 1 ? odd : even; });
    apply_step(step);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      INFO("lane " << lane);
      CHECK(step.lanes[lane].out == (lane & 1 ? 0xaaaaaaaau : 0x55555555u));
      CHECK_FALSE(step.lanes[lane].undefined());
    }
  }
}

TEST_CASE("case 23: match_all with one differing lane gives 0 and pred 0", "[rules][match]") {
  TraceStep step = make_step(Op::MatchAll, DType::I32, kFull,
                             [](int lane) { return uint64_t(lane == 5 ? 8 : 7); });
  apply_step(step);
  for (const LaneRecord& rec : step.lanes) {
    CHECK(rec.out == 0);
    CHECK_FALSE(rec.ok());
  }

  TraceStep agree = make_step(Op::MatchAll, DType::I32, kFull, [](int) { return uint64_t{7}; });
  apply_step(agree);
  for (const LaneRecord& rec : agree.lanes) {
    CHECK(rec.out == kFull);
    CHECK(rec.ok());
  }
}

TEST_CASE("match_all returns the mask and ignores lanes outside it", "[rules][match]") {
  // Lanes 16-31 hold other values but are inactive.
  TraceStep step = make_step(
      Op::MatchAll, DType::U32, 0x0000ffffu,
      [](int lane) { return uint64_t(lane < 16 ? 3 : lane); }, 0x0000ffffu);
  apply_step(step);
  for (int lane = 0; lane < 16; ++lane) {
    CHECK(step.lanes[lane].out == 0x0000ffffu);
    CHECK(step.lanes[lane].ok());
  }
  check_untouched_inactive(step, 0x0000ffffu);
}

TEST_CASE("64-bit match: values differing only in the high word do not match", "[rules][match]") {
  for (DType dtype : {DType::I64, DType::U64, DType::F64}) {
    auto value = [](int lane) { return (uint64_t(lane & 1) << 32) | 0x5u; };
    TraceStep any = make_step(Op::MatchAny, dtype, kFull, value);
    apply_step(any);
    for (int lane = 0; lane < kWarpSize; ++lane)
      CHECK(any.lanes[lane].out == (lane & 1 ? 0xaaaaaaaau : 0x55555555u));
    TraceStep all = make_step(Op::MatchAll, dtype, kFull, value);
    apply_step(all);
    CHECK(all.lanes[0].out == 0);
    CHECK_FALSE(all.lanes[0].ok());
  }
}

TEST_CASE("32-bit match compares only the type's width", "[rules][match]") {
  // Stray high-word bits are not part of a 32-bit value.
  TraceStep step = make_step(Op::MatchAll, DType::I32, kFull,
                             [](int lane) { return (uint64_t(lane) << 32) | 0x9u; });
  apply_step(step);
  CHECK(step.lanes[0].out == kFull);
  CHECK(step.lanes[0].ok());
}

TEST_CASE("match_any counts only mask members; non-members are undefined", "[rules][match]") {
  TraceStep step =
      make_step(Op::MatchAny, DType::I32, 0x000000ffu, [](int lane) { return uint64_t(lane & 1); });
  apply_step(step);
  CHECK(step.lanes[0].out == 0x55u);
  CHECK(step.lanes[7].out == 0xaau);
  CHECK_FALSE(step.lanes[7].undefined());
  CHECK(step.lanes[8].undefined());
  CHECK(step.lanes[8].out == 0x55u);
}

TEST_CASE("case 24: redux add wraps, min/max are signed for int, unsigned for unsigned",
          "[rules][redux]") {
  TraceStep add = make_step(Op::ReduxAdd, DType::I32, kFull, [](int) { return 0x7fffffffull; });
  apply_step(add);
  CHECK(outs(add) == runs({{0xffffffe0u, 32}}));

  auto minus16 = [](int lane) { return uint64_t(uint32_t(lane - 16)); };
  auto reduce = [&](Op op, DType dtype) {
    TraceStep step = make_step(op, dtype, kFull, minus16);
    apply_step(step);
    for (const LaneRecord& rec : step.lanes) {
      CHECK(rec.out == step.lanes[0].out);
      CHECK(rec.ok());
    }
    return step.lanes[0].out;
  };
  CHECK(reduce(Op::ReduxMin, DType::I32) == 0xfffffff0u);  // -16, high word zero
  CHECK(reduce(Op::ReduxMax, DType::I32) == 15u);
  CHECK(reduce(Op::ReduxMin, DType::U32) == 0u);
  CHECK(reduce(Op::ReduxMax, DType::U32) == 0xffffffffu);
}

TEST_CASE("redux over a sub-mask: mask 0xff run by lanes 0-7 gives 28", "[rules][redux]") {
  TraceStep step = make_step(Op::ReduxAdd, DType::I32, 0xffu, lane_value, 0xffu);
  apply_step(step);
  for (int lane = 0; lane < 8; ++lane) {
    CHECK(step.lanes[lane].out == 28);
    CHECK(step.lanes[lane].ok());
  }
  check_untouched_inactive(step, 0xffu);

  // Lanes outside the mask that still execute contribute nothing and are undefined.
  TraceStep outside = make_step(Op::ReduxAdd, DType::I32, 0xffu, lane_value);
  apply_step(outside);
  CHECK(outside.lanes[0].out == 28);
  CHECK(outside.lanes[20].undefined());
}

TEST_CASE("redux and / or / xor", "[rules][redux]") {
  auto reduce = [](Op op, auto value) {
    TraceStep step = make_step(op, DType::U32, kFull, value);
    apply_step(step);
    return step.lanes[17].out;
  };
  auto one_bit = [](int lane) { return uint64_t(1u << lane); };
  CHECK(reduce(Op::ReduxOr, one_bit) == 0xffffffffu);
  CHECK(reduce(Op::ReduxXor, one_bit) == 0xffffffffu);
  CHECK(reduce(Op::ReduxAnd, one_bit) == 0u);
  auto with_high = [](int lane) { return uint64_t(0xf0000000u | uint32_t(lane)); };
  CHECK(reduce(Op::ReduxAnd, with_high) == 0xf0000000u);
  CHECK(reduce(Op::ReduxXor, lane_value) == 0u);  // 0 ^ 1 ^ ... ^ 31
}

TEST_CASE("syncwarp marks lanes outside the mask undefined", "[rules][vote]") {
  TraceStep step = make_step(Op::SyncWarp, DType::U32, 0xffu, lane_value, 0xffffu);
  apply_step(step);
  for (int lane = 0; lane < 16; ++lane) {
    INFO("lane " << lane);
    CHECK(step.lanes[lane].out == 0);
    CHECK(step.lanes[lane].ok() == (lane < 8));
    CHECK(step.lanes[lane].undefined() == (lane >= 8));
  }
  check_untouched_inactive(step, 0xffffu);
}

TEST_CASE("shared-memory steps are left to the emulator", "[rules]") {
  TraceStep step = make_step(Op::LoadShared, DType::F32, kFull, lane_value);
  for (LaneRecord& rec : step.lanes) {
    rec.out = 42;
    rec.addr = 4;
  }
  apply_step(step);
  for (const LaneRecord& rec : step.lanes) {
    CHECK(rec.out == 42);
    CHECK(rec.addr == 4);
  }
}

TEST_CASE("case 25: fns walks from base, counting base itself", "[rules][bits]") {
  const uint32_t mask = 0x00ff00f1u;  // bits 0, 4-7, 16-23
  constexpr uint32_t kNone = 0xffffffffu;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    uint32_t up;  // next set bit at or above lane
    if (lane == 0)
      up = 0;
    else if (lane <= 7)
      up = lane <= 4 ? 4 : lane;
    else if (lane <= 23)
      up = lane <= 16 ? 16 : lane;
    else
      up = kNone;
    CHECK(rules::fns(mask, lane, 1) == up);

    uint32_t down;  // next set bit at or below lane
    if (lane <= 3)
      down = 0;
    else if (lane <= 7)
      down = lane;
    else if (lane <= 15)
      down = 7;
    else if (lane <= 23)
      down = lane;
    else
      down = 23;
    CHECK(rules::fns(mask, lane, -1) == down);
  }
  const std::vector<uint32_t> nth{0, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23};
  for (int lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    CHECK(rules::fns(mask, 0, lane + 1) == (lane < 13 ? nth[size_t(lane)] : kNone));
  }
  // The doc's spot values.
  CHECK(rules::fns(mask, 1, 1) == 4);
  CHECK(rules::fns(mask, 24, 1) == kNone);
  CHECK(rules::fns(mask, 3, -1) == 0);
  CHECK(rules::fns(mask, 8, -1) == 7);
  CHECK(rules::fns(mask, 0, 13) == 23);
  CHECK(rules::fns(mask, 0, 14) == kNone);
  // Offset 0: base itself if set; further walks; base > 31 (undefined).
  CHECK(rules::fns(mask, 4, 0) == 4);
  CHECK(rules::fns(mask, 1, 0) == kNone);
  CHECK(rules::fns(mask, 23, -9) == 7);
  CHECK(rules::fns(mask, 23, -13) == 0);
  CHECK(rules::fns(mask, 23, -14) == kNone);
  CHECK(rules::fns(mask, 32, 1) == kNone);
  CHECK(rules::fns(kFull, 5, INT32_MIN) == kNone);
}

TEST_CASE("case 26: ffs, clz, brev, popc", "[rules][bits]") {
  CHECK(rules::ffs(0) == 0);
  CHECK(rules::ffs(0x80000000u) == 32);
  CHECK(rules::ffs(1) == 1);
  CHECK(rules::ffs(0x00000c00u) == 11);
  CHECK(rules::clz(0) == 32);
  CHECK(rules::clz(0xffffffffu) == 0);
  CHECK(rules::clz(1) == 31);
  CHECK(rules::brev(6) == 0x60000000u);
  CHECK(rules::brev(1) == 0x80000000u);
  CHECK(rules::brev(0x12345678u) == 0x1e6a2c48u);
  CHECK(rules::popc(0xffffffffu) == 32);
  CHECK(rules::popc(0) == 0);
  CHECK(rules::popc(0xfffffffeu) == 31);
}
