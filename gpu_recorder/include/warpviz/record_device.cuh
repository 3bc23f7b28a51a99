// nvcc side of record.cuh: the warp intrinsics run on the GPU as usual, and
// each call of a recorded warp also writes its step into the trace buffer.
//
// [SECTION] The recorder a launch writes into
// [SECTION] Value bits
// [SECTION] Writing one step
// [SECTION] Recorded warp intrinsics
// [SECTION] Recorded shared-memory accesses
// [SECTION] Filling and saving a shared tile
// [SECTION] The intrinsic names kernels use
// [SECTION] Attaching a recorder from host code
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <chrono>
#include <cstdint>
#include <exception>
#include <random>
#include <type_traits>
#include <vector>

#include "warpviz/device_recorder.h"
#include "warpviz/shfl_select.h"
#include "warpviz/watch_value.h"

namespace warpviz {
using device_f32 = float;
using device_f64 = double;
}  // namespace warpviz

// ============================================================================
// [SECTION] The recorder a launch writes into
// ============================================================================
// One per translation unit (whole-program compilation, no -rdc): the host code
// that launches this file's kernels sets it with warpviz_attach_recorder().
static __constant__ warpviz::DeviceRecorder warpviz_recorder;

namespace warpviz::rec {

__device__ inline uint32_t lane_id() {
  uint32_t lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
__device__ inline uint32_t block_linear() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }
__device__ inline uint32_t thread_linear() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ inline uint32_t block_size() { return blockDim.x * blockDim.y * blockDim.z; }

// This warp's slot in the buffer, or -1 when it is not recorded. Unrecorded
// warps pay for this check only. Slots and step indexes are 32-bit (the host
// refuses a recording of more than 2^32 - 1 step slots): 64-bit ones kept two
// more registers live, and 34 registers fit 6 blocks of 256 threads on an SM,
// not 8, in the unrecorded kernel too.
__device__ inline int32_t recorded_slot() {
  const DeviceRecorder& r = warpviz_recorder;
  if (!r.enabled) return -1;
  const uint32_t block = block_linear();
  if (block < r.block_begin || block >= r.block_end) return -1;
  const uint32_t warp = thread_linear() / 32;
  if (warp < 32 && !((r.warp_mask >> warp) & 1u)) return -1;
  // 32-bit shifts and masks: this runs in every warp at every intrinsic.
  const uint32_t global_warp = (block - r.block_begin) * r.warps_per_block + warp;
  if (global_warp & ((1u << r.warp_stride_shift) - 1u)) return -1;
  return int32_t(global_warp >> r.warp_stride_shift);
}

// ============================================================================
// [SECTION] Value bits
// ============================================================================

template <class T>
struct DeviceBits {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "recorded values are 32 or 64 bits");
  static constexpr DType dtype = std::is_floating_point_v<T>
                                     ? (sizeof(T) == 4 ? DType::F32 : DType::F64)
                                     : (sizeof(T) == 4 ? (std::is_signed_v<T> ? DType::I32 : DType::U32)
                                                       : (std::is_signed_v<T> ? DType::I64 : DType::U64));
  __device__ static uint64_t to_bits(T v) {
    if constexpr (sizeof(T) == 4) {
      uint32_t b;
      memcpy(&b, &v, 4);
      return b;
    } else {
      uint64_t b;
      memcpy(&b, &v, 8);
      return b;
    }
  }
};

// ============================================================================
// [SECTION] Writing one step
// ============================================================================

struct StepFacts {
  Op op;
  DType dtype;
  uint32_t line, mask;
  int64_t b = 0;
  int32_t width = 32;
  uint32_t c = 0;
  uint8_t step_flags = 0;
  uint64_t in = 0, out = 0;
  int src = -1;
  bool ok = false;
  // Which facts may differ between the lanes of a step, and so need a vote.
  // Only a shuffle's b may (srcLane = lane ^ 1); it comes from a 32-bit
  // operand, so its low word decides. A watch's b is its name, a constant of
  // the one call site every lane of the step runs (the recording code holds
  // convergent operations, which the compiler never merges across sites).
  bool b_may_differ = false;
  bool ok_in_every_lane = false;  // ok is true wherever the op ran: no ballot
  uint32_t addr = 0;   // shared-memory steps: byte offset from the array
  uint8_t bytes = 0;   // shared-memory steps: access width (0: not a shared step)
};

