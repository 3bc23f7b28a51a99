// The CUDA Math API's SIMD intrinsics on the CPU backend: __vadd4, __vabsdiffu4,
// __vcmpgts2, __vsads4 ... Each treats a 32-bit word as two halfwords (...2)
// or four bytes (...4) and works on them part by part: wrapping, or with
// signed (ss) or unsigned (us) saturation; comparisons give all ones
// (__vcmp*) or 1 (__vset*) in each part that holds; the sums of absolute
// differences (__vsad*) add the parts into one number.
// tests/h200_probes/simd_intrinsics.cu prints every one on a GPU for the same
// inputs; test_device_semantics compares.
#pragma once

#include <cstdint>

namespace warpviz::simd {

template <int Bits>
struct Parts {
  static constexpr int kCount = 32 / Bits;
  static constexpr uint32_t kMask = Bits == 16 ? 0xffffu : 0xffu;
  static constexpr int64_t kMin = -(int64_t(1) << (Bits - 1));
  static constexpr int64_t kMax = (int64_t(1) << (Bits - 1)) - 1;
  static constexpr int64_t kUnsignedMax = kMask;

  static uint32_t u(uint32_t word, int i) { return (word >> (i * Bits)) & kMask; }
  static int64_t s(uint32_t word, int i) {
    const int64_t v = u(word, i);
    return v > kMax ? v - (int64_t(1) << Bits) : v;
  }
  static int64_t saturate_signed(int64_t v) { return v < kMin ? kMin : v > kMax ? kMax : v; }
  static int64_t saturate_unsigned(int64_t v) { return v < 0 ? 0 : v > kUnsignedMax ? kUnsignedMax : v; }

  // The word made of f(i) for each part i, each cut to the part's width.
  template <class F>
  static uint32_t each(F f) {
    uint32_t word = 0;
    for (int i = 0; i < kCount; ++i) word |= (uint32_t(uint64_t(f(i))) & kMask) << (i * Bits);
    return word;
  }
  template <class F>
  static int64_t sum(F f) {
    int64_t total = 0;
    for (int i = 0; i < kCount; ++i) total += f(i);
    return total;
  }
};

inline int64_t absolute(int64_t v) { return v < 0 ? -v : v; }

}  // namespace warpviz::simd

// One definition for the halfword form (2) and one for the byte form (4).
#define WARPVIZ_SIMD_UNARY(name, expr)                                                        \
  inline unsigned name##2(unsigned a) {                                                       \
    using P = ::warpviz::simd::Parts<16>;                                                     \
    return P::each([&](int i) { return expr; });                                              \
  }                                                                                           \
  inline unsigned name##4(unsigned a) {                                                       \
    using P = ::warpviz::simd::Parts<8>;                                                      \
    return P::each([&](int i) { return expr; });                                              \
  }
#define WARPVIZ_SIMD_BINARY(name, expr)                                                       \
  inline unsigned name##2(unsigned a, unsigned b) {                                           \
    using P = ::warpviz::simd::Parts<16>;                                                     \
    return P::each([&](int i) { return expr; });                                              \
  }                                                                                           \
  inline unsigned name##4(unsigned a, unsigned b) {                                           \
    using P = ::warpviz::simd::Parts<8>;                                                      \
    return P::each([&](int i) { return expr; });                                              \
  }
#define WARPVIZ_SIMD_SUM(name, expr)                                                          \
  inline unsigned name##2(unsigned a, unsigned b) {                                           \
    using P = ::warpviz::simd::Parts<16>;                                                     \
    return unsigned(P::sum([&](int i) { return expr; }));                                     \
  }                                                                                           \
  inline unsigned name##4(unsigned a, unsigned b) {                                           \
    using P = ::warpviz::simd::Parts<8>;                                                      \
    return unsigned(P::sum([&](int i) { return expr; }));                                     \
  }
