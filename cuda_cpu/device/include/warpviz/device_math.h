// CUDA's device-side math and bit intrinsics for code compiled by the host
// compiler against the emulator (user_prelude.h includes it). Where the GPU's
// result is defined to the bit (integer intrinsics, correctly rounded _rn/_rz/
// _ru/_rd arithmetic, conversions, min/max) these give the same bits. The
// fast-math approximations (__expf, rsqrtf, __fdividef, ...) run on the GPU's
// special function unit, whose tables are not published: here they give the
// correctly rounded (or libm) value instead, see docs/floats.md, "Fast-math
// intrinsics".
//
// [SECTION] min, max, fminf, fmaxf
// [SECTION] Arithmetic with a named rounding mode
// [SECTION] Conversions
// [SECTION] Reinterpreting bits
// [SECTION] Integer intrinsics
// [SECTION] Fast-math intrinsics and CUDA-only math functions
// [SECTION] Loads and stores with a cache hint, __trap
#pragma once

#include <bit>
#include <cfenv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace warpviz::device_math {

// ============================================================================
// [SECTION] min, max, fminf, fmaxf
// ============================================================================
// The GPU's FMNMX/DMNMX (PTX min.f32/max.f32): a NaN operand gives the other
// operand, two NaNs give the canonical NaN, and -0 counts as less than +0, so
// fmaxf(-0, +0) is +0 in either order (tests/h200_probes/plain_cpp_semantics).
// x86's libm may return either zero, so plain fminf/fmaxf are routed here.

template <class F>
constexpr bool min_of(F a, F b) {  // true when a is the minimum of a and b
  if (a == 0 && b == 0) return std::signbit(a) || !std::signbit(b);
  return a < b;
}
inline float fmin_f32(float a, float b) {
  if (a != a && b != b) return std::bit_cast<float>(0x7fffffffu);
  if (a != a) return b;
  if (b != b) return a;
  return min_of(a, b) ? a : b;
}
inline float fmax_f32(float a, float b) {
  if (a != a && b != b) return std::bit_cast<float>(0x7fffffffu);
  if (a != a) return b;
  if (b != b) return a;
  return min_of(a, b) ? b : a;
}
// Two double NaNs: the H200 was measured only with the same quiet NaN twice,
// which it returned; here the first, quieted.
inline double fmin_f64(double a, double b) {
  if (a != a && b != b) return std::bit_cast<double>(std::bit_cast<uint64_t>(a) | 0x0008000000000000ull);
  if (a != a) return b;
  if (b != b) return a;
  return min_of(a, b) ? a : b;
}
inline double fmax_f64(double a, double b) {
  if (a != a && b != b) return std::bit_cast<double>(std::bit_cast<uint64_t>(a) | 0x0008000000000000ull);
  if (a != a) return b;
  if (b != b) return a;
  return min_of(a, b) ? b : a;
}

}  // namespace warpviz::device_math

inline float warpviz_fminf(float a, float b) { return warpviz::device_math::fmin_f32(a, b); }
inline float warpviz_fmaxf(float a, float b) { return warpviz::device_math::fmax_f32(a, b); }
inline double warpviz_fmin(double a, double b) { return warpviz::device_math::fmin_f64(a, b); }
inline double warpviz_fmax(double a, double b) { return warpviz::device_math::fmax_f64(a, b); }
inline float warpviz_fmin(float a, float b) { return warpviz::device_math::fmin_f32(a, b); }
inline float warpviz_fmax(float a, float b) { return warpviz::device_math::fmax_f32(a, b); }
// fmax(int, double) and the like: <cmath>'s promotion to double.
template <class A, class B, class = std::enable_if_t<std::is_arithmetic_v<A> && std::is_arithmetic_v<B>>>
inline double warpviz_fmin(A a, B b) { return warpviz::device_math::fmin_f64(double(a), double(b)); }
template <class A, class B, class = std::enable_if_t<std::is_arithmetic_v<A> && std::is_arithmetic_v<B>>>
inline double warpviz_fmax(A a, B b) { return warpviz::device_math::fmax_f64(double(a), double(b)); }
namespace std {
using ::warpviz_fmax;
using ::warpviz_fmaxf;
using ::warpviz_fmin;
using ::warpviz_fminf;
}  // namespace std
// After <cmath> has declared the host's, which stay reachable as ::fmaxf
// through no name a user file spells: `fmaxf(a, b)` and `std::fmaxf(a, b)`
// both reach the GPU's rule.
#define fminf warpviz_fminf
#define fmaxf warpviz_fmaxf
#define fmin warpviz_fmin
#define fmax warpviz_fmax

