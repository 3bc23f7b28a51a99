// Cooperative groups built on the recorded intrinsics, for both backends, along
// the same paths the CUDA 13 headers take (docs/warp-rules.md#cooperative-groups), so a trace
// shows the shuffles and votes a real tile performs. (The CUDA headers' own
// groups call the intrinsics directly, which nothing could record.)
//
// Member functions take the caller's line as a defaulted __builtin_LINE(), so
// a step points at the kernel line that called the group, not at this header.
#pragma once

#include <type_traits>

#if defined(__CUDACC__)
#define WARPVIZ_CG __device__
#else
#define WARPVIZ_CG
#endif

namespace warpviz::cg {

using Line = uint32_t;

WARPVIZ_CG inline unsigned lane_id() { return rec::lane_id(); }

class thread_block {
 public:
  WARPVIZ_CG void sync(Line line = __builtin_LINE()) const { rec::syncthreads(line); }
  WARPVIZ_CG unsigned thread_rank() const { return rec::thread_linear(); }
  WARPVIZ_CG unsigned size() const { return rec::block_size(); }
  WARPVIZ_CG unsigned num_threads() const { return size(); }
  WARPVIZ_CG dim3 group_index() const { return blockIdx; }
  WARPVIZ_CG dim3 thread_index() const { return threadIdx; }
  WARPVIZ_CG dim3 group_dim() const { return blockDim; }
};

WARPVIZ_CG inline thread_block this_thread_block() { return thread_block{}; }

template <unsigned Size>
class thread_block_tile {
  static_assert(Size == 1 || Size == 2 || Size == 4 || Size == 8 || Size == 16 || Size == 32,
                "the emulator supports the native tile sizes 1..32");

 public:
  WARPVIZ_CG thread_block_tile(unsigned parent_rank, unsigned parent_size)
      : parent_rank_(parent_rank), parent_size_(parent_size) {}

  WARPVIZ_CG static constexpr unsigned num_threads() { return Size; }
  WARPVIZ_CG static constexpr unsigned size() { return Size; }
  WARPVIZ_CG unsigned thread_rank() const { return lane_id() & (Size - 1); }
  WARPVIZ_CG unsigned meta_group_rank() const { return parent_rank_ / Size; }
  WARPVIZ_CG unsigned meta_group_size() const { return (parent_size_ + Size - 1) / Size; }
  // cooperative_groups.h build_mask(): this tile's lanes within the warp.
  WARPVIZ_CG unsigned build_mask() const {
    if constexpr (Size == 32) return 0xffffffffu;
    else return ((1u << Size) - 1u) << (lane_id() & ~(Size - 1));
  }

  template <class T>
  WARPVIZ_CG T shfl(T v, int src_rank, Line line = __builtin_LINE()) const {
    return rec::shfl_idx(line, build_mask(), v, src_rank, int(Size));
  }
  template <class T>
  WARPVIZ_CG T shfl_down(T v, unsigned delta, Line line = __builtin_LINE()) const {
    return rec::shfl_down(line, build_mask(), v, delta, int(Size));
  }
  template <class T>
  WARPVIZ_CG T shfl_up(T v, unsigned delta, Line line = __builtin_LINE()) const {
    return rec::shfl_up(line, build_mask(), v, delta, int(Size));
  }
  template <class T>
  WARPVIZ_CG T shfl_xor(T v, unsigned lane_mask, Line line = __builtin_LINE()) const {
    return rec::shfl_xor(line, build_mask(), v, int(lane_mask), int(Size));
  }

