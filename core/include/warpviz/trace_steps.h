// A trace's steps held compactly: each step encoded as the .wvt file stores it
// (trace_binary.cpp, "layout"), one after another in one byte arena, with the
// offset of each. A typical 32-bit step is 359 bytes instead of TraceStep's 816,
// and loading a .wvt copies its validated step bytes as they are.
//
// Reading a step decodes it: operator[], at(), front(), back() and the iterator
// return a TraceStep by value (`const TraceStep& s = steps[i]` binds the copy).
// Code that scans many steps only for their place or op reads the header
// accessors (block(i), op(i), ...), which decode nothing else.
//
// trace.h defines TraceStep and then includes this file for Trace::steps, so
// this file takes an include guard of its own (not #pragma once): included
// first, it has trace.h define TraceStep and include it back, body and all.
#ifndef WARPVIZ_TRACE_STEPS_H
#include "warpviz/trace.h"
#endif
#ifndef WARPVIZ_TRACE_STEPS_H
#define WARPVIZ_TRACE_STEPS_H

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

namespace warpviz {

// The encoding of one step, shared by the arena and the .wvt reader and writer.
namespace step_encoding {

// Layout bits (byte 22 of a step).
constexpr uint8_t kWideValues = 1;  // lane in/out stored as 8 bytes (else 4)
constexpr uint8_t kMemory = 2;      // lanes carry addr and bytes
constexpr uint8_t kKnownLayoutBits = kWideValues | kMemory;
// The lane flags stored; others are dropped.
constexpr uint8_t kKnownLaneFlags = kLaneActive | kLaneOk | kLaneUndefined;
constexpr uint8_t kKnownStepFlags = kStepPerLaneOperand | kStepRawOperandC;

// Header: block u32, warp u32, seq u32, line u32, mask u32, op u8, dtype u8,
// layout u8, args b i64, width i32, c u32, step flags u8.
constexpr size_t kHeaderBytes = 5 * 4 + 3 + 8 + 4 + 4 + 1;
constexpr size_t kBlockAt = 0, kWarpAt = 4, kSeqAt = 8, kLineAt = 12, kMaskAt = 16, kOpAt = 20, kDTypeAt = 21,
                 kLayoutAt = 22, kArgsBAt = 23, kArgsWidthAt = 31, kArgsCAt = 35, kStepFlagsAt = 39;
// Per lane: in, out (4 bytes each, 8 when wide), src i8, flags u8, then addr
// u32 and bytes u8 only with kMemory.
constexpr size_t lane_bytes(uint8_t layout) {
  return ((layout & kWideValues) ? 16 : 8) + 2 + ((layout & kMemory) ? 5 : 0);
}
// Where a lane's src byte lies within its record (flags follow it).
constexpr size_t lane_src_at(uint8_t layout) { return (layout & kWideValues) ? 16 : 8; }
constexpr size_t step_bytes(uint8_t layout) { return kHeaderBytes + kWarpSize * lane_bytes(layout); }
constexpr size_t kMinStepBytes = step_bytes(0);
constexpr size_t kMaxStepBytes = step_bytes(kKnownLayoutBits);

// The layout the writer picks for a step: wide only when a value needs more
// than 32 bits, memory for shared-memory ops and wherever addr or bytes is set
// (a per-lane shuffle operand is kept in addr). Lossless for every field but
// the reserved bytes and undefined lane flag bits.
uint8_t layout_of(const TraceStep& step);
// Writes `step` at `out` (step_bytes(layout_of(step)) bytes); returns the end.
uint8_t* encode(const TraceStep& step, uint8_t* out);
// Reads the header fields of the step at `p` into `step`, leaving its lanes.
// The bytes must be a valid encoding (op, dtype, layout, flags in range).
void decode_header(const uint8_t* p, TraceStep& step);
// Reads the whole step at `p` (header and lanes; lane flags as stored).
void decode(const uint8_t* p, TraceStep& step);

}  // namespace step_encoding

class TraceSteps {
 public:
  // A random-access iterator whose operator* decodes the step it points at.
  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = TraceStep;
    using difference_type = std::ptrdiff_t;
    using reference = const TraceStep;  // by value: there is no TraceStep in memory to refer to
    struct pointer {
      TraceStep step;
      const TraceStep* operator->() const { return &step; }
    };

    const_iterator() = default;
    const_iterator(const TraceSteps* steps, size_t index) : steps_(steps), index_(index) {}

    const TraceStep operator*() const { return (*steps_)[index_]; }
    pointer operator->() const { return pointer{(*steps_)[index_]}; }
    const TraceStep operator[](difference_type n) const { return (*steps_)[size_t(difference_type(index_) + n)]; }
    size_t index() const { return index_; }

    const_iterator& operator++() { ++index_; return *this; }
    const_iterator operator++(int) { const_iterator old = *this; ++index_; return old; }
    const_iterator& operator--() { --index_; return *this; }
    const_iterator operator--(int) { const_iterator old = *this; --index_; return old; }
    const_iterator& operator+=(difference_type n) { index_ = size_t(difference_type(index_) + n); return *this; }
    const_iterator& operator-=(difference_type n) { index_ = size_t(difference_type(index_) - n); return *this; }
    friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
    friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
    friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
      return difference_type(a.index_) - difference_type(b.index_);
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.index_ == b.index_; }
    friend bool operator!=(const const_iterator& a, const const_iterator& b) { return a.index_ != b.index_; }
    friend bool operator<(const const_iterator& a, const const_iterator& b) { return a.index_ < b.index_; }
    friend bool operator>(const const_iterator& a, const const_iterator& b) { return a.index_ > b.index_; }
    friend bool operator<=(const const_iterator& a, const const_iterator& b) { return a.index_ <= b.index_; }
    friend bool operator>=(const const_iterator& a, const const_iterator& b) { return a.index_ >= b.index_; }

