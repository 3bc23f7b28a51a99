// half_types.h against an independent IEEE implementation: g++'s _Float16
// (libgcc's soft-float conversions) and __float128 for the exact fused
// result. Every float -> half conversion in a stride through all 2^32 bit
// patterns, every half -> float, and seeded random operand pairs and triples.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>

#include "warpviz/vector_types.h"
#include "warpviz/device_math.h"
#include "warpviz/half_types.h"

namespace {

uint16_t bits_of(_Float16 h) {
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
_Float16 host_half(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return h;
}
// What the GPU writes for a result: the canonical NaN for any NaN.
uint16_t gpu_bits(_Float16 h) { return float(h) != float(h) ? 0x7fff : bits_of(h); }

struct Lcg {
  uint32_t state;
  uint16_t next() {
    state = state * 1664525u + 1013904223u;
    return uint16_t(state >> 16);
  }
};

}  // namespace

TEST_CASE("float -> half rounds as IEEE round-to-nearest-even, half -> float is exact", "[device_api][half]") {
  for (uint64_t u = 0; u < (1ull << 32); u += 4099) {  // a prime stride: every exponent, many mantissas
    const uint32_t b = uint32_t(u);
    float f;
    std::memcpy(&f, &b, 4);
    INFO("float bits " << std::hex << b);
    REQUIRE(__half_as_ushort(__float2half(f)) == gpu_bits(_Float16(f)));
  }
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float mine = __half2float(__ushort_as_half(uint16_t(h))), host = float(host_half(uint16_t(h)));
    INFO("half bits " << std::hex << h);
    if (host != host) REQUIRE(mine != mine);
    else REQUIRE(__float_as_uint(mine) == __float_as_uint(host));
  }
}

TEST_CASE("__hadd, __hsub, __hmul, __hdiv, __hfma: one rounding of the exact result", "[device_api][half]") {
  Lcg rng{2026};
  for (int i = 0; i < 300000; ++i) {
    const uint16_t x = rng.next(), y = rng.next(), z = rng.next();
    const _Float16 a = host_half(x), b = host_half(y), c = host_half(z);
    const __half ha = __ushort_as_half(x), hb = __ushort_as_half(y), hc = __ushort_as_half(z);
    INFO(std::hex << x << " " << y << " " << z);
    // float holds 2p + 2 bits of an 11-bit format: float arithmetic then one
    // rounding to half is the correctly rounded half result.
    CHECK(__hadd(ha, hb).__x == gpu_bits(_Float16(float(a) + float(b))));
    CHECK(__hsub(ha, hb).__x == gpu_bits(_Float16(float(a) - float(b))));
    CHECK(__hmul(ha, hb).__x == gpu_bits(_Float16(float(a) * float(b))));
    CHECK(__hdiv(ha, hb).__x == gpu_bits(_Float16(float(a) / float(b))));
    // The fused result exactly in 113 bits (products of halves span at most 91).
    const __float128 exact = __float128(float(a)) * __float128(float(b)) + __float128(float(c));
    if (exact != 0) CHECK(__hfma(ha, hb, hc).__x == gpu_bits(_Float16(exact)));
  }
}

namespace {
// bfloat16 is a float's top half: round to nearest even by adding just under
// half of the dropped 16 bits, plus the kept part's last bit (ties to even).
uint16_t bf16_reference(float f) {
  const uint32_t u = __float_as_uint(f);
  if (f != f) return 0x7fff;
  return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
float bf16_value(uint16_t b) { return __uint_as_float(uint32_t(b) << 16); }
}  // namespace

TEST_CASE("bfloat16 conversions and arithmetic round as the top half of a float, to nearest even",
          "[device_api][half]") {
  for (uint64_t u = 0; u < (1ull << 32); u += 4099) {
    const float f = __uint_as_float(uint32_t(u));
    INFO("float bits " << std::hex << u);
    REQUIRE(__bfloat16_as_ushort(__float2bfloat16(f)) == bf16_reference(f));
  }
  Lcg rng{90};
  for (int i = 0; i < 300000; ++i) {
    const uint16_t x = rng.next(), y = rng.next();
    const __nv_bfloat16 a = __ushort_as_bfloat16(x), b = __ushort_as_bfloat16(y);
    const float fa = bf16_value(x), fb = bf16_value(y);
    INFO(std::hex << x << " " << y);
    // float holds 2p + 2 bits of an 8-bit format: one rounding after float's.
    CHECK(__hadd(a, b).__x == bf16_reference(fa + fb));
    CHECK(__hmul(a, b).__x == bf16_reference(fa * fb));
    CHECK(__hdiv(a, b).__x == bf16_reference(fa / fb));
  }
}
