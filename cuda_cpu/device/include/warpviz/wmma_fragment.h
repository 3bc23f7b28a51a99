// CUDA's warp matrix API (mma.h, namespace nvcuda::wmma) for code compiled by
// the host compiler against the emulator: fragments, load/store/fill and
// mma_sync.
//
// How a fragment's elements map to lanes is unspecified on the GPU (CUDA
// Programming Guide, "Warp Matrix Functions": "the mapping of matrix elements
// into fragment internal storage is unspecified"), so code can rely only on
// load, store, fill, mma and element-wise loops over x[0 .. num_elements).
// Here every lane keeps the whole tile: each lane's load reads all of it, its
// mma computes all of it, and its store writes all of it (the 32 lanes store
// the same values). Element-wise loops see the whole tile in each lane, which
// gives the same tile as the GPU's share of it per lane.
//
// The products of f16/bf16/tf32/int8 inputs are exact; the tensor core's sum
// of them is not specified bit for bit either, so here each result element is
// the exact sum (in double, or 64-bit integers) plus c, rounded once
// (docs/floats.md, "Warp matrix functions").
#pragma once

#include <cstdint>
#include <type_traits>

#include "warpviz/half_types.h"

namespace nvcuda::wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

namespace precision {
struct tf32 {};  // stored as float, read with 10 mantissa bits
}  // namespace precision

namespace detail {

template <class Use, int M, int N, int K>
struct TileShape;
template <int M, int N, int K>
struct TileShape<matrix_a, M, N, K> {
  static constexpr int rows = M, cols = K;
};
template <int M, int N, int K>
struct TileShape<matrix_b, M, N, K> {
  static constexpr int rows = K, cols = N;
};
template <int M, int N, int K>
struct TileShape<accumulator, M, N, K> {
  static constexpr int rows = M, cols = N;
};

template <class T>
struct Storage {
  using type = T;
};
template <>
struct Storage<precision::tf32> {
  using type = float;
};

// Where element (r, c) of a tile lies in memory, ldm elements between rows
// (row-major) or between columns (column-major).
inline unsigned offset(unsigned r, unsigned c, unsigned ldm, bool row_major) {
  return row_major ? r * ldm + c : c * ldm + r;
}

// tf32: a float with its low 13 mantissa bits ignored, as the tensor core reads it.
inline double operand_value(float v, precision::tf32*) {
  return double(__uint_as_float(__float_as_uint(v) & 0xffffe000u));
}
template <class T>
inline double operand_value(T v, void*) {
  return double(float(v));
}

}  // namespace detail

template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
 public:
  using element_type = typename detail::Storage<T>::type;
  using storage_element_type = element_type;
  static constexpr int rows = detail::TileShape<Use, M, N, K>::rows;
  static constexpr int cols = detail::TileShape<Use, M, N, K>::cols;
  static constexpr int num_elements = rows * cols;
  element_type x[num_elements];

  element_type& at(int r, int c) { return x[r * cols + c]; }
  const element_type& at(int r, int c) const { return x[r * cols + c]; }
};

template <class Use, int M, int N, int K, class T, class Layout, class V>
inline void fill_fragment(fragment<Use, M, N, K, T, Layout>& f, const V& value) {
  using E = typename fragment<Use, M, N, K, T, Layout>::element_type;
  for (int i = 0; i < f.num_elements; ++i) f.x[i] = E(value);
}

// matrix_a / matrix_b: the layout is the fragment's type.
template <class Use, int M, int N, int K, class T, class Layout, class P>
inline void load_matrix_sync(fragment<Use, M, N, K, T, Layout>& f, const P* p, unsigned ldm) {
  static_assert(!std::is_same_v<Use, accumulator>,
                "wmma::load_matrix_sync of an accumulator takes a layout (mem_row_major or mem_col_major)");
  using E = typename fragment<Use, M, N, K, T, Layout>::element_type;
  const bool row = std::is_same_v<Layout, row_major>;
  for (int r = 0; r < f.rows; ++r)
    for (int c = 0; c < f.cols; ++c) f.at(r, c) = E(p[detail::offset(r, c, ldm, row)]);
}

template <int M, int N, int K, class T, class P>
inline void load_matrix_sync(fragment<accumulator, M, N, K, T>& f, const P* p, unsigned ldm, layout_t layout) {
  for (int r = 0; r < f.rows; ++r)
    for (int c = 0; c < f.cols; ++c) f.at(r, c) = T(p[detail::offset(r, c, ldm, layout == mem_row_major)]);
}

template <int M, int N, int K, class T, class P>
inline void store_matrix_sync(P* p, const fragment<accumulator, M, N, K, T>& f, unsigned ldm, layout_t layout) {
  for (int r = 0; r < f.rows; ++r)
    for (int c = 0; c < f.cols; ++c) p[detail::offset(r, c, ldm, layout == mem_row_major)] = P(f.at(r, c));
}

// d = a * b + c. Integer inputs accumulate exactly in 64 bits; satf clamps
// to int32 (and, for floats, a NaN result to 0) as the Programming Guide says.
template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC, class TD>
inline void mma_sync(fragment<accumulator, M, N, K, TD>& d, const fragment<matrix_a, M, N, K, TA, LA>& a,
                     const fragment<matrix_b, M, N, K, TB, LB>& b, const fragment<accumulator, M, N, K, TC>& c,
                     bool satf = false) {
  fragment<accumulator, M, N, K, TD> out;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      if constexpr (std::is_integral_v<TD>) {
        int64_t sum = c.at(i, j);
        for (int k = 0; k < K; ++k) sum += int64_t(a.at(i, k)) * int64_t(b.at(k, j));
        if (satf) sum = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum;
        out.at(i, j) = TD(int32_t(uint32_t(uint64_t(sum))));
      } else {
        double sum = double(float(c.at(i, j)));
        for (int k = 0; k < K; ++k)
          sum += detail::operand_value(a.at(i, k), static_cast<TA*>(nullptr)) *
                 detail::operand_value(b.at(k, j), static_cast<TB*>(nullptr));
        float result = float(sum);
        if (satf && result != result) result = 0.0f;
        out.at(i, j) = TD(result);
      }
    }
  d = out;
}

}  // namespace nvcuda::wmma

// CUDA's tf32 conversion: round to nearest, ties away from zero, to 10
// mantissa bits (the low 13 bits zero); NaN and infinity unchanged.
inline float __float_to_tf32(float x) {
  const uint32_t bits = __float_as_uint(x);
  if ((bits & 0x7f800000u) == 0x7f800000u) return x;
  return __uint_as_float((bits + 0x1000u) & 0xffffe000u);
}
