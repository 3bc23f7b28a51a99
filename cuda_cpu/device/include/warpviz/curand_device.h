// cuRAND's device API (curand_kernel.h) for code compiled by the host
// compiler against the emulator: the XORWOW and Philox4_32_10 states,
// curand_init, curand, the uniform, normal and log-normal distributions and
// skipahead. The generators are integer arithmetic and give the GPU's bits.
// The normal distributions go through logf and __sincosf (the float
// Box-Muller) or log and sincospi (the double one) on the GPU; here they are
// the correctly rounded values, which the GPU's may differ from in the last
// bits (docs/floats.md, "cuRAND").
//
// Algorithms and constants: Marsaglia, "Xorshift RNGs" (2003), the xorwow
// generator; Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"
// (SC11), Philox-4x32 with 10 rounds; the cuRAND guide for how a seed,
// subsequence and offset select a stream.
//
// [SECTION] States
// [SECTION] XORWOW
// [SECTION] Philox4_32_10
// [SECTION] From 32 random bits to uniform and normal values
// [SECTION] Distributions of either state
#pragma once

#include <cmath>
#include <cstdint>

#include "warpviz/vector_types.h"

// ============================================================================
// [SECTION] States
// ============================================================================
// CUDA's layouts, so sizeof(curandState) and arrays of states match a GPU's.