// This warp's step counter, in shared memory: per block, so shared memory left
// by an earlier block (or launch) is told apart by its tag and starts over.
struct WarpStepCounter {
  uint32_t tag, count;
};
__device__ inline uint32_t take_warp_steps(const DeviceRecorder& r, uint32_t steps) {
  __shared__ WarpStepCounter counters[32];  // a block has at most 32 warps
  WarpStepCounter& c = counters[thread_linear() / 32];
  const uint32_t tag = r.launch_tag ^ (block_linear() * 0x9e3779b9u);
  if (c.tag != tag) {
    c.count = 0;
    c.tag = tag;
  }
  return atomicAdd(&c.count, steps);  // shared: divergent paths of one warp may interleave
}

// Called by every lane that executed the op, right after it. The lanes that
// are converged here are the ones that ran it; lanes that passed different
// masks (the tiles of a thread_block_tile<8>, say) ran it as separate groups,
// and each group is a step of its own, as in the emulator.
__device__ inline void record_step(int32_t slot, const StepFacts& f) {
  const DeviceRecorder& r = warpviz_recorder;
  const unsigned active = __activemask();
  const uint32_t lane = lane_id();
  // Nearly always every converged lane passed the mask of exactly the lanes
  // converged here: one vote says so, and they are one step. Otherwise
  // (tiles: each passes its own lanes) match.any groups them, ~370 cycles on
  // an H200 (bench latency). The recording code runs in every recorded warp
  // at the end of a bandwidth-bound kernel, all at once, where each shuffle
  // and vote it saves is time on the SM's shared shuffle unit.
  const int first = __ffs(active) - 1;
  const bool one_group = __all_sync(active, f.mask == active);
  const unsigned group = one_group ? active : __match_any_sync(active, f.mask);
  const int group_leader = __ffs(group) - 1;
  const unsigned leaders = one_group ? 1u << first : __ballot_sync(active, int(lane) == group_leader);
  // The first lane takes a slot for every group; groups take them in lane
  // order, which is the order the emulator completes them in.
  uint32_t base = 0;
  if (int(lane) == first) {
    base = take_warp_steps(r, uint32_t(__popc(leaders)));
    atomicMax(&r.step_counts[slot], base + uint32_t(__popc(leaders)));  // result unused: no wait
  }
  base = __shfl_sync(active, base, first);
  // The first lane's writes to the warp's counter in shared memory (its tag
  // reset, its atomicAdd) are ordered before any of these lanes' later
  // accesses: a shuffle exchanges registers but orders no memory, and without
  // this compute-sanitizer's racecheck reports the counter as a hazard between
  // lanes of one warp once its paths diverge (divergence, recorded).
  __syncwarp(active);
  const uint32_t seq = base + uint32_t(__popc(leaders & ((1u << group_leader) - 1u)));
  if (seq >= r.steps_per_warp) return;  // full: the host sees the count and reports overflow

  // A shuffle's b is a register: lanes may pass different srcLane values
  // (lane ^ 1, say). Compared with the leader's by a shuffle and a vote
  // (match.all costs as much as match.any).
  bool same_b = true;
  if (f.b_may_differ) {
    const uint32_t leader_b = __shfl_sync(group, uint32_t(f.b), group_leader);
    same_b = __all_sync(group, leader_b == uint32_t(f.b));
  }
  // What is one bit per lane travels in the header as ballots of the group:
  // the predicate, and for a shuffle the source lane the hardware reported
  // (0..31 whenever the read is defined; the host marks the others).
  // A shuffle's source lanes and predicates are almost always the rule's:
  // one vote says so, instead of six ballots on the shuffle unit, which the
  // recorded warps of a bandwidth-bound kernel all contend for at its end.
  const bool shuffle = f.op <= Op::ShflXor;  // the shuffles (op_is_shuffle is host code)
  bool src_by_rule = false;
  if (shuffle) {
    const rules::ShflSelection rule = rules::shfl_select(f.op, int(lane), uint32_t(f.b), f.c);
    src_by_rule = __all_sync(group, rule.src == f.src && rule.in_range == f.ok);
  }
  const unsigned ok = src_by_rule ? 0u : f.ok_in_every_lane ? group : __ballot_sync(group, f.ok);
  uint32_t src_bits[5] = {0, 0, 0, 0, 0};
  if (shuffle && !src_by_rule)
    for (int bit = 0; bit < 5; ++bit) src_bits[bit] = __ballot_sync(group, (f.src >> bit) & 1);
  // The optional rows, the same for the whole group. High words are written
  // only when some lane has them, so 32-bit values never pay for them. A
  // 32-bit value of up to 4 bytes has none (to_bits zero-extends it): no vote.
  const bool may_be_wide = f.bytes > 4 || !(f.dtype == DType::I32 || f.dtype == DType::U32 || f.dtype == DType::F32);
  const bool high = may_be_wide && __any_sync(group, uint32_t((f.in | f.out) >> 32) != 0u);
  const uint8_t rows = uint8_t(((f.bytes || !same_b) ? kRowsAddr : 0) | (high ? kRowsHigh : 0) |
                               (src_by_rule ? kSrcByRule : 0));

  // One 4-byte word per lane and row: the group's words of a row are
  // contiguous, so each store below is a single coalesced write.
  const uint32_t index = uint32_t(slot) * r.steps_per_warp + seq;
  uint32_t* row = r.rows + index * (kDeviceRowsPerStep * kWarpSize) + lane;
  row[kRowIn * kWarpSize] = uint32_t(f.in);
  row[kRowOut * kWarpSize] = uint32_t(f.out);
  // A shared step's addr is its byte offset; a shuffle's holds a per-lane b.
  if (rows & kRowsAddr) row[kRowAddr * kWarpSize] = f.bytes ? f.addr : uint32_t(f.b);
  if (rows & kRowsHigh) {
    row[kRowInHigh * kWarpSize] = uint32_t(f.in >> 32);
    row[kRowOutHigh * kWarpSize] = uint32_t(f.out >> 32);
  }
  if (int(lane) == group_leader) {
    DeviceStepHeader h;
    h.block = block_linear();
    h.line = f.line;
    h.mask = f.mask;
    h.active = group;
    h.ok = ok;
    for (int bit = 0; bit < 5; ++bit) h.src_bits[bit] = src_bits[bit];
    h.b = f.b;
    h.width = f.width;
    h.c = f.c;
    h.warp = uint8_t(thread_linear() / 32);
    h.op = uint8_t(f.op);
    h.dtype = uint8_t(f.dtype);
    h.step_flags = uint8_t(f.step_flags | (same_b ? 0 : kStepPerLaneOperand));
    h.bytes = f.bytes;
    h.rows = rows;
    // Four 16-byte stores (a plain assignment compiles to six narrower ones).
    uint4 words[4];
    memcpy(words, &h, sizeof h);
    uint4* dst = reinterpret_cast<uint4*>(&r.headers[index]);
    for (int k = 0; k < 4; ++k) dst[k] = words[k];
  }
}

