// Host-compiler side of record.cuh: CUDA's built-ins, warp intrinsics and
// cooperative groups on top of the CPU emulator (warp_scheduler.h). Its twin
// for nvcc is record_device.cuh: the same names, recorded on a real GPU.
//
// [SECTION] CUDA keywords and built-in variables
// [SECTION] Recorded warp intrinsics
// [SECTION] Recorded shared-memory accesses
// [SECTION] Bit intrinsics and float math
// [SECTION] The intrinsic names kernels use
// [SECTION] Cooperative groups
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "warpviz/gpu_float.h"
#include "warpviz/value_bits.h"
#include "warpviz/warp_rules.h"
#include "warpviz/warp_scheduler.h"
#include "warpviz/watch_value.h"

namespace warpviz {
using device_f32 = GpuFloat;
using device_f64 = GpuDouble;
}  // namespace warpviz

// ============================================================================
// [SECTION] CUDA keywords and built-in variables
// ============================================================================

// Device code carries warpviz_device, the attribute of the device-semantics
// GCC plugin (cuda_cpu/compiler_plugin), which gives it the GPU's
// integer division, shifts and float-to-integer conversions. Without the
// plugin the attribute is unknown and the macros stay empty.
#if defined(__has_attribute) && __has_attribute(warpviz_device)
#define __global__ __attribute__((warpviz_device))
#define __device__ __attribute__((warpviz_device))
// What the runner writes for `extern __shared__ T name[];` (user_source.cpp):
// the pointer whose accesses the plugin records as shared ones.
#define WARPVIZ_SHARED_POINTER __attribute__((warpviz_shared_pointer))
#else
#define WARPVIZ_SHARED_POINTER
#define __global__
#define __device__
#endif
#define __host__
#define __forceinline__ inline
#define __inline__ inline
// `__shared__ __align__(128) float tile[32][33];`: a GNU attribute, because
// alignas may not stand between thread_local and the type.
#define __align__(n) __attribute__((aligned(n)))
// Blocks run one at a time per OS thread, so a thread_local static is exactly
// one block's shared memory.
#define __shared__ thread_local

#define threadIdx (::warpviz::emu::current_thread().thread_idx)
#define blockIdx (::warpviz::emu::current_thread().block_idx)
#define blockDim (::warpviz::emu::current_thread().block_dim)
#define gridDim (::warpviz::emu::current_thread().grid_dim)
// A constant, not a macro: host code reads cudaDeviceProp::warpSize.
inline constexpr int warpSize = 32;

using dim3 = warpviz::Dim3;

// CUDA's vector types (uint4, float2, ...), with CUDA's sizes and alignment.
#include "warpviz/vector_types.h"

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

// An operation whose operands are registers: its fields passed in registers.
inline emu::RegisterOpResult register_op(Op op, DType dtype, uint32_t line, unsigned mask, uint64_t value,
                                         int64_t b = 0, int width = warpSize) {
  return emu::warp_register_op(emu::register_op_code(op, dtype), line, mask, value, b, width);
}

template <class T>
T shuffle(Op op, uint32_t line, unsigned mask, T var, int64_t b, int width) {
  return ValueBits<T>::from_bits(register_op(op, ValueBits<T>::dtype, line, mask, ValueBits<T>::to_bits(var), b, width).value);
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
  return uint32_t(register_op(op, DType::I32, line, mask, uint32_t(predicate)).value);
}
inline unsigned ballot(uint32_t line, unsigned mask, int predicate) {
  return vote(Op::Ballot, line, mask, predicate);
}
inline int any(uint32_t line, unsigned mask, int predicate) { return int(vote(Op::Any, line, mask, predicate)); }
inline int all(uint32_t line, unsigned mask, int predicate) { return int(vote(Op::All, line, mask, predicate)); }
inline unsigned activemask(uint32_t line) { return vote(Op::ActiveMask, line, 0, 1); }

