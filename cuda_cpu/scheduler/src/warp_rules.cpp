// The warp-op rules of docs/warp-rules.md (sm_90, checked on an H200).
// The citations below name sections of that page.
#include "warpviz/warp_rules.h"

#include <bit>
#include <cstdint>
#include <cstdlib>

#include "warpviz/dtype.h"

namespace warpviz::rules {
namespace {

constexpr uint32_t kNoBit = 0xffffffffu;  // fns: "no such bit"

constexpr uint32_t lane_bit(int lane) { return uint32_t{1} << lane; }

bool has_lane(uint32_t lanes, int lane) { return (lanes & lane_bit(lane)) != 0; }

uint32_t active_lanes(const TraceStep& step) {
  uint32_t lanes = 0;
  for (int lane = 0; lane < kWarpSize; ++lane)
    if (step.lanes[lane].active()) lanes |= lane_bit(lane);
  return lanes;
}

// Everything apply_* computes is cleared first, so a step can be evaluated again
// and inactive lanes end as the header promises: out 0, src -1, only their own flags.
void clear_results(TraceStep& step) {
  for (LaneRecord& rec : step.lanes) {
    rec.out = 0;
    rec.src = -1;
    rec.flags = static_cast<uint8_t>(rec.flags & ~(kLaneOk | kLaneUndefined));
  }
}

void set_flag(LaneRecord& rec, LaneFlag flag) {
  rec.flags = static_cast<uint8_t>(rec.flags | flag);
}

// For ops without a predicate of their own, kLaneOk means "result defined". A caller
// outside its own mask is undefined (PTX 9.7.13.9 / 9.7.13.10 / 9.7.13.12 / bar.warp).
void mark_defined_unless_outside_mask(const TraceStep& step, int lane, LaneRecord& rec) {
  set_flag(rec, has_lane(step.mask, lane) ? kLaneOk : kLaneUndefined);
}

}  // namespace

uint32_t shfl_c_operand(Op op, int width) {
  // Unsigned arithmetic: invalid widths (12, 64, ...) wrap exactly like the int
  // arithmetic of sm_30_intrinsics.hpp, and docs/warp-rules.md#widths says the hardware follows the result.
  const uint32_t segment_bits = (32u - static_cast<uint32_t>(width)) << 8;
  switch (op) {
    case Op::ShflUp:
      return segment_bits;  // clamp 0: for .up the clamp is a lower bound (docs/warp-rules.md#shuffles)
    case Op::ShflIdx:
    case Op::ShflDown:
    case Op::ShflXor:
      return segment_bits | 0x1fu;
    default:
      return 0;
  }
}

namespace {

// Every lane of one shuffle, for one op: shfl_select's switch folds away and
// the loop is the formula alone (a recorded warp runs it at every shuffle).
template <Op kOp>
void shuffle_lanes(TraceStep& step, bool per_lane_b, uint32_t uniform_b, uint32_t c, uint32_t active,
                   uint32_t members) {
  if (active == ~0u && step.mask == ~0u && !per_lane_b) {
    // The usual case, a whole converged warp with a full mask: every source
    // ran the shuffle and is a member, and no caller is outside the mask.
    for (int lane = 0; lane < kWarpSize; ++lane) {
      LaneRecord& rec = step.lanes[lane];
      const ShflSelection sel = shfl_select(kOp, lane, uniform_b, c);
      rec.src = static_cast<int8_t>(sel.src);
      if (sel.in_range) set_flag(rec, kLaneOk);
      rec.out = step.lanes[sel.src].in;
    }
    return;
  }
  for (int lane = 0; lane < kWarpSize; ++lane) {
    LaneRecord& rec = step.lanes[lane];
    if (!has_lane(active, lane)) continue;
    const uint32_t b = per_lane_b ? rec.addr : uniform_b;
    const ShflSelection sel = shfl_select(kOp, lane, b, c);
    rec.src = static_cast<int8_t>(sel.src);
    if (sel.in_range) set_flag(rec, kLaneOk);
    // docs/warp-rules.md#inactive-sources: a[j] is undefined for an inactive or non-member source. The value
    // is what an H200 gave: a lane that ran the shuffle supplies its register
    // even when the mask leaves it out (seen in the GPU tests); a lane that did
    // not run it gives 0 (U01).
    if (!has_lane(members, sel.src)) set_flag(rec, kLaneUndefined);
    // Both halves of a 64-bit shuffle use the same selection (docs/warp-rules.md#shuffles): a bit copy.
    rec.out = has_lane(active, sel.src) ? step.lanes[sel.src].in : 0;
    // PTX 9.7.9.6: a caller outside membermask is undefined; the value is still
    // the formula's, so it is flagged but not changed.
    if (!has_lane(step.mask, lane)) set_flag(rec, kLaneUndefined);
  }
}

}  // namespace

void apply_shuffle(TraceStep& step) {
  clear_results(step);
  if (!op_is_shuffle(step.op)) return;
  // A raw PTX shuffle carries its own c; intrinsics build it from width.
  if (!(step.step_flags & kStepRawOperandC)) step.args.c = shfl_c_operand(step.op, step.args.width);
  const uint32_t c = step.args.c;
  // The source's delta/srcLane/laneMask is an int or unsigned; the conversion keeps
  // the low bits, which are all PTX looks at. b is a register: it may differ by lane.
  const bool per_lane_b = step.step_flags & kStepPerLaneOperand;
  const uint32_t uniform_b = static_cast<uint32_t>(step.args.b);
  const uint32_t active = active_lanes(step);
  const uint32_t members = active & step.mask;
  switch (step.op) {
    case Op::ShflUp:
      return shuffle_lanes<Op::ShflUp>(step, per_lane_b, uniform_b, c, active, members);
    case Op::ShflDown:
      return shuffle_lanes<Op::ShflDown>(step, per_lane_b, uniform_b, c, active, members);
    case Op::ShflXor:
      return shuffle_lanes<Op::ShflXor>(step, per_lane_b, uniform_b, c, active, members);
    default:
      return shuffle_lanes<Op::ShflIdx>(step, per_lane_b, uniform_b, c, active, members);
  }
}

void apply_vote(TraceStep& step) {
  clear_results(step);
  const uint32_t active = active_lanes(step);
  const uint32_t members = active & step.mask;  // PTX 9.7.13.9: non-members give 0
  uint32_t ballot = 0;
  for (int lane = 0; lane < kWarpSize; ++lane)
    if (has_lane(members, lane) && step.lanes[lane].in != 0)  // PG 10.19: any non-zero is true
      ballot |= lane_bit(lane);

  uint32_t result = 0;
  switch (step.op) {
    case Op::Ballot:
      result = ballot;
      break;
    case Op::Any:
      result = ballot != 0 ? 1u : 0u;
      break;
    case Op::All:
      result = ballot == members ? 1u : 0u;
      break;
    default:
      return;
  }
  for (int lane = 0; lane < kWarpSize; ++lane) {
    LaneRecord& rec = step.lanes[lane];
    if (!rec.active()) continue;
    rec.out = result;  // every participant gets the same value (PG 10.19)
    mark_defined_unless_outside_mask(step, lane, rec);
  }
}

void apply_activemask(TraceStep& step) {
  clear_results(step);
  const uint32_t active = active_lanes(step);  // PTX 9.7.13.11: active, non-exited lanes
  for (LaneRecord& rec : step.lanes) {
    if (!rec.active()) continue;
    rec.out = active;
    set_flag(rec, kLaneOk);  // takes no mask, so it is always defined
  }
}

void apply_match(TraceStep& step) {
  clear_results(step);
  const uint32_t members = active_lanes(step) & step.mask;
  // PG 10.20 / sm_70_rt.hpp: a bitwise compare at the type's width, so +0 != -0 and
  // NaNs match only with identical payloads; 64-bit types compare both words.
  uint64_t key[kWarpSize];
  for (int lane = 0; lane < kWarpSize; ++lane)
    key[lane] = mask_to_width(step.dtype, step.lanes[lane].in);

  if (step.op == Op::MatchAny) {
    for (int lane = 0; lane < kWarpSize; ++lane) {
      LaneRecord& rec = step.lanes[lane];
      if (!rec.active()) continue;
      uint32_t same = 0;
      for (int other = 0; other < kWarpSize; ++other)
        if (has_lane(members, other) && key[other] == key[lane]) same |= lane_bit(other);
      rec.out = same;
      mark_defined_unless_outside_mask(step, lane, rec);
    }
  } else if (step.op == Op::MatchAll) {
    bool all_same = true;
    int first = -1;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (!has_lane(members, lane)) continue;
      if (first < 0)
        first = lane;
      else if (key[lane] != key[first])
        all_same = false;
    }
    for (int lane = 0; lane < kWarpSize; ++lane) {
      LaneRecord& rec = step.lanes[lane];
      if (!rec.active()) continue;
      // PG 10.20: mask and pred = 1 when all agree, else 0 and pred = 0.
      rec.out = all_same ? step.mask : 0;
      if (all_same) set_flag(rec, kLaneOk);  // kLaneOk is match_all's pred
      if (!has_lane(step.mask, lane)) set_flag(rec, kLaneUndefined);
    }
  }
}