// ============================================================================
// [SECTION] Recorded warp intrinsics
// ============================================================================

__device__ inline uint32_t c_operand(Op op, int width) {
  // sm_30_intrinsics.hpp: up has clamp 0 (a lower bound), the others 0x1f.
  return (uint32_t(32 - width) << 8) | (op == Op::ShflUp ? 0u : 0x1fu);
}

// shfl.sync with its predicate: the lowering of every __shfl_*_sync.
__device__ inline uint32_t ptx_shfl(Op op, uint32_t value, uint32_t b, uint32_t c, unsigned mask, uint32_t* p) {
  uint32_t d, in_range;
  switch (op) {
    case Op::ShflUp:
      asm volatile("{ .reg .pred q; shfl.sync.up.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q; }"
                   : "=r"(d), "=r"(in_range) : "r"(value), "r"(b), "r"(c), "r"(mask));
      break;
    case Op::ShflDown:
      asm volatile("{ .reg .pred q; shfl.sync.down.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q; }"
                   : "=r"(d), "=r"(in_range) : "r"(value), "r"(b), "r"(c), "r"(mask));
      break;
    case Op::ShflXor:
      asm volatile("{ .reg .pred q; shfl.sync.bfly.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q; }"
                   : "=r"(d), "=r"(in_range) : "r"(value), "r"(b), "r"(c), "r"(mask));
      break;
    default:
      asm volatile("{ .reg .pred q; shfl.sync.idx.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q; }"
                   : "=r"(d), "=r"(in_range) : "r"(value), "r"(b), "r"(c), "r"(mask));
      break;
  }
  if (p) *p = in_range;
  return d;
}

