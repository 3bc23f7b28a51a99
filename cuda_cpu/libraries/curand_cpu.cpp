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
  unsigned long long offset = 0;  // as set by curandSetGeneratorOffset
  cudaStream_t stream = nullptr;
  // Where generation stands (see "The default ordering"): the next output
  // position, and each stream's state, made from seed and offset at the
  // first call after either is set.
  bool streams_ready = false;
  unsigned long long position = 0;
  std::vector<curandStateXORWOW_t> xorwow_streams;
  std::vector<unsigned long long> philox_blocks_taken;  // per subsequence
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
// As libcurand lays it out (measured: tests/h200_probes/curand/). The
// generator keeps one state per stream, which every call continues, and a
// position that counts outputs (XORWOW: slots) and picks the stream.
//
// XORWOW: 4096 streams, curand_init(seed, t, 0) for t = 0..4095. A call's
// k-th slot (a value of curandGenerate or curandGenerateUniform, a double of
// curandGenerateUniformDouble, a Box-Muller pair of the normals) is position
// q = position + k and takes its 1, 2 or 4 values from stream q mod 4096,
// so consecutive slots come from consecutive streams. The offset o counts as
// o slots of one value: stream t starts o / 4096 values on, one more where
// t < o mod 4096.
//
// Philox: 65536 streams, the subsequences t of the seed. Output i of a call
// is position p = position + i; four positions make a group p / 4, and group
// g belongs to stream g mod 65536, which gives it its next counter block: a
// value, a uniform float or a normal float (a pair from values 0,1 or 2,3)
// takes its part p mod 4 of the four values; a double takes two values, so a
// group of four doubles takes two blocks, pair (p mod 4) / 2. A stream moves
// on once its group is complete (a call may end inside a group; the next
// continues it). The offset counts positions, one block per group before it.
constexpr unsigned long long kXorwowStreams = 4096;
constexpr unsigned long long kPhiloxStreams = 65536;

bool is_philox(const curandGenerator_st* g) { return g->type == CURAND_RNG_PSEUDO_PHILOX4_32_10; }

// The streams as seed and offset make them.
void ready_streams(curandGenerator_st* g) {
  if (g->streams_ready) return;
  const unsigned long long o = g->offset;
  if (is_philox(g)) {
    const unsigned long long groups = o / 4;
    g->philox_blocks_taken.assign(kPhiloxStreams, groups / kPhiloxStreams);
    for (unsigned long long t = 0; t < groups % kPhiloxStreams; ++t) ++g->philox_blocks_taken[t];
  } else {
    g->xorwow_streams.resize(kXorwowStreams);
    for (unsigned long long t = 0; t < kXorwowStreams; ++t) {
      curand_init(g->seed, t, 0, &g->xorwow_streams[t]);
      xorwow_skip(&g->xorwow_streams[t], o / kXorwowStreams + (t < o % kXorwowStreams ? 1 : 0));
    }
  }
  g->position = o;
  g->streams_ready = true;
}

// Calls fill(k, values) for each of `slots` slots, with its per_slot values.
template <class Fill>
void xorwow_slots(curandGenerator_st* g, size_t slots, unsigned per_slot, Fill fill) {
  ready_streams(g);
  unsigned int values[4];
  for (size_t k = 0; k < slots; ++k) {
    curandStateXORWOW_t* s = &g->xorwow_streams[(g->position + k) % kXorwowStreams];
    for (unsigned v = 0; v < per_slot; ++v) values[v] = xorwow_next(s);
    fill(k, values);
  }
  g->position += slots;
}

unsigned int word(const uint4& b, unsigned k) {
  const unsigned int w[4] = {b.x, b.y, b.z, b.w};
  return w[k & 3];
}

// Calls put(i, block, part) for each of n outputs: the counter block its
// position takes and its part of the group (0..3).
template <class Put>
void philox_positions(curandGenerator_st* g, size_t n, bool doubles, Put put) {
  ready_streams(g);
  const uint2 key = make_uint2(unsigned(g->seed), unsigned(g->seed >> 32));
  unsigned long long cached_stream = ~0ull, cached_block = ~0ull;
  uint4 block{};
  for (size_t i = 0; i < n; ++i) {
    const unsigned long long p = g->position + i, stream = p / 4 % kPhiloxStreams;
    const unsigned part = unsigned(p % 4);
    unsigned long long& taken = g->philox_blocks_taken[stream];
    const unsigned long long b = taken + (doubles ? part / 2 : 0);
    if (stream != cached_stream || b != cached_block) {
      block = philox_block(make_uint4(unsigned(b), unsigned(b >> 32), unsigned(stream), 0), key);
      cached_stream = stream, cached_block = b;
    }
    put(i, block, part);
    if (part == 3) taken += doubles ? 2 : 1;
  }
  g->position += n;
}

