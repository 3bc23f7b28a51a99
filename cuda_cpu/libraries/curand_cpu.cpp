// cuRAND's host API on the CPU: a generator is its type, seed, offset and
// stream; each call computes the values the GPU's generation kernel would
// write, from the device API's states (warpviz/curand_device.h), in the
// order cuRAND's default ordering lays them out. Calls run at once: the
// stream only orders work, and host memory is "device" memory here.
//
// [SECTION] Generators
// [SECTION] The default ordering: which value of which stream lands where
// [SECTION] The API
#include <cstdio>
#include <vector>

#include "curand.h"
#include "runtime_objects.h"
#include "warpviz/curand_device.h"

struct curandGenerator_st {
  curandRngType_t type = CURAND_RNG_PSEUDO_XORWOW;
  unsigned long long seed = 0;    // cuRAND's default seed
  unsigned long long offset = 0;  // values taken so far: the set offset plus each call's
  cudaStream_t stream = nullptr;
};

namespace {

using namespace warpviz::curand_detail;

// ============================================================================
// [SECTION] Generators
// ============================================================================

const char* rng_type_name(curandRngType_t type) {
  switch (type) {
    case CURAND_RNG_TEST: return "CURAND_RNG_TEST";
    case CURAND_RNG_PSEUDO_DEFAULT: return "CURAND_RNG_PSEUDO_DEFAULT";
    case CURAND_RNG_PSEUDO_XORWOW: return "CURAND_RNG_PSEUDO_XORWOW";
    case CURAND_RNG_PSEUDO_MRG32K3A: return "CURAND_RNG_PSEUDO_MRG32K3A";
    case CURAND_RNG_PSEUDO_MTGP32: return "CURAND_RNG_PSEUDO_MTGP32";
    case CURAND_RNG_PSEUDO_MT19937: return "CURAND_RNG_PSEUDO_MT19937";
    case CURAND_RNG_PSEUDO_PHILOX4_32_10: return "CURAND_RNG_PSEUDO_PHILOX4_32_10";
    case CURAND_RNG_QUASI_DEFAULT: return "CURAND_RNG_QUASI_DEFAULT";
    case CURAND_RNG_QUASI_SOBOL32: return "CURAND_RNG_QUASI_SOBOL32";
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL32: return "CURAND_RNG_QUASI_SCRAMBLED_SOBOL32";
    case CURAND_RNG_QUASI_SOBOL64: return "CURAND_RNG_QUASI_SOBOL64";
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL64: return "CURAND_RNG_QUASI_SCRAMBLED_SOBOL64";
  }
  return "an unknown generator type";
}

curandStatus_t create(curandGenerator_t* generator, curandRngType_t type) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  if (type == CURAND_RNG_PSEUDO_DEFAULT) type = CURAND_RNG_PSEUDO_XORWOW;
  if (type != CURAND_RNG_PSEUDO_XORWOW && type != CURAND_RNG_PSEUDO_PHILOX4_32_10) {
    std::fprintf(stderr,
                 "warpviz: cuRAND's %s generator is not implemented on the CPU (XORWOW, the default, and "
                 "PHILOX4_32_10 are); curandCreateGenerator returns CURAND_STATUS_TYPE_ERROR\n",
                 rng_type_name(type));
    return CURAND_STATUS_TYPE_ERROR;
  }
  *generator = warpviz::user::make_runtime_object<curandGenerator_st>();
  (*generator)->type = type;
  return CURAND_STATUS_SUCCESS;
}

// ============================================================================
// [SECTION] The default ordering: which value of which stream lands where
// ============================================================================
// XORWOW: 4096 streams, curand_init(seed, t, 0) for t = 0..4095; the value at
// position p (the offset plus the index) is stream p mod 4096's value number
// p / 4096, so consecutive outputs come from consecutive streams.
constexpr unsigned long long kXorwowStreams = 4096;

std::vector<unsigned int> xorwow_values(const curandGenerator_st& g, size_t n) {
  std::vector<unsigned int> out(n);
  const unsigned long long first = g.offset;
  for (unsigned long long t = 0; t < kXorwowStreams && t < n; ++t) {
    const size_t i0 = size_t((t + kXorwowStreams - first % kXorwowStreams) % kXorwowStreams);
    if (i0 >= n) continue;
    curandStateXORWOW_t s;
    curand_init(g.seed, t, (first + i0) / kXorwowStreams, &s);
    for (size_t i = i0; i < n; i += kXorwowStreams) out[i] = xorwow_next(&s);
  }
  return out;
}

// Philox: one stream, curand_init(seed, 0, position).
std::vector<unsigned int> philox_values(const curandGenerator_st& g, size_t n) {
  std::vector<unsigned int> out(n);
  curandStatePhilox4_32_10_t s;
  curand_init(g.seed, 0, g.offset, &s);
  for (size_t i = 0; i < n; ++i) out[i] = philox_next(&s);
  return out;
}