template <class T>
__device__ T intrinsic_shfl(Op op, unsigned mask, T var, int64_t b, int width) {
  switch (op) {
    case Op::ShflUp: return __shfl_up_sync(mask, var, unsigned(b), width);
    case Op::ShflDown: return __shfl_down_sync(mask, var, unsigned(b), width);
    case Op::ShflXor: return __shfl_xor_sync(mask, var, int(b), width);
    default: return __shfl_sync(mask, var, int(b), width);
  }
}

// The lane each lane read from and its predicate, from the hardware itself: the
// same shfl.sync moves every lane's id.
__device__ inline StepFacts shuffle_facts(Op op, uint32_t line, unsigned mask, int64_t b, uint32_t c) {
  StepFacts f{op, DType::I32, line, mask};
  uint32_t p = 0;
  f.src = int(ptx_shfl(op, lane_id(), uint32_t(b), c, mask, &p));
  f.ok = p != 0;
  f.b = b;
  f.b_may_differ = true;
  f.c = c;
  return f;
}

template <class T>
__device__ T shuffle(Op op, uint32_t line, unsigned mask, T var, int64_t b, int width) {
  const T out = intrinsic_shfl(op, mask, var, b, width);
  const int32_t slot = recorded_slot();
  if (slot < 0) return out;
  StepFacts f = shuffle_facts(op, line, mask, b, c_operand(op, width));
  f.dtype = DeviceBits<T>::dtype;
  f.width = width;
  f.in = DeviceBits<T>::to_bits(var);
  f.out = DeviceBits<T>::to_bits(out);
  record_step(slot, f);
  return out;
}

template <class T>
__device__ T shfl_idx(uint32_t line, unsigned mask, T var, int src_lane, int width = 32) {
  return shuffle(Op::ShflIdx, line, mask, var, src_lane, width);
}
template <class T>
__device__ T shfl_up(uint32_t line, unsigned mask, T var, unsigned delta, int width = 32) {
  return shuffle(Op::ShflUp, line, mask, var, int64_t(delta), width);
}
template <class T>
__device__ T shfl_down(uint32_t line, unsigned mask, T var, unsigned delta, int width = 32) {
  return shuffle(Op::ShflDown, line, mask, var, int64_t(delta), width);
}
template <class T>
__device__ T shfl_xor(uint32_t line, unsigned mask, T var, int lane_mask, int width = 32) {
  return shuffle(Op::ShflXor, line, mask, var, lane_mask, width);
}