struct curandStateXORWOW {
  unsigned int d, v[5];  // the Weyl counter and the five xorshift words
  int boxmuller_flag;    // a second normal (or log-normal) float is waiting
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
using curandStateXORWOW_t = curandStateXORWOW;
using curandState_t = curandStateXORWOW_t;
using curandState = curandState_t;

struct curandStatePhilox4_32_10 {
  uint4 ctr;           // the 128-bit counter of the block in `output`
  uint4 output;        // Philox of ctr under key: the four values of this block
  uint2 key;           // the seed
  unsigned int STATE;  // which of the four curand() returns next
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
using curandStatePhilox4_32_10_t = curandStatePhilox4_32_10;

namespace warpviz::curand_detail {

// What boxmuller_flag says is waiting: a normal, or a log-normal already
// through exp (cuRAND's two flags share one slot).
constexpr int kNormalWaiting = 1;
constexpr int kLogNormalWaiting = 2;

// Applies the xorwow map's (n * 2^log2_unit)-th power to the five words
// (cuda_cpu/libraries/curand_xorwow_jump.cpp: its powers of two over GF(2),
// computed once by repeated squaring).
void xorwow_jump(unsigned int v[5], unsigned long long n, unsigned log2_unit);

// Subsequences of XORWOW are 2^67 values apart (cuRAND guide, curand_init).
constexpr unsigned kXorwowSubsequenceLog2 = 67;

// ============================================================================
// [SECTION] XORWOW
// ============================================================================
// Marsaglia's xorwow: a five-word xorshift plus a Weyl sequence d += 362437.

inline unsigned int xorwow_next(curandStateXORWOW_t* s) {
  const unsigned int t = s->v[0] ^ (s->v[0] >> 2);
  s->v[0] = s->v[1];
  s->v[1] = s->v[2];
  s->v[2] = s->v[3];
  s->v[3] = s->v[4];
  s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
  s->d += 362437u;
  return s->v[4] + s->d;
}

// cuRAND's seeding: each half of the seed salted and multiplied into the
// starting words, the same constants on the GPU and in the host library.
inline void xorwow_seed(curandStateXORWOW_t* s, unsigned long long seed) {
  const unsigned int t0 = 1099087573u * (unsigned(seed) ^ 0xaad26b49u);
  const unsigned int t1 = 2591861531u * (unsigned(seed >> 32) ^ 0xf7dcefddu);
  s->d = 6615241u + t1 + t0;
  s->v[0] = 123456789u + t0;
  s->v[1] = 362436069u ^ t0;
  s->v[2] = 521288629u + t1;
  s->v[3] = 88675123u ^ t1;
  s->v[4] = 5783321u + t0;
  s->boxmuller_flag = 0;
  s->boxmuller_flag_double = 0;
  s->boxmuller_extra = 0.f;
  s->boxmuller_extra_double = 0.;
}

// n steps: the xorshift words by the matrix power, d by n Weyl increments.
inline void xorwow_skip(curandStateXORWOW_t* s, unsigned long long n) {
  xorwow_jump(s->v, n, 0);
  s->d += 362437u * unsigned(n);
}

// n subsequences, n * 2^67 steps: 2^67 Weyl increments are 0 mod 2^32.
inline void xorwow_skip_subsequences(curandStateXORWOW_t* s, unsigned long long n) {
  xorwow_jump(s->v, n, kXorwowSubsequenceLog2);
}

// ============================================================================
// [SECTION] Philox4_32_10
// ============================================================================
// Salmon et al.'s Philox-4x32-10: ten rounds of two 32x32->64 multiplies,
// the key bumped by the Weyl constants between rounds.

inline uint4 philox_round(uint4 c, uint2 k) {
  const uint64_t p0 = uint64_t(0xD2511F53u) * c.x;
  const uint64_t p1 = uint64_t(0xCD9E8D57u) * c.z;
  return make_uint4(unsigned(p1 >> 32) ^ c.y ^ k.x, unsigned(p1), unsigned(p0 >> 32) ^ c.w ^ k.y, unsigned(p0));
}

inline uint4 philox_block(uint4 counter, uint2 key) {
  for (int round = 0; round < 9; ++round) {
    counter = philox_round(counter, key);
    key.x += 0x9E3779B9u;
    key.y += 0xBB67AE85u;
  }
  return philox_round(counter, key);
}

// The counter's low 64 bits plus n, carrying into the high half. cuRAND
// loses the carry when n's high word is all ones and the low words carry;
// that only happens for skips past 2^66 values, kept as cuRAND has it.
inline void philox_counter_add(uint4* c, unsigned long long n) {
  const unsigned int lo = unsigned(n);
  unsigned int hi = unsigned(n >> 32);
  c->x += lo;
  if (c->x < lo) ++hi;
  c->y += hi;
  if (hi <= c->y) return;
  if (++c->z) return;
  ++c->w;
}

inline void philox_counter_add_high(uint4* c, unsigned long long n) {
  const unsigned int lo = unsigned(n);
  unsigned int hi = unsigned(n >> 32);
  c->z += lo;
  if (c->z < lo) ++hi;
  c->w += hi;
}

inline void philox_refill(curandStatePhilox4_32_10_t* s) { s->output = philox_block(s->ctr, s->key); }

inline unsigned int philox_next(curandStatePhilox4_32_10_t* s) {
  const unsigned int words[4] = {s->output.x, s->output.y, s->output.z, s->output.w};
  const unsigned int value = words[s->STATE & 3];
  if (++s->STATE == 4) {
    philox_counter_add(&s->ctr, 1);
    philox_refill(s);
    s->STATE = 0;
  }
  return value;
}

// Four values at once: the rest of this block and the start of the next.
// STATE stays where it was, four values on.
inline uint4 philox_next4(curandStatePhilox4_32_10_t* s) {
  const uint4 now = s->output;
  philox_counter_add(&s->ctr, 1);
  philox_refill(s);
  const unsigned int both[8] = {now.x, now.y, now.z, now.w, s->output.x, s->output.y, s->output.z, s->output.w};
  const unsigned k = s->STATE & 3;
  return make_uint4(both[k], both[k + 1], both[k + 2], both[k + 3]);
}

inline void philox_skip(curandStatePhilox4_32_10_t* s, unsigned long long n) {
  s->STATE += unsigned(n & 3);
  n /= 4;
  if (s->STATE > 3) {
    n += 1;
    s->STATE -= 4;
  }
  philox_counter_add(&s->ctr, n);
  philox_refill(s);
}

// A subsequence is 2^66 values: one step of the counter's high 64 bits.
inline void philox_skip_subsequences(curandStatePhilox4_32_10_t* s, unsigned long long n) {
  philox_counter_add_high(&s->ctr, n);
  philox_refill(s);
}

// ============================================================================
// [SECTION] From 32 random bits to uniform and normal values
// ============================================================================
// Each conversion is one rounding of an exact scaled integer, so fused or
// not (nvcc fuses), the bits are the same; the Box-Muller angle is the one
// product that rounds, and nvcc makes it an FFMA, so it is fmaf here.

constexpr float kTwoToMinus32 = 0x1p-32f;
constexpr double kTwoToMinus32Double = 0x1p-32;
constexpr double kTwoToMinus53 = 0x1p-53;
constexpr float kAnglePerStep = 0x1p-32f * 6.2831855f;  // 2 pi / 2^32 as cuRAND rounds it

// (0, 1]: x / 2^32 plus half a step.
inline float uniform_of(unsigned int x) { return float(x) * kTwoToMinus32 + kTwoToMinus32 / 2; }
// (0, 1]: x / 2^32 plus a whole step (cuRAND's double from 32 bits).
inline double uniform_double_of(unsigned int x) { return double(x) * kTwoToMinus32Double + kTwoToMinus32Double; }
// (0, 1] with 53 bits: x xor y << 21, over 2^53, plus half a step.
inline uint64_t bits53(unsigned int x, unsigned int y) { return uint64_t(x) ^ (uint64_t(y) << 21); }
inline double uniform_double_of(unsigned int x, unsigned int y) {
  return double(bits53(x, y)) * kTwoToMinus53 + kTwoToMinus53 / 2;
}

// The GPU's logf and __sincosf (MUFU.SIN/COS) as the correctly rounded value.
inline float log_of(float x) { return float(std::log(double(x))); }
inline float exp_of(float x) { return float(std::exp(double(x))); }

inline float2 box_muller(unsigned int x, unsigned int y) {
  const float u = uniform_of(x);
  const float angle = std::fma(float(y), kAnglePerStep, kAnglePerStep / 2);
  const float radius = std::sqrt(-2.0f * log_of(u));
  return make_float2(float(std::sin(double(angle))) * radius, float(std::cos(double(angle))) * radius);
}

// sin(pi v) and cos(pi v) for v in (0, 2], in long double and rounded once.
inline void sincospi_of(double v, double* s, double* c) {
  constexpr long double kPi = 3.141592653589793238462643383279502884L;
  const long double angle = kPi * (long double)v;
  *s = double(std::sin(angle));
  *c = double(std::cos(angle));
}

inline double2 box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0, unsigned int y1) {
  const double u = uniform_double_of(x0, x1);
  const double v = double(bits53(y0, y1)) * (2 * kTwoToMinus53) + kTwoToMinus53;  // (0, 2)
  const double radius = std::sqrt(-2.0 * std::log(u));
  double s, c;
  sincospi_of(v, &s, &c);
  return make_double2(s * radius, c * radius);
}

// ============================================================================
// [SECTION] Distributions of either state
// ============================================================================
// curand_normal returns the first of a Box-Muller pair and keeps the second
// for the next call; curand_log_normal keeps its second already through exp.

template <class State, class Pair>
inline float normal_from_pair(State* s, Pair make_pair) {
  if (s->boxmuller_flag != kNormalWaiting) {
    const float2 pair = make_pair();
    s->boxmuller_extra = pair.y;
    s->boxmuller_flag = kNormalWaiting;
    return pair.x;
  }
  s->boxmuller_flag = 0;
  return s->boxmuller_extra;
}

template <class State, class Pair>
inline float log_normal_from_pair(State* s, Pair make_pair, float mean, float stddev) {
  if (s->boxmuller_flag != kLogNormalWaiting) {
    const float2 pair = make_pair();
    s->boxmuller_extra = exp_of(std::fma(stddev, pair.y, mean));
    s->boxmuller_flag = kLogNormalWaiting;
    return exp_of(std::fma(stddev, pair.x, mean));
  }
  s->boxmuller_flag = 0;
  return s->boxmuller_extra;
}

template <class State, class Pair>
inline double normal_double_from_pair(State* s, Pair make_pair) {
  if (s->boxmuller_flag_double != kNormalWaiting) {
    const double2 pair = make_pair();
    s->boxmuller_extra_double = pair.y;
    s->boxmuller_flag_double = kNormalWaiting;
    return pair.x;
  }
  s->boxmuller_flag_double = 0;
  return s->boxmuller_extra_double;
}

template <class State, class Pair>
inline double log_normal_double_from_pair(State* s, Pair make_pair, double mean, double stddev) {
  if (s->boxmuller_flag_double != kLogNormalWaiting) {
    const double2 pair = make_pair();
    s->boxmuller_extra_double = std::exp(std::fma(stddev, pair.y, mean));
    s->boxmuller_flag_double = kLogNormalWaiting;
    return std::exp(std::fma(stddev, pair.x, mean));
  }
  s->boxmuller_flag_double = 0;
  return s->boxmuller_extra_double;
}

// XORWOW's pairs take two (float) or four (double) values one by one;
// Philox's double pair takes one block of four.
inline float2 pair_of(curandStateXORWOW_t* s) {
  const unsigned int x = xorwow_next(s);
  return box_muller(x, xorwow_next(s));
}
inline float2 pair_of(curandStatePhilox4_32_10_t* s) {
  const unsigned int x = philox_next(s);
  return box_muller(x, philox_next(s));
}
inline double2 pair_double_of(curandStateXORWOW_t* s) {
  const unsigned int x0 = xorwow_next(s), x1 = xorwow_next(s), y0 = xorwow_next(s);
  return box_muller_double(x0, x1, y0, xorwow_next(s));
}
inline double2 pair_double_of(curandStatePhilox4_32_10_t* s) {
  const uint4 b = philox_next4(s);
  return box_muller_double(b.x, b.y, b.z, b.w);
}

}  // namespace warpviz::curand_detail

// ----------------------------------------------------------------------------
// The API a kernel calls.
// ----------------------------------------------------------------------------

// The state after seed's first 2^67 * subsequence + offset values.
inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStateXORWOW_t* state) {
  using namespace warpviz::curand_detail;
  xorwow_seed(state, seed);
  xorwow_skip_subsequences(state, subsequence);
  xorwow_skip(state, offset);
}