// CUDA's min/max overloads for device code: both operands of one type, or the
// mixed signed/unsigned pairs CUDA declares (the unsigned type wins, as in C).
#define WARPVIZ_MIN_MAX(A, B, R)                                 \
  inline R min(A a, B b) {                                       \
    const R x = static_cast<R>(a), y = static_cast<R>(b);        \
    return x < y ? x : y;                                        \
  }                                                              \
  inline R max(A a, B b) {                                       \
    const R x = static_cast<R>(a), y = static_cast<R>(b);        \
    return x > y ? x : y;                                        \
  }
WARPVIZ_MIN_MAX(int, int, int)
WARPVIZ_MIN_MAX(unsigned, unsigned, unsigned)
WARPVIZ_MIN_MAX(int, unsigned, unsigned)
WARPVIZ_MIN_MAX(unsigned, int, unsigned)
WARPVIZ_MIN_MAX(long, long, long)
WARPVIZ_MIN_MAX(unsigned long, unsigned long, unsigned long)
WARPVIZ_MIN_MAX(long, unsigned long, unsigned long)
WARPVIZ_MIN_MAX(unsigned long, long, unsigned long)
WARPVIZ_MIN_MAX(long long, long long, long long)
WARPVIZ_MIN_MAX(unsigned long long, unsigned long long, unsigned long long)
WARPVIZ_MIN_MAX(long long, unsigned long long, unsigned long long)
WARPVIZ_MIN_MAX(unsigned long long, long long, unsigned long long)
#undef WARPVIZ_MIN_MAX
inline float min(float a, float b) { return warpviz::device_math::fmin_f32(a, b); }
inline float max(float a, float b) { return warpviz::device_math::fmax_f32(a, b); }
inline double min(double a, double b) { return warpviz::device_math::fmin_f64(a, b); }
inline double max(double a, double b) { return warpviz::device_math::fmax_f64(a, b); }
inline double min(float a, double b) { return warpviz::device_math::fmin_f64(a, b); }
inline double max(float a, double b) { return warpviz::device_math::fmax_f64(a, b); }
inline double min(double a, float b) { return warpviz::device_math::fmin_f64(a, b); }
inline double max(double a, float b) { return warpviz::device_math::fmax_f64(a, b); }
// CUDA's named integer min/max (umin for unsigned, llmin for long long, ...).
// Templates, so that a host file's own `uint umin(uint, uint)` (CUDA's headers
// never reach a .cpp file) is no redefinition and wins where it is declared.
template <class = void>
unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
template <class = void>
unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
template <class = void>
long long llmin(long long a, long long b) { return a < b ? a : b; }
template <class = void>
long long llmax(long long a, long long b) { return a > b ? a : b; }
template <class = void>
unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
template <class = void>
unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
// CUDA's math headers declare the classification functions in the global
// namespace for host and device code alike: `isfinite(x)` with no std::.
using std::isfinite;
using std::isinf;
using std::isnan;
using std::signbit;

// ============================================================================
// [SECTION] Arithmetic with a named rounding mode
// ============================================================================
// nvcc never contracts these into an FMA, and each rounds once in its mode:
// the host's IEEE arithmetic in the same mode gives the same bits. Subnormals
// are kept, as the GPU keeps them without -ftz.

namespace warpviz::device_math {

// An empty asm the value passes through: the optimiser can see neither the
// value (no folding at compile time, in the default mode) nor move its use
// before the asm, which runs after the mode switch.
template <class T>
inline T after_mode_switch(T value) {
  asm volatile("" : "+m"(value));
  return value;
}

template <class Op, class... Args>
inline auto in_rounding(int mode, Op op, Args... args) {
  const int saved = std::fegetround();
  std::fesetround(mode);
  volatile auto r = op(after_mode_switch(args)...);  // computed before the mode is put back
  std::fesetround(saved);
  return r;
}

}  // namespace warpviz::device_math