template <class T>
unsigned match_any(uint32_t line, unsigned mask, T value) {
  return uint32_t(register_op(Op::MatchAny, ValueBits<T>::dtype, line, mask, ValueBits<T>::to_bits(value)).value);
}
template <class T>
unsigned match_all(uint32_t line, unsigned mask, T value, int* pred) {
  const emu::RegisterOpResult res =
      register_op(Op::MatchAll, ValueBits<T>::dtype, line, mask, ValueBits<T>::to_bits(value));
  if (pred) *pred = (res.flags & emu::kRegisterOpOk) ? 1 : 0;
  return uint32_t(res.value);
}

// __reduce_*_sync: the overload (int or unsigned) decides signedness.
template <class T>
T redux(Op op, uint32_t line, unsigned mask, T value) {
  static_assert(sizeof(T) == 4 && std::is_integral_v<T>, "__reduce_*_sync takes int or unsigned");
  return ValueBits<T>::from_bits(register_op(op, ValueBits<T>::dtype, line, mask, ValueBits<T>::to_bits(value)).value);
}

inline void syncwarp(uint32_t line, unsigned mask = 0xffffffffu) {
  register_op(Op::SyncWarp, DType::I32, line, mask, 0);
}

inline void syncthreads(uint32_t line) { emu::block_barrier(line); }
// __syncthreads_count (and _and, _or): a barrier that also counts the
// threads whose predicate is non-zero. Each thread adds to the tally of its
// stretch before the barrier and reads it after; the next stretch uses the
// other tally, so none is reset while a thread still has to read it.
inline int syncthreads_count(uint32_t line, int predicate) {
  struct Tally {
    uint64_t epoch = ~uint64_t(0);
    int count = 0;
  };
  static thread_local Tally tallies[2];  // this OS thread's block
  const uint64_t epoch = emu::block_barrier_epoch();
  Tally& tally = tallies[epoch & 1];
  if (tally.epoch != epoch) tally = Tally{epoch, 0};
  tally.count += predicate != 0;
  emu::block_barrier(line);
  return tally.count;
}

// WARPVIZ_WATCH: the lanes converged here form the step, as __activemask()
// on the GPU sees them (no mask: the scheduler completes it once nothing else
// of the warp can move, as it does a shared-memory access).
template <class T>
void watch(uint32_t line, const OpArgs& name, const T& value) {
  using W = watch_type_t<T>;
  static_assert(std::is_arithmetic_v<W> || std::is_same_v<W, GpuFloat> || std::is_same_v<W, GpuDouble>,
                "WARPVIZ_WATCH records integers, enums, bool and floating-point values");
  static_assert(sizeof(W) == 4 || sizeof(W) == 8, "WARPVIZ_WATCH records values of up to 8 bytes");
  emu::warp_register_op(emu::register_op_code(Op::Watch, ValueBits<W>::dtype), line, 0,
                        ValueBits<W>::to_bits(W(value)), name.b, name.width, name.c);
}

inline uint32_t lane_id() { return emu::current_thread().lane; }
inline uint32_t thread_linear() { return emu::current_thread().linear_tid; }
inline uint32_t block_size() { return uint32_t(emu::current_thread().block_dim.count()); }

}  // namespace warpviz::rec

// ============================================================================
// [SECTION] Recorded shared-memory accesses
// ============================================================================
// WARPVIZ_LOAD(array, element) / WARPVIZ_STORE(array, element, value): one
// warp-wide LDS/STS of the element's width. The lanes converged at the call
// form the step; the recorded address is the element's byte offset from the
// start of `array` (shared arrays are 128-byte aligned, so its bank is the
// hardware's).

namespace warpviz::rec {

// The trace type of a shared element: float F32, int I32, other types of up
// to 4 bytes U32, 8- and 16-byte types U64 (the low 8 bytes are recorded).
template <class T>
constexpr DType shared_dtype() {
  if constexpr (sizeof(T) >= 8) return DType::U64;
  else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, GpuFloat>) return DType::F32;
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) == 4) return DType::I32;
  else return DType::U32;
}