// The key is the seed; subsequence is the counter's high half, offset the
// value within it (2^66 values per subsequence).
inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStatePhilox4_32_10_t* state) {
  using namespace warpviz::curand_detail;
  state->ctr = make_uint4(0, 0, 0, 0);
  state->key = make_uint2(unsigned(seed), unsigned(seed >> 32));
  state->STATE = 0;
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
  philox_skip_subsequences(state, subsequence);
  philox_skip(state, offset);
}

inline unsigned int curand(curandStateXORWOW_t* state) { return warpviz::curand_detail::xorwow_next(state); }
inline unsigned int curand(curandStatePhilox4_32_10_t* state) { return warpviz::curand_detail::philox_next(state); }
inline uint4 curand4(curandStatePhilox4_32_10_t* state) { return warpviz::curand_detail::philox_next4(state); }

inline void skipahead(unsigned long long n, curandStateXORWOW_t* state) {
  warpviz::curand_detail::xorwow_skip(state, n);
}
inline void skipahead(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  warpviz::curand_detail::philox_skip(state, n);
}
inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t* state) {
  warpviz::curand_detail::xorwow_skip_subsequences(state, n);
}
inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  warpviz::curand_detail::philox_skip_subsequences(state, n);
}

template <class State>
inline float curand_uniform(State* state) {
  return warpviz::curand_detail::uniform_of(curand(state));
}
// XORWOW's double takes 53 bits from two values; Philox's takes one value.
inline double curand_uniform_double(curandStateXORWOW_t* state) {
  const unsigned int x = curand(state);
  return warpviz::curand_detail::uniform_double_of(x, curand(state));
}
inline double curand_uniform_double(curandStatePhilox4_32_10_t* state) {
  return warpviz::curand_detail::uniform_double_of(curand(state));
}
inline float4 curand_uniform4(curandStatePhilox4_32_10_t* state) {
  using warpviz::curand_detail::uniform_of;
  const uint4 b = curand4(state);
  return make_float4(uniform_of(b.x), uniform_of(b.y), uniform_of(b.z), uniform_of(b.w));
}
inline double2 curand_uniform2_double(curandStatePhilox4_32_10_t* state) {
  using warpviz::curand_detail::uniform_double_of;
  const uint4 b = curand4(state);
  return make_double2(uniform_double_of(b.x, b.y), uniform_double_of(b.z, b.w));
}

