// CUDA's 16-bit floats for code compiled by the host compiler against the
// emulator: __half and __half2 (cuda_fp16.h), __nv_bfloat16 and
// __nv_bfloat162 (cuda_bf16.h), with the GPU's bits.
//
// Every rounding is done here with integer and exact double arithmetic, not
// by the host's _Float16/__bf16: round-to-nearest-even (ties to even),
// subnormals kept (the GPU's f16/bf16 arithmetic never flushes them),
// overflow to infinity, and every NaN result the canonical 0x7fff that
// sm_90's F2F and HADD/HMUL/HFMA write. Arithmetic computes the exact result
// rounded to odd in double (53 bits, toward zero with the inexact flag as a
// sticky bit) and rounds that once to 11 or 8 bits: rounding to odd first and
// to nearest after gives the correctly rounded value when the first format
// has at least two more bits (docs/floats.md, "16-bit floats").
//
// [SECTION] The two formats and their rounding
// [SECTION] __half, __nv_bfloat16 and their pairs
// [SECTION] Conversions
// [SECTION] Arithmetic, comparisons and math
// [SECTION] Warp shuffles of 16-bit floats
#pragma once

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>

#include "warpviz/value_bits.h"

namespace warpviz::narrow {

// ============================================================================
// [SECTION] The two formats and their rounding
// ============================================================================

struct Fp16Format {
  static constexpr int mantissa_bits = 10, exponent_bits = 5;
};
struct Bf16Format {
  static constexpr int mantissa_bits = 7, exponent_bits = 8;
};

enum class Rounding { NearestEven, TowardZero, Down, Up };

constexpr uint16_t kCanonicalNaN = 0x7fff;  // both formats: every exponent and mantissa bit set

// x rounded to the format, as bits. x is exact (a float, an integer of up to
// 53 bits) or rounded to odd (round_to_odd).
template <class Format>
inline uint16_t round_to(double x, Rounding mode) {
  constexpr int M = Format::mantissa_bits, E = Format::exponent_bits;
  constexpr int bias = (1 << (E - 1)) - 1, emin = 1 - bias, emax = bias;
  constexpr uint32_t inf_bits = ((1u << E) - 1u) << M, max_bits = inf_bits - 1u;
  if (std::isnan(x)) return kCanonicalNaN;
  const bool negative = std::signbit(x);
  const uint32_t sign = negative ? 0x8000u : 0u;
  const double a = std::fabs(x);
  if (std::isinf(a)) return uint16_t(sign | inf_bits);
  if (a == 0) return uint16_t(sign);
  // Away from zero: where a rounding past the largest finite value goes to infinity.
  const bool away = mode == Rounding::NearestEven || (mode == Rounding::Up && !negative) ||
                    (mode == Rounding::Down && negative);
  const int e = std::ilogb(a);
  if (e > emax) return uint16_t(sign | (away ? inf_bits : max_bits));
  // In units of the format's last place at this exponent (2^(emin - M) below the normals).
  const int quantum = (e < emin ? emin : e) - M;
  const double q = std::ldexp(a, -quantum);  // a power-of-two scaling: exact
  const double whole = std::floor(q), frac = q - whole;
  uint32_t digits = uint32_t(whole);
  bool up = false;
  switch (mode) {
    case Rounding::NearestEven: up = frac > 0.5 || (frac == 0.5 && (digits & 1u)); break;
    case Rounding::TowardZero: break;
    case Rounding::Up: up = frac > 0 && !negative; break;
    case Rounding::Down: up = frac > 0 && negative; break;
  }
  digits += up ? 1u : 0u;
  // digits holds the implicit leading 1 of a normal value, which adds one to
  // the exponent field; a carry out of the mantissa lands there too.
  uint32_t bits = e < emin ? digits : (uint32_t(e - emin) << M) + digits;
  if (bits >= inf_bits) bits = away ? inf_bits : max_bits;
  return uint16_t(sign | bits);
}

// The exact value of the format's bits. A NaN keeps its payload, quieted, as
// the GPU's widening F2F does.
template <class Format>
inline float to_float(uint16_t bits) {
  constexpr int M = Format::mantissa_bits, E = Format::exponent_bits;
  constexpr int bias = (1 << (E - 1)) - 1;
  const uint32_t sign = uint32_t(bits & 0x8000u) << 16;
  const uint32_t field = (bits >> M) & ((1u << E) - 1u), mantissa = bits & ((1u << M) - 1u);
  if (field == (1u << E) - 1u) {
    if (mantissa == 0) return std::bit_cast<float>(sign | 0x7f800000u);
    return std::bit_cast<float>(sign | 0x7fc00000u | (mantissa << (23 - M)));
  }
  const double magnitude = field == 0 ? std::ldexp(double(mantissa), 1 - bias - M)
                                      : std::ldexp(double(mantissa | (1u << M)), int(field) - bias - M);
  return float(sign ? -magnitude : magnitude);
}

// op() in double, truncated, with the last bit set when anything was cut off.
template <class Op>
inline double round_to_odd(Op op) {
  const int saved = std::fegetround();
  std::feclearexcept(FE_INEXACT);
  std::fesetround(FE_TOWARDZERO);
  volatile double r = op();
  const bool inexact = std::fetestexcept(FE_INEXACT) != 0;
  std::fesetround(saved);
  double result = r;
  if (inexact && std::isfinite(result))
    result = std::bit_cast<double>(std::bit_cast<uint64_t>(result) | 1ull);
  return result;
}

// ============================================================================
// [SECTION] __half, __nv_bfloat16 and their pairs
// ============================================================================

template <class Format>
struct Raw {
  unsigned short x;
};

// A 16-bit float: CUDA's implicit conversions from and to float (a float or
// double argument rounds to nearest even, an integer too).
template <class Format>
struct Narrow {
  unsigned short __x;