template <class T>
void check_shared_element() {
  static_assert(std::is_trivially_copyable_v<T>, "shared elements are copied bit for bit");
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "a shared access is 1, 2, 4, 8 or 16 bytes wide");
}

template <class A, class T>
uint32_t shared_offset(const A& array, const T& element) {
  const auto* begin = reinterpret_cast<const unsigned char*>(&array);
  const auto* at = reinterpret_cast<const unsigned char*>(&element);
  if (at < begin || at + sizeof(T) > begin + sizeof(A))
    throw std::out_of_range("WARPVIZ_LOAD/WARPVIZ_STORE: the element is not inside the array");
  return uint32_t(at - begin);
}

template <class A, class T>
emu::WarpOpRequest shared_request(Op op, uint32_t line, const A& array, const T& element) {
  check_shared_element<T>();
  emu::WarpOpRequest r = request(op, line, 0, shared_dtype<T>(), 0);  // no mask: like __activemask
  r.addr = shared_offset(array, element);
  r.bytes = uint8_t(sizeof(T));
  r.shared = const_cast<void*>(static_cast<const void*>(&element));
  return r;
}

template <class A, class T>
T load_shared(uint32_t line, const A& array, const T& element) {
  const emu::WarpOpResult res = emu::warp_collective(shared_request(Op::LoadShared, line, array, element));
  unsigned char bytes[16];
  std::memcpy(bytes, &res.value, 8);
  std::memcpy(bytes + 8, &res.value_high, 8);
  T v;
  std::memcpy(&v, bytes, sizeof(T));
  return v;
}

template <class A, class T, class V>
void store_shared(uint32_t line, A& array, T& element, const V& value) {
  const T v = value;  // converted to the element's type, as `element = value` would
  unsigned char bytes[16] = {};
  std::memcpy(bytes, &v, sizeof(T));
  emu::WarpOpRequest r = shared_request(Op::StoreShared, line, array, element);
  std::memcpy(&r.value, bytes, 8);
  std::memcpy(&r.value_high, bytes + 8, 8);
  emu::warp_collective(r);
}

}  // namespace warpviz::rec

namespace warpviz {

// A block-wide copy into (fill_shared) or out of (save_shared) shared memory
// that is no recorded access: on the GPU it goes through the async copy
// engines (cp.async / the bulk copy), so the kernel's LDS/STS counters in
// Nsight Compute see only the recorded accesses. Every thread of the block
// calls it; fill_shared is complete for the block after __syncthreads.
// bytes must be a multiple of 16, both pointers 16-byte aligned.
inline void fill_shared(void* shared_dst, const void* global_src, size_t bytes) {
  const size_t chunks = bytes / 16, stride = rec::block_size();
  for (size_t i = rec::thread_linear(); i < chunks; i += stride)
    std::memcpy(static_cast<unsigned char*>(shared_dst) + 16 * i,
                static_cast<const unsigned char*>(global_src) + 16 * i, 16);
}
// Includes a __syncthreads: every earlier shared access of the block lands first.
inline void save_shared(void* global_dst, const void* shared_src, size_t bytes) {
  emu::block_barrier(0);
  if (rec::thread_linear() == 0) std::memcpy(global_dst, shared_src, bytes);
}

}  // namespace warpviz

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
#define __syncthreads_count(predicate) ::warpviz::rec::syncthreads_count(__LINE__, (predicate))
#define __syncthreads_and(predicate) int(::warpviz::rec::syncthreads_count(__LINE__, !(predicate)) == 0)
#define __syncthreads_or(predicate) int(::warpviz::rec::syncthreads_count(__LINE__, (predicate)) != 0)

#include "warpviz/cooperative_groups_rec.h"
