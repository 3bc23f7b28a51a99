// What warpviz puts in front of a user's own .cu file on the CPU backend
// (g++ -include): the recording layer, the CUDA runtime API on the emulator,
// and the device-side built-ins a first warp kernel uses. A user file needs no
// include of its own; `#include "warpviz/record.cuh"`, <cuda_runtime.h> and
// <cooperative_groups.h> still work (they resolve to this).
//
// Built into a precompiled header at build time, so a user file compiles in a
// fraction of a second.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "warpviz/record.cuh"
#include "warpviz/user_runtime.h"
#include "warpviz/user_driver.h"  // here, so that it is precompiled too

// ============================================================================
// Keywords the emulator has no use for
// ============================================================================

#define __constant__
#define __managed__
#define __launch_bounds__(...)
#define __grid_constant__

// ============================================================================
// Device built-ins
// ============================================================================
// Emulated threads run one at a time on one OS thread and switch only at warp
// operations and barriers, so a read-modify-write here is atomic as it is on
// the GPU.

#define WARPVIZ_ATOMIC_RMW(name, expr)                 \
  template <class T, class V>                          \
  inline T name(T* address, V value_in) {              \
    const T value = T(value_in);                       \
    const T old = *address;                            \
    *address = (expr);                                 \
    return old;                                        \
  }
WARPVIZ_ATOMIC_RMW(atomicAdd, old + value)
WARPVIZ_ATOMIC_RMW(atomicSub, old - value)
WARPVIZ_ATOMIC_RMW(atomicExch, value)
WARPVIZ_ATOMIC_RMW(atomicMin, value < old ? value : old)
WARPVIZ_ATOMIC_RMW(atomicMax, value > old ? value : old)
WARPVIZ_ATOMIC_RMW(atomicAnd, old & value)
WARPVIZ_ATOMIC_RMW(atomicOr, old | value)
WARPVIZ_ATOMIC_RMW(atomicXor, old ^ value)
#undef WARPVIZ_ATOMIC_RMW
template <class T, class C, class V>
inline T atomicCAS(T* address, C compare, V value) {
  const T old = *address;
  if (old == T(compare)) *address = T(value);
  return old;
}
inline unsigned atomicInc(unsigned* address, unsigned limit) {
  const unsigned old = *address;
  *address = old >= limit ? 0u : old + 1u;
  return old;
}
inline unsigned atomicDec(unsigned* address, unsigned limit) {
  const unsigned old = *address;
  *address = (old == 0u || old > limit) ? limit : old - 1u;
  return old;
}

inline void __threadfence() {}
inline void __threadfence_block() {}
inline void __threadfence_system() {}
template <class T>
inline T __ldg(const T* p) {
  return *p;
}

// CUDA's integer min/max overloads for device code.
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }

// Float intrinsics whose rounding is spelled out: nvcc never fuses these, so
// they are exact here too (docs/floats.md).
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __fsqrt_rn(float a) { return std::sqrt(a); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }
inline float __saturatef(float x) { return x != x ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
inline int __float2int_rn(float x) { return int(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return int(x); }
inline float __int2float_rn(int x) { return float(x); }
inline float __uint2float_rn(unsigned x) { return float(x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline unsigned __lanemask_le() { return unsigned((2ull << ::warpviz::emu::current_thread().lane) - 1u); }
inline unsigned __lanemask_eq() { return 1u << ::warpviz::emu::current_thread().lane; }
inline unsigned __lanemask_gt() { return ~__lanemask_le(); }
inline unsigned __lanemask_ge() { return ~__lanemask_lt(); }

// cudaMalloc(&d_out, bytes) remembers the variable's name and type, so a
// whole program's arrays are recorded after each launch as `d_out`.
#define cudaMalloc(ptr, ...) ::warpviz::user::malloc_named(#ptr, __LINE__, ptr, __VA_ARGS__)
#define cudaMallocManaged(ptr, ...) ::warpviz::user::malloc_named(#ptr, __LINE__, ptr, __VA_ARGS__)
