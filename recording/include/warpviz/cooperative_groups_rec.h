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

namespace details {
// Bit `rank` set for each member of `members` (warp lanes) whose bit is set
// in `lanes`: a warp-wide mask turned into one indexed by rank in the group.
WARPVIZ_CG inline unsigned lanes_to_ranks(unsigned members, unsigned lanes) {
  unsigned out = 0, rank = 0;
  for (unsigned lane = 0; lane < 32; ++lane)
    if ((members >> lane) & 1u) {
      if ((lanes >> lane) & 1u) out |= 1u << rank;
      ++rank;
    }
  return out;
}
// The lane of the member of rank `rank` in `members`, or 32 when there is none.
WARPVIZ_CG inline unsigned rank_to_lane(unsigned members, unsigned rank) {
  for (unsigned lane = 0; lane < 32; ++lane)
    if ((members >> lane) & 1u) {
      if (rank == 0) return lane;
      --rank;
    }
  return 32;
}
WARPVIZ_CG inline unsigned lanes_below(unsigned members) { return members & ((1u << lane_id()) - 1u); }
}  // namespace details

class thread_block {
 public:
  WARPVIZ_CG static void sync(Line line = __builtin_LINE()) { rec::syncthreads(line); }
  WARPVIZ_CG static unsigned thread_rank() { return rec::thread_linear(); }
  WARPVIZ_CG static unsigned size() { return rec::block_size(); }
  WARPVIZ_CG static unsigned num_threads() { return size(); }
  WARPVIZ_CG static dim3 group_index() { return blockIdx; }
  WARPVIZ_CG static dim3 thread_index() { return threadIdx; }
  WARPVIZ_CG static dim3 group_dim() { return blockDim; }
  WARPVIZ_CG static dim3 dim_threads() { return blockDim; }
};

WARPVIZ_CG inline thread_block this_thread_block() { return thread_block{}; }

// The whole grid. Its barrier needs every block resident at once: a launch
// through cudaLaunchCooperativeKernel (is_valid() says whether this one was).
#if defined(__CUDACC__)
// One barrier word per translation unit, as the recorder is: a grid runs one
// kernel, and all its blocks use the word of the file that kernel is in.
static __device__ unsigned warpviz_grid_arrived;
#endif

class grid_group {
 public:
  WARPVIZ_CG static unsigned long long num_threads() {
    return (unsigned long long)num_blocks() * rec::block_size();
  }
  WARPVIZ_CG static unsigned long long size() { return num_threads(); }
  WARPVIZ_CG static unsigned long long thread_rank() {
    return (unsigned long long)block_rank() * rec::block_size() + rec::thread_linear();
  }
  WARPVIZ_CG static unsigned num_blocks() { return unsigned(gridDim.x) * gridDim.y * gridDim.z; }
  WARPVIZ_CG static unsigned block_rank() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }
  WARPVIZ_CG static dim3 block_index() { return blockIdx; }
  WARPVIZ_CG static dim3 group_dim() { return gridDim; }
  WARPVIZ_CG static dim3 dim_blocks() { return gridDim; }
  WARPVIZ_CG static dim3 dim_threads() { return blockDim; }
#if defined(__CUDACC__)
  WARPVIZ_CG static bool is_valid() { return true; }
  // Every block adds to the word once; block 0 adds enough to flip the top
  // bit once all have arrived, and everyone waits for that flip.
  WARPVIZ_CG static void sync(Line = __builtin_LINE()) {
    __syncthreads();
    if (rec::thread_linear() == 0) {
      const unsigned blocks = num_blocks();
      const unsigned add = block_rank() == 0 ? 0x80000000u - (blocks - 1) : 1u;
      __threadfence();
      const unsigned old = atomicAdd(&warpviz_grid_arrived, add);
      while (((old ^ *(volatile unsigned*)&warpviz_grid_arrived) & 0x80000000u) == 0) {
      }
      __threadfence();
    }
    __syncthreads();
  }
#else
  WARPVIZ_CG static bool is_valid() { return emu::in_cooperative_launch(); }
  WARPVIZ_CG static void sync(Line line = __builtin_LINE()) { emu::grid_barrier(line); }
