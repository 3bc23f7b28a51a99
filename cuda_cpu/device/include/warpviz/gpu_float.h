// GPU-exact float types for the CPU emulator. Kernels are templates over their
// value type: the GPU build uses T = float / double, the emulator T = GpuFloat /
// GpuDouble, which reproduce sm_90 results bit for bit (docs/warp-rules.md#floats).
//
// What is modelled:
//   - + - * / round to nearest even, subnormals kept (nvcc default --ftz=false).
//     Host SSE arithmetic is exactly that as long as nothing is fused or widened.
//   - f32: every NaN result is the canonical 0x7fffffff (PG 20.3, HW).
//   - f64: NaN payloads propagate (PTX 9.7.3); with two NaN operands the second
//     one's comes out (observed on an H200).
//   - FMA contraction (nvcc --fmad=true): `a*b` yields a product expression, and
//     `prod + c`, `c + prod`, `prod - c`, `c - prod` inside one expression are one
//     fused multiply-add, like FFMA / DFMA.
// Limits of the contraction model:
//   - Only a product that is still a temporary fuses. A product bound to a named
//     variable (`auto p = a*b;` or `GpuFloat p = a*b;`) is rounded first, while
//     nvcc contracts on IR and may fuse it across statements too. Kernels meant to
//     be bit-exact keep the multiply-add in one expression or use __fmul_rn.
//   - `a*b + c*d` fuses the left product and rounds the right one (the LLVM
//     DAG-combine preference); not confirmed on hardware.
//   - A double literal mixed with a float (`x * 0.1`) is rounded to float first;
//     C++ would do that multiply in double.
// Built for -O2 -ffp-contract=off and -O0; -ffast-math breaks NaN handling and
// is rejected below.
#pragma once

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <type_traits>

#if defined(__FAST_MATH__)
#error "gpu_float.h needs IEEE semantics; do not build it with -ffast-math"
#endif
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
#error "gpu_float.h needs float/double evaluated at their own precision (SSE, not x87)"
#endif

namespace warpviz {

namespace gpu_float_detail {

constexpr uint32_t kCanonicalNan32 = 0x7fffffffu;  // sm_90: every f32 NaN result (docs/warp-rules.md#floats)
// The NaN an f64 op creates from non-NaN operands (inf - inf, 0 * inf). The doc
// does not say; UNCONFIRMED on hardware.
constexpr uint64_t kDefaultNan64 = 0x7fffffffffffffffull;
constexpr uint64_t kQuietBit64 = uint64_t{1} << 51;
constexpr uint32_t kSignBit32 = 0x80000000u;
constexpr uint64_t kSignBit64 = uint64_t{1} << 63;

constexpr bool is_nan32(uint32_t bits) { return (bits & ~kSignBit32) > 0x7f800000u; }
constexpr bool is_nan64(uint64_t bits) { return (bits & ~kSignBit64) > 0x7ff0000000000000ull; }

constexpr float canonical_nan32(float result) {
  return is_nan32(std::bit_cast<uint32_t>(result)) ? std::bit_cast<float>(kCanonicalNan32) : result;
}

constexpr double quieted(uint64_t nan_bits) {
  return std::bit_cast<double>(nan_bits | kQuietBit64);
}

// PTX 9.7.3 / H200, docs/warp-rules.md#floats: one NaN operand gives that NaN quieted, two give the second's.
// Checking b before a covers both. Any other NaN is one the op created.
constexpr double propagate_nan64(double a, double b, double result) {
  const uint64_t a_bits = std::bit_cast<uint64_t>(a);
  const uint64_t b_bits = std::bit_cast<uint64_t>(b);
  if (is_nan64(b_bits)) return quieted(b_bits);
  if (is_nan64(a_bits)) return quieted(a_bits);
  if (is_nan64(std::bit_cast<uint64_t>(result))) return std::bit_cast<double>(kDefaultNan64);
  return result;
}

// Three operands (DFMA): the last NaN wins, extending the two-operand rule; this
// ordering is UNCONFIRMED on hardware. It equals what (a*b)+c gives unfused.
constexpr double propagate_nan64(double a, double b, double c, double result) {
  const uint64_t c_bits = std::bit_cast<uint64_t>(c);
  if (is_nan64(c_bits)) return quieted(c_bits);
  return propagate_nan64(a, b, result);
}

// An empty asm the optimiser cannot see through: a rounded product passed through
// it can never be fused into a later add, even under -ffp-contract=fast.
inline float opaque(float x) {
#if defined(__GNUC__) && defined(__SSE2__)
  __asm__("" : "+x"(x));
#elif defined(__GNUC__) && defined(__aarch64__)
  __asm__("" : "+w"(x));
#endif
  return x;
}
inline double opaque(double x) {
#if defined(__GNUC__) && defined(__SSE2__)
  __asm__("" : "+x"(x));
#elif defined(__GNUC__) && defined(__aarch64__)
  __asm__("" : "+w"(x));
#endif
  return x;
}

// PTX cvt.rzi.{s32,u32}: truncate toward zero, saturate, NaN -> 0 (C++ leaves
// out-of-range conversions undefined, so they are spelled out).
constexpr int32_t to_int32(double x) {
  if (x != x) return 0;
  if (x >= 2147483648.0) return INT32_MAX;
  if (x <= -2147483649.0) return INT32_MIN;
  return static_cast<int32_t>(x);
}
constexpr uint32_t to_uint32(double x) {
  if (x != x || x <= -1.0) return 0;
  if (x >= 4294967296.0) return UINT32_MAX;
  return static_cast<uint32_t>(x);
}

}  // namespace gpu_float_detail

class FloatProduct;
class DoubleProduct;

// binary32 with sm_90 arithmetic.
class GpuFloat {
 public:
  GpuFloat() = default;  // trivial, like float; GpuFloat{} is +0
  // Implicit from any arithmetic type so kernel code such as T(0), (T)tid and
  // `cond ? in[i] : 0.0f` compiles; a host-side conversion, round to nearest.
  template <class A>
  requires std::is_arithmetic_v<A>
  constexpr GpuFloat(A x) : value_(static_cast<float>(x)) {}