template <class State>
inline float curand_normal(State* state) {
  return warpviz::curand_detail::normal_from_pair(state, [&] { return warpviz::curand_detail::pair_of(state); });
}
template <class State>
inline float2 curand_normal2(State* state) {
  return warpviz::curand_detail::pair_of(state);
}
inline float4 curand_normal4(curandStatePhilox4_32_10_t* state) {
  using warpviz::curand_detail::box_muller;
  const uint4 b = curand4(state);
  const float2 first = box_muller(b.x, b.y), second = box_muller(b.z, b.w);
  return make_float4(first.x, first.y, second.x, second.y);
}
template <class State>
inline double curand_normal_double(State* state) {
  return warpviz::curand_detail::normal_double_from_pair(
      state, [&] { return warpviz::curand_detail::pair_double_of(state); });
}
template <class State>
inline double2 curand_normal2_double(State* state) {
  return warpviz::curand_detail::pair_double_of(state);
}

template <class State>
inline float curand_log_normal(State* state, float mean, float stddev) {
  return warpviz::curand_detail::log_normal_from_pair(
      state, [&] { return warpviz::curand_detail::pair_of(state); }, mean, stddev);
}
template <class State>
inline float2 curand_log_normal2(State* state, float mean, float stddev) {
  using warpviz::curand_detail::exp_of;
  const float2 pair = warpviz::curand_detail::pair_of(state);
  return make_float2(exp_of(std::fma(stddev, pair.x, mean)), exp_of(std::fma(stddev, pair.y, mean)));
}
inline float4 curand_log_normal4(curandStatePhilox4_32_10_t* state, float mean, float stddev) {
  using warpviz::curand_detail::exp_of;
  const float4 z = curand_normal4(state);
  return make_float4(exp_of(std::fma(stddev, z.x, mean)), exp_of(std::fma(stddev, z.y, mean)),
                     exp_of(std::fma(stddev, z.z, mean)), exp_of(std::fma(stddev, z.w, mean)));
}
template <class State>
inline double curand_log_normal_double(State* state, double mean, double stddev) {
  return warpviz::curand_detail::log_normal_double_from_pair(
      state, [&] { return warpviz::curand_detail::pair_double_of(state); }, mean, stddev);
}