#endif
};

WARPVIZ_CG inline grid_group this_grid() { return grid_group{}; }

template <unsigned Size, class Parent = void>
class thread_block_tile;

// A tile of Size consecutive ranks of its parent, within one warp.
template <unsigned Size>
class thread_block_tile<Size, void> {
  static_assert(Size == 1 || Size == 2 || Size == 4 || Size == 8 || Size == 16 || Size == 32,
                "the emulator supports the native tile sizes 1..32 (tiles of 64 and more need "
                "block_tile_memory, which warpviz does not have)");

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

// `thread_block_tile<32, thread_block>`, as tiled_partition<32>(block) gives
// it: the same tile, that also converts to the parent-less type.
template <unsigned Size, class Parent>
class thread_block_tile : public thread_block_tile<Size, void> {
 public:
  using thread_block_tile<Size, void>::thread_block_tile;
};

class coalesced_group;

template <unsigned Size, class Parent>
WARPVIZ_CG thread_block_tile<Size, Parent> tiled_partition(const Parent& parent) {
  // Its tiles are ranks of the group, not lanes of the warp: not modelled.
  static_assert(!std::is_same_v<Parent, coalesced_group>,
                "warpviz does not support tiled_partition<N> of a coalesced_group; tiled_partition(group, N) "
                "gives the same tiles as a coalesced_group");
  return thread_block_tile<Size, Parent>(parent.thread_rank(), parent.size());
}

// The lanes active at the call (__activemask), ranked among themselves; also
// what tiled_partition, labeled_partition and binary_partition of a group
// that is not a whole tile give.
class coalesced_group {
 public:
  WARPVIZ_CG explicit coalesced_group(unsigned mask, unsigned meta_rank = 0, unsigned meta_size = 1)
      : mask_(mask), meta_rank_(meta_rank), meta_size_(meta_size) {}
  WARPVIZ_CG unsigned size() const { return unsigned(__popc(mask_)); }
  WARPVIZ_CG unsigned num_threads() const { return size(); }
  WARPVIZ_CG unsigned thread_rank() const { return unsigned(__popc(details::lanes_below(mask_))); }
  WARPVIZ_CG unsigned meta_group_rank() const { return meta_rank_; }
  WARPVIZ_CG unsigned meta_group_size() const { return meta_size_; }
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
  // Votes and matches answer by rank: bit i is the member of rank i.
  WARPVIZ_CG unsigned ballot(int predicate, Line line = __builtin_LINE()) const {
    return details::lanes_to_ranks(mask_, rec::ballot(line, mask_, predicate));
  }
  WARPVIZ_CG int any(int predicate, Line line = __builtin_LINE()) const {
    return rec::ballot(line, mask_, predicate) != 0;
  }
  WARPVIZ_CG int all(int predicate, Line line = __builtin_LINE()) const {
    return rec::ballot(line, mask_, predicate) == mask_;
  }
  template <class T>
  WARPVIZ_CG unsigned match_any(T v, Line line = __builtin_LINE()) const {
    return details::lanes_to_ranks(mask_, rec::match_any(line, mask_, v));
  }
  template <class T>
  WARPVIZ_CG unsigned match_all(T v, int& pred, Line line = __builtin_LINE()) const {
    return details::lanes_to_ranks(mask_, rec::match_all(line, mask_, v, &pred));
  }
  WARPVIZ_CG void sync(Line line = __builtin_LINE()) const { rec::syncwarp(line, mask_); }