  static constexpr GpuFloat from_bits(uint32_t bits) {
    return GpuFloat(std::bit_cast<float>(bits));
  }
  constexpr uint32_t bits() const { return std::bit_cast<uint32_t>(value_); }
  constexpr float value() const { return value_; }

  explicit constexpr operator float() const { return value_; }
  explicit constexpr operator double() const { return value_; }
  explicit constexpr operator int() const { return gpu_float_detail::to_int32(value_); }
  explicit constexpr operator unsigned() const { return gpu_float_detail::to_uint32(value_); }

  GpuFloat& operator+=(GpuFloat other);
  GpuFloat& operator-=(GpuFloat other);
  GpuFloat& operator*=(GpuFloat other);
  GpuFloat& operator/=(GpuFloat other);
  GpuFloat& operator+=(FloatProduct&& product);  // acc += a*b is one FFMA
  GpuFloat& operator-=(FloatProduct&& product);

 private:
  float value_;
};

static_assert(sizeof(GpuFloat) == 4);
static_assert(std::is_standard_layout_v<GpuFloat>);
static_assert(std::is_trivially_copyable_v<GpuFloat>);

// `a * b` before rounding. Converting it gives the rounded product (FMUL); adding
// or subtracting it while it is a temporary gives one fused FFMA.
class FloatProduct {
 public:
  constexpr FloatProduct(GpuFloat lhs, GpuFloat rhs) : lhs_(lhs), rhs_(rhs) {}
  operator GpuFloat() const {
    return GpuFloat(
        gpu_float_detail::canonical_nan32(gpu_float_detail::opaque(lhs_.value() * rhs_.value())));
  }
  constexpr GpuFloat lhs() const { return lhs_; }
  constexpr GpuFloat rhs() const { return rhs_; }

