// The link between a C++ value type in a kernel and a trace value: its DType
// and its exact bits.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "warpviz/dtype.h"
#include "warpviz/gpu_float.h"

namespace warpviz {

template <class T, class = void>
struct ValueBits;

// bool, char and short travel in a 32-bit register, as CUDA's int overloads
// of __shfl_sync take them: sign- or zero-extended.
template <class T>
struct ValueBits<T, std::enable_if_t<std::is_integral_v<T> && sizeof(T) < 4>> {
  static constexpr DType dtype = std::is_signed_v<T> ? DType::I32 : DType::U32;
  static uint64_t to_bits(T v) { return uint64_t(uint32_t(int32_t(v))); }
  static T from_bits(uint64_t b) { return T(uint32_t(b)); }
};

template <class T>
struct ValueBits<T, std::enable_if_t<std::is_integral_v<T> && sizeof(T) == 4>> {
  static constexpr DType dtype = std::is_signed_v<T> ? DType::I32 : DType::U32;
  static uint64_t to_bits(T v) { return uint64_t(uint32_t(v)); }
  static T from_bits(uint64_t b) { return T(uint32_t(b)); }
};

template <class T>
struct ValueBits<T, std::enable_if_t<std::is_integral_v<T> && sizeof(T) == 8>> {
  static constexpr DType dtype = std::is_signed_v<T> ? DType::I64 : DType::U64;
  static uint64_t to_bits(T v) { return uint64_t(v); }
  static T from_bits(uint64_t b) { return T(b); }
};

template <>
struct ValueBits<float> {
  static constexpr DType dtype = DType::F32;
  static uint64_t to_bits(float v) { return std::bit_cast<uint32_t>(v); }
  static float from_bits(uint64_t b) { return std::bit_cast<float>(uint32_t(b)); }
};

template <>
struct ValueBits<double> {
  static constexpr DType dtype = DType::F64;
  static uint64_t to_bits(double v) { return std::bit_cast<uint64_t>(v); }
  static double from_bits(uint64_t b) { return std::bit_cast<double>(b); }
};

template <>
struct ValueBits<GpuFloat> {
  static constexpr DType dtype = DType::F32;
  static uint64_t to_bits(GpuFloat v) { return v.bits(); }
  static GpuFloat from_bits(uint64_t b) { return GpuFloat::from_bits(uint32_t(b)); }
};

template <>
struct ValueBits<GpuDouble> {
  static constexpr DType dtype = DType::F64;
  static uint64_t to_bits(GpuDouble v) { return v.bits(); }
  static GpuDouble from_bits(uint64_t b) { return GpuDouble::from_bits(b); }
};

}  // namespace warpviz