#define WARPVIZ_ROUNDED(suffix, mode)                                                                            \
  inline float __fadd_##suffix(float a, float b) {                                                             \
    return warpviz::device_math::in_rounding(mode, [](auto a, auto b) { return a + b; }, a, b); \
  }                                                                                                            \
  inline float __fsub_##suffix(float a, float b) {                                                             \
    return warpviz::device_math::in_rounding(mode, [](auto a, auto b) { return a - b; }, a, b); \
  }                                                                                                            \
  inline float __fmul_##suffix(float a, float b) {                                                             \
    return warpviz::device_math::in_rounding(mode, [](auto a, auto b) { return a * b; }, a, b); \
  }                                                                                                            \
  inline float __fdiv_##suffix(float a, float b) {                                                             \
    return warpviz::device_math::in_rounding(mode, [](auto a, auto b) { return a / b; }, a, b); \
  }                                                                                                            \
  inline float __frcp_##suffix(float a) {                                                                      \
    return warpviz::device_math::in_rounding(mode, [](auto a) { return 1.0f / a; }, a); \
  }                                                                                                            \
  inline float __fsqrt_##suffix(float a) {                                                                     \
    return warpviz::device_math::in_rounding(mode, [](auto a) { return std::sqrt(a); }, a); \
  }                                                                                                            \
  inline float __fmaf_##suffix(float a, float b, float c) {                                                    \
    return warpviz::device_math::in_rounding(mode, [](auto a, auto b, auto c) { return std::fma(a, b, c); }, a, b, c); \
  }                                                                                                            \
  inline double __dadd_##suffix(double a, double b) {                                                          \
    return warpviz::device_math::in_rounding(mode, [](auto a, auto b) { return a + b; }, a, b); \
  }                                                                                                            \
  inline double __dsub_##suffix(double a, double b) {                                                          \
    return warpviz::device_math::in_rounding(mode, [](auto a, auto b) { return a - b; }, a, b); \
  }                                                                                                            \
  inline double __dmul_##suffix(double a, double b) {                                                          \
    return warpviz::device_math::in_rounding(mode, [](auto a, auto b) { return a * b; }, a, b); \
  }                                                                                                            \
  inline double __ddiv_##suffix(double a, double b) {                                                          \
    return warpviz::device_math::in_rounding(mode, [](auto a, auto b) { return a / b; }, a, b); \
  }                                                                                                            \
  inline double __drcp_##suffix(double a) {                                                                    \
    return warpviz::device_math::in_rounding(mode, [](auto a) { return 1.0 / a; }, a); \
  }                                                                                                            \
  inline double __dsqrt_##suffix(double a) {                                                                   \
    return warpviz::device_math::in_rounding(mode, [](auto a) { return std::sqrt(a); }, a); \
  }                                                                                                            \
  inline double __fma_##suffix(double a, double b, double c) {                                                 \
    return warpviz::device_math::in_rounding(mode, [](auto a, auto b, auto c) { return std::fma(a, b, c); }, a, b, c); \
  }
WARPVIZ_ROUNDED(rn, FE_TONEAREST)
WARPVIZ_ROUNDED(rz, FE_TOWARDZERO)
WARPVIZ_ROUNDED(ru, FE_UPWARD)
WARPVIZ_ROUNDED(rd, FE_DOWNWARD)
#undef WARPVIZ_ROUNDED
// 1/sqrt(x) through double: off from one rounding only where 1/sqrt(x) lies
// within 2^-52 (relative) of a tie between two floats.
inline float __frsqrt_rn(float x) { return float(1.0 / std::sqrt(double(x))); }
inline float __saturatef(float x) { return x != x ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }

// ============================================================================
// [SECTION] Conversions
// ============================================================================
// The GPU's F2I/F2F saturate: NaN gives 0, a value past the type's range its
// nearest end (tests/h200_probes/plain_cpp_semantics: uint32_t(-1.0f) is 0,
// int32_t(2^31) is 0x7fffffff).

namespace warpviz::device_math {

template <class I>
inline I saturate_to(double rounded) {
  if (rounded != rounded) return 0;
  constexpr double lowest = double(std::numeric_limits<I>::min());
  // max()+1 is a power of two, exact in double: anything at or past it saturates.
  constexpr double past_max = double(std::numeric_limits<I>::max() / 2 + 1) * 2.0;
  if (rounded <= lowest) return std::numeric_limits<I>::min();
  if (rounded >= past_max) return std::numeric_limits<I>::max();
  return I(rounded);
}
template <class I>
inline I convert_rn(double x) { return saturate_to<I>(std::nearbyint(x)); }  // ties to even (the default mode)
template <class I>
inline I convert_rz(double x) { return saturate_to<I>(std::trunc(x)); }
template <class I>
inline I convert_ru(double x) { return saturate_to<I>(std::ceil(x)); }
template <class I>
inline I convert_rd(double x) { return saturate_to<I>(std::floor(x)); }

}  // namespace warpviz::device_math

