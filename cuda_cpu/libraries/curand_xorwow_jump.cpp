// XORWOW's skip-ahead: the xorshift part of one step is a linear map on 160
// bits over GF(2), so n steps are its n-th power. The powers 2^0 .. 2^130 are
// computed once, at the first skip, by repeated squaring; a skip of n * 2^k
// steps applies those of n's set bits shifted by k (powers of one map
// commute, so the order does not matter). Curand_init's subsequence is k = 67.
// Each power is kept as 20 tables of what each value of one byte of the
// state contributes, so applying it is 20 lookups: a program that calls
// curand_init(seed, thread, 0) in a million threads does 20 million.
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

constexpr int kBytes = kBits / 8;

// A linear map by bytes: the image of each value of each byte of the input.
struct ByteTables {
  std::array<std::array<Words, 256>, kBytes> image_of_byte;

  explicit ByteTables(const LinearMap& m) {
    for (int byte = 0; byte < kBytes; ++byte)
      for (int value = 0; value < 256; ++value) {
        Words sum{};
        for (int b = 0; b < 8; ++b)
          if ((value >> b) & 1)
            for (int w = 0; w < kWords; ++w) sum[w] ^= m.image_of_bit[8 * byte + b][w];
        image_of_byte[byte][value] = sum;
      }
  }

  Words apply(const Words& v) const {
    Words out{};
    for (int byte = 0; byte < kBytes; ++byte) {
      const Words& part = image_of_byte[byte][(v[byte / 4] >> (8 * (byte % 4))) & 0xffu];
      for (int w = 0; w < kWords; ++w) out[w] ^= part[w];
    }
    return out;
  }
};

const std::vector<ByteTables>& powers_of_two() {
  static const std::vector<ByteTables> powers = [] {
    LinearMap power;
    for (int bit = 0; bit < kBits; ++bit) {
      Words unit{};
      unit[bit / 32] = 1u << (bit % 32);
      power.image_of_bit[bit] = step(unit);
    }
    std::vector<ByteTables> tables;
    tables.reserve(kPowers);
    for (int k = 0; k < kPowers; ++k) {
      tables.emplace_back(power);
      power = power.squared();
    }
    return tables;
  }();
  return powers;
}

}  // namespace

void xorwow_jump(unsigned int v[5], unsigned long long n, unsigned log2_unit) {
  if (n == 0) return;
  const std::vector<ByteTables>& powers = powers_of_two();
  Words words;
  for (int w = 0; w < kWords; ++w) words[w] = v[w];
  for (int bit = 0; bit < 64; ++bit)
    if ((n >> bit) & 1u) words = powers[bit + log2_unit].apply(words);
  for (int w = 0; w < kWords; ++w) v[w] = words[w];
}

}  // namespace warpviz::curand_detail