// A raw PTX shfl.sync with an explicit c operand; 64-bit values move as two
// halves with the same b and c, as the CUDA headers do.
template <class T>
__device__ T shfl_ptx(uint32_t line, Op op, unsigned mask, T var, uint32_t b, uint32_t c, bool* in_range) {
  uint64_t bits = DeviceBits<T>::to_bits(var), out_bits = 0;
  uint32_t p = 0;
  out_bits = ptx_shfl(op, uint32_t(bits), b, c, mask, &p);
  if constexpr (sizeof(T) == 8) out_bits |= uint64_t(ptx_shfl(op, uint32_t(bits >> 32), b, c, mask, nullptr)) << 32;
  T out;
  memcpy(&out, &out_bits, sizeof(T));
  if (in_range) *in_range = p != 0;
  const int32_t slot = recorded_slot();
  if (slot < 0) return out;
  StepFacts f = shuffle_facts(op, line, mask, b, c);
  f.dtype = DeviceBits<T>::dtype;
  f.width = 0;
  f.step_flags = kStepRawOperandC;
  f.in = bits;
  f.out = out_bits;
  record_step(slot, f);
  return out;
}

__device__ inline void record_simple(Op op, uint32_t line, unsigned mask, DType dtype, uint64_t in, uint64_t out,
                                     bool ok = false) {
  const int32_t slot = recorded_slot();
  if (slot < 0) return;
  StepFacts f{op, dtype, line, mask};
  f.in = in;
  f.out = out;
  f.ok = ok;
  record_step(slot, f);
}

__device__ inline unsigned ballot(uint32_t line, unsigned mask, int predicate) {
  const unsigned out = __ballot_sync(mask, predicate);
  record_simple(Op::Ballot, line, mask, DType::I32, uint32_t(predicate), out);
  return out;
}
__device__ inline int any(uint32_t line, unsigned mask, int predicate) {
  const int out = __any_sync(mask, predicate);
  record_simple(Op::Any, line, mask, DType::I32, uint32_t(predicate), uint32_t(out));
  return out;
}
__device__ inline int all(uint32_t line, unsigned mask, int predicate) {
  const int out = __all_sync(mask, predicate);
  record_simple(Op::All, line, mask, DType::I32, uint32_t(predicate), uint32_t(out));
  return out;
}
__device__ inline unsigned activemask(uint32_t line) {
  const unsigned out = __activemask();
  record_simple(Op::ActiveMask, line, 0, DType::I32, 1, out);
  return out;
}

template <class T>
__device__ unsigned match_any(uint32_t line, unsigned mask, T value) {
  const unsigned out = __match_any_sync(mask, value);
  record_simple(Op::MatchAny, line, mask, DeviceBits<T>::dtype, DeviceBits<T>::to_bits(value), out);
  return out;
}
template <class T>
__device__ unsigned match_all(uint32_t line, unsigned mask, T value, int* pred) {
  int p = 0;
  const unsigned out = __match_all_sync(mask, value, &p);
  record_simple(Op::MatchAll, line, mask, DeviceBits<T>::dtype, DeviceBits<T>::to_bits(value), out, p != 0);
  if (pred) *pred = p;
  return out;
}

// __reduce_*_sync: the overload (int or unsigned) decides signedness.
template <class T>
__device__ T redux(Op op, uint32_t line, unsigned mask, T value) {
  static_assert(sizeof(T) == 4 && std::is_integral_v<T>, "__reduce_*_sync takes int or unsigned");
  T out;
  switch (op) {
    case Op::ReduxAdd: out = __reduce_add_sync(mask, value); break;
    case Op::ReduxMin: out = __reduce_min_sync(mask, value); break;
    case Op::ReduxMax: out = __reduce_max_sync(mask, value); break;
    case Op::ReduxAnd: out = T(__reduce_and_sync(mask, unsigned(value))); break;
    case Op::ReduxOr: out = T(__reduce_or_sync(mask, unsigned(value))); break;
    default: out = T(__reduce_xor_sync(mask, unsigned(value))); break;
  }
  record_simple(op, line, mask, DeviceBits<T>::dtype, uint32_t(value), uint32_t(out));
  return out;
}

