// GpuFloat / GpuDouble against the sm_90 float results of docs/warp-rules.md#floats
// and docs/warp-rules.md#cases (cases 28, 32, 33).
#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <type_traits>

#include "warpviz/gpu_float.h"

using warpviz::GpuDouble;
using warpviz::GpuFloat;

namespace {

GpuFloat f32(uint32_t bits) { return GpuFloat::from_bits(bits); }
GpuDouble f64(uint64_t bits) { return GpuDouble::from_bits(bits); }

constexpr uint32_t kCanonicalNan = 0x7fffffffu;
constexpr uint32_t kPlusZero = 0x00000000u;
constexpr uint32_t kMinusZero = 0x80000000u;
constexpr uint32_t kInf = 0x7f800000u;
constexpr uint32_t kMinusInf = 0xff800000u;

// Kernel-style code must compile with T = GpuFloat exactly as with T = float.
template <class T>
T kernel_like(const T* input, int tid, bool take) {
  T acc = T(0);
  T scaled = (T)tid;
  T picked = take ? input[0] : 0.0f;
  acc += picked;
  acc = acc + scaled * input[1];
  if (acc < 0.0f) acc = -acc;
  return acc;
}

}  // namespace

TEST_CASE("GpuFloat has float's layout", "[float]") {
  STATIC_REQUIRE(sizeof(GpuFloat) == 4);
  STATIC_REQUIRE(std::is_standard_layout_v<GpuFloat>);
  STATIC_REQUIRE(std::is_trivially_copyable_v<GpuFloat>);
  STATIC_REQUIRE(sizeof(GpuDouble) == 8);
  STATIC_REQUIRE(std::is_trivially_copyable_v<GpuDouble>);
  CHECK(GpuFloat{}.bits() == 0u);
  CHECK(f32(0x7fc00123u).bits() == 0x7fc00123u);  // construction keeps bits
  CHECK(GpuFloat(1.5f).value() == 1.5f);
  CHECK(GpuFloat(7).bits() == 0x40e00000u);
  CHECK(GpuFloat(7u).bits() == 0x40e00000u);
  CHECK(GpuFloat(0.1).bits() == std::bit_cast<uint32_t>(0.1f));  // double rounded to float
  CHECK(GpuFloat(16777217).bits() == 0x4b800000u);               // int rounded to nearest even
}

TEST_CASE("kernel-style code compiles and computes with GpuFloat", "[float]") {
  const float in_f[2] = {2.0f, 3.0f};
  const GpuFloat in_g[2] = {2.0f, 3.0f};
  CHECK(kernel_like(in_g, 4, true).value() == kernel_like(in_f, 4, true));
  CHECK(kernel_like(in_g, 4, false).value() == kernel_like(in_f, 4, false));
}

TEST_CASE("floats, add: round to nearest even and signed zeros", "[float][add]") {
  CHECK((f32(0x4b800000u) + GpuFloat(1)).bits() == 0x4b800000u);  // 2^24 + 1 = 2^24 (tie, even)
  CHECK((f32(0x4b800000u) + GpuFloat(3)).bits() == 0x4b800002u);  // 2^24 + 3 = 2^24 + 4
  CHECK((GpuFloat(1) + f32(0x33800000u)).bits() == 0x3f800000u);  // 1 + 2^-24 = 1
  CHECK((GpuFloat(1) + f32(0x33800001u)).bits() == 0x3f800001u);  // 1 + (2^-24 + ulp) = 1 + 2^-23
  const GpuFloat x = f32(0x3fc00001u);
  CHECK((x + (-x)).bits() == kPlusZero);
  CHECK((x - x).bits() == kPlusZero);
  CHECK((f32(kMinusZero) + f32(kMinusZero)).bits() == kMinusZero);
  CHECK((f32(kMinusZero) + f32(kPlusZero)).bits() == kPlusZero);
  CHECK((f32(kPlusZero) + f32(kMinusZero)).bits() == kPlusZero);
  CHECK(warpviz::__fadd_rn(f32(0x4b800000u), GpuFloat(1)).bits() == 0x4b800000u);
  CHECK(warpviz::__fsub_rn(GpuFloat(1), f32(0x33800000u)).bits() == 0x3f7fffffu);
}

