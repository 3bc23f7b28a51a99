// libcurand's host generator (curandCreateGeneratorHost, host memory), as
// hex: the host API part of curand_probe.cu with its generators on the CPU.
// tests/test_curand.cpp builds it against the CUDA toolkit's libcurand and
// runs it, then runs the same file through warpviz-cli, and compares the
// lines. libcurand's host generator lays its values out as the GPU's does;
// its normals use the host's sinf/cosf and sin(pi v) where the GPU uses
// __sincosf and sincospi, so only those lines may differ in the last bits.
//
// A line: LABEL INDEX HEX. Floats and doubles are printed as their bits.
#include <curand.h>

#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <vector>

unsigned long long bits(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}
unsigned long long bits(double d) {
  unsigned long long u;
  memcpy(&u, &d, 8);
  return u;
}

#include "probe_names.h"

// One call on `gen` into device memory; prints the status, then every value
// (or the first `shown` of them, every 997th and the last).
static void generate(curandGenerator_t gen, const char* label, Dist d, size_t n, double mean = 0, double stddev = 1,
                     size_t shown = ~size_t(0)) {
  const bool wide = d == Dist::UniformDouble || d == Dist::NormalDouble || d == Dist::LogNormalDouble;
  void* dev = nullptr;
  dev = malloc((n + 1) * 8);
  memset(dev, 0, (n + 1) * 8);
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
  
  printf("%s %s n=%zu status %d\n", label, dist_name(d), n, (int)s);
  if (s == CURAND_STATUS_SUCCESS) {
    std::vector<unsigned long long> out(n);
    if (wide) {
      memcpy(out.data(), dev, n * 8);
    } else {
      std::vector<unsigned> narrow(n);
      memcpy(narrow.data(), dev, n * 4);
      for (size_t i = 0; i < n; ++i) out[i] = narrow[i];
    }
    for (size_t i = 0; i < n; ++i)
      if (i < shown || i + 1 == n || i % 997 == 0) printf("%s %s %zu %llx\n", label, dist_name(d), i, out[i]);
  }
  free(dev);
}

static curandGenerator_t make(curandRngType_t type, unsigned long long seed, unsigned long long offset = 0) {
  curandGenerator_t gen;
  curandStatus_t s = curandCreateGeneratorHost(&gen, type);
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
  // Long calls that wrap round the streams, after an offset past them.
  {
    curandGenerator_t gen = make(type, 99, 300001);
    snprintf(label, sizeof label, "host %s seed=99 offset=300001", name);
    generate(gen, label, Dist::Bits, 300001, 0, 1, 50);
    generate(gen, label, Dist::UniformDouble, 200002, 0, 1, 50);
    generate(gen, label, Dist::NormalDouble, 20002, 0, 1, 50);
    generate(gen, label, Dist::Bits, 100);
    curandDestroyGenerator(gen);
  }
}

int main() {
  host_api(CURAND_RNG_PSEUDO_DEFAULT);
  host_api(CURAND_RNG_PSEUDO_XORWOW);
  host_api(CURAND_RNG_PSEUDO_PHILOX4_32_10);
}