__device__ inline void syncwarp(uint32_t line, unsigned mask = 0xffffffffu) {
  __syncwarp(mask);
  record_simple(Op::SyncWarp, line, mask, DType::I32, 0, 0);
}

__device__ inline void syncthreads(uint32_t) { __syncthreads(); }

// WARPVIZ_WATCH: no instruction of its own. The lanes converged here
// (__activemask()) form the step and its mask; each brings its value.
template <class T>
__device__ void watch(uint32_t line, const OpArgs& name, const T& value) {
  using W = watch_type_t<T>;
  static_assert(std::is_arithmetic_v<W>, "WARPVIZ_WATCH records integers, enums, bool and floating-point values");
  static_assert(sizeof(W) == 4 || sizeof(W) == 8, "WARPVIZ_WATCH records values of up to 8 bytes");
  const unsigned active = __activemask();
  const int32_t slot = recorded_slot();
  if (slot < 0) return;
  StepFacts f{Op::Watch, DeviceBits<W>::dtype, line, active};
  f.b = name.b;
  f.width = name.width;
  f.c = name.c;
  f.in = f.out = DeviceBits<W>::to_bits(W(value));
  f.ok = f.ok_in_every_lane = true;
  record_step(slot, f);
}

// ============================================================================
// [SECTION] Recorded shared-memory accesses
// ============================================================================
// WARPVIZ_LOAD / WARPVIZ_STORE: the access is one ld/st.volatile.shared of
// the element's width in inline PTX (asm volatile, with a memory clobber), so
// neither nvcc nor ptxas can drop it, merge it with a neighbour or split it:
// ptxas emits exactly one LDS/STS{.U8,.U16,,.64,.128}, and ncu counts what the
// trace holds. (Without .volatile ptxas merges repeated loads of an address.) A recorded warp then
// writes the step; the others only test their recorder flag.

// The trace type of a shared element (as record_host.h): float F32, int I32,
// other types of up to 4 bytes U32, 8- and 16-byte types U64 (low 8 bytes).
template <class T>
__host__ __device__ constexpr DType shared_dtype() {
  if constexpr (sizeof(T) >= 8) return DType::U64;
  else if constexpr (std::is_same_v<T, float>) return DType::F32;
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) == 4) return DType::I32;
  else return DType::U32;
}

__device__ inline uint32_t shared_address(const void* p) { return uint32_t(__cvta_generic_to_shared(p)); }

// One LDS of sizeof(T) bytes into w (zero-extended below 4 bytes).
template <class T>
__device__ void lds(const T& element, uint32_t (&w)[4]) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "a shared access is 1, 2, 4, 8 or 16 bytes wide");
  const uint32_t a = shared_address(&element);
  if constexpr (sizeof(T) == 1) {
    asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(w[0]) : "r"(a) : "memory");
  } else if constexpr (sizeof(T) == 2) {
    asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=r"(w[0]) : "r"(a) : "memory");
  } else if constexpr (sizeof(T) == 4) {
    asm volatile("ld.volatile.shared.b32 %0, [%1];" : "=r"(w[0]) : "r"(a) : "memory");
  } else if constexpr (sizeof(T) == 8) {
    asm volatile("ld.volatile.shared.v2.b32 {%0, %1}, [%2];" : "=r"(w[0]), "=r"(w[1]) : "r"(a) : "memory");
  } else {
    asm volatile("ld.volatile.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3]) : "r"(a) : "memory");
  }
}