TEST_CASE("floats: every f32 NaN result is the canonical 0x7fffffff", "[float][nan]") {
  const GpuFloat one = 1.0f;
  CHECK((f32(0x7fc00000u) + one).bits() == kCanonicalNan);               // NaN + 1
  CHECK((one + f32(0x7fc00123u)).bits() == kCanonicalNan);               // case 32: 1.f + NaN
  CHECK((f32(0x7fc00123u) + f32(0xffc00456u)).bits() == kCanonicalNan);  // two payloads
  CHECK((f32(0x7f800001u) + one).bits() == kCanonicalNan);               // sNaN + 1
  CHECK((f32(kInf) + f32(kMinusInf)).bits() == kCanonicalNan);           // inf + (-inf)
  CHECK((f32(kInf) - f32(kInf)).bits() == kCanonicalNan);
  CHECK(GpuFloat(f32(kPlusZero) * f32(kInf)).bits() == kCanonicalNan);
  CHECK((f32(kPlusZero) / f32(kPlusZero)).bits() == kCanonicalNan);
  CHECK((f32(0xffc00001u) * one + one).bits() == kCanonicalNan);  // fused
  CHECK((-f32(0x7fc00123u)).bits() == kCanonicalNan);
  CHECK(warpviz::__fmul_rn(f32(0xffc00001u), one).bits() == kCanonicalNan);
  CHECK(warpviz::__fmaf_rn(f32(kInf), f32(kPlusZero), one).bits() == kCanonicalNan);
  CHECK(warpviz::fabsf(f32(0xffc00001u)).bits() == kCanonicalNan);
  GpuFloat acc = f32(0x7fa00000u);
  acc += one;
  CHECK(acc.bits() == kCanonicalNan);
}

TEST_CASE("f32 comparisons are plain IEEE", "[float]") {
  const GpuFloat nan = f32(0x7fc00000u);
  CHECK_FALSE(nan == nan);
  CHECK(nan != nan);
  CHECK_FALSE(nan < GpuFloat(1));
  CHECK_FALSE(nan >= GpuFloat(1));
  CHECK(f32(kMinusZero) == f32(kPlusZero));
  CHECK(GpuFloat(1) < 2.0f);
  CHECK(3 > GpuFloat(2));
  CHECK(GpuFloat(2) <= GpuFloat(2));
}

TEST_CASE("case 32: fmaxf / fminf follow FMNMX", "[float][minmax]") {
  using warpviz::fmaxf;
  using warpviz::fminf;
  CHECK(fmaxf(f32(kMinusZero), f32(kPlusZero)).bits() == kPlusZero);
  CHECK(fmaxf(f32(kPlusZero), f32(kMinusZero)).bits() == kPlusZero);
  CHECK(fminf(f32(kPlusZero), f32(kMinusZero)).bits() == kMinusZero);
  CHECK(fminf(f32(kMinusZero), f32(kPlusZero)).bits() == kMinusZero);
  CHECK(fmaxf(f32(kMinusZero), f32(kMinusZero)).bits() == kMinusZero);
  CHECK(fmaxf(f32(0x7fc00123u), f32(0xffc00456u)).bits() == kCanonicalNan);
  CHECK(fminf(f32(0x7fc00123u), f32(0x7f800001u)).bits() == kCanonicalNan);
  // One NaN: the other operand, in either position.
  CHECK(fmaxf(f32(0x7fc00123u), GpuFloat(2)).bits() == GpuFloat(2).bits());
  CHECK(fmaxf(GpuFloat(-2), f32(0x7fc00123u)).bits() == GpuFloat(-2).bits());
  CHECK(fminf(f32(0xffc00001u), GpuFloat(-3)).bits() == GpuFloat(-3).bits());
  CHECK(fminf(f32(kMinusZero), f32(0x7f800001u)).bits() == kMinusZero);
  CHECK(fmaxf(GpuFloat(1), 2.0f).bits() == GpuFloat(2).bits());
  CHECK(fminf(GpuFloat(1), GpuFloat(2)).bits() == GpuFloat(1).bits());
  CHECK(fmaxf(f32(kMinusInf), f32(0x00000001u)).bits() == 0x00000001u);
}

