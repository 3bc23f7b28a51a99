// CUDA's atomic functions and memory fences for a user's file on the CPU
// backend (user_prelude.h includes it): atomicAdd .. atomicCAS on every type
// CUDA gives them, with the _block and _system scopes, and __threadfence*.
#pragma once

#include "warpviz/vector_types.h"

// Emulated threads of a block run one at a time on one OS thread and switch
// only at warp operations and barriers, so a plain read-modify-write is
// atomic as it is on the GPU. Blocks of a launch whose atomics cannot see the
// order blocks run in (the compiler plugin's atomic_order.cpp) run on several
// OS threads at once: the runtime then sets __warpviz_blocks_concurrent, and
// each update is a compare-and-swap loop.
extern "C" bool __warpviz_blocks_concurrent;

namespace warpviz::atomics {
// Spins while another OS thread updates an object of a size no instruction
// swaps at once (a 16-byte atomicExch).
inline bool g_wide_lock = false;
template <class T, class Next>
inline T update(T* address, Next next) {
  if constexpr (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8) {
    alignas(T) unsigned char old_bytes[sizeof(T)];
    T* old = reinterpret_cast<T*>(old_bytes);
    __atomic_load(address, old, __ATOMIC_RELAXED);
    for (;;) {
      T desired = next(*old);
      if (__atomic_compare_exchange(address, old, &desired, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) return *old;
    }
  } else {
    while (__atomic_test_and_set(&g_wide_lock, __ATOMIC_ACQUIRE)) {
    }
    const T old = *address;
    *address = next(old);
    __atomic_clear(&g_wide_lock, __ATOMIC_RELEASE);
    return old;
  }
}
}  // namespace warpviz::atomics

#define WARPVIZ_ATOMIC_RMW(name, expr)                                                          \
  template <class T, class V>                                                                   \
  inline T name(T* address, V value_in) {                                                       \
    const T value = T(value_in);                                                                \
    if (__builtin_expect(__warpviz_blocks_concurrent, 0))                                       \
      return ::warpviz::atomics::update(address, [&](const T& old) { return T(expr); });        \
    const T old = *address;                                                                     \
    *address = (expr);                                                                          \
    return old;                                                                                 \
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
  if (__builtin_expect(__warpviz_blocks_concurrent, 0))
    return ::warpviz::atomics::update(address, [&](const T& old) { return old == T(compare) ? T(value) : old; });
  const T old = *address;
  if (old == T(compare)) *address = T(value);
  return old;
}
// sm_90's vector atomicAdd (CUDA Programming Guide: float2 and float4, global
// memory): each component added on its own; CUDA gives vector types no +.
inline float2 atomicAdd(float2* address, float2 value) {
  return float2{atomicAdd(&address->x, value.x), atomicAdd(&address->y, value.y)};
}
inline float4 atomicAdd(float4* address, float4 value) {
  return float4{atomicAdd(&address->x, value.x), atomicAdd(&address->y, value.y), atomicAdd(&address->z, value.z),
                atomicAdd(&address->w, value.w)};
}
inline unsigned atomicInc(unsigned* address, unsigned limit) {
  auto next = [limit](unsigned old) { return old >= limit ? 0u : old + 1u; };
  if (__builtin_expect(__warpviz_blocks_concurrent, 0)) return ::warpviz::atomics::update(address, next);
  const unsigned old = *address;
  *address = next(old);
  return old;
}
inline unsigned atomicDec(unsigned* address, unsigned limit) {
  auto next = [limit](unsigned old) { return (old == 0u || old > limit) ? limit : old - 1u; };
  if (__builtin_expect(__warpviz_blocks_concurrent, 0)) return ::warpviz::atomics::update(address, next);
  const unsigned old = *address;
  *address = next(old);
  return old;
}

// The _block and _system scopes (sm_60 and later) differ from the device
// scope only in which threads must see the update first; one OS thread runs
// a block's threads here, so every scope is the same operation.
#define WARPVIZ_ATOMIC_SCOPES(name)                                            \
  template <class T, class... V>                                               \
  inline auto name##_block(T* address, V... values) -> decltype(name(address, values...)) { \
    return name(address, values...);                                           \
  }                                                                            \
  template <class T, class... V>                                               \
  inline auto name##_system(T* address, V... values) -> decltype(name(address, values...)) { \
    return name(address, values...);                                           \
  }
WARPVIZ_ATOMIC_SCOPES(atomicAdd)
WARPVIZ_ATOMIC_SCOPES(atomicSub)
WARPVIZ_ATOMIC_SCOPES(atomicExch)
WARPVIZ_ATOMIC_SCOPES(atomicMin)
WARPVIZ_ATOMIC_SCOPES(atomicMax)
WARPVIZ_ATOMIC_SCOPES(atomicAnd)
WARPVIZ_ATOMIC_SCOPES(atomicOr)
WARPVIZ_ATOMIC_SCOPES(atomicXor)
WARPVIZ_ATOMIC_SCOPES(atomicCAS)
WARPVIZ_ATOMIC_SCOPES(atomicInc)
WARPVIZ_ATOMIC_SCOPES(atomicDec)
#undef WARPVIZ_ATOMIC_SCOPES

// A converged warp makes each access for all its lanes before the next: every
// lane's stores before a fence are done before any lane goes past it (a lock
// released by lane 1's atomicAnd after the whole warp wrote the node it
// guards: HeCBench's btree). The emulator runs a warp's lanes one at a time,
// so they meet at a fence, as before a volatile access (gpu_rewrites.h).
extern "C" void __warpviz_converged_access(unsigned line, unsigned site);
inline constexpr unsigned __warpviz_fence_meeting_site = 0x80000001u;  // beyond the plugin's per-file sites
inline void __threadfence(unsigned line = __builtin_LINE()) { __warpviz_converged_access(line, __warpviz_fence_meeting_site); }
inline void __threadfence_block(unsigned line = __builtin_LINE()) {
  __warpviz_converged_access(line, __warpviz_fence_meeting_site);
}
inline void __threadfence_system(unsigned line = __builtin_LINE()) {
  __warpviz_converged_access(line, __warpviz_fence_meeting_site);
}