  Narrow() = default;
  constexpr Narrow(Raw<Format> raw) : __x(raw.x) {}
  Narrow(float f) : __x(round_to<Format>(f, Rounding::NearestEven)) {}
  Narrow(double d) : __x(round_to<Format>(d, Rounding::NearestEven)) {}  // straight to 16 bits, as cvt.rn.f16.f64
  Narrow(int i) : __x(round_to<Format>(double(i), Rounding::NearestEven)) {}
  Narrow(unsigned i) : __x(round_to<Format>(double(i), Rounding::NearestEven)) {}
  Narrow(short i) : __x(round_to<Format>(double(i), Rounding::NearestEven)) {}
  Narrow(unsigned short i) : __x(round_to<Format>(double(i), Rounding::NearestEven)) {}
  Narrow(long long i) : __x(round_to<Format>(double(i), Rounding::NearestEven)) {}
  Narrow(unsigned long long i) : __x(round_to<Format>(double(i), Rounding::NearestEven)) {}
  operator float() const { return to_float<Format>(__x); }
  operator Raw<Format>() const { return Raw<Format>{__x}; }

  static Narrow from_bits(uint16_t bits) { return Narrow(Raw<Format>{bits}); }
};

template <class Format>
struct alignas(4) Pair {
  Narrow<Format> x, y;
  Pair() = default;
  constexpr Pair(Narrow<Format> a, Narrow<Format> b) : x(a), y(b) {}
};

template <class Format>
struct alignas(4) PairRaw {
  unsigned short x, y;
};

}  // namespace warpviz::narrow

using __half_raw = warpviz::narrow::Raw<warpviz::narrow::Fp16Format>;
using __half = warpviz::narrow::Narrow<warpviz::narrow::Fp16Format>;
using __half2 = warpviz::narrow::Pair<warpviz::narrow::Fp16Format>;
using __half2_raw = warpviz::narrow::PairRaw<warpviz::narrow::Fp16Format>;
using half = __half;
using half2 = __half2;
using __nv_bfloat16_raw = warpviz::narrow::Raw<warpviz::narrow::Bf16Format>;
using __nv_bfloat16 = warpviz::narrow::Narrow<warpviz::narrow::Bf16Format>;
using __nv_bfloat162 = warpviz::narrow::Pair<warpviz::narrow::Bf16Format>;
using __nv_bfloat162_raw = warpviz::narrow::PairRaw<warpviz::narrow::Bf16Format>;
using nv_bfloat16 = __nv_bfloat16;
using nv_bfloat162 = __nv_bfloat162;

// ============================================================================
// [SECTION] Conversions
// ============================================================================

namespace warpviz::narrow {
template <class Format>
inline Narrow<Format> rounded(double x, Rounding mode) {
  return Narrow<Format>::from_bits(round_to<Format>(x, mode));
}
}  // namespace warpviz::narrow