TEST_CASE("case 33: x*y+z contracts to one FFMA, __fadd_rn(__fmul_rn()) does not", "[float][fma]") {
  const GpuFloat x = f32(0x3f800001u);  // 1 + 2^-23
  const GpuFloat y = f32(0x3f7fffffu);  // 1 - 2^-24
  const GpuFloat z = -1.0f;
  const GpuFloat one = 1.0f;

  CHECK((x * y + z).bits() == 0x337ffffeu);
  CHECK((z + x * y).bits() == 0x337ffffeu);
  CHECK((x * y - one).bits() == 0x337ffffeu);
  CHECK((one - x * y).bits() == 0xb37ffffeu);
  CHECK((-(x * y) + one).bits() == 0xb37ffffeu);
  CHECK((x * y + -1.0f).bits() == 0x337ffffeu);
  CHECK(warpviz::__fmaf_rn(x, y, z).bits() == 0x337ffffeu);
  CHECK(warpviz::fmaf(x, y, z).bits() == 0x337ffffeu);
  GpuFloat acc = z;
  acc += x * y;
  CHECK(acc.bits() == 0x337ffffeu);
  GpuFloat acc2 = one;
  acc2 -= x * y;
  CHECK(acc2.bits() == 0xb37ffffeu);

  CHECK(warpviz::__fadd_rn(warpviz::__fmul_rn(x, y), z).bits() == kPlusZero);
  // A product stored first is rounded (the model's limit: see gpu_float.h).
  const GpuFloat stored = x * y;
  CHECK(stored.bits() == 0x3f800000u);
  CHECK((stored + z).bits() == kPlusZero);
  auto bound = x * y;
  CHECK((bound + z).bits() == kPlusZero);
  CHECK((z + bound).bits() == kPlusZero);
  // a*b + c*d: the left product is fused, the right one rounded.
  CHECK((x * y + z * one).bits() == 0x337ffffeu);
  CHECK((z * one + x * y).bits() == kPlusZero);
  // Multiplying a product again rounds it first.
  CHECK(GpuFloat(x * y * one).bits() == 0x3f800000u);
}

TEST_CASE("subnormals are kept (no FTZ)", "[float][subnormal]") {
  const GpuFloat tiny = f32(0x00000001u);  // 2^-149
  CHECK((tiny + tiny).bits() == 0x00000002u);
  CHECK((f32(0x00800000u) - f32(0x007fffffu)).bits() == 0x00000001u);
  CHECK(GpuFloat(f32(0x1c800000u) * f32(0x1c800000u)).bits() == 0x00000200u);  // 2^-70 squared
  CHECK((f32(0x00000003u) / GpuFloat(2)).bits() == 0x00000002u);  // 1.5 ulp: tie to even
  CHECK((f32(0x00000001u) / GpuFloat(2)).bits() == kPlusZero);    // 0.5 ulp: tie to even (0)
  CHECK(warpviz::fmaxf(tiny, f32(kPlusZero)).bits() == 0x00000001u);
  CHECK((f32(0x00000001u) * GpuFloat(1) + f32(0x00000001u)).bits() == 0x00000002u);
}

TEST_CASE("f32 conversions to integers follow cvt.rzi (saturate, NaN -> 0)", "[float]") {
  CHECK(static_cast<int>(GpuFloat(3.7f)) == 3);
  CHECK(static_cast<int>(GpuFloat(-3.7f)) == -3);
  CHECK(static_cast<int>(f32(0x7fc00000u)) == 0);
  CHECK(static_cast<int>(GpuFloat(1e10f)) == INT32_MAX);
  CHECK(static_cast<int>(GpuFloat(-1e10f)) == INT32_MIN);
  CHECK(static_cast<unsigned>(GpuFloat(-1.0f)) == 0u);
  CHECK(static_cast<unsigned>(GpuFloat(5e9f)) == UINT32_MAX);
  CHECK(static_cast<unsigned>(GpuFloat(4e9f)) == 4000000000u);
  CHECK(static_cast<float>(GpuFloat(2.5f)) == 2.5f);
  CHECK(static_cast<double>(GpuFloat(2.5f)) == 2.5);
}