 private:
  GpuFloat lhs_, rhs_;
};

namespace gpu_float_detail {
// Correctly rounded a*b+c, one rounding (FFMA).
inline GpuFloat fused_madd(GpuFloat a, GpuFloat b, GpuFloat c) {
  return GpuFloat(canonical_nan32(std::fma(a.value(), b.value(), c.value())));
}
// A sign flip with no NaN rule: only used inside fused ops, whose NaN result is
// canonical anyway.
constexpr GpuFloat negated(GpuFloat x) { return GpuFloat::from_bits(x.bits() ^ kSignBit32); }
}  // namespace gpu_float_detail

inline GpuFloat operator+(GpuFloat a, GpuFloat b) {
  return GpuFloat(gpu_float_detail::canonical_nan32(a.value() + b.value()));
}
inline GpuFloat operator-(GpuFloat a, GpuFloat b) {
  return GpuFloat(gpu_float_detail::canonical_nan32(a.value() - b.value()));
}
inline FloatProduct operator*(GpuFloat a, GpuFloat b) { return FloatProduct(a, b); }
// --prec-div=true (nvcc default): IEEE division, round to nearest even.
inline GpuFloat operator/(GpuFloat a, GpuFloat b) {
  return GpuFloat(gpu_float_detail::canonical_nan32(a.value() / b.value()));
}
// A standalone negation is FADD -x, -RZ in SASS, so a NaN comes out canonical.
inline GpuFloat operator-(GpuFloat a) {
  return GpuFloat(gpu_float_detail::canonical_nan32(-a.value()));
}
constexpr GpuFloat operator+(GpuFloat a) { return a; }

// Contraction (--fmad=true): only an unnamed product fuses, hence the &&.
inline GpuFloat operator+(FloatProduct&& p, GpuFloat c) {
  return gpu_float_detail::fused_madd(p.lhs(), p.rhs(), c);
}
inline GpuFloat operator+(GpuFloat c, FloatProduct&& p) {
  return gpu_float_detail::fused_madd(p.lhs(), p.rhs(), c);
}
inline GpuFloat operator-(FloatProduct&& p, GpuFloat c) {
  return gpu_float_detail::fused_madd(p.lhs(), p.rhs(), gpu_float_detail::negated(c));
}
inline GpuFloat operator-(GpuFloat c, FloatProduct&& p) {
  return gpu_float_detail::fused_madd(gpu_float_detail::negated(p.lhs()), p.rhs(), c);
}
// a*b ± c*d: the left product fuses, the right one is rounded (UNCONFIRMED, see top).
inline GpuFloat operator+(FloatProduct&& p, FloatProduct&& q) {
  return gpu_float_detail::fused_madd(p.lhs(), p.rhs(), GpuFloat(q));
}
inline GpuFloat operator-(FloatProduct&& p, FloatProduct&& q) {
  return gpu_float_detail::fused_madd(p.lhs(), p.rhs(), gpu_float_detail::negated(GpuFloat(q)));
}
// -(a*b) stays a product, so -(a*b) + c is still one FFMA with a negated operand.
constexpr FloatProduct operator-(FloatProduct&& p) {
  return FloatProduct(gpu_float_detail::negated(p.lhs()), p.rhs());
}

inline GpuFloat& GpuFloat::operator+=(GpuFloat other) { return *this = *this + other; }
inline GpuFloat& GpuFloat::operator-=(GpuFloat other) { return *this = *this - other; }
inline GpuFloat& GpuFloat::operator*=(GpuFloat other) { return *this = GpuFloat(*this * other); }
inline GpuFloat& GpuFloat::operator/=(GpuFloat other) { return *this = *this / other; }
inline GpuFloat& GpuFloat::operator+=(FloatProduct&& product) {
  return *this = gpu_float_detail::fused_madd(product.lhs(), product.rhs(), *this);
}
inline GpuFloat& GpuFloat::operator-=(FloatProduct&& product) {
  return *this = gpu_float_detail::fused_madd(gpu_float_detail::negated(product.lhs()),
                                              product.rhs(), *this);
}

// FSETP: plain IEEE comparisons, every comparison with a NaN is false (but !=).
constexpr bool operator==(GpuFloat a, GpuFloat b) { return a.value() == b.value(); }
constexpr bool operator!=(GpuFloat a, GpuFloat b) { return a.value() != b.value(); }
constexpr bool operator<(GpuFloat a, GpuFloat b) { return a.value() < b.value(); }
constexpr bool operator<=(GpuFloat a, GpuFloat b) { return a.value() <= b.value(); }
constexpr bool operator>(GpuFloat a, GpuFloat b) { return a.value() > b.value(); }
constexpr bool operator>=(GpuFloat a, GpuFloat b) { return a.value() >= b.value(); }

// CUDA device functions under their CUDA names (so the same kernel source works
// for both types; the __ names are CUDA's, not ours).

// FMNMX (max.f32): one NaN gives the other operand, two give 0x7fffffff, and +0
// counts as greater than -0 in either order (PTX 9.7.3.12, H200, docs/warp-rules.md#floats).
inline GpuFloat fmaxf(GpuFloat a, GpuFloat b) {
  using namespace gpu_float_detail;
  const bool a_nan = is_nan32(a.bits()), b_nan = is_nan32(b.bits());
  if (a_nan && b_nan) return GpuFloat::from_bits(kCanonicalNan32);
  if (a_nan) return b;
  if (b_nan) return a;
  if (a.value() == 0.0f && b.value() == 0.0f)
    return GpuFloat::from_bits(a.bits() & b.bits());  // +0 if either is +0
  return a.value() < b.value() ? b : a;
}
inline GpuFloat fminf(GpuFloat a, GpuFloat b) {
  using namespace gpu_float_detail;
  const bool a_nan = is_nan32(a.bits()), b_nan = is_nan32(b.bits());
  if (a_nan && b_nan) return GpuFloat::from_bits(kCanonicalNan32);
  if (a_nan) return b;
  if (b_nan) return a;
  if (a.value() == 0.0f && b.value() == 0.0f)
    return GpuFloat::from_bits(a.bits() | b.bits());  // -0 if either is -0
  return b.value() < a.value() ? b : a;
}

// PG 17.2: the _rn intrinsics are never contracted.
inline GpuFloat __fadd_rn(GpuFloat a, GpuFloat b) { return a + b; }
inline GpuFloat __fsub_rn(GpuFloat a, GpuFloat b) { return a - b; }
inline GpuFloat __fmul_rn(GpuFloat a, GpuFloat b) { return GpuFloat(a * b); }
inline GpuFloat __fmaf_rn(GpuFloat a, GpuFloat b, GpuFloat c) {
  return gpu_float_detail::fused_madd(a, b, c);
}
inline GpuFloat fmaf(GpuFloat a, GpuFloat b, GpuFloat c) {
  return gpu_float_detail::fused_madd(a, b, c);
}
// Standalone fabsf is FADD |x|, -RZ, so a NaN comes out canonical (UNCONFIRMED for
// NaN inputs; other values only lose their sign).
inline GpuFloat fabsf(GpuFloat a) {
  return GpuFloat(gpu_float_detail::canonical_nan32(std::fabs(a.value())));
}

// binary64 with sm_90 arithmetic: payload-propagating NaNs, otherwise as GpuFloat.
class GpuDouble {
 public:
  GpuDouble() = default;
  template <class A>
  requires std::is_arithmetic_v<A>
  constexpr GpuDouble(A x) : value_(static_cast<double>(x)) {}
  explicit constexpr GpuDouble(GpuFloat x) : value_(x.value()) {}  // exact widening