void apply_redux(TraceStep& step) {
  clear_results(step);
  const uint32_t members = active_lanes(step) & step.mask;  // only mask lanes contribute
  // PTX 9.7.13.12: min/max are signed for the int overload, unsigned otherwise.
  const bool is_signed = step.dtype == DType::I32;

  uint32_t result = 0;
  bool first = true;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!has_lane(members, lane)) continue;
    const uint32_t v = static_cast<uint32_t>(step.lanes[lane].in);  // 32-bit op only
    if (first) {
      result = v;
      first = false;
      continue;
    }
    switch (step.op) {
      case Op::ReduxAdd:
        result += v;
        break;  // wraps: truncated to 32 bits
      case Op::ReduxMin:
        if (is_signed ? static_cast<int32_t>(v) < static_cast<int32_t>(result) : v < result)
          result = v;
        break;
      case Op::ReduxMax:
        if (is_signed ? static_cast<int32_t>(v) > static_cast<int32_t>(result) : v > result)
          result = v;
        break;
      case Op::ReduxAnd:
        result &= v;
        break;
      case Op::ReduxOr:
        result |= v;
        break;
      case Op::ReduxXor:
        result ^= v;
        break;
      default:
        return;
    }
  }
  // With no member at all there is nothing to reduce; 0 is as good as anything.
  for (int lane = 0; lane < kWarpSize; ++lane) {
    LaneRecord& rec = step.lanes[lane];
    if (!rec.active()) continue;
    rec.out = result;  // low 32 bits, high word zero even for I32
    mark_defined_unless_outside_mask(step, lane, rec);
  }
}