TEST_CASE("fabsf and unary minus", "[float]") {
  CHECK(warpviz::fabsf(GpuFloat(-2)).bits() == GpuFloat(2).bits());
  CHECK(warpviz::fabsf(f32(kMinusZero)).bits() == kPlusZero);
  CHECK((-f32(kPlusZero)).bits() == kMinusZero);
  CHECK((-f32(kMinusZero)).bits() == kPlusZero);
  CHECK((-GpuFloat(1.5f)).bits() == 0xbfc00000u);
  GpuFloat v = 6.0f;
  v *= 2;
  v /= 4;
  v -= 1;
  CHECK(v.bits() == GpuFloat(2).bits());
}

TEST_CASE("floats, order matters: float warp sums of the F01 inputs", "[float][reduce]") {
  GpuFloat input[32];
  for (int lane = 0; lane < 32; ++lane) input[lane] = lane & 1 ? 1.0f : 0.3f;
  input[0] = 1e8f;
  input[17] = -1e8f;

  // shfl_down tree: lanes whose source is past the end re-add their own value.
  GpuFloat down[32];
  for (int lane = 0; lane < 32; ++lane) down[lane] = input[lane];
  for (int offset = 16; offset > 0; offset /= 2) {
    GpuFloat before[32];
    for (int lane = 0; lane < 32; ++lane) before[lane] = down[lane];
    for (int lane = 0; lane < 32; ++lane)
      down[lane] = before[lane] + before[lane + offset < 32 ? lane + offset : lane];
  }
  CHECK(down[0].bits() == 0x41000000u);   // 8.0
  CHECK(down[31].bits() == 0x42000000u);  // 32.0: 1.0 doubled five times

  // xor butterfly: the same value in every lane.
  GpuFloat butterfly[32];
  for (int lane = 0; lane < 32; ++lane) butterfly[lane] = input[lane];
  for (int mask = 16; mask > 0; mask /= 2) {
    GpuFloat before[32];
    for (int lane = 0; lane < 32; ++lane) before[lane] = butterfly[lane];
    for (int lane = 0; lane < 32; ++lane) butterfly[lane] = before[lane] + before[lane ^ mask];
  }
  for (int lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    CHECK(butterfly[lane].bits() == 0x41000000u);
  }

  GpuFloat sequential = 0.0f;
  for (int lane = 0; lane < 32; ++lane) sequential += input[lane];
  CHECK(sequential.bits() == 0x4111999au);  // 9.1
}

TEST_CASE("f64 add and signed zeros", "[double][add]") {
  CHECK((GpuDouble(9007199254740992.0) + GpuDouble(1)).value() == 9007199254740992.0);  // 2^53+1
  CHECK((f64(0x8000000000000000ull) + f64(0x8000000000000000ull)).bits() == 0x8000000000000000ull);
  CHECK((f64(0x8000000000000000ull) + f64(0)).bits() == 0u);
  CHECK((f64(1) + f64(1)).bits() == 0x0000000000000002ull);  // subnormals kept
  CHECK((GpuDouble(0.5) + 0.25).value() == 0.75);
}

