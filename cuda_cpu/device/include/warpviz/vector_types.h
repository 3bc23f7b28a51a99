// CUDA's built-in vector types (char1 .. double4) and their make_* functions,
// for code compiled by the host compiler against the emulator. Each type has
// the size and alignment CUDA's vector_types.h gives it, because real code
// relies on both: a float4 or int4 is one 16-byte load, a struct of a float3
// and a float packs into 16 bytes, reinterpret_cast<float4*>(p) assumes p is
// 16-byte aligned. The rule (CUDA Programming Guide, "Built-in Vector Types"):
// a 1-, 2- or 4-element vector is aligned to its whole size, capped at 16
// bytes; a 3-element vector only to its element.
//
// dim3 is warpviz::Dim3 (record_host.h).
#pragma once

#define WARPVIZ_VECTOR_TYPES(name, T, align1, align2, align4)                                          \
  struct alignas(align1) name##1 {                                                                     \
    T x;                                                                                               \
  };                                                                                                   \
  struct alignas(align2) name##2 {                                                                     \
    T x, y;                                                                                            \
  };                                                                                                   \
  struct name##3 {                                                                                     \
    T x, y, z;                                                                                         \
  };                                                                                                   \
  struct alignas(align4) name##4 {                                                                     \
    T x, y, z, w;                                                                                      \
  };                                                                                                   \
  inline constexpr name##1 make_##name##1(T x) { return name##1{x}; }                                  \
  inline constexpr name##2 make_##name##2(T x, T y) { return name##2{x, y}; }                          \
  inline constexpr name##3 make_##name##3(T x, T y, T z) { return name##3{x, y, z}; }                  \
  inline constexpr name##4 make_##name##4(T x, T y, T z, T w) { return name##4{x, y, z, w}; }

//                    name       element              1  2   4-element alignment
WARPVIZ_VECTOR_TYPES(char, signed char, 1, 2, 4)
WARPVIZ_VECTOR_TYPES(uchar, unsigned char, 1, 2, 4)
WARPVIZ_VECTOR_TYPES(short, short, 2, 4, 8)
WARPVIZ_VECTOR_TYPES(ushort, unsigned short, 2, 4, 8)
WARPVIZ_VECTOR_TYPES(int, int, 4, 8, 16)
WARPVIZ_VECTOR_TYPES(uint, unsigned int, 4, 8, 16)
WARPVIZ_VECTOR_TYPES(long, long, 8, 16, 16)  // LP64: long is 8 bytes, as on Linux x86-64 and nvcc there
WARPVIZ_VECTOR_TYPES(ulong, unsigned long, 8, 16, 16)
WARPVIZ_VECTOR_TYPES(longlong, long long, 8, 16, 16)
WARPVIZ_VECTOR_TYPES(ulonglong, unsigned long long, 8, 16, 16)
WARPVIZ_VECTOR_TYPES(float, float, 4, 8, 16)
WARPVIZ_VECTOR_TYPES(double, double, 8, 16, 16)
#undef WARPVIZ_VECTOR_TYPES