   private:
    const TraceSteps* steps_ = nullptr;
    size_t index_ = 0;
  };
  using iterator = const_iterator;
  using value_type = TraceStep;
  using size_type = size_t;

  size_t size() const { return offsets_.size(); }
  size_t capacity() const { return offsets_.capacity(); }  // steps with offsets reserved
  bool empty() const { return offsets_.empty(); }

  // const: assigning to a decoded copy would change nothing, so it does not compile.
  const TraceStep operator[](size_t i) const {
    TraceStep s;
    step_encoding::decode(bytes(i), s);
    return s;
  }
  const TraceStep at(size_t i) const;  // std::out_of_range past the end
  const TraceStep front() const { return (*this)[0]; }
  const TraceStep back() const { return (*this)[size() - 1]; }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

  // Header fields of step i, without decoding its lanes.
  uint32_t block(size_t i) const { return load_u32(bytes(i) + step_encoding::kBlockAt); }
  uint32_t warp(size_t i) const { return load_u32(bytes(i) + step_encoding::kWarpAt); }
  uint32_t seq(size_t i) const { return load_u32(bytes(i) + step_encoding::kSeqAt); }
  uint32_t line(size_t i) const { return load_u32(bytes(i) + step_encoding::kLineAt); }
  uint32_t mask(size_t i) const { return load_u32(bytes(i) + step_encoding::kMaskAt); }
  Op op(size_t i) const { return Op(bytes(i)[step_encoding::kOpAt]); }
  DType dtype(size_t i) const { return DType(bytes(i)[step_encoding::kDTypeAt]); }
  OpArgs args(size_t i) const {
    const uint8_t* p = bytes(i);
    OpArgs a;
    a.b = int64_t(uint64_t(load_u32(p + step_encoding::kArgsBAt)) |
                  uint64_t(load_u32(p + step_encoding::kArgsBAt + 4)) << 32);
    a.width = int32_t(load_u32(p + step_encoding::kArgsWidthAt));
    a.c = load_u32(p + step_encoding::kArgsCAt);
    return a;
  }
  uint8_t step_flags(size_t i) const { return bytes(i)[step_encoding::kStepFlagsAt]; }
  // The lanes that ran step i (kLaneActive), from its lanes' flag bytes alone.
  uint32_t active_lanes(size_t i) const;

  void push_back(const TraceStep& step);
  // Appends every step of `other`, bytes as they are.
  void append(const TraceSteps& other);
  // Appends one step already encoded (n bytes at p); the caller has checked
  // that they are a valid encoding (the .wvt reader validates them first).
  void append_encoded(const uint8_t* p, size_t n);
  // Replaces step i; a step of another encoded size moves the steps after it.
  void set(size_t i, const TraceStep& step);
  // Decodes step i, lets `edit` change it, and sets it back.
  template <class Edit>
  void modify(size_t i, Edit&& edit) {
    TraceStep step = at(i);
    edit(step);
    set(i, step);
  }
  // Room for `steps` more steps' offsets, and bytes for that many steps of the
  // size seen so far (narrow 32-bit steps when none is held yet).
  void reserve(size_t steps);
  // Room for `bytes` encoded bytes in all; a big arena is backed by huge pages.
  void reserve_bytes(size_t bytes);
  void clear();
  // Keeps the first n steps (n <= size()).
  void truncate(size_t n);
  // Gives back the capacity beyond what the steps take.
  void shrink_to_fit();

  // Equal when every step decodes equal (the encoded bytes may differ: a file
  // may store a step wider than the writer would).
  bool operator==(const TraceSteps& other) const;
  bool operator!=(const TraceSteps& other) const { return !(*this == other); }

  // The encoded form: step i is step_size(i) bytes at step_bytes(i).
  const uint8_t* step_bytes(size_t i) const { return bytes(i); }
  size_t step_size(size_t i) const {
    return (i + 1 < offsets_.size() ? size_t(offsets_[i + 1]) : arena_.size()) - size_t(offsets_[i]);
  }
  // Every step's bytes, back to back: encoded_bytes() of them.
  const uint8_t* encoded_data() const { return data() + begin_; }
  size_t encoded_bytes() const { return arena_.size() - begin_; }
  // Takes `buffer` as the arena: steps lie back to back in its bytes [begin,
  // end), step i at offsets[i] (from the buffer's start), each already checked
  // to be a valid encoding. The .wvt reader hands over the file's bytes so:
  // the steps are not copied, and the bytes before them stay until
  // shrink_to_fit.
  void adopt(std::string&& buffer, size_t begin, size_t end, std::vector<uint64_t>&& offsets);
  // What the steps hold in memory: the arena's and the offsets' capacity.
  size_t bytes_in_memory() const { return arena_.capacity() + offsets_.capacity() * sizeof(uint64_t); }
  size_t arena_capacity() const { return arena_.capacity(); }  // bytes reserved for steps

 private:
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(arena_.data()); }
  uint8_t* arena_storage() { return reinterpret_cast<uint8_t*>(arena_.data()); }
  const uint8_t* bytes(size_t i) const { return data() + offsets_[i]; }
  static uint32_t load_u32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
  }

  // A string for its bytes: the .wvt reader reads a file into one, and the
  // arena adopts it whole.
  std::string arena_;
  size_t begin_ = 0;               // where the first step starts in arena_
  std::vector<uint64_t> offsets_;  // where each step starts in arena_
};

}  // namespace warpviz

#endif  // WARPVIZ_TRACE_STEPS_H