TEST_CASE("floats: f64 NaN payloads propagate", "[double][nan]") {
  const GpuDouble one = 1.0;
  CHECK((f64(0x7ff8000000000123ull) + one).bits() == 0x7ff8000000000123ull);
  CHECK((one + f64(0x7ff8000000000123ull)).bits() == 0x7ff8000000000123ull);
  CHECK((f64(0x7ff0000000000001ull) + one).bits() == 0x7ff8000000000001ull);  // sNaN quieted
  // Two NaNs: the second operand's (observed on H200).
  CHECK((f64(0x7ff8000000000123ull) + f64(0xfff8000000000456ull)).bits() == 0xfff8000000000456ull);
  CHECK((f64(0xfff8000000000456ull) + f64(0x7ff8000000000123ull)).bits() == 0x7ff8000000000123ull);
  CHECK(GpuDouble(f64(0x7ff8000000000123ull) * GpuDouble(2)).bits() == 0x7ff8000000000123ull);
  CHECK((f64(0x7ff8000000000123ull) / GpuDouble(2)).bits() == 0x7ff8000000000123ull);
  CHECK((f64(0x7ff8000000000123ull) * one + one).bits() == 0x7ff8000000000123ull);
  // A NaN made from non-NaN operands: the chosen default (UNCONFIRMED).
  const GpuDouble inf = f64(0x7ff0000000000000ull);
  CHECK((inf - inf).bits() == 0x7fffffffffffffffull);
  CHECK(GpuDouble(GpuDouble(0) * inf).bits() == 0x7fffffffffffffffull);
  CHECK_FALSE(f64(0x7ff8000000000123ull) == f64(0x7ff8000000000123ull));
}

TEST_CASE("f64 fmax / fmin", "[double][minmax]") {
  using warpviz::fmax;
  using warpviz::fmin;
  const GpuDouble plus_zero = f64(0), minus_zero = f64(0x8000000000000000ull);
  CHECK(fmax(minus_zero, plus_zero).bits() == 0u);
  CHECK(fmax(plus_zero, minus_zero).bits() == 0u);
  CHECK(fmin(minus_zero, plus_zero).bits() == 0x8000000000000000ull);
  CHECK(fmin(plus_zero, minus_zero).bits() == 0x8000000000000000ull);
  CHECK(fmax(f64(0x7ff8000000000123ull), GpuDouble(2)).value() == 2.0);
  CHECK(fmin(GpuDouble(-2), f64(0x7ff8000000000123ull)).value() == -2.0);
  CHECK(fmax(f64(0x7ff8000000000123ull), f64(0xfff8000000000456ull)).bits() ==
        0x7fffffffffffffffull);
  CHECK(fmax(GpuDouble(1), GpuDouble(3)).value() == 3.0);
  CHECK(fmin(GpuDouble(1), GpuDouble(3)).value() == 1.0);
}

TEST_CASE("f64 FMA contraction", "[double][fma]") {
  const GpuDouble x = f64(0x3ff0000000000001ull);  // 1 + 2^-52
  const GpuDouble y = f64(0x3fefffffffffffffull);  // 1 - 2^-53
  const GpuDouble z = -1.0;
  CHECK((x * y + z).bits() == 0x3c9ffffffffffffeull);  // 2^-53 - 2^-105, one rounding
  CHECK(warpviz::__fma_rn(x, y, z).bits() == 0x3c9ffffffffffffeull);
  CHECK(warpviz::__dadd_rn(warpviz::__dmul_rn(x, y), z).bits() == 0u);
  const GpuDouble stored = x * y;
  CHECK((stored + z).bits() == 0u);
  GpuDouble acc = z;
  acc += x * y;
  CHECK(acc.bits() == 0x3c9ffffffffffffeull);
}

TEST_CASE("f64 conversions", "[double]") {
  CHECK(static_cast<int>(GpuDouble(-7.9)) == -7);
  CHECK(static_cast<int>(GpuDouble(3e9)) == INT32_MAX);
  CHECK(static_cast<unsigned>(GpuDouble(3e9)) == 3000000000u);
  CHECK(static_cast<GpuFloat>(GpuDouble(0.1)).bits() == std::bit_cast<uint32_t>(0.1f));
  CHECK(static_cast<GpuFloat>(f64(0x7ff8000000000123ull)).bits() == kCanonicalNan);
  CHECK(GpuDouble(GpuFloat(0.1f)).value() == double(0.1f));
  CHECK((-GpuDouble(2)).value() == -2.0);
  CHECK((-f64(0)).bits() == 0x8000000000000000ull);
  CHECK(warpviz::fabs(GpuDouble(-3)).value() == 3.0);
}
