// XORWOW's skip-ahead: the xorshift part of one step is a linear map on 160
// bits over GF(2), so n steps are its n-th power. The powers 2^0 .. 2^130 are
// computed once, at the first skip, by repeated squaring; a skip of n * 2^k
// steps applies those of n's set bits shifted by k (powers of one map
// commute, so the order does not matter). Curand_init's subsequence is k = 67.
#include <array>
#include <cstdint>
#include <vector>

#include "warpviz/curand_device.h"

namespace warpviz::curand_detail {
namespace {

constexpr int kWords = 5;
constexpr int kBits = 32 * kWords;
// Skips are n * 2^k for n < 2^64 and k = 0 or 67: powers up to 2^130.
constexpr int kPowers = 64 + kXorwowSubsequenceLog2;

using Words = std::array<unsigned int, kWords>;

// A linear map as the images of the 160 unit vectors.
struct LinearMap {
  std::array<Words, kBits> image_of_bit;

  Words apply(const Words& v) const {
    Words out{};
    for (int bit = 0; bit < kBits; ++bit) {
      if (!((v[bit / 32] >> (bit % 32)) & 1u)) continue;
      for (int w = 0; w < kWords; ++w) out[w] ^= image_of_bit[bit][w];
    }
    return out;
  }

  LinearMap squared() const {
    LinearMap out;
    for (int bit = 0; bit < kBits; ++bit) out.image_of_bit[bit] = apply(image_of_bit[bit]);
    return out;
  }
};

// One xorwow step without the Weyl counter, which is added separately.
Words step(const Words& v) {
  curandStateXORWOW_t s{};
  for (int w = 0; w < kWords; ++w) s.v[w] = v[w];
  xorwow_next(&s);
  Words out;
  for (int w = 0; w < kWords; ++w) out[w] = s.v[w];
  return out;
}

const std::vector<LinearMap>& powers_of_two() {
  static const std::vector<LinearMap> powers = [] {
    std::vector<LinearMap> p(kPowers);
    for (int bit = 0; bit < kBits; ++bit) {
      Words unit{};
      unit[bit / 32] = 1u << (bit % 32);
      p[0].image_of_bit[bit] = step(unit);
    }
    for (int k = 1; k < kPowers; ++k) p[k] = p[k - 1].squared();
    return p;
  }();
  return powers;
}

}  // namespace

void xorwow_jump(unsigned int v[5], unsigned long long n, unsigned log2_unit) {
  if (n == 0) return;
  const std::vector<LinearMap>& powers = powers_of_two();
  Words words;
  for (int w = 0; w < kWords; ++w) words[w] = v[w];
  for (int bit = 0; bit < 64; ++bit)
    if ((n >> bit) & 1u) words = powers[bit + log2_unit].apply(words);
  for (int w = 0; w < kWords; ++w) v[w] = words[w];
}

}  // namespace warpviz::curand_detail
