// What cuRAND gives on the GPU, as hex, for the host API (curand.h: XORWOW
// and Philox generators, every generation function, seeds, offsets, odd
// lengths, calls that continue a generator) and the device API
// (curand_kernel.h: curand_init with subsequences and offsets, each
// distribution, skipahead). Plain CUDA: nvcc builds it with -lcurand, and
// warpviz-cli runs the same file on the CPU (tests/test_curand.cpp compares
// every line with curand_probe.out). `curand_probe wide` prints long arrays
// instead, for working out the host API's ordering.
//
// A line: LABEL INDEX HEX. Floats and doubles are printed as their bits.
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

#include <cstdio>
#include <cstring>
#include <vector>

__host__ __device__ unsigned long long bits(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}
__host__ __device__ unsigned long long bits(double d) {
  unsigned long long u;
  memcpy(&u, &d, 8);
  return u;
}

#include "probe_names.h"

// One call on `gen` into device memory; prints the status, then every value
// (or the first `shown` of them and the last).
static void generate(curandGenerator_t gen, const char* label, Dist d, size_t n, double mean = 0, double stddev = 1,
                     size_t shown = ~size_t(0)) {
  const bool wide = d == Dist::UniformDouble || d == Dist::NormalDouble || d == Dist::LogNormalDouble;
  void* dev = nullptr;
  cudaMalloc(&dev, (n + 1) * 8);
  cudaMemset(dev, 0, (n + 1) * 8);
  curandStatus_t s = CURAND_STATUS_SUCCESS;
  switch (d) {
    case Dist::Bits: s = curandGenerate(gen, (unsigned*)dev, n); break;
    case Dist::Uniform: s = curandGenerateUniform(gen, (float*)dev, n); break;
    case Dist::UniformDouble: s = curandGenerateUniformDouble(gen, (double*)dev, n); break;
    case Dist::Normal: s = curandGenerateNormal(gen, (float*)dev, n, (float)mean, (float)stddev); break;
    case Dist::NormalDouble: s = curandGenerateNormalDouble(gen, (double*)dev, n, mean, stddev); break;
    case Dist::LogNormal: s = curandGenerateLogNormal(gen, (float*)dev, n, (float)mean, (float)stddev); break;
    case Dist::LogNormalDouble: s = curandGenerateLogNormalDouble(gen, (double*)dev, n, mean, stddev); break;
  }
  cudaDeviceSynchronize();
  printf("%s %s n=%zu status %d\n", label, dist_name(d), n, (int)s);
  if (s == CURAND_STATUS_SUCCESS) {
    std::vector<unsigned long long> out(n);
    if (wide) {
      cudaMemcpy(out.data(), dev, n * 8, cudaMemcpyDeviceToHost);
    } else {
      std::vector<unsigned> narrow(n);
      cudaMemcpy(narrow.data(), dev, n * 4, cudaMemcpyDeviceToHost);
      for (size_t i = 0; i < n; ++i) out[i] = narrow[i];
    }
    for (size_t i = 0; i < n; ++i)
      if (i < shown || i + 1 == n) printf("%s %s %zu %llx\n", label, dist_name(d), i, out[i]);
  }
  cudaFree(dev);
}

static curandGenerator_t make(curandRngType_t type, unsigned long long seed, unsigned long long offset = 0) {
  curandGenerator_t gen;
  curandStatus_t s = curandCreateGenerator(&gen, type);
  if (s != CURAND_STATUS_SUCCESS) printf("create %s status %d\n", rng_name(type), (int)s);
  curandSetPseudoRandomGeneratorSeed(gen, seed);
  if (offset) curandSetGeneratorOffset(gen, offset);
  return gen;
}

#include "host_api_cases.inc"