  // Votes are relative to the tile: the warp ballot shifted down to rank 0.
  WARPVIZ_CG unsigned ballot(int predicate, Line line = __builtin_LINE()) const {
    return rec::ballot(line, build_mask(), predicate) >> (lane_id() & ~(Size - 1));
  }
  WARPVIZ_CG int any(int predicate, Line line = __builtin_LINE()) const {
    return rec::ballot(line, build_mask(), predicate) != 0;
  }
  WARPVIZ_CG int all(int predicate, Line line = __builtin_LINE()) const {
    return rec::ballot(line, build_mask(), predicate) == build_mask();
  }
  template <class T>
  WARPVIZ_CG unsigned match_any(T v, Line line = __builtin_LINE()) const {
    return rec::match_any(line, build_mask(), v) >> (lane_id() & ~(Size - 1));
  }
  template <class T>
  WARPVIZ_CG unsigned match_all(T v, int& pred, Line line = __builtin_LINE()) const {
    return rec::match_all(line, build_mask(), v, &pred) >> (lane_id() & ~(Size - 1));
  }
  WARPVIZ_CG void sync(Line line = __builtin_LINE()) const { rec::syncwarp(line, build_mask()); }

 private:
  unsigned parent_rank_, parent_size_;
};

template <unsigned Size, class Parent>
WARPVIZ_CG thread_block_tile<Size> tiled_partition(const Parent& parent) {
  return thread_block_tile<Size>(parent.thread_rank(), parent.size());
}

// The lanes active at the call (__activemask), ranked among themselves.
class coalesced_group {
 public:
  WARPVIZ_CG explicit coalesced_group(unsigned mask) : mask_(mask) {}
  WARPVIZ_CG unsigned size() const { return unsigned(__popc(mask_)); }
  WARPVIZ_CG unsigned num_threads() const { return size(); }
  WARPVIZ_CG unsigned thread_rank() const { return unsigned(__popc(mask_ & ((1u << lane_id()) - 1u))); }
  WARPVIZ_CG unsigned build_mask() const { return mask_; }

  template <class T>
  WARPVIZ_CG T shfl(T v, unsigned src_rank, Line line = __builtin_LINE()) const {
    if (size() == 32) return rec::shfl_idx(line, 0xffffffffu, v, int(src_rank), 32);
    const unsigned src_lane = __fns(mask_, 0, int(src_rank) + 1);
    return rec::shfl_idx(line, mask_, v, int(src_lane), 32);
  }
  // Not full: the delta-th member above/below, or the caller itself if none.
  template <class T>
  WARPVIZ_CG T shfl_down(T v, unsigned delta, Line line = __builtin_LINE()) const {
    if (size() == 32) return rec::shfl_down(line, 0xffffffffu, v, delta, 32);
    unsigned src_lane = __fns(mask_, lane_id(), int(delta) + 1);
    if (src_lane >= 32) src_lane = lane_id();
    return rec::shfl_idx(line, mask_, v, int(src_lane), 32);
  }
  template <class T>
  WARPVIZ_CG T shfl_up(T v, unsigned delta, Line line = __builtin_LINE()) const {
    if (size() == 32) return rec::shfl_up(line, 0xffffffffu, v, delta, 32);
    unsigned src_lane = __fns(mask_, lane_id(), -(int(delta) + 1));
    if (src_lane >= 32) src_lane = lane_id();
    return rec::shfl_idx(line, mask_, v, int(src_lane), 32);
  }
  WARPVIZ_CG void sync(Line line = __builtin_LINE()) const { rec::syncwarp(line, mask_); }