#define WARPVIZ_FROM_FLOAT(name, T, Format)                                                                    \
  inline T name(float f) { return warpviz::narrow::rounded<Format>(f, warpviz::narrow::Rounding::NearestEven); } \
  inline T name##_rn(float f) { return name(f); }                                                              \
  inline T name##_rz(float f) { return warpviz::narrow::rounded<Format>(f, warpviz::narrow::Rounding::TowardZero); } \
  inline T name##_rd(float f) { return warpviz::narrow::rounded<Format>(f, warpviz::narrow::Rounding::Down); } \
  inline T name##_ru(float f) { return warpviz::narrow::rounded<Format>(f, warpviz::narrow::Rounding::Up); }
WARPVIZ_FROM_FLOAT(__float2half, __half, warpviz::narrow::Fp16Format)
WARPVIZ_FROM_FLOAT(__float2bfloat16, __nv_bfloat16, warpviz::narrow::Bf16Format)
#undef WARPVIZ_FROM_FLOAT

inline float __half2float(__half h) { return float(h); }
inline float __bfloat162float(__nv_bfloat16 h) { return float(h); }
inline __half __double2half(double d) { return __half(d); }
inline __nv_bfloat16 __double2bfloat16(double d) { return __nv_bfloat16(d); }
inline __half __int2half_rn(int i) { return __half(i); }
inline __nv_bfloat16 __int2bfloat16_rn(int i) { return __nv_bfloat16(i); }
inline __half __uint2half_rn(unsigned i) { return __half(i); }
inline __half __short2half_rn(short i) { return __half(i); }
inline __half __ushort2half_rn(unsigned short i) { return __half(i); }
// Saturating, NaN to 0, as the GPU's F2I (device_math.h).
inline int __half2int_rz(__half h) { return __float2int_rz(float(h)); }
inline int __half2int_rn(__half h) { return __float2int_rn(float(h)); }
inline int __bfloat162int_rz(__nv_bfloat16 h) { return __float2int_rz(float(h)); }
inline int __bfloat162int_rn(__nv_bfloat16 h) { return __float2int_rn(float(h)); }

inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline short __half_as_short(__half h) { return short(h.__x); }
inline __half __ushort_as_half(unsigned short u) { return __half::from_bits(u); }
inline __half __short_as_half(short s) { return __half::from_bits(uint16_t(s)); }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
inline short __bfloat16_as_short(__nv_bfloat16 h) { return short(h.__x); }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) { return __nv_bfloat16::from_bits(u); }
inline __nv_bfloat16 __short_as_bfloat16(short s) { return __nv_bfloat16::from_bits(uint16_t(s)); }

inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
inline __half2 make_half2(__half a, __half b) { return __half2(a, b); }
inline __nv_bfloat162 make_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
inline __half2 __half2half2(__half a) { return __half2(a, a); }
inline __half2 __float2half2_rn(float f) { return __half2(__float2half(f), __float2half(f)); }
inline __half2 __floats2half2_rn(float a, float b) { return __half2(__float2half(a), __float2half(b)); }
inline __half2 __float22half2_rn(float2 f) { return __floats2half2_rn(f.x, f.y); }
inline float2 __half22float2(__half2 h) { return float2{float(h.x), float(h.y)}; }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline float __low2float(__half2 h) { return float(h.x); }
inline float __high2float(__half2 h) { return float(h.y); }
inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __nv_bfloat162(a, a); }
inline __nv_bfloat162 __float2bfloat162_rn(float f) {
  return __nv_bfloat162(__float2bfloat16(f), __float2bfloat16(f));
}
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__float2bfloat16(a), __float2bfloat16(b));
}
inline __nv_bfloat162 __float22bfloat162_rn(float2 f) { return __floats2bfloat162_rn(f.x, f.y); }
inline float2 __bfloat1622float2(__nv_bfloat162 h) { return float2{float(h.x), float(h.y)}; }
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) { return h.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) { return h.y; }
inline float __low2float(__nv_bfloat162 h) { return float(h.x); }
inline float __high2float(__nv_bfloat162 h) { return float(h.y); }

// ============================================================================
// [SECTION] Arithmetic, comparisons and math
// ============================================================================
// One rounding to nearest even per operation, as HADD/HMUL/HFMA (and their
// .BF16 forms on sm_90). nvcc may fuse a*b+c of __half operators into one
// HFMA; here each operator rounds (docs/floats.md).

