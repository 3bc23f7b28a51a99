// Compiled by hand with g++ and the device-semantics plugin, at -O0 and at -O2
// (tests/test_device_semantics.cpp): no kit, no prelude, so the optimizers
// see the plain functions. Inputs come through volatile globals so nothing
// folds. Prints "name hex" lines.
#include <cstdint>
#include <cstdio>

#define DEVICE __attribute__((warpviz_device))

volatile int32_t g_int[4] = {7, -2147483647 - 1, 0, -1};
volatile int64_t g_long[3] = {0, 0x123456789ll, -5};
volatile int32_t g_shift[4] = {32, -1, 40, 64};
volatile float g_float[4] = {3e9f, -1.0f, __builtin_nanf(""), 4294967296.0f};
volatile double g_double[2] = {__builtin_nan(""), 1e300};

DEVICE int32_t div32(int32_t a, int32_t b) { return a / b; }
DEVICE int32_t mod32(int32_t a, int32_t b) { return a % b; }
DEVICE uint32_t udiv32(uint32_t a, uint32_t b) { return a / b; }
DEVICE int64_t div64(int64_t a, int64_t b) { return a / b; }
DEVICE uint64_t umod64(uint64_t a, uint64_t b) { return a % b; }
DEVICE uint32_t shl32(uint32_t x, int k) { return x << k; }
DEVICE int32_t sar32(int32_t x, int k) { return x >> k; }
DEVICE uint64_t shr64(uint64_t x, int k) { return x >> k; }
DEVICE int32_t f2i(float x) { return int32_t(x); }
DEVICE uint32_t f2u(float x) { return uint32_t(x); }
DEVICE uint64_t f2ul(float x) { return uint64_t(x); }
DEVICE int32_t d2i(double x) { return int32_t(x); }
DEVICE int64_t d2l(double x) { return int64_t(x); }
DEVICE uint8_t f2u8(float x) { return uint8_t(x); }
template <typename T> DEVICE T tdiv(T a, T b) { return a / b; }
// A lambda inside device code is device code.
DEVICE int32_t lambda_div(int32_t a, int32_t b) {
  auto divide = [](int32_t p, int32_t q) { return p / q; };
  return divide(a, b);
}

int main() {
  const int32_t seven = g_int[0], min = g_int[1], zero = g_int[2], minus_one = g_int[3];
  std::printf("div32_by_zero %x\n", uint32_t(div32(seven, zero)));
  std::printf("mod32_by_zero %x\n", uint32_t(mod32(seven, zero)));
  std::printf("div32_min_by_minus_one %x\n", uint32_t(div32(min, minus_one)));
  std::printf("mod32_min_by_minus_one %x\n", uint32_t(mod32(min, minus_one)));
  std::printf("udiv32_by_zero %x\n", udiv32(uint32_t(seven), uint32_t(zero)));
  std::printf("div64_zero_by_zero %llx\n", (unsigned long long)div64(g_long[0], zero));
  std::printf("div64_big_by_zero %llx\n", (unsigned long long)div64(g_long[1], zero));
  std::printf("umod64_small_by_zero %llx\n", (unsigned long long)umod64(uint64_t(seven), uint64_t(zero)));
  std::printf("div64_normal %llx\n", (unsigned long long)div64(g_long[1], g_long[2]));
  std::printf("shl32_by_32 %x\n", shl32(uint32_t(seven), g_shift[0]));
  std::printf("shl32_by_minus_one %x\n", shl32(uint32_t(seven), g_shift[1]));
  std::printf("sar32_negative_by_40 %x\n", uint32_t(sar32(-seven, g_shift[2])));
  std::printf("shr64_by_64 %llx\n", (unsigned long long)shr64(uint64_t(g_long[1]), g_shift[3]));
  std::printf("f2i_3e9 %x\n", uint32_t(f2i(g_float[0])));
  std::printf("f2u_minus_one %x\n", f2u(g_float[1]));
  std::printf("f2i_nan %x\n", uint32_t(f2i(g_float[2])));
  std::printf("f2ul_nan %llx\n", (unsigned long long)f2ul(g_float[2]));
  std::printf("d2i_nan %x\n", uint32_t(d2i(g_double[0])));
  std::printf("d2l_1e300 %llx\n", (unsigned long long)d2l(g_double[1]));
  std::printf("f2u8_2pow32 %x\n", unsigned(f2u8(g_float[3])));
  std::printf("tdiv_long_by_zero %llx\n", (unsigned long long)tdiv<long long>(g_long[1], zero));
  std::printf("lambda_div_by_zero %x\n", uint32_t(lambda_div(seven, zero)));
  return 0;
}