static void host_api(curandRngType_t type) {
  char label[128];
  const char* name = rng_name(type);
  host_api_shared_cases(type, label, sizeof label);
  // A stream set, and a generator on the host (host memory).
  {
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    curandGenerator_t gen = make(type, 77);
    curandSetStream(gen, stream);
    snprintf(label, sizeof label, "host %s seed=77 stream", name);
    generate(gen, label, Dist::Bits, 100);
    curandDestroyGenerator(gen);
    cudaStreamDestroy(stream);

    curandGenerator_t host_gen;
    printf("host %s create_host status %d\n", name, (int)curandCreateGeneratorHost(&host_gen, type));
    curandSetPseudoRandomGeneratorSeed(host_gen, 77);
    std::vector<unsigned> out(100);
    printf("host %s seed=77 on_host status %d\n", name, (int)curandGenerate(host_gen, out.data(), out.size()));
    for (size_t i = 0; i < out.size(); ++i) printf("host %s seed=77 on_host bits %zu %x\n", name, i, out[i]);
    curandDestroyGenerator(host_gen);
  }
}

// The long arrays for `wide`: every value.
static void host_api_wide(curandRngType_t type) {
  char label[64];
  snprintf(label, sizeof label, "wide %s seed=1337", rng_name(type));
  const Dist all[] = {Dist::Bits, Dist::UniformDouble, Dist::Normal, Dist::NormalDouble};
  for (Dist d : all) {
    curandGenerator_t gen = make(type, 1337);
    generate(gen, label, d, d == Dist::Bits ? 3 * 4096 * 4 + 5 : 3 * 4096 + 6);
    curandDestroyGenerator(gen);
  }
  curandGenerator_t gen = make(type, 1337, 4099);
  snprintf(label, sizeof label, "wide %s seed=1337 offset=4099", rng_name(type));
  generate(gen, label, Dist::Bits, 3 * 4096 * 4 + 5);
  curandDestroyGenerator(gen);
}

// ---------------------------------------------------------------------------
// Device API
// ---------------------------------------------------------------------------

constexpr int kXorwowFields = 22;
__global__ void xorwow_fields(unsigned long long seed, unsigned long long first_subsequence,
                              unsigned long long offset, int threads, unsigned long long* out) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
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
__global__ void philox_fields(unsigned long long seed, unsigned long long first_subsequence,
                              unsigned long long offset, int threads, unsigned long long* out) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
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
  unsigned long long* dev;
  cudaMalloc(&dev, (size_t)threads * fields * 8);
  cudaMemset(dev, 0, (size_t)threads * fields * 8);
  if (philox)
    philox_fields<<<(threads + 63) / 64, 64>>>(seed, first_subsequence, offset, threads, dev);
  else
    xorwow_fields<<<(threads + 63) / 64, 64>>>(seed, first_subsequence, offset, threads, dev);
  std::vector<unsigned long long> out((size_t)threads * fields);
  cudaMemcpy(out.data(), dev, out.size() * 8, cudaMemcpyDeviceToHost);
  printf("device %s launch %s\n", philox ? "philox" : "xorwow", cudaGetErrorString(cudaGetLastError()));
  for (int t = 0; t < threads; ++t)
    for (int f = 0; f < fields; ++f)
      printf("device %s seed=%llx subsequence=%llu offset=%llu field%d %d %llx\n", philox ? "philox" : "xorwow", seed,
             first_subsequence + t, offset, f, t, out[(size_t)t * fields + f]);
  cudaFree(dev);
}

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "wide") == 0) {
    host_api_wide(CURAND_RNG_PSEUDO_XORWOW);
    host_api_wide(CURAND_RNG_PSEUDO_PHILOX4_32_10);
    return 0;
  }
  int version = 0;
  curandGetVersion(&version);
  printf("curandGetVersion %d\n", version);

  host_api(CURAND_RNG_PSEUDO_DEFAULT);
  host_api(CURAND_RNG_PSEUDO_XORWOW);
  host_api(CURAND_RNG_PSEUDO_PHILOX4_32_10);

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
