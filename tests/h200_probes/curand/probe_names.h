// What curand_probe.cu (on a GPU) and host_generator_probe.cpp (libcurand's
// host generator) both print by: the names of the generators and of the
// distributions. Their common cases are host_api_cases.inc.
#pragma once

static const char* rng_name(curandRngType_t t) {
  return t == CURAND_RNG_PSEUDO_PHILOX4_32_10 ? "philox" : t == CURAND_RNG_PSEUDO_XORWOW ? "xorwow" : "default";
}

// ---------------------------------------------------------------------------
// Host API
// ---------------------------------------------------------------------------

enum class Dist { Bits, Uniform, UniformDouble, Normal, NormalDouble, LogNormal, LogNormalDouble };
static const char* dist_name(Dist d) {
  switch (d) {
    case Dist::Bits: return "bits";
    case Dist::Uniform: return "uniform";
    case Dist::UniformDouble: return "uniform_double";
    case Dist::Normal: return "normal";
    case Dist::NormalDouble: return "normal_double";
    case Dist::LogNormal: return "log_normal";
    case Dist::LogNormalDouble: return "log_normal_double";
  }
  return "?";
}