 private:
  unsigned mask_;
};

WARPVIZ_CG inline coalesced_group coalesced_threads(Line line = __builtin_LINE()) {
  return coalesced_group(rec::activemask(line));
}

// --- Operators (details/functional.h): compare-and-select, not fminf/fmaxf ---
template <class T>
struct plus {
  WARPVIZ_CG T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {
  WARPVIZ_CG T operator()(T a, T b) const { return (b < a) ? b : a; }
};
template <class T>
struct greater {
  WARPVIZ_CG T operator()(T a, T b) const { return (a < b) ? b : a; }
};
template <class T>
struct bit_and {
  WARPVIZ_CG T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
  WARPVIZ_CG T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
  WARPVIZ_CG T operator()(T a, T b) const { return a ^ b; }
};

namespace details {

template <class Fn, class T>
constexpr warpviz::Op redux_op_for() {
  if constexpr (std::is_same_v<Fn, plus<T>>) return warpviz::Op::ReduxAdd;
  else if constexpr (std::is_same_v<Fn, less<T>>) return warpviz::Op::ReduxMin;
  else if constexpr (std::is_same_v<Fn, greater<T>>) return warpviz::Op::ReduxMax;
  else if constexpr (std::is_same_v<Fn, bit_and<T>>) return warpviz::Op::ReduxAnd;
  else if constexpr (std::is_same_v<Fn, bit_or<T>>) return warpviz::Op::ReduxOr;
  else return warpviz::Op::ReduxXor;
}

template <class Fn, class T>
constexpr bool is_redux_operator =
    std::is_same_v<Fn, plus<T>> || std::is_same_v<Fn, less<T>> || std::is_same_v<Fn, greater<T>> ||
    std::is_same_v<Fn, bit_and<T>> || std::is_same_v<Fn, bit_or<T>> || std::is_same_v<Fn, bit_xor<T>>;

template <class Group>
struct is_tile_of_16_or_more : std::false_type {};
template <unsigned Size>
struct is_tile_of_16_or_more<thread_block_tile<Size>> : std::bool_constant<(Size >= 16)> {};

}  // namespace details

// cg::reduce: the hardware redux path when the CUDA headers take it (sm_80+,
// integral <= 4 bytes, a built-in operator, a tile of >= 16), else the xor
// butterfly with operands (own, partner).
template <unsigned Size, class T, class Fn>
WARPVIZ_CG T reduce(const thread_block_tile<Size>& tile, T value, Fn op, Line line = __builtin_LINE()) {
  if constexpr (std::is_integral_v<T> && sizeof(T) <= 4 && details::is_redux_operator<Fn, T> &&
                details::is_tile_of_16_or_more<thread_block_tile<Size>>::value) {
    constexpr warpviz::Op redux_op = details::redux_op_for<Fn, T>();
    if constexpr (redux_op == warpviz::Op::ReduxAnd || redux_op == warpviz::Op::ReduxOr ||
                  redux_op == warpviz::Op::ReduxXor)
      return T(rec::redux(redux_op, line, tile.build_mask(), unsigned(value)));
    else
      return rec::redux(redux_op, line, tile.build_mask(), value);
  } else {
    T out = value;
    for (unsigned m = Size / 2; m > 0; m >>= 1) out = op(out, tile.shfl_xor(out, m, line));
    return out;
  }
}

// Hillis-Steele scan over shfl_up (details/coalesced_scan.h).
template <unsigned Size, class T, class Fn>
WARPVIZ_CG T inclusive_scan(const thread_block_tile<Size>& tile, T value, Fn op, Line line = __builtin_LINE()) {
  T out = value;
  for (unsigned m = 1; m < Size; m <<= 1) {
    T from_below = tile.shfl_up(out, m, line);
    if (m <= tile.thread_rank()) out = op(out, from_below);
  }
  return out;
}
template <unsigned Size, class T>
WARPVIZ_CG T inclusive_scan(const thread_block_tile<Size>& tile, T value, Line line = __builtin_LINE()) {
  return inclusive_scan(tile, value, plus<T>(), line);
}

// Integral plus: inclusive - v. Anything else: the inclusive result one rank
// down, rank 0 getting T{} (+0.0f for floats).
template <unsigned Size, class T, class Fn>
WARPVIZ_CG T exclusive_scan(const thread_block_tile<Size>& tile, T value, Fn op, Line line = __builtin_LINE()) {
  const T inclusive = inclusive_scan(tile, value, op, line);
  if constexpr (std::is_integral_v<T> && std::is_same_v<Fn, plus<T>>) {
    return inclusive - value;
  } else {
    const T below = tile.shfl_up(inclusive, 1, line);
    return tile.thread_rank() == 0 ? T{} : below;
  }
}
template <unsigned Size, class T>
WARPVIZ_CG T exclusive_scan(const thread_block_tile<Size>& tile, T value, Line line = __builtin_LINE()) {
  return exclusive_scan(tile, value, plus<T>(), line);
}

}  // namespace warpviz::cg

// Kernels write `namespace cg = cooperative_groups;` as with the CUDA headers.
namespace cooperative_groups = warpviz::cg;