 private:
  unsigned mask_;
  unsigned meta_rank_, meta_size_;
};

WARPVIZ_CG inline coalesced_group coalesced_threads(Line line = __builtin_LINE()) {
  return coalesced_group(rec::activemask(line));
}

// Any group, its kind known only at run time: a block, a tile of up to 32
// lanes (tiled_partition(parent, n)) or a set of lanes of one warp.
class thread_group {
 public:
  WARPVIZ_CG thread_group(const thread_block&) : kind_(Kind::Block), mask_(0), meta_rank_(0), meta_size_(1) {}
  template <unsigned Size, class Parent>
  WARPVIZ_CG thread_group(const thread_block_tile<Size, Parent>& tile)
      : kind_(Kind::Lanes), mask_(tile.build_mask()), meta_rank_(tile.meta_group_rank()),
        meta_size_(tile.meta_group_size()) {}
  WARPVIZ_CG thread_group(const coalesced_group& g)
      : kind_(Kind::Lanes), mask_(g.build_mask()), meta_rank_(g.meta_group_rank()), meta_size_(g.meta_group_size()) {}
  WARPVIZ_CG thread_group(unsigned lanes, unsigned meta_rank, unsigned meta_size)
      : kind_(Kind::Lanes), mask_(lanes), meta_rank_(meta_rank), meta_size_(meta_size) {}

  WARPVIZ_CG unsigned long long size() const {
    return kind_ == Kind::Block ? rec::block_size() : unsigned(__popc(mask_));
  }
  WARPVIZ_CG unsigned long long num_threads() const { return size(); }
  WARPVIZ_CG unsigned long long thread_rank() const {
    return kind_ == Kind::Block ? rec::thread_linear() : unsigned(__popc(details::lanes_below(mask_)));
  }
  WARPVIZ_CG unsigned meta_group_rank() const { return meta_rank_; }
  WARPVIZ_CG unsigned meta_group_size() const { return meta_size_; }
  WARPVIZ_CG void sync(Line line = __builtin_LINE()) const {
    if (kind_ == Kind::Block) rec::syncthreads(line);
    else rec::syncwarp(line, mask_);
  }
  WARPVIZ_CG bool is_block() const { return kind_ == Kind::Block; }
  WARPVIZ_CG unsigned build_mask() const { return mask_; }

 private:
  enum class Kind : unsigned char { Block, Lanes };
  Kind kind_;
  unsigned mask_;
  unsigned meta_rank_, meta_size_;
};

// tiled_partition(parent, n) at run time: n a power of two up to 32, the tile
// of n consecutive ranks holding this thread.
WARPVIZ_CG inline thread_group tiled_partition(const thread_group& parent, unsigned tile_size) {
  if (tile_size == 0 || tile_size > 32 || (tile_size & (tile_size - 1)) != 0) {
#if defined(__CUDACC__)
    __trap();
#else
    throw std::runtime_error("cg::tiled_partition(parent, " + std::to_string(tile_size) +
                             "): the tile size must be a power of two from 1 to 32");
#endif
  }
  const unsigned long long parent_size = parent.size(), rank = parent.thread_rank();
  const unsigned meta_size = unsigned((parent_size + tile_size - 1) / tile_size);
  if (parent.is_block()) {
    const unsigned lanes = tile_size == 32 ? 0xffffffffu : ((1u << tile_size) - 1u) << (lane_id() & ~(tile_size - 1));
    return thread_group(lanes, unsigned(rank / tile_size), meta_size);
  }
  // Within a warp's group: ranks [k*n, k*n + n) of the parent.
  const unsigned first = unsigned(rank / tile_size) * tile_size;
  unsigned lanes = 0;
  for (unsigned r = first; r < first + tile_size && r < parent_size; ++r)
    lanes |= 1u << details::rank_to_lane(parent.build_mask(), r);
  return thread_group(lanes, unsigned(rank / tile_size), meta_size);
}
WARPVIZ_CG inline thread_group tiled_partition(const thread_block& parent, unsigned tile_size) {
  return tiled_partition(thread_group(parent), tile_size);
}
template <unsigned Size, class Parent>
WARPVIZ_CG thread_group tiled_partition(const thread_block_tile<Size, Parent>& parent, unsigned tile_size) {
  return tiled_partition(thread_group(parent), tile_size);
}
WARPVIZ_CG inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned tile_size) {
  const thread_group tile = tiled_partition(thread_group(parent), tile_size);
  return coalesced_group(tile.build_mask(), tile.meta_group_rank(), tile.meta_group_size());
}