namespace warpviz::narrow {

template <class Format, class Op>
inline Narrow<Format> exact_then_round(Op op) {
  return Narrow<Format>::from_bits(round_to<Format>(round_to_odd(op), Rounding::NearestEven));
}
template <class Format>
inline bool is_nan(Narrow<Format> h) {
  return std::isnan(float(h));
}
// __hmax/__hmin: a NaN operand gives the other, two give the canonical NaN,
// +0 is greater than -0 (CUDA Math API).
template <class Format>
inline Narrow<Format> min_max(Narrow<Format> a, Narrow<Format> b, bool want_max) {
  const bool na = is_nan(a), nb = is_nan(b);
  if (na && nb) return Narrow<Format>::from_bits(kCanonicalNaN);
  if (na) return b;
  if (nb) return a;
  const float fa = float(a), fb = float(b);
  const bool a_less = (fa == fb) ? (std::signbit(fa) && !std::signbit(fb)) : fa < fb;
  return (a_less == want_max) ? b : a;
}

}  // namespace warpviz::narrow

#define WARPVIZ_NARROW_ARITHMETIC(T, F, P)                                                                      \
  inline T __hadd(T a, T b) { return warpviz::narrow::exact_then_round<F>([&] { return double(float(a)) + double(float(b)); }); } \
  inline T __hsub(T a, T b) { return warpviz::narrow::exact_then_round<F>([&] { return double(float(a)) - double(float(b)); }); } \
  inline T __hmul(T a, T b) { return warpviz::narrow::exact_then_round<F>([&] { return double(float(a)) * double(float(b)); }); } \
  inline T __hdiv(T a, T b) { return warpviz::narrow::exact_then_round<F>([&] { return double(float(a)) / double(float(b)); }); } \
  inline T __hfma(T a, T b, T c) {                                                                              \
    return warpviz::narrow::exact_then_round<F>([&] { return std::fma(double(float(a)), double(float(b)), double(float(c))); }); \
  }                                                                                                             \
  inline T __hadd_rn(T a, T b) { return __hadd(a, b); }                                                        \
  inline T __hsub_rn(T a, T b) { return __hsub(a, b); }                                                        \
  inline T __hmul_rn(T a, T b) { return __hmul(a, b); }                                                        \
  inline T __hneg(T a) { return T::from_bits(uint16_t(a.__x ^ 0x8000u)); }                                     \
  inline T __habs(T a) { return T::from_bits(uint16_t(a.__x & 0x7fffu)); }                                     \
  inline T __hmax(T a, T b) { return warpviz::narrow::min_max(a, b, true); }                                   \
  inline T __hmin(T a, T b) { return warpviz::narrow::min_max(a, b, false); }                                  \
  inline T __hmax_nan(T a, T b) {                                                                               \
    return warpviz::narrow::is_nan(a) || warpviz::narrow::is_nan(b) ? T::from_bits(warpviz::narrow::kCanonicalNaN) \
                                                                    : __hmax(a, b);                             \
  }                                                                                                             \
  inline T __hmin_nan(T a, T b) {                                                                               \
    return warpviz::narrow::is_nan(a) || warpviz::narrow::is_nan(b) ? T::from_bits(warpviz::narrow::kCanonicalNaN) \
                                                                    : __hmin(a, b);                             \
  }                                                                                                             \
  inline bool __hisnan(T a) { return warpviz::narrow::is_nan(a); }                                             \
  inline int __hisinf(T a) { return std::isinf(float(a)) ? (std::signbit(float(a)) ? -1 : 1) : 0; }            \
  /* Ordered comparisons are false with a NaN; the ...u forms are true. */                                     \
  inline bool __heq(T a, T b) { return float(a) == float(b); }                                                 \
  inline bool __hne(T a, T b) { return float(a) < float(b) || float(a) > float(b); }                          \
  inline bool __hlt(T a, T b) { return float(a) < float(b); }                                                  \
  inline bool __hle(T a, T b) { return float(a) <= float(b); }                                                 \
  inline bool __hgt(T a, T b) { return float(a) > float(b); }                                                  \
  inline bool __hge(T a, T b) { return float(a) >= float(b); }                                                 \
  inline bool __hequ(T a, T b) { return !__hne(a, b); }                                                        \
  inline bool __hneu(T a, T b) { return !__heq(a, b); }                                                        \
  inline bool __hltu(T a, T b) { return !__hge(a, b); }                                                        \
  inline bool __hleu(T a, T b) { return !__hgt(a, b); }                                                        \
  inline bool __hgtu(T a, T b) { return !__hle(a, b); }                                                        \
  inline bool __hgeu(T a, T b) { return !__hlt(a, b); }                                                        \
  inline T operator+(T a, T b) { return __hadd(a, b); }                                                        \
  inline T operator-(T a, T b) { return __hsub(a, b); }                                                        \
  inline T operator*(T a, T b) { return __hmul(a, b); }                                                        \
  inline T operator/(T a, T b) { return __hdiv(a, b); }                                                        \
  inline T& operator+=(T& a, T b) { return a = __hadd(a, b); }                                                 \
  inline T& operator-=(T& a, T b) { return a = __hsub(a, b); }                                                 \
  inline T& operator*=(T& a, T b) { return a = __hmul(a, b); }                                                 \
  inline T& operator/=(T& a, T b) { return a = __hdiv(a, b); }                                                 \
  inline T operator-(T a) { return __hneg(a); }                                                                \
  inline T operator+(T a) { return a; }                                                                        \
  inline T& operator++(T& a) { return a = __hadd(a, T(1.0f)); }                                                \
  inline T& operator--(T& a) { return a = __hsub(a, T(1.0f)); }                                                \
  inline T operator++(T& a, int) { T old = a; ++a; return old; }                                               \
  inline T operator--(T& a, int) { T old = a; --a; return old; }                                               \
  inline bool operator==(T a, T b) { return __heq(a, b); }                                                     \
  inline bool operator!=(T a, T b) { return __hneu(a, b); }                                                    \
  inline bool operator<(T a, T b) { return __hlt(a, b); }                                                      \
  inline bool operator<=(T a, T b) { return __hle(a, b); }                                                     \
  inline bool operator>(T a, T b) { return __hgt(a, b); }                                                      \
  inline bool operator>=(T a, T b) { return __hge(a, b); }                                                     \
  /* The pair: each half on its own, as HADD2/HMUL2/HFMA2. */                                                  \
  inline P __hadd2(P a, P b) { return P(__hadd(a.x, b.x), __hadd(a.y, b.y)); }                                 \
  inline P __hsub2(P a, P b) { return P(__hsub(a.x, b.x), __hsub(a.y, b.y)); }                                 \
  inline P __hmul2(P a, P b) { return P(__hmul(a.x, b.x), __hmul(a.y, b.y)); }                                 \
  inline P __h2div(P a, P b) { return P(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }                                 \
  inline P __hfma2(P a, P b, P c) { return P(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); }                  \
  inline P __hneg2(P a) { return P(__hneg(a.x), __hneg(a.y)); }                                                \
  inline P __habs2(P a) { return P(__habs(a.x), __habs(a.y)); }                                                \
  inline P __hmax2(P a, P b) { return P(__hmax(a.x, b.x), __hmax(a.y, b.y)); }                                 \
  inline P __hmin2(P a, P b) { return P(__hmin(a.x, b.x), __hmin(a.y, b.y)); }                                 \
  inline P operator+(P a, P b) { return __hadd2(a, b); }                                                       \
  inline P operator-(P a, P b) { return __hsub2(a, b); }                                                       \
  inline P operator*(P a, P b) { return __hmul2(a, b); }                                                       \
  inline P operator/(P a, P b) { return __h2div(a, b); }                                                       \
  inline P& operator+=(P& a, P b) { return a = __hadd2(a, b); }                                                \
  inline P& operator-=(P& a, P b) { return a = __hsub2(a, b); }                                                \
  inline P& operator*=(P& a, P b) { return a = __hmul2(a, b); }                                                \
  inline P& operator/=(P& a, P b) { return a = __h2div(a, b); }                                                \
  inline P operator-(P a) { return __hneg2(a); }                                                               \
  inline bool operator==(P a, P b) { return a.x == b.x && a.y == b.y; }                                        \
  inline bool operator!=(P a, P b) { return a.x != b.x || a.y != b.y; }
WARPVIZ_NARROW_ARITHMETIC(__half, warpviz::narrow::Fp16Format, __half2)
WARPVIZ_NARROW_ARITHMETIC(__nv_bfloat16, warpviz::narrow::Bf16Format, __nv_bfloat162)
#undef WARPVIZ_NARROW_ARITHMETIC

// The operators live in the global namespace, as CUDA's do; named here too,
// they are found by argument-dependent lookup from inside a namespace that
// has operators of its own (warpviz's atomics: `old + value` of a bf16x2).
namespace warpviz::narrow {
using ::operator+, ::operator-, ::operator*, ::operator/, ::operator+=, ::operator-=, ::operator*=, ::operator/=,
    ::operator++, ::operator--, ::operator==, ::operator!=, ::operator<, ::operator<=, ::operator>, ::operator>=;
}  // namespace warpviz::narrow

// Math functions: the GPU evaluates these in f32 with MUFU approximations;
// here the value in double, rounded once (docs/floats.md).
#define WARPVIZ_NARROW_MATH(name, T, F, expr)                                                  \
  inline T name(T a) {                                                                          \
    const double x = float(a);                                                                  \
    return T::from_bits(warpviz::narrow::round_to<F>(expr, warpviz::narrow::Rounding::NearestEven)); \
  }
#define WARPVIZ_NARROW_MATH_ALL(T, F)                                  \
  WARPVIZ_NARROW_MATH(hsqrt, T, F, std::sqrt(x))                       \
  WARPVIZ_NARROW_MATH(hrsqrt, T, F, 1.0 / std::sqrt(x))                \
  WARPVIZ_NARROW_MATH(hrcp, T, F, 1.0 / x)                             \
  WARPVIZ_NARROW_MATH(hexp, T, F, std::exp(x))                         \
  WARPVIZ_NARROW_MATH(hexp2, T, F, std::exp2(x))                       \
  WARPVIZ_NARROW_MATH(hexp10, T, F, std::pow(10.0, x))                 \
  WARPVIZ_NARROW_MATH(hlog, T, F, std::log(x))                         \
  WARPVIZ_NARROW_MATH(hlog2, T, F, std::log2(x))                       \
  WARPVIZ_NARROW_MATH(hlog10, T, F, std::log10(x))                     \
  WARPVIZ_NARROW_MATH(hsin, T, F, std::sin(x))                         \
  WARPVIZ_NARROW_MATH(hcos, T, F, std::cos(x))                         \
  WARPVIZ_NARROW_MATH(htanh, T, F, std::tanh(x))                       \
  WARPVIZ_NARROW_MATH(hceil, T, F, std::ceil(x))                       \
  WARPVIZ_NARROW_MATH(hfloor, T, F, std::floor(x))                     \
  WARPVIZ_NARROW_MATH(htrunc, T, F, std::trunc(x))                     \
  WARPVIZ_NARROW_MATH(hrint, T, F, std::nearbyint(x))
WARPVIZ_NARROW_MATH_ALL(__half, warpviz::narrow::Fp16Format)
WARPVIZ_NARROW_MATH_ALL(__nv_bfloat16, warpviz::narrow::Bf16Format)
#undef WARPVIZ_NARROW_MATH_ALL
#undef WARPVIZ_NARROW_MATH

// ============================================================================
// [SECTION] Warp shuffles of 16-bit floats
// ============================================================================
// CUDA's __shfl_*_sync overloads for __half, __half2, ...: the bits travel in
// a 32-bit register, recorded as U32.

namespace warpviz {
template <class Format>
struct ValueBits<narrow::Narrow<Format>> {
  static constexpr DType dtype = DType::U32;
  static uint64_t to_bits(narrow::Narrow<Format> v) { return v.__x; }
  static narrow::Narrow<Format> from_bits(uint64_t b) { return narrow::Narrow<Format>::from_bits(uint16_t(b)); }
};
template <class Format>
struct ValueBits<narrow::Pair<Format>> {
  static constexpr DType dtype = DType::U32;
  static uint64_t to_bits(narrow::Pair<Format> v) { return v.x.__x | (uint32_t(v.y.__x) << 16); }
  static narrow::Pair<Format> from_bits(uint64_t b) {
    return narrow::Pair<Format>(narrow::Narrow<Format>::from_bits(uint16_t(b)),
                                narrow::Narrow<Format>::from_bits(uint16_t(b >> 16)));
  }
};
}  // namespace warpviz