// A comparison: all ones in a part where it holds (__vcmp*), or 1 (__vset*).
#define WARPVIZ_SIMD_COMPARE(suffix, expr)                                                    \
  WARPVIZ_SIMD_BINARY(__vcmp##suffix, (expr) ? int64_t(P::kMask) : 0)                         \
  WARPVIZ_SIMD_BINARY(__vset##suffix, (expr) ? 1 : 0)

WARPVIZ_SIMD_UNARY(__vabs, ::warpviz::simd::absolute(P::s(a, i)))
WARPVIZ_SIMD_UNARY(__vabsss, P::saturate_signed(::warpviz::simd::absolute(P::s(a, i))))
WARPVIZ_SIMD_UNARY(__vneg, -P::s(a, i))
WARPVIZ_SIMD_UNARY(__vnegss, P::saturate_signed(-P::s(a, i)))
WARPVIZ_SIMD_BINARY(__vadd, int64_t(P::u(a, i)) + P::u(b, i))
WARPVIZ_SIMD_BINARY(__vaddss, P::saturate_signed(P::s(a, i) + P::s(b, i)))
WARPVIZ_SIMD_BINARY(__vaddus, P::saturate_unsigned(int64_t(P::u(a, i)) + P::u(b, i)))
WARPVIZ_SIMD_BINARY(__vsub, int64_t(P::u(a, i)) - P::u(b, i))
WARPVIZ_SIMD_BINARY(__vsubss, P::saturate_signed(P::s(a, i) - P::s(b, i)))
WARPVIZ_SIMD_BINARY(__vsubus, P::saturate_unsigned(int64_t(P::u(a, i)) - P::u(b, i)))
WARPVIZ_SIMD_BINARY(__vabsdiffs, ::warpviz::simd::absolute(P::s(a, i) - P::s(b, i)))
WARPVIZ_SIMD_BINARY(__vabsdiffu, ::warpviz::simd::absolute(int64_t(P::u(a, i)) - P::u(b, i)))
// The signed average rounds half away from zero (the GPU gives avg(0, -1) = -1 and
// avg(0, -32767) = -16384, measured in simd_intrinsics.out); the unsigned one
// rounds half up; __vhaddu truncates.
WARPVIZ_SIMD_BINARY(__vavgs, (P::s(a, i) + P::s(b, i) + (P::s(a, i) + P::s(b, i) >= 0 ? 1 : -1)) / 2)
WARPVIZ_SIMD_BINARY(__vavgu, (int64_t(P::u(a, i)) + P::u(b, i) + 1) >> 1)
WARPVIZ_SIMD_BINARY(__vhaddu, (int64_t(P::u(a, i)) + P::u(b, i)) >> 1)
WARPVIZ_SIMD_BINARY(__vmaxs, P::s(a, i) > P::s(b, i) ? P::s(a, i) : P::s(b, i))
WARPVIZ_SIMD_BINARY(__vmaxu, P::u(a, i) > P::u(b, i) ? P::u(a, i) : P::u(b, i))
WARPVIZ_SIMD_BINARY(__vmins, P::s(a, i) < P::s(b, i) ? P::s(a, i) : P::s(b, i))
WARPVIZ_SIMD_BINARY(__vminu, P::u(a, i) < P::u(b, i) ? P::u(a, i) : P::u(b, i))
WARPVIZ_SIMD_SUM(__vsads, ::warpviz::simd::absolute(P::s(a, i) - P::s(b, i)))
WARPVIZ_SIMD_SUM(__vsadu, ::warpviz::simd::absolute(int64_t(P::u(a, i)) - P::u(b, i)))
WARPVIZ_SIMD_COMPARE(eq, P::u(a, i) == P::u(b, i))
WARPVIZ_SIMD_COMPARE(ne, P::u(a, i) != P::u(b, i))
WARPVIZ_SIMD_COMPARE(ges, P::s(a, i) >= P::s(b, i))
WARPVIZ_SIMD_COMPARE(geu, P::u(a, i) >= P::u(b, i))
WARPVIZ_SIMD_COMPARE(gts, P::s(a, i) > P::s(b, i))
WARPVIZ_SIMD_COMPARE(gtu, P::u(a, i) > P::u(b, i))
WARPVIZ_SIMD_COMPARE(les, P::s(a, i) <= P::s(b, i))
WARPVIZ_SIMD_COMPARE(leu, P::u(a, i) <= P::u(b, i))
WARPVIZ_SIMD_COMPARE(lts, P::s(a, i) < P::s(b, i))
WARPVIZ_SIMD_COMPARE(ltu, P::u(a, i) < P::u(b, i))

#undef WARPVIZ_SIMD_COMPARE
#undef WARPVIZ_SIMD_SUM
#undef WARPVIZ_SIMD_BINARY
#undef WARPVIZ_SIMD_UNARY
