// What plain C++ gives inside a kernel on the GPU where x86 gives something
// else (or traps): min/max of signed zeros and NaNs, float-to-integer
// conversions out of range, shifts by the width or more, integer division by
// zero, and whether `a*b+c` is contracted. Every input comes from device
// memory so that nvcc cannot fold it at compile time; each line printed is
// "op input(s) -> result" in hex bits. Built with plain nvcc (the default
// -fmad=true) and run on the H200 by scripts/h200-probes.sh; its output is
// plain_cpp_semantics.out beside it, the reference for the CPU emulator.
#include <cstdint>
#include <cstdio>
#include <cstring>

struct Inputs {
  float f[16];
  double d[8];
  int32_t i[8];
  uint32_t u[8];
  int64_t l[4];
  uint64_t ul[4];
  int32_t shift[8];
};

constexpr int kMaxOut = 1024;
struct Outputs {
  uint64_t v[kMaxOut];
  int n;
};

__device__ void put(Outputs* o, uint64_t v) { o->v[o->n++] = v; }
__device__ uint64_t bits(float x) { return __float_as_uint(x); }
__device__ uint64_t bits(double x) { return uint64_t(__double_as_longlong(x)); }

__global__ void probe(const Inputs* in, Outputs* o) {
  o->n = 0;
  const float* f = in->f;
  // min/max over every pair of the first 6 floats (+0, -0, 1, qNaN, NaN with payload, -inf)
  for (int a = 0; a < 6; ++a)
    for (int b = 0; b < 6; ++b) {
      put(o, bits(fminf(f[a], f[b])));
      put(o, bits(fmaxf(f[a], f[b])));
    }
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      put(o, bits(fmin(in->d[a], in->d[b])));
      put(o, bits(fmax(in->d[a], in->d[b])));
    }
  // conversions of every float input
  for (int a = 0; a < 16; ++a) {
    const float x = f[a];
    put(o, uint32_t(int32_t(x)));
    put(o, uint32_t(x));
    put(o, uint64_t(int64_t(x)));
    put(o, uint64_t(x));
    put(o, uint16_t(int16_t(x)));
    put(o, uint8_t(int8_t(x)));
    put(o, uint8_t(x));
  }
  for (int a = 0; a < 8; ++a) {
    const double x = in->d[a];
    put(o, uint32_t(int32_t(x)));
    put(o, uint32_t(x));
    put(o, uint64_t(int64_t(x)));
    put(o, uint64_t(x));
  }
  // shifts by each amount, 32- and 64-bit, signed and unsigned
  for (int s = 0; s < 8; ++s) {
    const int k = in->shift[s];
    put(o, uint32_t(in->i[1] << k));
    put(o, uint32_t(in->i[1] >> k));
    put(o, uint32_t(in->i[2] >> k));
    put(o, in->u[1] << k);
    put(o, in->u[1] >> k);
    put(o, uint64_t(in->l[1] << k));
    put(o, uint64_t(in->l[2] >> k));
    put(o, in->ul[1] >> k);
  }
  // integer division and remainder, every pair of the first 5 ints (0, 7, -7, INT_MIN, -1)
  for (int a = 0; a < 5; ++a)
    for (int b = 0; b < 5; ++b) {
      put(o, uint32_t(in->i[a] / in->i[b]));
      put(o, uint32_t(in->i[a] % in->i[b]));
      put(o, in->u[a] / in->u[b]);
      put(o, in->u[a] % in->u[b]);
    }
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      put(o, uint64_t(in->l[a] / in->l[b]));
      put(o, uint64_t(in->l[a] % in->l[b]));
      put(o, in->ul[a] / in->ul[b]);
    }
  // contraction: a*b+c and a*b-c with inputs where one rounding differs from two
  const float a = f[12], b = f[13], c = f[14];
  put(o, bits(a * b + c));
  put(o, bits(a * b - c));
  put(o, bits(c + a * b));
  const float prod = a * b;
  put(o, bits(prod + c));  // a named temporary: still contracted by nvcc?
  put(o, bits(__fmul_rn(a, b) + c));
  const double da = in->d[5], db = in->d[6], dc = in->d[7];
  put(o, bits(da * db + dc));
  put(o, bits(__dmul_rn(da, db) + dc));
}

int main() {
  Inputs h{};
  const uint32_t fbits[16] = {0x00000000u, 0x80000000u, 0x3f800000u, 0x7fc00000u, 0x7fa00001u, 0xff800000u,
                              0x4f000000u /*2^31*/, 0x4f800000u /*2^32*/, 0xcf000001u /*-2^31-256*/,
                              0xbf800000u /*-1*/, 0x7f800000u /*inf*/, 0x40200000u /*2.5*/,
                              0x3f800001u /*1+2^-23*/, 0x3f7ffffeu /*1-2^-23*/, 0xbf800000u /*-1*/,
                              0x477fff00u /*65535*/};
  std::memcpy(h.f, fbits, sizeof fbits);
  const uint64_t dbits[8] = {0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull,
                             0x7ff8000000000000ull, 0x41f0000000000000ull /*2^32*/,
                             0x3ff0000000000001ull, 0x3feffffffffffffeull, 0xbff0000000000000ull};
  std::memcpy(h.d, dbits, sizeof dbits);
  const int32_t ints[8] = {0, 7, -7, INT32_MIN, -1, 1, 2, 3};
  std::memcpy(h.i, ints, sizeof ints);
  for (int k = 0; k < 8; ++k) h.u[k] = uint32_t(ints[k]);
  const int64_t longs[4] = {0, 0x123456789ll, -0x123456789ll, INT64_MIN};
  std::memcpy(h.l, longs, sizeof longs);
  for (int k = 0; k < 4; ++k) h.ul[k] = uint64_t(longs[k]);
  h.l[3] = INT64_MIN;
  const int32_t shifts[8] = {0, 1, 31, 32, 33, 63, 64, -1};
  std::memcpy(h.shift, shifts, sizeof shifts);

  Inputs* d_in;
  Outputs* d_out;
  cudaMalloc(&d_in, sizeof h);
  cudaMalloc(&d_out, sizeof(Outputs));
  cudaMemcpy(d_in, &h, sizeof h, cudaMemcpyHostToDevice);
  probe<<<1, 1>>>(d_in, d_out);
  Outputs out{};
  const cudaError_t e = cudaMemcpy(&out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::printf("%d results\n", out.n);
  for (int k = 0; k < out.n; ++k) std::printf("%d %016llx\n", k, static_cast<unsigned long long>(out.v[k]));
  return 0;
}