// float and double arguments both go through double: every float is exact
// there, so the rounding to an integer is the float's own.
#define WARPVIZ_TO_INT(from, F, to, I)                                                              \
  inline I __##from##2##to##_rn(F x) { return warpviz::device_math::convert_rn<I>(double(x)); }     \
  inline I __##from##2##to##_rz(F x) { return warpviz::device_math::convert_rz<I>(double(x)); }     \
  inline I __##from##2##to##_ru(F x) { return warpviz::device_math::convert_ru<I>(double(x)); }     \
  inline I __##from##2##to##_rd(F x) { return warpviz::device_math::convert_rd<I>(double(x)); }
WARPVIZ_TO_INT(float, float, int, int)
WARPVIZ_TO_INT(float, float, uint, unsigned)
WARPVIZ_TO_INT(float, float, ll, long long)
WARPVIZ_TO_INT(float, float, ull, unsigned long long)
WARPVIZ_TO_INT(double, double, int, int)
WARPVIZ_TO_INT(double, double, uint, unsigned)
WARPVIZ_TO_INT(double, double, ll, long long)
WARPVIZ_TO_INT(double, double, ull, unsigned long long)
#undef WARPVIZ_TO_INT

#define WARPVIZ_TO_FLOAT(from, I, to, F)                                                                        \
  inline F __##from##2##to##_rn(I x) { return warpviz::device_math::in_rounding(FE_TONEAREST, [](auto x) { return F(x); }, x); } \
  inline F __##from##2##to##_rz(I x) { return warpviz::device_math::in_rounding(FE_TOWARDZERO, [](auto x) { return F(x); }, x); } \
  inline F __##from##2##to##_ru(I x) { return warpviz::device_math::in_rounding(FE_UPWARD, [](auto x) { return F(x); }, x); } \
  inline F __##from##2##to##_rd(I x) { return warpviz::device_math::in_rounding(FE_DOWNWARD, [](auto x) { return F(x); }, x); }
WARPVIZ_TO_FLOAT(int, int, float, float)
WARPVIZ_TO_FLOAT(uint, unsigned, float, float)
WARPVIZ_TO_FLOAT(ll, long long, float, float)
WARPVIZ_TO_FLOAT(ull, unsigned long long, float, float)
WARPVIZ_TO_FLOAT(ll, long long, double, double)
WARPVIZ_TO_FLOAT(ull, unsigned long long, double, double)
WARPVIZ_TO_FLOAT(double, double, float, float)
#undef WARPVIZ_TO_FLOAT
inline double __int2double_rn(int x) { return double(x); }
inline double __uint2double_rn(unsigned x) { return double(x); }

// ============================================================================
// [SECTION] Reinterpreting bits
// ============================================================================

inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
inline int __double2hiint(double x) { return int(uint32_t(std::bit_cast<uint64_t>(x) >> 32)); }
inline int __double2loint(double x) { return int(uint32_t(std::bit_cast<uint64_t>(x))); }
inline double __hiloint2double(int hi, int lo) {
  return std::bit_cast<double>((uint64_t(uint32_t(hi)) << 32) | uint32_t(lo));
}

// ============================================================================
// [SECTION] Integer intrinsics
// ============================================================================
// Defined to the bit by the CUDA Math API's integer intrinsics section.

