// The device API part of curand_probe.cu as plain host code: each "thread"
// of its kernels is a turn of a loop. test_curand builds it with the CUDA
// toolkit's own curand_kernel.h (whose functions also compile for the host)
// and runs it on the CPU, then runs the same file through warpviz-cli, and
// compares the lines. The toolkit's host path computes the same integers and
// skip-aheads as the GPU; its Box-Muller uses sinf/cosf and sin(pi v) where
// the GPU uses __sincosf and sincospi, so the normal values may differ in the
// last bits.
#include <cuda_runtime.h>
#include <curand_kernel.h>

#include <cstdio>
#include <cstring>
#include <vector>

static int g_tid;  // the loop's "thread"
static unsigned long long bits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static unsigned long long bits(double d) { unsigned long long u; memcpy(&u, &d, 8); return u; }
constexpr int kXorwowFields = 22;
static void xorwow_fields(unsigned long long seed, unsigned long long first_subsequence,
                              unsigned long long offset, int threads, unsigned long long* out) {
  const int tid = g_tid;
  if (tid >= threads) return;
  curandState s;
  curand_init(seed, first_subsequence + tid, offset, &s);
  unsigned long long* o = out + (size_t)tid * kXorwowFields;
  int k = 0;
  for (int i = 0; i < 4; ++i) o[k++] = curand(&s);
  float u = curand_uniform(&s);
  o[k++] = bits(u);
  double ud = curand_uniform_double(&s);
  o[k++] = bits(ud);
  for (int i = 0; i < 3; ++i) o[k++] = bits(curand_normal(&s));  // odd: the third leaves one cached
  float2 n2 = curand_normal2(&s);
  o[k++] = bits(n2.x);
  o[k++] = bits(n2.y);
  o[k++] = bits(curand_normal(&s));  // the cached one
  o[k++] = bits(curand_normal_double(&s));
  o[k++] = bits(curand_normal_double(&s));
  o[k++] = bits(curand_normal_double(&s));
  o[k++] = bits(curand_log_normal(&s, 0.5f, 0.25f));
  o[k++] = bits(curand_log_normal_double(&s, 0.5, 0.25));
  o[k++] = curand(&s);
  skipahead(1000ull, &s);
  o[k++] = curand(&s);
  skipahead((1ull << 40) + 12345, &s);
  o[k++] = curand(&s);
  skipahead_sequence(3ull, &s);
  o[k++] = curand(&s);
  skipahead_sequence((1ull << 33) + 5, &s);
  o[k++] = curand(&s);
}

constexpr int kPhiloxFields = 40;
static void philox_fields(unsigned long long seed, unsigned long long first_subsequence,
                              unsigned long long offset, int threads, unsigned long long* out) {
  const int tid = g_tid;
  if (tid >= threads) return;
  curandStatePhilox4_32_10_t s;
  curand_init(seed, first_subsequence + tid, offset, &s);
  unsigned long long* o = out + (size_t)tid * kPhiloxFields;
  int k = 0;
  for (int i = 0; i < 5; ++i) o[k++] = curand(&s);  // crosses a block of four
  uint4 b = curand4(&s);
  o[k++] = b.x, o[k++] = b.y, o[k++] = b.z, o[k++] = b.w;
  o[k++] = bits(curand_uniform(&s));
  float4 u4 = curand_uniform4(&s);
  o[k++] = bits(u4.x), o[k++] = bits(u4.y), o[k++] = bits(u4.z), o[k++] = bits(u4.w);
  o[k++] = bits(curand_normal(&s));
  float2 n2 = curand_normal2(&s);
  o[k++] = bits(n2.x), o[k++] = bits(n2.y);
  o[k++] = bits(curand_normal(&s));  // the cached one
  float4 n4 = curand_normal4(&s);
  o[k++] = bits(n4.x), o[k++] = bits(n4.y), o[k++] = bits(n4.z), o[k++] = bits(n4.w);
  o[k++] = bits(curand_uniform_double(&s));
  double2 ud2 = curand_uniform2_double(&s);
  o[k++] = bits(ud2.x), o[k++] = bits(ud2.y);
  o[k++] = bits(curand_normal_double(&s));
  double2 nd2 = curand_normal2_double(&s);
  o[k++] = bits(nd2.x), o[k++] = bits(nd2.y);
  o[k++] = bits(curand_normal_double(&s));  // the cached one
  o[k++] = bits(curand_log_normal(&s, 0.5f, 0.25f));
  o[k++] = bits(curand_log_normal_double(&s, 0.5, 0.25));
  o[k++] = curand(&s);
  skipahead(7ull, &s);
  o[k++] = curand(&s);
  skipahead((1ull << 40) + 3, &s);
  o[k++] = curand(&s);
  skipahead_sequence(2ull, &s);
  o[k++] = curand(&s);
  skipahead_sequence((1ull << 33) + 5, &s);
  o[k++] = curand(&s);
  o[k++] = curand(&s);
}

static void device_api(bool philox, unsigned long long seed, unsigned long long first_subsequence,
                       unsigned long long offset, int threads) {
  const int fields = philox ? kPhiloxFields : kXorwowFields;
  std::vector<unsigned long long> out((size_t)threads * fields);
  for (g_tid = 0; g_tid < threads; ++g_tid) {
    if (philox) philox_fields(seed, first_subsequence, offset, threads, out.data());
    else xorwow_fields(seed, first_subsequence, offset, threads, out.data());
  }
  for (int t = 0; t < threads; ++t)
    for (int f = 0; f < fields; ++f)
      printf("device %s seed=%llx subsequence=%llu offset=%llu field%d %d %llx\n", philox ? "philox" : "xorwow", seed,
             first_subsequence + t, offset, f, t, out[(size_t)t * fields + f]);
}
int main() {
  for (bool philox : {false, true}) {
    device_api(philox, 1234, 0, 0, 64);          // curand_init(1234, tid, 0)
    device_api(philox, 1234, 100000, 0, 2);      // subsequence 100000
    device_api(philox, 1234, 0, 12345, 2);       // an offset
    device_api(philox, 1234, 7, (1ull << 40) + 17, 1);
    device_api(philox, 0, 0, 0, 2);
    device_api(philox, 0xdeadbeefcafef00dull, (1ull << 20) + 3, 3, 2);
    device_api(philox, 42, (1ull << 45) + 1, 0, 1);
  }
  return 0;
}