// The members that pass the same label: one __match_any_sync over the group.
template <class Label>
WARPVIZ_CG coalesced_group labeled_partition(const coalesced_group& g, Label label, Line line = __builtin_LINE()) {
  return coalesced_group(rec::match_any(line, g.build_mask(), label));
}
template <unsigned Size, class Parent, class Label>
WARPVIZ_CG coalesced_group labeled_partition(const thread_block_tile<Size, Parent>& g, Label label,
                                             Line line = __builtin_LINE()) {
  return coalesced_group(rec::match_any(line, g.build_mask(), label));
}
// The members whose predicate is the same as this thread's: one ballot.
WARPVIZ_CG inline coalesced_group binary_partition(const coalesced_group& g, bool pred, Line line = __builtin_LINE()) {
  const unsigned yes = rec::ballot(line, g.build_mask(), pred);
  return coalesced_group(pred ? yes : g.build_mask() & ~yes);
}
template <unsigned Size, class Parent>
WARPVIZ_CG coalesced_group binary_partition(const thread_block_tile<Size, Parent>& g, bool pred,
                                            Line line = __builtin_LINE()) {
  const unsigned yes = rec::ballot(line, g.build_mask(), pred);
  return coalesced_group(pred ? yes : g.build_mask() & ~yes);
}

// cg::sync(group): the group's own barrier.
template <class Group>
WARPVIZ_CG void sync(const Group& g, Line line = __builtin_LINE()) {
  g.sync(line);
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

// --- The same over a coalesced group (any set of lanes of one warp) ---

// Hillis-Steele by rank: a member's partner is the one m ranks below it.
template <class T, class Fn>
WARPVIZ_CG T inclusive_scan(const coalesced_group& g, T value, Fn op, Line line = __builtin_LINE()) {
  T out = value;
  for (unsigned m = 1; m < g.size(); m <<= 1) {
    T from_below = g.shfl_up(out, m, line);
    if (m <= g.thread_rank()) out = op(out, from_below);
  }
  return out;
}
template <class T>
WARPVIZ_CG T inclusive_scan(const coalesced_group& g, T value, Line line = __builtin_LINE()) {
  return inclusive_scan(g, value, plus<T>(), line);
}
template <class T, class Fn>
WARPVIZ_CG T exclusive_scan(const coalesced_group& g, T value, Fn op, Line line = __builtin_LINE()) {
  const T inclusive = inclusive_scan(g, value, op, line);
  if constexpr (std::is_integral_v<T> && std::is_same_v<Fn, plus<T>>) {
    return inclusive - value;
  } else {
    const T below = g.shfl_up(inclusive, 1, line);
    return g.thread_rank() == 0 ? T{} : below;
  }
}
template <class T>
WARPVIZ_CG T exclusive_scan(const coalesced_group& g, T value, Line line = __builtin_LINE()) {
  return exclusive_scan(g, value, plus<T>(), line);
}

// A whole warp reduces as a tile of 32 does; any other set of lanes scans and
// takes the last rank's total. Built-in integer operators use redux.sync
// with the group's mask, which takes any set of lanes.
template <class T, class Fn>
WARPVIZ_CG T reduce(const coalesced_group& g, T value, Fn op, Line line = __builtin_LINE()) {
  if constexpr (std::is_integral_v<T> && sizeof(T) <= 4 && details::is_redux_operator<Fn, T>) {
    constexpr warpviz::Op redux_op = details::redux_op_for<Fn, T>();
    if constexpr (redux_op == warpviz::Op::ReduxAnd || redux_op == warpviz::Op::ReduxOr ||
                  redux_op == warpviz::Op::ReduxXor)
      return T(rec::redux(redux_op, line, g.build_mask(), unsigned(value)));
    else
      return rec::redux(redux_op, line, g.build_mask(), value);
  } else {
    if (g.size() == 32) {
      T out = value;
      for (unsigned m = 16; m > 0; m >>= 1) out = op(out, rec::shfl_xor(line, 0xffffffffu, out, int(m), 32));
      return out;
    }
    const T total = inclusive_scan(g, value, op, line);
    return g.shfl(total, g.size() - 1, line);
  }
}

}  // namespace warpviz::cg

// Kernels write `namespace cg = cooperative_groups;` as with the CUDA headers.
namespace cooperative_groups = warpviz::cg;
