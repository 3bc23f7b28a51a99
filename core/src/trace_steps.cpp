// TraceSteps and the one encoder and decoder of a step (the .wvt step layout).
#include "warpviz/trace_steps.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "trace_io_internal.h"

namespace warpviz {

namespace step_encoding {

namespace {

using detail::load_u32;
using detail::load_u64;
using detail::store_u32;
using detail::store_u64;

using detail::fits_u32;

// The 32 lanes of one layout, without a branch per field.
template <bool kWide, bool kWithMemory>
void decode_lanes(const uint8_t* p, LaneRecord* lanes) {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    LaneRecord& l = lanes[lane];
    if constexpr (kWide) {
      l.in = load_u64(p);
      l.out = load_u64(p + 8);
      p += 16;
    } else {
      l.in = load_u32(p);
      l.out = load_u32(p + 4);
      p += 8;
    }
    l.src = int8_t(p[0]);
    l.flags = p[1];
    p += 2;
    if constexpr (kWithMemory) {
      l.addr = load_u32(p);
      l.bytes = p[4];
      p += 5;
    } else {
      l.addr = 0;
      l.bytes = 0;
    }
    l.reserved = 0;
  }
}

template <bool kWide, bool kWithMemory>
uint8_t* encode_lanes(const LaneRecord* lanes, uint8_t* p) {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord& l = lanes[lane];
    if constexpr (kWide) {
      store_u64(p, l.in);
      store_u64(p + 8, l.out);
      p += 16;
    } else {
      store_u32(p, uint32_t(l.in));
      store_u32(p + 4, uint32_t(l.out));
      p += 8;
    }
    p[0] = uint8_t(l.src);
    p[1] = l.flags & kKnownLaneFlags;
    p += 2;
    if constexpr (kWithMemory) {
      store_u32(p, l.addr);
      p[4] = l.bytes;
      p += 5;
    }
  }
  return p;
}

}  // namespace

uint8_t layout_of(const TraceStep& s) {
  uint8_t layout = op_is_shared(s.op) ? kMemory : 0;
  for (const LaneRecord& l : s.lanes) {
    if (!fits_u32(l.in) || !fits_u32(l.out)) layout |= kWideValues;
    if (l.addr != 0 || l.bytes != 0) layout |= kMemory;
  }
  return layout;
}

uint8_t* encode(const TraceStep& s, uint8_t* p) {
  const uint8_t layout = layout_of(s);
  store_u32(p + kBlockAt, s.block);
  store_u32(p + kWarpAt, s.warp);
  store_u32(p + kSeqAt, s.seq);
  store_u32(p + kLineAt, s.line);
  store_u32(p + kMaskAt, s.mask);
  p[kOpAt] = uint8_t(s.op);
  p[kDTypeAt] = uint8_t(s.dtype);
  p[kLayoutAt] = layout;
  store_u64(p + kArgsBAt, uint64_t(s.args.b));
  store_u32(p + kArgsWidthAt, uint32_t(s.args.width));
  store_u32(p + kArgsCAt, s.args.c);
  p[kStepFlagsAt] = s.step_flags;
  p += kHeaderBytes;
  switch (layout) {
    case 0: return encode_lanes<false, false>(s.lanes, p);
    case kWideValues: return encode_lanes<true, false>(s.lanes, p);
    case kMemory: return encode_lanes<false, true>(s.lanes, p);
    default: return encode_lanes<true, true>(s.lanes, p);
  }
}

void decode_header(const uint8_t* p, TraceStep& s) {
  s.block = load_u32(p + kBlockAt);
  s.warp = load_u32(p + kWarpAt);
  s.seq = load_u32(p + kSeqAt);
  s.line = load_u32(p + kLineAt);
  s.mask = load_u32(p + kMaskAt);
  s.op = Op(p[kOpAt]);
  s.dtype = DType(p[kDTypeAt]);
  s.args.b = int64_t(load_u64(p + kArgsBAt));
  s.args.width = int32_t(load_u32(p + kArgsWidthAt));
  s.args.c = load_u32(p + kArgsCAt);
  s.step_flags = p[kStepFlagsAt];
  s.reserved = 0;
}

void decode(const uint8_t* p, TraceStep& s) {
  decode_header(p, s);
  const uint8_t layout = p[kLayoutAt];
  p += kHeaderBytes;
  switch (layout & kKnownLayoutBits) {
    case 0: decode_lanes<false, false>(p, s.lanes); break;
    case kWideValues: decode_lanes<true, false>(p, s.lanes); break;
    case kMemory: decode_lanes<false, true>(p, s.lanes); break;
    default: decode_lanes<true, true>(p, s.lanes); break;
  }
}

}  // namespace step_encoding

const TraceStep TraceSteps::at(size_t i) const {
  if (i >= size())
    throw std::out_of_range("step " + std::to_string(i) + " of a trace of " + std::to_string(size()) + " steps");
  return (*this)[i];
}