inline int __popcll(unsigned long long x) { return std::popcount(x); }
inline int __clzll(long long x) { return std::countl_zero(uint64_t(x)); }  // 64 for 0
inline int __ffsll(long long x) { return x == 0 ? 0 : std::countr_zero(uint64_t(x)) + 1; }
inline unsigned long long __brevll(unsigned long long x) {
  unsigned long long r = 0;
  for (int i = 0; i < 64; ++i) r |= ((x >> i) & 1ull) << (63 - i);
  return r;
}
inline int __mulhi(int a, int b) { return int((int64_t(a) * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) { return unsigned((uint64_t(a) * b) >> 32); }
inline long long __mul64hi(long long a, long long b) { return (long long)((__int128(a) * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)((unsigned __int128)(a)*b >> 64);
}
// The low 24 bits of each operand (sign-extended for __mul24), the low 32 bits of the product.
inline int __mul24(int a, int b) {
  const int64_t a24 = int32_t(uint32_t(a) << 8) >> 8, b24 = int32_t(uint32_t(b) << 8) >> 8;
  return int(uint32_t(uint64_t(a24 * b24)));
}
inline unsigned __umul24(unsigned a, unsigned b) { return unsigned(uint64_t(a & 0xffffffu) * (b & 0xffffffu)); }
inline unsigned __sad(int x, int y, unsigned z) { return unsigned(x > y ? int64_t(x) - y : int64_t(y) - x) + z; }
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
// Averages computed without overflow: (x + y) >> 1 and (x + y + 1) >> 1 in a wider type.
inline int __hadd(int x, int y) { return int((int64_t(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return int((int64_t(x) + y + 1) >> 1); }
inline unsigned __uhadd(unsigned x, unsigned y) { return unsigned((uint64_t(x) + y) >> 1); }
inline unsigned __urhadd(unsigned x, unsigned y) { return unsigned((uint64_t(x) + y + 1) >> 1); }
// Byte n of the result is byte (s >> 4n) & 7 of the 8-byte value y:x.
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const uint64_t bytes = (uint64_t(y) << 32) | x;
  unsigned r = 0;
  for (int n = 0; n < 4; ++n) r |= unsigned((bytes >> (8 * ((s >> (4 * n)) & 7u))) & 0xffu) << (8 * n);
  return r;
}
// hi:lo shifted, the shift taken mod 32 (_l, _r) or clamped to 32 (_lc, _rc).
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  return unsigned((((uint64_t(hi) << 32) | lo) << (shift & 31u)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
  return unsigned((((uint64_t(hi) << 32) | lo) << (shift < 32u ? shift : 32u)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  return unsigned((((uint64_t(hi) << 32) | lo) >> (shift & 31u)));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
  return unsigned((((uint64_t(hi) << 32) | lo) >> (shift < 32u ? shift : 32u)));
}
// Four byte products summed into c: signed bytes for int, unsigned for unsigned.
inline int __dp4a(int a, int b, int c) {
  for (int n = 0; n < 4; ++n) c += int(int8_t(a >> (8 * n))) * int(int8_t(b >> (8 * n)));
  return c;
}
inline unsigned __dp4a(unsigned a, unsigned b, unsigned c) {
  for (int n = 0; n < 4; ++n) c += ((a >> (8 * n)) & 0xffu) * ((b >> (8 * n)) & 0xffu);
  return c;
}
// Two 16-bit products of a's halves with b's low (_lo) or high (_hi) two bytes, summed into c.
inline int __dp2a_lo(int a, int b, int c) {
  for (int n = 0; n < 2; ++n) c += int(int16_t(a >> (16 * n))) * int(int8_t(b >> (8 * n)));
  return c;
}
inline unsigned __dp2a_lo(unsigned a, unsigned b, unsigned c) {
  for (int n = 0; n < 2; ++n) c += ((a >> (16 * n)) & 0xffffu) * ((b >> (8 * n)) & 0xffu);
  return c;
}
inline int __dp2a_hi(int a, int b, int c) {
  for (int n = 0; n < 2; ++n) c += int(int16_t(a >> (16 * n))) * int(int8_t(b >> (16 + 8 * n)));
  return c;
}
inline unsigned __dp2a_hi(unsigned a, unsigned b, unsigned c) {
  for (int n = 0; n < 2; ++n) c += ((a >> (16 * n)) & 0xffffu) * ((b >> (16 + 8 * n)) & 0xffu);
  return c;
}

// ============================================================================
// [SECTION] Fast-math intrinsics and CUDA-only math functions
// ============================================================================
// On the GPU these are MUFU approximations (rsqrtf: MUFU.RSQ, __expf: ex2 of
// a product, ...) within the error bounds of the Math API's tables; here they
// are the correctly rounded or libm value, which may differ in the last bits.

inline float rsqrtf(float x) { return __frsqrt_rn(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) { return float(1.0 / std::cbrt(double(x))); }
inline double rcbrt(double x) { return 1.0 / std::cbrt(x); }
// sin(pi x) and cos(pi x) are exact zeros at integers and half-integers
// (Math API: sinpi(n) is +-0, cospi(n + 1/2) is +0), which sin(M_PI * x) is not.
inline double sinpi(double x) {
  if (x == std::trunc(x)) return std::copysign(0.0, x);
  return std::sin(M_PI * std::fmod(x, 2.0));
}
inline double cospi(double x) {
  const double r = std::fmod(std::fabs(x), 2.0);
  if (r == 0.5 || r == 1.5) return 0.0;
  return std::cos(M_PI * r);
}
inline float sinpif(float x) { return float(sinpi(x)); }
inline float cospif(float x) { return float(cospi(x)); }
inline void sincospif(float x, float* s, float* c) { *s = sinpif(x), *c = cospif(x); }
inline void sincospi(double x, double* s, double* c) { *s = sinpi(x), *c = cospi(x); }
inline float normcdff(float x) { return float(0.5 * std::erfc(-double(x) / M_SQRT2)); }
inline double normcdf(double x) { return 0.5 * std::erfc(-x / M_SQRT2); }
inline float rhypotf(float x, float y) { return float(1.0 / std::hypot(double(x), double(y))); }
inline float norm3df(float a, float b, float c) { return float(std::sqrt(double(a) * a + double(b) * b + double(c) * c)); }
inline float rnorm3df(float a, float b, float c) { return float(1.0 / std::sqrt(double(a) * a + double(b) * b + double(c) * c)); }

// __fdividef: for 2^126 < |y| < 2^128 the GPU gives 0 (Math API); otherwise x/y.
inline float __fdividef(float x, float y) {
  const float ay = std::fabs(y);
  if (ay > 0x1p126f && ay < INFINITY) return std::isnan(x) || std::isinf(x) ? NAN : 0.0f * x;
  return x / y;
}
inline float fdividef(float x, float y) { return __fdividef(x, y); }
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return float(std::pow(10.0, double(x))); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline void __sincosf(float x, float* s, float* c) { *s = std::sin(x), *c = std::cos(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }

// ============================================================================
// [SECTION] Loads and stores with a cache hint, __trap
// ============================================================================
// The hints choose a cache policy on the GPU; the value is the same.

#define WARPVIZ_LOAD_HINT(name) \
  template <class T>            \
  inline T name(const T* p) {   \
    return *p;                  \
  }
WARPVIZ_LOAD_HINT(__ldg)
WARPVIZ_LOAD_HINT(__ldcg)
WARPVIZ_LOAD_HINT(__ldca)
WARPVIZ_LOAD_HINT(__ldcs)
WARPVIZ_LOAD_HINT(__ldlu)
WARPVIZ_LOAD_HINT(__ldcv)
#undef WARPVIZ_LOAD_HINT
#define WARPVIZ_STORE_HINT(name)   \
  template <class T>               \
  inline void name(T* p, T value) { \
    *p = value;                    \
  }
WARPVIZ_STORE_HINT(__stwb)
WARPVIZ_STORE_HINT(__stcg)
WARPVIZ_STORE_HINT(__stcs)
WARPVIZ_STORE_HINT(__stwt)
#undef WARPVIZ_STORE_HINT

// The GPU stops the kernel and the next synchronising call returns
// cudaErrorLaunchFailure; here the launch ends with a kernel error naming it.
[[noreturn]] inline void __trap() { throw std::runtime_error("the kernel called __trap()"); }
[[noreturn]] inline void __brkpt() { throw std::runtime_error("the kernel called __brkpt()"); }
inline void __nanosleep(unsigned) {}
// The SM's cycle counter: here the host's steady clock in nanoseconds, which
// counts up as a kernel runs (a kernel's own timing, `clock64() - start`,
// stays positive); the figures are the CPU's time, not an H200's cycles.
inline long long clock64() {
  return static_cast<long long>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}
inline unsigned long long __globaltimer() {
  return static_cast<unsigned long long>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                             std::chrono::system_clock::now().time_since_epoch())
                                             .count());
}

// Which memory a generic pointer points into, decided by its address at run
// time (user_runtime_cpu.cpp): shared is a block's `__shared__` variables
// (thread_locals here) and its dynamic shared memory; local is the thread's
// own stack; global is cudaMalloc'd memory and `__device__` variables. A
// `__constant__` variable is an ordinary global here, so __isConstant is 0.
namespace warpviz::user {
bool is_shared_address(const void* p);
bool is_global_address(const void* p);
bool is_local_address(const void* p);
}  // namespace warpviz::user
inline unsigned int __isShared(const void* p) { return ::warpviz::user::is_shared_address(p); }
inline unsigned int __isGlobal(const void* p) { return ::warpviz::user::is_global_address(p); }
inline unsigned int __isLocal(const void* p) { return ::warpviz::user::is_local_address(p); }
inline unsigned int __isConstant(const void*) { return 0; }
