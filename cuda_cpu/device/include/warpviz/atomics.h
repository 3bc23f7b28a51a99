// CUDA's atomic functions and memory fences for a user's file on the CPU
// backend (user_prelude.h includes it): atomicAdd .. atomicCAS on every type
// CUDA gives them, with the _block and _system scopes, and __threadfence*.
#pragma once

#include "warpviz/vector_types.h"

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
// sm_90's vector atomicAdd (CUDA Programming Guide: float2 and float4, global
// memory): each component added on its own; CUDA gives vector types no +.
inline float2 atomicAdd(float2* address, float2 value) {
  const float2 old = *address;
  *address = float2{old.x + value.x, old.y + value.y};
  return old;
}
inline float4 atomicAdd(float4* address, float4 value) {
  const float4 old = *address;
  *address = float4{old.x + value.x, old.y + value.y, old.z + value.z, old.w + value.w};
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