void apply_syncwarp(TraceStep& step) {
  clear_results(step);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    LaneRecord& rec = step.lanes[lane];
    if (rec.active()) mark_defined_unless_outside_mask(step, lane, rec);
  }
}

void apply_watch(TraceStep& step) {
  clear_results(step);
  for (LaneRecord& rec : step.lanes) {
    if (!rec.active()) continue;
    rec.out = rec.in;        // nothing is exchanged: the lane's own value
    set_flag(rec, kLaneOk);  // takes no mask, so it is always defined
  }
}

void finalize_recorded_step(TraceStep& step) {
  const uint32_t active = active_lanes(step);
  const bool shuffle = op_is_shuffle(step.op);
  const bool has_predicate = shuffle || step.op == Op::MatchAll;
  const bool per_lane_b = step.step_flags & kStepPerLaneOperand;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    LaneRecord& rec = step.lanes[lane];
    if (!rec.active()) continue;
    // __activemask(), shared-memory accesses and watches take no mask (a shared
    // step's or a watch's mask is the lanes that ran it); every other op is
    // undefined for a caller outside its own mask. A shared step keeps its addr
    // and bytes as recorded.
    const bool maskless = step.op == Op::ActiveMask || op_is_shared(step.op) || op_is_watch(step.op);
    bool undefined = !maskless && !has_lane(step.mask, lane);
    if (shuffle) {
      const uint32_t b = per_lane_b ? rec.addr : static_cast<uint32_t>(step.args.b);
      const ShflSelection sel = shfl_select(step.op, lane, b, step.args.c);
      if (!has_lane(active & step.mask, sel.src)) {  // docs/warp-rules.md#inactive-sources: an inactive or non-member source
        undefined = true;
        rec.src = static_cast<int8_t>(sel.src);
      }
    }
    rec.flags = static_cast<uint8_t>(rec.flags & ~kLaneUndefined);
    if (undefined) set_flag(rec, kLaneUndefined);
    if (!has_predicate)
      rec.flags = static_cast<uint8_t>(undefined ? (rec.flags & ~kLaneOk) : (rec.flags | kLaneOk));
  }
}

void apply_step(TraceStep& step) {
  switch (step.op) {
    case Op::ShflIdx:
    case Op::ShflUp:
    case Op::ShflDown:
    case Op::ShflXor:
      apply_shuffle(step);
      break;
    case Op::Ballot:
    case Op::Any:
    case Op::All:
      apply_vote(step);
      break;
    case Op::ActiveMask:
      apply_activemask(step);
      break;
    case Op::MatchAny:
    case Op::MatchAll:
      apply_match(step);
      break;
    case Op::ReduxAdd:
    case Op::ReduxMin:
    case Op::ReduxMax:
    case Op::ReduxAnd:
    case Op::ReduxOr:
    case Op::ReduxXor:
      apply_redux(step);
      break;
    case Op::SyncWarp:
      apply_syncwarp(step);
      break;
    case Op::LoadShared:
    case Op::StoreShared:
      break;  // the emulator fills shared-memory values itself
    case Op::Watch:
      apply_watch(step);
      break;
  }
}

int popc(uint32_t x) { return std::popcount(x); }

int ffs(uint32_t x) { return x == 0 ? 0 : std::countr_zero(x) + 1; }

int clz(uint32_t x) { return std::countl_zero(x); }  // 32 for 0, as __clz

uint32_t brev(uint32_t x) {
  uint32_t reversed = 0;
  for (int bit = 0; bit < 32; ++bit)
    if (x & (uint32_t{1} << bit)) reversed |= uint32_t{1} << (31 - bit);
  return reversed;
}

uint32_t fns(uint32_t mask, uint32_t base, int offset) {
  // PTX 9.7.1.17: base > 31 is undefined; answer "no bit" rather than guess.
  if (base > 31) return kNoBit;
  if (offset == 0) return (mask >> base) & 1u ? base : kNoBit;
  // The walk counts base itself; |offset| in 64 bits so INT_MIN does not overflow.
  int64_t remaining = std::llabs(static_cast<int64_t>(offset));
  const int direction = offset > 0 ? 1 : -1;
  for (int pos = static_cast<int>(base); pos >= 0 && pos < 32; pos += direction) {
    if (((mask >> pos) & 1u) && --remaining == 0) return static_cast<uint32_t>(pos);
  }
  return kNoBit;
}

}  // namespace warpviz::rules