uint32_t TraceSteps::active_lanes(size_t i) const {
  const uint8_t* p = bytes(i);
  const uint8_t layout = p[step_encoding::kLayoutAt];
  const size_t stride = step_encoding::lane_bytes(layout);
  p += step_encoding::kHeaderBytes + step_encoding::lane_src_at(layout) + 1;  // the first lane's flags
  uint32_t lanes = 0;
  for (int lane = 0; lane < kWarpSize; ++lane, p += stride)
    if (*p & kLaneActive) lanes |= 1u << lane;
  return lanes;
}

void TraceSteps::push_back(const TraceStep& step) {
  uint8_t encoded[step_encoding::kMaxStepBytes];
  const size_t n = size_t(step_encoding::encode(step, encoded) - encoded);
  if (arena_.capacity() - arena_.size() < n) reserve_bytes(std::max(arena_.size() + n, arena_.capacity() * 2));
  append_encoded(encoded, n);
}

void TraceSteps::append(const TraceSteps& other) {
  if (other.empty()) return;
  const size_t at = arena_.size(), n = other.encoded_bytes();
  if (arena_.capacity() - at < n) reserve_bytes(std::max(at + n, arena_.capacity() * 2));
  arena_.append(other.arena_, other.begin_, n);
  offsets_.reserve(offsets_.size() + other.offsets_.size());
  for (uint64_t o : other.offsets_) offsets_.push_back(at + (o - other.begin_));
}

void TraceSteps::append_encoded(const uint8_t* p, size_t n) {
  offsets_.push_back(arena_.size());
  arena_.append(reinterpret_cast<const char*>(p), n);
}

void TraceSteps::adopt(std::string&& buffer, size_t begin, size_t end, std::vector<uint64_t>&& offsets) {
  arena_ = std::move(buffer);
  arena_.resize(end);  // smaller: the capacity stays, nothing moves
  begin_ = begin;
  offsets_ = std::move(offsets);
}

void TraceSteps::set(size_t i, const TraceStep& step) {
  if (i >= size())
    throw std::out_of_range("set step " + std::to_string(i) + " of a trace of " + std::to_string(size()) + " steps");
  uint8_t encoded[step_encoding::kMaxStepBytes];
  const size_t n = size_t(step_encoding::encode(step, encoded) - encoded);
  const size_t old = step_size(i);
  const size_t at = size_t(offsets_[i]);
  if (n != old) {
    // Rare (a replaced step changes width): move the steps after it.
    if (n > old) arena_.insert(at + old, n - old, '\0');
    else arena_.erase(at + n, old - n);
    const int64_t moved = int64_t(n) - int64_t(old);
    for (size_t k = i + 1; k < offsets_.size(); ++k) offsets_[k] = uint64_t(int64_t(offsets_[k]) + moved);
  }
  std::memcpy(arena_storage() + at, encoded, n);
}

void TraceSteps::reserve(size_t steps) {
  offsets_.reserve(offsets_.size() + steps);
  const size_t per_step =
      offsets_.empty() ? step_encoding::kMinStepBytes : (encoded_bytes() + offsets_.size() - 1) / offsets_.size();
  reserve_bytes(arena_.size() + steps * per_step);
}

void TraceSteps::reserve_bytes(size_t bytes) {
  if (bytes <= arena_.capacity()) return;
  std::string bigger;
  bigger.reserve(bytes);
  detail::advise_huge_pages(bigger.data(), bigger.capacity());
  bigger.append(arena_);
  arena_.swap(bigger);
}

void TraceSteps::clear() {
  arena_.clear();
  begin_ = 0;
  offsets_.clear();
}

void TraceSteps::truncate(size_t n) {
  if (n >= size()) return;
  arena_.resize(size_t(offsets_[n]));
  offsets_.resize(n);
  if (n == 0) clear();
}

void TraceSteps::shrink_to_fit() {
  if (begin_ > 0) {  // an adopted file's bytes before the steps
    arena_.erase(0, begin_);
    for (uint64_t& o : offsets_) o -= begin_;
    begin_ = 0;
  }
  arena_.shrink_to_fit();
  offsets_.shrink_to_fit();
}

bool TraceSteps::operator==(const TraceSteps& other) const {
  if (size() != other.size()) return false;
  if (encoded_bytes() == other.encoded_bytes() &&
      std::memcmp(encoded_data(), other.encoded_data(), encoded_bytes()) == 0)
    return true;  // the same bytes are the same steps (step sizes follow from the bytes)
  TraceStep a, b;
  for (size_t i = 0; i < size(); ++i) {
    if (step_size(i) == other.step_size(i) && std::memcmp(bytes(i), other.bytes(i), step_size(i)) == 0) continue;
    step_encoding::decode(bytes(i), a);
    step_encoding::decode(other.bytes(i), b);
    // Equal in every stored field: re-encoding both gives the same bytes.
    uint8_t ea[step_encoding::kMaxStepBytes], eb[step_encoding::kMaxStepBytes];
    const size_t na = size_t(step_encoding::encode(a, ea) - ea);
    const size_t nb = size_t(step_encoding::encode(b, eb) - eb);
    if (na != nb || std::memcmp(ea, eb, na) != 0) return false;
  }
  return true;
}

}  // namespace warpviz