// One STS of sizeof(T) bytes from w (the low bytes below 4 bytes).
template <class T>
__device__ void sts(T& element, const uint32_t (&w)[4]) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "a shared access is 1, 2, 4, 8 or 16 bytes wide");
  const uint32_t a = shared_address(&element);
  if constexpr (sizeof(T) == 1) {
    asm volatile("st.volatile.shared.u8 [%0], %1;" : : "r"(a), "r"(w[0]) : "memory");
  } else if constexpr (sizeof(T) == 2) {
    asm volatile("st.volatile.shared.u16 [%0], %1;" : : "r"(a), "r"(w[0]) : "memory");
  } else if constexpr (sizeof(T) == 4) {
    asm volatile("st.volatile.shared.b32 [%0], %1;" : : "r"(a), "r"(w[0]) : "memory");
  } else if constexpr (sizeof(T) == 8) {
    asm volatile("st.volatile.shared.v2.b32 [%0], {%1, %2};" : : "r"(a), "r"(w[0]), "r"(w[1]) : "memory");
  } else {
    asm volatile("st.volatile.shared.v4.b32 [%0], {%1, %2, %3, %4};" : : "r"(a), "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3])
                 : "memory");
  }
}

// The step of a recorded warp: the offset from the array's start (the
// recorder's own counters live in shared memory too, so absolute shared
// addresses would depend on them), the width, and the value's low 8 bytes.
template <class A, class T>
__device__ void record_shared(Op op, uint32_t line, unsigned mask, const A& array, const T& element,
                              const uint32_t (&w)[4]) {
  const int32_t slot = recorded_slot();
  if (slot < 0) return;
  StepFacts f{op, shared_dtype<T>(), line, mask};
  f.addr = uint32_t(reinterpret_cast<const char*>(&element) - reinterpret_cast<const char*>(&array));
  f.bytes = uint8_t(sizeof(T));
  const uint64_t bits = uint64_t(w[0]) | (sizeof(T) >= 8 ? uint64_t(w[1]) << 32 : 0u);
  if (op == Op::LoadShared)
    f.out = bits;
  else
    f.in = bits;
  f.ok = f.ok_in_every_lane = true;
  record_step(slot, f);
}

template <class A, class T>
__device__ T load_shared(uint32_t line, const A& array, const T& element) {
  const unsigned mask = __activemask();  // the lanes converged at the access run it
  uint32_t w[4] = {0, 0, 0, 0};
  lds(element, w);
  T v;
  memcpy(&v, w, sizeof(T));
  record_shared(Op::LoadShared, line, mask, array, element, w);
  return v;
}

template <class A, class T, class V>
__device__ void store_shared(uint32_t line, A& array, T& element, const V& value) {
  const T v = value;  // converted to the element's type, as `element = value` would
  uint32_t w[4] = {0, 0, 0, 0};
  memcpy(w, &v, sizeof(T));
  const unsigned mask = __activemask();
  sts(element, w);
  record_shared(Op::StoreShared, line, mask, array, element, w);
}

}  // namespace warpviz::rec

// ============================================================================
// [SECTION] Filling and saving a shared tile
// ============================================================================
// A block-wide copy into (fill_shared) or out of (save_shared) shared memory
// that is no recorded access and no LDS/STS at all, so that Nsight Compute's
// shared ld/st counters of a bank scenario see only its recorded access:
// fill_shared uses cp.async (LDGSTS, global -> shared, counted as
// _op_ldgsts), save_shared the sm_90 bulk copy engine (shared -> global).
// Every thread of the block calls them; bytes must be a multiple of 16 and
// both pointers 16-byte aligned.

namespace warpviz {

// Complete for the block after the caller's __syncthreads.
__device__ inline void fill_shared(void* shared_dst, const void* global_src, size_t bytes) {
  const uint32_t dst = rec::shared_address(shared_dst);
  const char* src = static_cast<const char*>(global_src);
  for (size_t i = rec::thread_linear(); i < bytes / 16; i += rec::block_size())
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" : : "r"(dst + uint32_t(16 * i)), "l"(src + 16 * i)
                 : "memory");
  asm volatile("cp.async.commit_group;" : : : "memory");
  asm volatile("cp.async.wait_group 0;" : : : "memory");
}