  static constexpr GpuDouble from_bits(uint64_t bits) {
    return GpuDouble(std::bit_cast<double>(bits));
  }
  constexpr uint64_t bits() const { return std::bit_cast<uint64_t>(value_); }
  constexpr double value() const { return value_; }

  explicit constexpr operator float() const { return static_cast<float>(value_); }
  explicit constexpr operator double() const { return value_; }
  explicit constexpr operator int() const { return gpu_float_detail::to_int32(value_); }
  explicit constexpr operator unsigned() const { return gpu_float_detail::to_uint32(value_); }
  // F2F.F32.F64 is an f32 result, so a NaN becomes canonical (UNCONFIRMED on HW).
  explicit constexpr operator GpuFloat() const {
    return GpuFloat(gpu_float_detail::canonical_nan32(static_cast<float>(value_)));
  }

  GpuDouble& operator+=(GpuDouble other);
  GpuDouble& operator-=(GpuDouble other);
  GpuDouble& operator*=(GpuDouble other);
  GpuDouble& operator/=(GpuDouble other);
  GpuDouble& operator+=(DoubleProduct&& product);  // acc += a*b is one DFMA
  GpuDouble& operator-=(DoubleProduct&& product);

 private:
  double value_;
};

static_assert(sizeof(GpuDouble) == 8);
static_assert(std::is_standard_layout_v<GpuDouble>);
static_assert(std::is_trivially_copyable_v<GpuDouble>);

class DoubleProduct {
 public:
  constexpr DoubleProduct(GpuDouble lhs, GpuDouble rhs) : lhs_(lhs), rhs_(rhs) {}
  operator GpuDouble() const {
    const double a = lhs_.value(), b = rhs_.value();
    return GpuDouble(gpu_float_detail::propagate_nan64(a, b, gpu_float_detail::opaque(a * b)));
  }
  constexpr GpuDouble lhs() const { return lhs_; }
  constexpr GpuDouble rhs() const { return rhs_; }