// 32-bit values, through `convert`, into out[0..n).
template <class T, class Convert>
void fill_values(curandGenerator_st* g, T* out, size_t n, Convert convert) {
  if (is_philox(g))
    philox_positions(g, n, false, [&](size_t i, const uint4& b, unsigned part) { out[i] = convert(word(b, part)); });
  else
    xorwow_slots(g, n, 1, [&](size_t k, const unsigned int* v) { out[k] = convert(v[0]); });
}

void fill_uniform_doubles(curandGenerator_st* g, double* out, size_t n) {
  if (is_philox(g))
    philox_positions(g, n, true, [&](size_t i, const uint4& b, unsigned part) {
      const unsigned first = 2 * (part % 2);
      out[i] = uniform_double_of(word(b, first), word(b, first + 1));
    });
  else
    xorwow_slots(g, n, 2, [&](size_t k, const unsigned int* v) { out[k] = uniform_double_of(v[0], v[1]); });
}

// Normal floats, then `finish` (the mean and deviation, and exp for log-normal).
template <class Finish>
void fill_normals(curandGenerator_st* g, float* out, size_t n, Finish finish) {
  if (is_philox(g))
    philox_positions(g, n, false, [&](size_t i, const uint4& b, unsigned part) {
      const unsigned first = part & 2u;
      const float2 pair = box_muller(word(b, first), word(b, first + 1));
      out[i] = finish(part % 2 ? pair.y : pair.x);
    });
  else
    xorwow_slots(g, n / 2, 2, [&](size_t k, const unsigned int* v) {
      const float2 pair = box_muller(v[0], v[1]);
      out[2 * k] = finish(pair.x);
      out[2 * k + 1] = finish(pair.y);
    });
}

template <class Finish>
void fill_normal_doubles(curandGenerator_st* g, double* out, size_t n, Finish finish) {
  if (is_philox(g))
    philox_positions(g, n, true, [&](size_t i, const uint4& b, unsigned part) {
      const double2 pair = box_muller_double(b.x, b.y, b.z, b.w);
      out[i] = finish(part % 2 ? pair.y : pair.x);
    });
  else
    xorwow_slots(g, n / 2, 4, [&](size_t k, const unsigned int* v) {
      const double2 pair = box_muller_double(v[0], v[1], v[2], v[3]);
      out[2 * k] = finish(pair.x);
      out[2 * k + 1] = finish(pair.y);
    });
}

// XORWOW's normals come in whole pairs; Philox's computes each output alone.
bool normal_length_ok(const curandGenerator_st* g, size_t n) { return is_philox(g) || n % 2 == 0; }

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
// A new seed or offset starts the streams again (at the next call).
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  generator->seed = seed;
  generator->streams_ready = false;
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  generator->offset = offset;
  generator->streams_ready = false;
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
  fill_values(generator, outputPtr, num, [](unsigned int x) { return x; });
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGenerateUniform(curandGenerator_t generator, float* outputPtr, size_t num) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  fill_values(generator, outputPtr, num, [](unsigned int x) { return uniform_of(x); });
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double* outputPtr, size_t num) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  fill_uniform_doubles(generator, outputPtr, num);
  return CURAND_STATUS_SUCCESS;
}
// mean + stddev * z: nvcc fuses it into one FMA.
curandStatus_t curandGenerateNormal(curandGenerator_t generator, float* outputPtr, size_t n, float mean,
                                    float stddev) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  if (!normal_length_ok(generator, n)) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  fill_normals(generator, outputPtr, n, [&](float z) { return std::fma(stddev, z, mean); });
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double* outputPtr, size_t n, double mean,
                                          double stddev) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  if (!normal_length_ok(generator, n)) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  fill_normal_doubles(generator, outputPtr, n, [&](double z) { return std::fma(stddev, z, mean); });
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float* outputPtr, size_t n, float mean,
                                       float stddev) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  if (!normal_length_ok(generator, n)) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  fill_normals(generator, outputPtr, n, [&](float z) { return exp_of(std::fma(stddev, z, mean)); });
  return CURAND_STATUS_SUCCESS;
}
curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double* outputPtr, size_t n, double mean,
                                             double stddev) {
  if (!generator) return CURAND_STATUS_NOT_INITIALIZED;
  if (!normal_length_ok(generator, n)) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  fill_normal_doubles(generator, outputPtr, n, [&](double z) { return std::exp(std::fma(stddev, z, mean)); });
  return CURAND_STATUS_SUCCESS;
}