// Includes a __syncthreads: every earlier shared access of the block lands first.
__device__ inline void save_shared(void* global_dst, const void* shared_src, size_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // The bulk copy reads through the async proxy: each thread's own stores
  // must be made visible to that proxy before the barrier (fence.proxy.async).
  asm volatile("fence.proxy.async.shared::cta;" : : : "memory");
  __syncthreads();
  if (rec::thread_linear() == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                 : : "l"(global_dst), "r"(rec::shared_address(shared_src)), "r"(uint32_t(bytes)) : "memory");
    asm volatile("cp.async.bulk.commit_group;" : : : "memory");
    asm volatile("cp.async.bulk.wait_group 0;" : : : "memory");
  }
#else
  // Before sm_90 there is no bulk copy: plain copies (these do count as LDS).
  __syncthreads();
  const uint32_t* src = static_cast<const uint32_t*>(shared_src);
  uint32_t* dst = static_cast<uint32_t*>(global_dst);
  for (size_t i = rec::thread_linear(); i < bytes / 4; i += rec::block_size()) dst[i] = src[i];
#endif
}

}  // namespace warpviz

// ============================================================================
// [SECTION] The intrinsic names kernels use
// ============================================================================
// Defined after the functions above, which call the real intrinsics.

#include "warpviz/recorded_intrinsics.h"

// ============================================================================
// [SECTION] Attaching a recorder from host code
// ============================================================================

namespace warpviz {
// A new tag for every launch: a block's shared-memory step counters outlive
// it, and a later block (or launch) must not continue an old count. Shared
// memory outlives the process too, so each process starts at a random point
// rather than at the same first tag as the process before it.
inline uint32_t process_tag_seed() {
  uint64_t seed = uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
  try {
    std::random_device device;
    seed ^= (uint64_t(device()) << 32) | device();
  } catch (const std::exception&) {  // no entropy source: the clock alone
  }
  return uint32_t(seed ^ (seed >> 32));
}
inline uint32_t next_launch_tag() {
  static const uint32_t seed = process_tag_seed();
  static uint32_t launches = 0;
  return (seed + 0x9e3779b9u * ++launches) ^ 0x5bd1e995u;
}
}  // namespace warpviz

// Each .cu file has its own warpviz_recorder (whole-program compilation), and
// only that file's host code can set it. Host code shared by every file, such
// as the Session's launch template, would set the wrong one: an instantiation
// with the same types in two files (transpose_kernel and reduce_sum both take
// const float*, float*, int) is merged by the linker into one, which set its
// own file's recorder, and warpviz-cli's transpose recorded 0 steps on the GPU.
// So every file lists its setter, and a launch sets them all.
namespace warpviz {
using RecorderSetter = cudaError_t (*)(const DeviceRecorder&);
inline std::vector<RecorderSetter>& recorder_setters() {
  static std::vector<RecorderSetter> setters;  // one per .cu file linked in
  return setters;
}
}  // namespace warpviz

static cudaError_t warpviz_set_this_files_recorder(const warpviz::DeviceRecorder& recorder) {
  return cudaMemcpyToSymbol(warpviz_recorder, &recorder, sizeof recorder);
}
[[maybe_unused]] static const bool warpviz_recorder_setter_listed =
    (warpviz::recorder_setters().push_back(&warpviz_set_this_files_recorder), true);

// Points every file's kernels at a recorder (or, with enabled = 0, at none).
// Call it before every launch.
inline cudaError_t warpviz_attach_recorder(const warpviz::DeviceRecorder& recorder) {
  warpviz::DeviceRecorder tagged = recorder;
  tagged.launch_tag = warpviz::next_launch_tag();
  for (const warpviz::RecorderSetter set : warpviz::recorder_setters())
    if (const cudaError_t error = set(tagged); error != cudaSuccess) return error;
  return cudaSuccess;
}

#include "warpviz/cooperative_groups_rec.h"
#include "warpviz/cuda_recording.h"