 private:
  GpuDouble lhs_, rhs_;
};

namespace gpu_float_detail {
// Correctly rounded a*b+c, one rounding (DFMA).
inline GpuDouble fused_madd(GpuDouble a, GpuDouble b, GpuDouble c) {
  return GpuDouble(
      propagate_nan64(a.value(), b.value(), c.value(), std::fma(a.value(), b.value(), c.value())));
}
constexpr GpuDouble negated(GpuDouble x) { return GpuDouble::from_bits(x.bits() ^ kSignBit64); }
}  // namespace gpu_float_detail

inline GpuDouble operator+(GpuDouble a, GpuDouble b) {
  return GpuDouble(gpu_float_detail::propagate_nan64(a.value(), b.value(), a.value() + b.value()));
}
// A NaN b comes out with its own sign (as x86 does); whether DADD's negate
// modifier flips it is UNCONFIRMED.
inline GpuDouble operator-(GpuDouble a, GpuDouble b) {
  return GpuDouble(gpu_float_detail::propagate_nan64(a.value(), b.value(), a.value() - b.value()));
}
inline DoubleProduct operator*(GpuDouble a, GpuDouble b) { return DoubleProduct(a, b); }
// Division is a DFMA sequence on the GPU; NaN payload rules assumed as for add
// (UNCONFIRMED).
inline GpuDouble operator/(GpuDouble a, GpuDouble b) {
  return GpuDouble(gpu_float_detail::propagate_nan64(a.value(), b.value(), a.value() / b.value()));
}
// IEEE negate flips the sign bit. A NaN also gets quieted, as any one-NaN-operand
// op would (UNCONFIRMED on HW).
inline GpuDouble operator-(GpuDouble a) {
  const GpuDouble negated = gpu_float_detail::negated(a);
  return gpu_float_detail::is_nan64(negated.bits())
             ? GpuDouble(gpu_float_detail::quieted(negated.bits()))
             : negated;
}
constexpr GpuDouble operator+(GpuDouble a) { return a; }

inline GpuDouble operator+(DoubleProduct&& p, GpuDouble c) {
  return gpu_float_detail::fused_madd(p.lhs(), p.rhs(), c);
}
inline GpuDouble operator+(GpuDouble c, DoubleProduct&& p) {
  return gpu_float_detail::fused_madd(p.lhs(), p.rhs(), c);
}
inline GpuDouble operator-(DoubleProduct&& p, GpuDouble c) {
  return gpu_float_detail::fused_madd(p.lhs(), p.rhs(), gpu_float_detail::negated(c));
}
inline GpuDouble operator-(GpuDouble c, DoubleProduct&& p) {
  return gpu_float_detail::fused_madd(gpu_float_detail::negated(p.lhs()), p.rhs(), c);
}
inline GpuDouble operator+(DoubleProduct&& p, DoubleProduct&& q) {
  return gpu_float_detail::fused_madd(p.lhs(), p.rhs(), GpuDouble(q));
}
inline GpuDouble operator-(DoubleProduct&& p, DoubleProduct&& q) {
  return gpu_float_detail::fused_madd(p.lhs(), p.rhs(), gpu_float_detail::negated(GpuDouble(q)));
}
constexpr DoubleProduct operator-(DoubleProduct&& p) {
  return DoubleProduct(gpu_float_detail::negated(p.lhs()), p.rhs());
}

inline GpuDouble& GpuDouble::operator+=(GpuDouble other) { return *this = *this + other; }
inline GpuDouble& GpuDouble::operator-=(GpuDouble other) { return *this = *this - other; }
inline GpuDouble& GpuDouble::operator*=(GpuDouble other) {
  return *this = GpuDouble(*this * other);
}
inline GpuDouble& GpuDouble::operator/=(GpuDouble other) { return *this = *this / other; }
inline GpuDouble& GpuDouble::operator+=(DoubleProduct&& product) {
  return *this = gpu_float_detail::fused_madd(product.lhs(), product.rhs(), *this);
}
inline GpuDouble& GpuDouble::operator-=(DoubleProduct&& product) {
  return *this = gpu_float_detail::fused_madd(gpu_float_detail::negated(product.lhs()),
                                              product.rhs(), *this);
}

constexpr bool operator==(GpuDouble a, GpuDouble b) { return a.value() == b.value(); }
constexpr bool operator!=(GpuDouble a, GpuDouble b) { return a.value() != b.value(); }
constexpr bool operator<(GpuDouble a, GpuDouble b) { return a.value() < b.value(); }
constexpr bool operator<=(GpuDouble a, GpuDouble b) { return a.value() <= b.value(); }
constexpr bool operator>(GpuDouble a, GpuDouble b) { return a.value() > b.value(); }
constexpr bool operator>=(GpuDouble a, GpuDouble b) { return a.value() >= b.value(); }

// max.f64 / min.f64: one NaN gives the other operand; for two the doc gives no
// result, so the f64 default NaN is used (UNCONFIRMED). fmax(±0) is +0 in either
// order (HW); fmin gives -0 by the same PTX rule.
inline GpuDouble fmax(GpuDouble a, GpuDouble b) {
  using namespace gpu_float_detail;
  const bool a_nan = is_nan64(a.bits()), b_nan = is_nan64(b.bits());
  if (a_nan && b_nan) return GpuDouble::from_bits(kDefaultNan64);
  if (a_nan) return b;
  if (b_nan) return a;
  if (a.value() == 0.0 && b.value() == 0.0) return GpuDouble::from_bits(a.bits() & b.bits());
  return a.value() < b.value() ? b : a;
}
inline GpuDouble fmin(GpuDouble a, GpuDouble b) {
  using namespace gpu_float_detail;
  const bool a_nan = is_nan64(a.bits()), b_nan = is_nan64(b.bits());
  if (a_nan && b_nan) return GpuDouble::from_bits(kDefaultNan64);
  if (a_nan) return b;
  if (b_nan) return a;
  if (a.value() == 0.0 && b.value() == 0.0) return GpuDouble::from_bits(a.bits() | b.bits());
  return b.value() < a.value() ? b : a;
}

inline GpuDouble __dadd_rn(GpuDouble a, GpuDouble b) { return a + b; }
inline GpuDouble __dsub_rn(GpuDouble a, GpuDouble b) { return a - b; }
inline GpuDouble __dmul_rn(GpuDouble a, GpuDouble b) { return GpuDouble(a * b); }
inline GpuDouble __fma_rn(GpuDouble a, GpuDouble b, GpuDouble c) {
  return gpu_float_detail::fused_madd(a, b, c);
}
inline GpuDouble fma(GpuDouble a, GpuDouble b, GpuDouble c) {
  return gpu_float_detail::fused_madd(a, b, c);
}
// Clears the sign; a NaN is quieted like any one-NaN op (UNCONFIRMED).
inline GpuDouble fabs(GpuDouble a) {
  const uint64_t cleared = a.bits() & ~gpu_float_detail::kSignBit64;
  return gpu_float_detail::is_nan64(cleared) ? GpuDouble(gpu_float_detail::quieted(cleared))
                                             : GpuDouble::from_bits(cleared);
}

}  // namespace warpviz
