// Host-compiler side of record.cuh: CUDA's built-ins, warp intrinsics and
// cooperative groups on top of the CPU emulator (warp_scheduler.h). Its twin
// for nvcc is record_device.cuh: the same names, recorded on a real GPU.
//
// [SECTION] CUDA keywords and built-in variables
// [SECTION] Recorded warp intrinsics
// [SECTION] Bit intrinsics and float math
// [SECTION] The intrinsic names kernels use
// [SECTION] Cooperative groups
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "warpviz/gpu_float.h"
#include "warpviz/value_bits.h"
#include "warpviz/warp_rules.h"
#include "warpviz/warp_scheduler.h"

namespace warpviz {
using device_f32 = GpuFloat;
using device_f64 = GpuDouble;
}  // namespace warpviz

// ============================================================================
// [SECTION] CUDA keywords and built-in variables
// ============================================================================

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __inline__ inline
// Blocks run one at a time per OS thread, so a thread_local static is exactly
// one block's shared memory.
#define __shared__ thread_local

#define threadIdx (::warpviz::emu::current_thread().thread_idx)
#define blockIdx (::warpviz::emu::current_thread().block_idx)
#define blockDim (::warpviz::emu::current_thread().block_dim)
#define gridDim (::warpviz::emu::current_thread().grid_dim)
#define warpSize 32

using dim3 = warpviz::Dim3;

// ============================================================================
// [SECTION] Recorded warp intrinsics
// ============================================================================

namespace warpviz::rec {

inline emu::WarpOpRequest request(Op op, uint32_t line, unsigned mask, DType dtype, uint64_t value) {
  emu::WarpOpRequest r;
  r.op = op;
  r.line = line;
  r.mask = mask;
  r.dtype = dtype;
  r.value = value;
  return r;
}

template <class T>
T shuffle(Op op, uint32_t line, unsigned mask, T var, int64_t b, int width) {
  emu::WarpOpRequest r = request(op, line, mask, ValueBits<T>::dtype, ValueBits<T>::to_bits(var));
  r.args.b = b;
  r.args.width = width;
  return ValueBits<T>::from_bits(emu::warp_collective(r).value);
}

template <class T>
T shfl_idx(uint32_t line, unsigned mask, T var, int src_lane, int width = warpSize) {
  return shuffle(Op::ShflIdx, line, mask, var, src_lane, width);
}
template <class T>
T shfl_up(uint32_t line, unsigned mask, T var, unsigned delta, int width = warpSize) {
  return shuffle(Op::ShflUp, line, mask, var, int64_t(delta), width);
}
template <class T>
T shfl_down(uint32_t line, unsigned mask, T var, unsigned delta, int width = warpSize) {
  return shuffle(Op::ShflDown, line, mask, var, int64_t(delta), width);
}
template <class T>
T shfl_xor(uint32_t line, unsigned mask, T var, int lane_mask, int width = warpSize) {
  return shuffle(Op::ShflXor, line, mask, var, lane_mask, width);
}

// A raw PTX shfl.sync with an explicit c operand (the playground's "c" parameter).
template <class T>
T shfl_ptx(uint32_t line, Op op, unsigned mask, T var, uint32_t b, uint32_t c, bool* in_range) {
  emu::WarpOpRequest r = request(op, line, mask, ValueBits<T>::dtype, ValueBits<T>::to_bits(var));
  r.args.b = b;
  r.args.width = 0;
  r.args.c = c;
  r.step_flags = kStepRawOperandC;
  const emu::WarpOpResult res = emu::warp_collective(r);
  if (in_range) *in_range = res.ok;
  return ValueBits<T>::from_bits(res.value);
}

inline uint32_t vote(Op op, uint32_t line, unsigned mask, int predicate) {
  return uint32_t(emu::warp_collective(request(op, line, mask, DType::I32, uint32_t(predicate))).value);
}
inline unsigned ballot(uint32_t line, unsigned mask, int predicate) {
  return vote(Op::Ballot, line, mask, predicate);
}
inline int any(uint32_t line, unsigned mask, int predicate) { return int(vote(Op::Any, line, mask, predicate)); }
inline int all(uint32_t line, unsigned mask, int predicate) { return int(vote(Op::All, line, mask, predicate)); }
inline unsigned activemask(uint32_t line) { return vote(Op::ActiveMask, line, 0, 1); }

template <class T>
unsigned match_any(uint32_t line, unsigned mask, T value) {
  const auto r = request(Op::MatchAny, line, mask, ValueBits<T>::dtype, ValueBits<T>::to_bits(value));
  return uint32_t(emu::warp_collective(r).value);
}
template <class T>
unsigned match_all(uint32_t line, unsigned mask, T value, int* pred) {
  const auto r = request(Op::MatchAll, line, mask, ValueBits<T>::dtype, ValueBits<T>::to_bits(value));
  const emu::WarpOpResult res = emu::warp_collective(r);
  if (pred) *pred = res.ok ? 1 : 0;
  return uint32_t(res.value);
}

// __reduce_*_sync: the overload (int or unsigned) decides signedness.
template <class T>
T redux(Op op, uint32_t line, unsigned mask, T value) {
  static_assert(sizeof(T) == 4 && std::is_integral_v<T>, "__reduce_*_sync takes int or unsigned");
  const auto r = request(op, line, mask, ValueBits<T>::dtype, ValueBits<T>::to_bits(value));
  return ValueBits<T>::from_bits(emu::warp_collective(r).value);
}

inline void syncwarp(uint32_t line, unsigned mask = 0xffffffffu) {
  emu::warp_collective(request(Op::SyncWarp, line, mask, DType::I32, 0));
}

inline void syncthreads(uint32_t line) { emu::block_barrier(line); }

inline uint32_t lane_id() { return emu::current_thread().lane; }
inline uint32_t thread_linear() { return emu::current_thread().linear_tid; }
inline uint32_t block_size() { return uint32_t(emu::current_thread().block_dim.count()); }

}  // namespace warpviz::rec

// ============================================================================
// [SECTION] Bit intrinsics and float math
// ============================================================================

inline int __popc(unsigned x) { return warpviz::rules::popc(x); }
inline int __ffs(int x) { return warpviz::rules::ffs(uint32_t(x)); }
inline int __clz(int x) { return warpviz::rules::clz(uint32_t(x)); }
inline unsigned __brev(unsigned x) { return warpviz::rules::brev(x); }
inline unsigned __fns(unsigned mask, unsigned base, int offset) { return warpviz::rules::fns(mask, base, offset); }
inline unsigned __lanemask_lt() {
  return (1u << ::warpviz::emu::current_thread().lane) - 1u;
}

// fmaxf/fminf/fmax/fmin on GpuFloat/GpuDouble are found by argument-dependent
// lookup in namespace warpviz (gpu_float.h); plain float uses the host's.

// ============================================================================
// [SECTION] The intrinsic names kernels use
// ============================================================================
// Macros, so that each call records the kernel source line it stands on.

#include "warpviz/recorded_intrinsics.h"
#define __syncthreads() ::warpviz::rec::syncthreads(__LINE__)

#include "warpviz/cooperative_groups_rec.h"