// The next n 32-bit values of the generator's order; the offset moves on.
std::vector<unsigned int> take_values(curandGenerator_st* g, size_t n) {
  std::vector<unsigned int> out = g->type == CURAND_RNG_PSEUDO_PHILOX4_32_10 ? philox_values(*g, n) : xorwow_values(*g, n);
  g->offset += n;
  return out;
}

}  // namespace

// ============================================================================
// [SECTION] The API
// ============================================================================

curandStatus_t curandCreateGenerator(curandGenerator_t* generator, curandRngType_t rng_type) {
  return create(generator, rng_type);
}
curandStatus_t curandCreateGeneratorHost(curandGenerator_t* generator, curandRngType_t rng_type) {
  return create(generator, rng_type);
}
curandStatus_t curandDestroyGenerator(curandGenerator_t generator) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  warpviz::user::destroy_runtime_object(generator);
  return CURAND_STATUS_SUCCESS;
}
// CUDA 13.0's cuRAND, as on the GPU the references were taken on.
curandStatus_t curandGetVersion(int* version) {
  if (!version) return CURAND_STATUS_OUT_OF_RANGE;
  *version = CURAND_VERSION;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGetProperty(libraryPropertyType type, int* value) {
  if (!value) return CURAND_STATUS_OUT_OF_RANGE;
  switch (type) {
    case MAJOR_VERSION: *value = CURAND_VER_MAJOR; return CURAND_STATUS_SUCCESS;
    case MINOR_VERSION: *value = CURAND_VER_MINOR; return CURAND_STATUS_SUCCESS;
    case PATCH_LEVEL: *value = CURAND_VER_PATCH; return CURAND_STATUS_SUCCESS;
  }
  return CURAND_STATUS_OUT_OF_RANGE;
}
curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  generator->stream = stream;
  return CURAND_STATUS_SUCCESS;
}
// A new seed starts the sequence again from the offset set before.
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  generator->seed = seed;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  generator->offset = offset;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t order) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  if (order == CURAND_ORDERING_PSEUDO_DEFAULT || order == CURAND_ORDERING_PSEUDO_BEST ||
      order == CURAND_ORDERING_PSEUDO_LEGACY)
    return CURAND_STATUS_SUCCESS;
  std::fprintf(stderr, "warpviz: cuRAND's ordering %d is not implemented on the CPU (DEFAULT, BEST and LEGACY are)\n",
               int(order));
  return CURAND_STATUS_OUT_OF_RANGE;
}

curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int* outputPtr, size_t num) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  const std::vector<unsigned int> v = take_values(generator, num);
  for (size_t i = 0; i < num; ++i) outputPtr[i] = v[i];
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGenerateUniform(curandGenerator_t generator, float* outputPtr, size_t num) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  const std::vector<unsigned int> v = take_values(generator, num);
  for (size_t i = 0; i < num; ++i) outputPtr[i] = uniform_of(v[i]);
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double* outputPtr, size_t num) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  const std::vector<unsigned int> v = take_values(generator, num);
  for (size_t i = 0; i < num; ++i) outputPtr[i] = uniform_double_of(v[i]);
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGenerateNormal(curandGenerator_t generator, float* outputPtr, size_t n, float mean,
                                    float stddev) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  if (n % 2) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  const std::vector<unsigned int> v = take_values(generator, n);
  for (size_t i = 0; i < n; i += 2) {
    const float2 pair = box_muller(v[i], v[i + 1]);
    outputPtr[i] = std::fma(pair.x, stddev, mean);
    outputPtr[i + 1] = std::fma(pair.y, stddev, mean);
  }
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double* outputPtr, size_t n, double mean,
                                          double stddev) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  if (n % 2) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  const std::vector<unsigned int> v = take_values(generator, 2 * n);
  for (size_t i = 0; i < n; i += 2) {
    const double2 pair = box_muller_double(v[2 * i], v[2 * i + 1], v[2 * i + 2], v[2 * i + 3]);
    outputPtr[i] = std::fma(pair.x, stddev, mean);
    outputPtr[i + 1] = std::fma(pair.y, stddev, mean);
  }
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float* outputPtr, size_t n, float mean,
                                       float stddev) {
  const curandStatus_t s = curandGenerateNormal(generator, outputPtr, n, mean, stddev);
  if (s == CURAND_STATUS_SUCCESS)
    for (size_t i = 0; i < n; ++i) outputPtr[i] = exp_of(outputPtr[i]);
  return s;
}
curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double* outputPtr, size_t n, double mean,
                                             double stddev) {
  const curandStatus_t s = curandGenerateNormalDouble(generator, outputPtr, n, mean, stddev);
  if (s == CURAND_STATUS_SUCCESS)
    for (size_t i = 0; i < n; ++i) outputPtr[i] = std::exp(outputPtr[i]);
  return s;
}
