// The compact binary trace form (.wvt).
//
// Sections:
//   layout          the file format, byte by byte
//   byte helpers    little-endian stores/loads, the checksums (XXH3-64, FNV-1a)
//   writer          write_trace_binary
//   reader          read_trace_binary: bounded slurp, header checks, checksum, parse
//
// ---- layout -----------------------------------------------------------------
// Every integer is little-endian; fields are written one by one (no struct dumps),
// so the file does not depend on the compiler's padding or the host's byte order.
//
//   header (20 bytes)
//     magic         8 bytes  "WARPVIZT"
//     version       u32      kTraceBinaryVersion
//     file_size     u64      bytes in the whole file, checksum included; tells a
//                            truncated file from a corrupt one before parsing
//   metadata
//     scenario      str      (str = u32 byte count, then that many UTF-8 bytes)
//     params        u32 count, then count x (key str, value str)
//     dtype         u8       DType
//     input_spec    str
//     grid, block   3 x u32 each
//     backend, device, compute_capability, tool_version, source_path, source_text: str
//     overflow      u8       0 or 1
//     measurements  u32 count, then count x (name str, value f64)   version >= 2
//                   (f64 = the IEEE-754 double's 8 bytes as a little-endian u64,
//                   so NaN payloads and -0.0 survive)
//   outputs
//     count         u32
//     each output:  name str, dtype u8, width u8 (4 or 8), element count u64,
//                   then the elements, `width` bytes each
//   steps
//     count         u64
//     each step:    block u32, warp u32, seq u32, line u32, mask u32,
//                   op u8, dtype u8, layout u8,
//                   args: b i64, width i32, c u32, step flags u8  (40 bytes so far)
//                   then 32 lanes, each:
//                     in, out   4 bytes each, 8 with layout bit kWideValues
//                     src i8, flags u8
//                     addr u32, bytes u8                     only with layout bit kMemory
//   checksum        u64      XXH3-64 (seed 0) of every byte before it; FNV-1a 64
//                            in versions 1 to 3
//
// Versions: 1 lacks the measurements; 2 adds them; 3 adds the watch op (op 19,
// WARPVIZ_WATCH), with the same layout: its variable's name is packed into args
// b, width and c (trace.h, "watch steps"); 4 changes only the checksum, from
// FNV-1a 64 to XXH3-64 (FNV-1a goes byte after byte, under 1 GB/s, twice the
// parse's time on a big file even beside it; XXH3 runs at memory speed). This
// build writes 4 and reads all four (assets/traces/ holds 1 and 2: the first
// traces are version 1, the bank and transpose traces with their measurements
// version 2). A watch step in a file older than 3, or one whose args hold no
// valid name, is corrupt.
//
// A shared-memory step whose active lanes the bank model cannot cost (a width
// other than 1, 2, 4, 8 or 16 bytes, mixed widths, or a misaligned address) is
// refused as corrupt, as are a grid or block beyond CUDA's limits, a step whose
// block or warp lies outside them, and a lane src other than -1..31.
//
// Hostile counts: every count is checked against the bytes actually present
// before anything is allocated for it, so memory stays proportional to the file
// even when the header's file_size claims more than the file holds.
//
// Widths are chosen per step (per output) by the writer from the actual bits, not
// from the dtype, so the form is lossless even if a 32-bit value carried high bits;
// a typical 32-bit step costs 359 bytes instead of 800. The reserved bytes of
// TraceStep/LaneRecord are not stored, and only the defined LaneFlag bits are.
#include <bit>
#include <cstring>
#include <istream>
#include <algorithm>
#include <ostream>
#include <stdexcept>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <xxhash.h>  // compiled in: CMake sets XXH_INLINE_ALL

#include "trace_io_internal.h"
#include "warpviz/bank_model.h"
#include "warpviz/trace_io.h"

namespace warpviz {

namespace {

constexpr char kMagic[8] = {'W', 'A', 'R', 'P', 'V', 'I', 'Z', 'T'};
constexpr size_t kHeaderBytes = 8 + 4 + 8;
constexpr size_t kChecksumBytes = 8;

// A step is stored as TraceSteps holds it in memory (trace_steps.h, the one
// encoder and decoder); the reader validates each step's bytes and keeps them.
using step_encoding::kKnownLaneFlags;
using step_encoding::kKnownLayoutBits;
using step_encoding::kMinStepBytes;
using step_encoding::kMemory;
using step_encoding::kWideValues;
constexpr size_t kStepHeaderBytes = step_encoding::kHeaderBytes;

// ---- byte helpers -----------------------------------------------------------
// Little-endian stores and loads: trace_io_internal.h.
using detail::load_u32;
using detail::load_u64;
using detail::store_u32;
using detail::store_u64;

// The checksum of versions 1 to 3.
uint64_t fnv1a64(const uint8_t* p, size_t n) {
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

// The checksum a file of `version` stores after its n bytes of body.
uint64_t body_checksum(uint32_t version, const uint8_t* p, size_t n) {
  return version >= kTraceBinaryXxh3Version ? XXH3_64bits(p, n) : fnv1a64(p, n);
}

using detail::fits_u32;

// ---- writer -----------------------------------------------------------------

class ByteWriter {
 public:
  explicit ByteWriter(size_t reserve) { buf_.reserve(reserve); }

  uint8_t* grow(size_t n) {
    size_t at = buf_.size();
    buf_.resize(at + n);
    return buf_.data() + at;
  }
  void u8(uint8_t v) { buf_.push_back(v); }
  void u32(uint32_t v) { store_u32(grow(4), v); }
  void u64(uint64_t v) { store_u64(grow(8), v); }
  void str(const std::string& s) {
    u32(uint32_t(s.size()));
    if (!s.empty()) std::memcpy(grow(s.size()), s.data(), s.size());
  }
  std::vector<uint8_t>& bytes() { return buf_; }

 private:
  std::vector<uint8_t> buf_;
};

void write_meta(ByteWriter& w, const Trace& t) {
  const TraceMeta& m = t.meta;
  w.str(m.scenario);
  w.u32(uint32_t(m.params.size()));
  for (const auto& [key, value] : m.params) {
    w.str(key);
    w.str(value);
  }
  w.u8(uint8_t(m.dtype));
  w.str(m.input_spec);
  for (const Dim3* d : {&m.grid, &m.block}) {
    w.u32(d->x);
    w.u32(d->y);
    w.u32(d->z);
  }
  w.str(m.backend);
  w.str(m.device);
  w.str(m.compute_capability);
  w.str(m.tool_version);
  w.str(m.source_path);
  w.str(m.source_text);
  w.u8(t.overflow ? 1 : 0);
  w.u32(uint32_t(m.measurements.size()));
  for (const auto& [name, value] : m.measurements) {
    w.str(name);
    w.u64(std::bit_cast<uint64_t>(value));
  }
}

void write_outputs(ByteWriter& w, const Trace& t) {
  w.u32(uint32_t(t.outputs.size()));
  for (const TraceOutput& o : t.outputs) {
    w.str(o.name);
    w.u8(uint8_t(o.dtype));
    bool narrow = true;
    for (uint64_t v : o.bits) narrow = narrow && fits_u32(v);
    w.u8(narrow ? 4 : 8);
    w.u64(o.bits.size());
    uint8_t* p = w.grow(o.bits.size() * (narrow ? 4 : 8));
    for (uint64_t v : o.bits) {
      if (narrow) {
        store_u32(p, uint32_t(v));
        p += 4;
      } else {
        store_u64(p, v);
        p += 8;
      }
    }
  }
}

}  // namespace

std::vector<uint8_t> detail::trace_binary_bytes(const Trace& trace) {
  size_t estimate = 4096 + trace.meta.source_text.size() + trace.steps.encoded_bytes();
  for (const auto& o : trace.outputs) estimate += o.bits.size() * 8;
  ByteWriter w(estimate);

  std::memcpy(w.grow(8), kMagic, 8);
  w.u32(kTraceBinaryVersion);
  const size_t size_at = w.bytes().size();
  w.u64(0);  // file_size, patched below
  write_meta(w, trace);
  write_outputs(w, trace);
  w.u64(trace.steps.size());
  // The steps are held in the file's encoding, back to back: their bytes go
  // out as they are.
  if (!trace.steps.empty())
    std::memcpy(w.grow(trace.steps.encoded_bytes()), trace.steps.encoded_data(), trace.steps.encoded_bytes());

  std::vector<uint8_t>& bytes = w.bytes();
  store_u64(bytes.data() + size_at, bytes.size() + kChecksumBytes);
  w.u64(body_checksum(kTraceBinaryVersion, bytes.data(), bytes.size()));
  return std::move(bytes);
}

void write_trace_binary(const Trace& trace, std::ostream& out) {
  const std::vector<uint8_t> bytes = detail::trace_binary_bytes(trace);
  // One write: callers check the stream state.
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// ---- reader -----------------------------------------------------------------

namespace {

// Thrown when a read runs past the bytes present; `what` names the part that is
// cut off. Turned into "truncated (...)" or "corrupt (...)" at the top.
struct CutOff {
  std::string what;
};

class ByteReader {
 public:
  // `end` is where the parsed body must stop (the checksum follows); `declared_end`
  // is where it would stop per the header, which differs only for truncated files.
  ByteReader(const uint8_t* data, size_t pos, size_t end, size_t declared_end,
             const std::string& name)
      : data_(data), pos_(pos), end_(end), declared_end_(declared_end), name_(name) {}

  void set_part(std::string part) { part_ = std::move(part); }
  const std::string& part() const { return part_; }
  size_t pos() const { return pos_; }
  size_t available() const { return end_ - pos_; }
  size_t declared_left() const { return declared_end_ > pos_ ? declared_end_ - pos_ : 0; }

  // Pointer to the next n bytes, advancing past them.
  const uint8_t* take(size_t n) {
    if (n > available()) throw CutOff{part_};
    const uint8_t* p = data_ + pos_;
    pos_ += n;
    return p;
  }
  uint8_t u8() { return *take(1); }
  uint32_t u32() { return load_u32(take(4)); }
  uint64_t u64() { return load_u64(take(8)); }
  std::string str() {
    const uint32_t n = u32();
    check_count(n, 1, "string length");
    const uint8_t* p = take(n);
    return std::string(reinterpret_cast<const char*>(p), n);
  }
  // A count of items of at least `unit` bytes each must fit in what the header
  // says is left (else the file is corrupt), and in the bytes actually present
  // (else it is cut off): hostile counts stop here, before any allocation.
  void check_count(uint64_t count, size_t unit, const char* what) const {
    if (count > declared_left() / unit)
      corrupt(std::string(what) + " " + std::to_string(count) + " in " + part_ +
              " does not fit in the file");
    if (count > available() / unit) throw CutOff{part_};
  }
  DType dtype(const std::string& where) {
    const uint8_t v = u8();
    if (v >= kDTypeCount) corrupt("unknown dtype " + std::to_string(v) + " in " + where);
    return DType(v);
  }
  [[noreturn]] void corrupt(const std::string& why) const {
    throw TraceFileError(name_ + ": corrupt (" + why + ")");
  }

 private:
  const uint8_t* data_;
  size_t pos_, end_, declared_end_;
  const std::string& name_;
  std::string part_ = "the metadata";
};

void read_meta(ByteReader& r, Trace& t, uint32_t version) {
  r.set_part("the metadata");
  TraceMeta& m = t.meta;
  m.scenario = r.str();
  const uint32_t params = r.u32();
  r.check_count(params, 8, "parameter count");
  for (uint32_t i = 0; i < params; ++i) {
    std::string key = r.str();
    m.params[std::move(key)] = r.str();
  }
  m.dtype = r.dtype("the metadata");
  m.input_spec = r.str();
  for (Dim3* d : {&m.grid, &m.block}) {
    d->x = r.u32();
    d->y = r.u32();
    d->z = r.u32();
  }
  if (const std::string why = detail::launch_shape_problem(m.grid, m.block); !why.empty()) r.corrupt(why);
  m.backend = r.str();
  m.device = r.str();
  m.compute_capability = r.str();
  m.tool_version = r.str();
  m.source_path = r.str();
  m.source_text = r.str();
  const uint8_t overflow = r.u8();
  if (overflow > 1) r.corrupt("overflow flag is " + std::to_string(overflow));
  t.overflow = overflow == 1;
  if (version < 2) return;
  const uint32_t measured = r.u32();
  r.check_count(measured, 4 + 8, "measurement count");
  for (uint32_t i = 0; i < measured; ++i) {
    std::string name = r.str();
    const double value = std::bit_cast<double>(r.u64());
    if (!m.measurements.emplace(name, value).second)
      r.corrupt("measurement \"" + name + "\" appears twice");
  }
}

void read_outputs(ByteReader& r, Trace& t) {
  r.set_part("the output list");
  const uint32_t count = r.u32();
  r.check_count(count, 4 + 1 + 1 + 8, "output count");
  // No reserve: outputs grow only as their bytes are parsed.
  for (uint32_t i = 0; i < count; ++i) {
    TraceOutput& o = t.outputs.emplace_back();
    r.set_part("output " + std::to_string(i) + " of " + std::to_string(count));
    o.name = r.str();
    r.set_part("output \"" + o.name + "\"");
    o.dtype = r.dtype(r.part());
    const uint8_t width = r.u8();
    if (width != 4 && width != 8)
      r.corrupt("element width " + std::to_string(width) + " in " + r.part());
    const uint64_t n = r.u64();
    r.check_count(n, width, "element count");
    const uint8_t* p = r.take(size_t(n) * width);
    o.bits.resize(size_t(n));
    for (uint64_t& v : o.bits) {
      v = width == 4 ? load_u32(p) : load_u64(p);
      p += width;
    }
  }
}

// Whether every lane's src and flags bytes of a step's lanes (at p, of one
// layout) are in range, without decoding the lanes.
template <size_t kLaneBytes, size_t kSrcAt>
bool lanes_valid(const uint8_t* p) {
  bool bad = false;
  for (int lane = 0; lane < kWarpSize; ++lane, p += kLaneBytes)
    bad |= !detail::valid_src_lane(int8_t(p[kSrcAt])) | ((p[kSrcAt + 1] & ~kKnownLaneFlags) != 0);
  return !bad;
}

bool lanes_valid(uint8_t layout, const uint8_t* p) {
  using step_encoding::lane_bytes;
  using step_encoding::lane_src_at;
  switch (layout) {
    case 0: return lanes_valid<lane_bytes(0), lane_src_at(0)>(p);
    case kWideValues: return lanes_valid<lane_bytes(kWideValues), lane_src_at(kWideValues)>(p);
    case kMemory: return lanes_valid<lane_bytes(kMemory), lane_src_at(kMemory)>(p);
    default: return lanes_valid<lane_bytes(kKnownLayoutBits), lane_src_at(kKnownLayoutBits)>(p);
  }
}

// Where the steps lie in the file's bytes, for TraceSteps::adopt.
struct StepsFound {
  size_t begin = 0, end = 0;
  std::vector<uint64_t> offsets;
};

// Each step's bytes are validated where they lie in the file and then kept as
// they are (TraceSteps holds the same encoding, and adopts the file's bytes):
// no decode, no re-encode, no copy. A step is decoded only where a check needs
// its lanes (shared-memory steps, and a bad lane, to name its field).
void read_steps(ByteReader& r, Trace& t, uint32_t version, StepsFound& found) {
  r.set_part("the step count");
  const uint64_t count = r.u64();
  r.check_count(count, kMinStepBytes, "step count");
  // Reserve only for steps whose bytes are actually present (truncated files).
  found.offsets.reserve(size_t(std::min<uint64_t>(count, r.available() / kMinStepBytes)));
  found.begin = r.pos();
  const std::string of = " of " + std::to_string(count);
  TraceStep s;  // the header of each step; its lanes only where decoded
  for (uint64_t i = 0; i < count; ++i) {
    if (r.available() < kMinStepBytes) {
      r.set_part("step " + std::to_string(i) + of);
      throw CutOff{r.part()};
    }
    // The fixed part is known to be present; check it without per-field reads.
    found.offsets.push_back(r.pos());
    const uint8_t* h = r.take(kStepHeaderBytes);
    const uint8_t op = h[step_encoding::kOpAt], dtype = h[step_encoding::kDTypeAt],
                  layout = h[step_encoding::kLayoutAt], step_flags = h[step_encoding::kStepFlagsAt];
    const auto where = [&] { return "step " + std::to_string(i) + of; };
    if (op >= kOpCount) r.corrupt("unknown op " + std::to_string(op) + " in " + where());
    if (dtype >= kDTypeCount) r.corrupt("unknown dtype " + std::to_string(dtype) + " in " + where());
    if (layout & ~kKnownLayoutBits)
      r.corrupt("unknown lane layout " + std::to_string(layout) + " in " + where());
    if (step_flags & ~step_encoding::kKnownStepFlags)
      r.corrupt("unknown step flags " + std::to_string(step_flags) + " in " + where());
    step_encoding::decode_header(h, s);
    if (op_is_watch(s.op)) {
      if (version < kTraceBinaryWatchVersion)
        r.corrupt("a watch step in a format version " + std::to_string(version) + " file (watch steps came with " +
                  std::to_string(kTraceBinaryWatchVersion) + ") in " + where());
      if (!watch_args_valid(s.args) || s.step_flags != 0)
        r.corrupt("a watch step whose args hold no variable name in " + where());
    }

    const size_t lanes_size = kWarpSize * step_encoding::lane_bytes(layout);
    if (r.available() < lanes_size) {
      r.set_part(where());
      throw CutOff{r.part()};
    }
    const uint8_t* p = r.take(lanes_size);
    const bool lanes_ok = lanes_valid(layout, p);
    if (!lanes_ok || op_is_shared(s.op)) step_encoding::decode(h, s);
    // A bad lane: name the first bad field.
    for (int lane = 0; !lanes_ok && lane < kWarpSize; ++lane) {
      const LaneRecord& l = s.lanes[lane];
      if (!detail::valid_src_lane(l.src))
        r.corrupt("source lane " + std::to_string(l.src) + " in " + where() + " lane " +
                  std::to_string(lane) + " (a lane is -1 to 31)");
      if (l.flags & ~kKnownLaneFlags)
        r.corrupt("unknown lane flags " + std::to_string(l.flags) + " in " + where() +
                  " lane " + std::to_string(lane));
    }
    if (op_is_shared(s.op)) {
      try {
        analyze_shared_access(shared_access_of(s));
      } catch (const std::invalid_argument& e) {
        r.corrupt(std::string(e.what()) + " in " + where());
      }
    }
    const detail::StepPlaceProblem place = detail::step_place_problem(s, t.meta.grid, t.meta.block);
    if (place.field) r.corrupt(std::string(place.field) + " " + place.why + " in " + where());
  }
  found.end = r.pos();
}

void read_body(ByteReader& r, Trace& t, uint32_t version, StepsFound& steps) {
  read_meta(r, t, version);
  read_outputs(r, t);
  read_steps(r, t, version, steps);
}

// The stream's bytes, at most max_bytes of them; more is an error naming the
// limit. Read in chunks, with no seeking, so a pipe reads like a file.
std::string slurp(std::istream& in, const std::string& name, uint64_t max_bytes) {
  std::string all;
  constexpr size_t kChunk = size_t(1) << 20;
  while (in) {
    const size_t at = all.size();
    const size_t want = size_t(std::min<uint64_t>(kChunk, max_bytes + 1 - at));
    all.resize(at + want);
    in.read(all.data() + at, std::streamsize(want));
    all.resize(at + size_t(in.gcount()));
    if (all.size() > max_bytes)
      throw TraceFileError(name + ": larger than the limit of " + std::to_string(max_bytes) +
                           " bytes (set " + kMaxTraceBytesEnv + " to raise it)");
  }
  if (in.bad()) throw TraceFileError(name + ": read error");
  return all;
}

// Whether the body's checksum matches the stored one. FNV-1a (versions 1 to 3)
// goes byte after byte, each byte waiting for the last multiply, about as slow
// as the parse itself, so on a big body it is worked out on another thread from
// construction on. XXH3 (version 4) is an order of magnitude faster than the
// parse; it runs here, before the parse (on a thread of its own it measured
// no faster: 0.111-0.127 s against 0.111-0.125 s for a 76 MB load on this
// shared machine). Joined before it goes away.
class ChecksumCheck {
 public:
  ChecksumCheck(uint32_t version, const uint8_t* data, size_t body_end, bool check,
                const std::optional<detail::BodyChecksum>& known)
      : data_(data), body_end_(body_end) {
    if (!check) return;
    if (version >= kTraceBinaryXxh3Version && known && known->body_end == body_end) {
      sum_ = known->xxh3;  // hashed as it was read
      return;
    }
    if (version < kTraceBinaryXxh3Version && body_end >= kThreadedBytes) {
      try {
        hasher_ = std::thread([this, version] { sum_ = body_checksum(version, data_, body_end_); });
        return;
      } catch (const std::system_error&) {
        // No thread to be had: hash here.
      }
    }
    sum_ = body_checksum(version, data, body_end);
  }
  ~ChecksumCheck() {
    if (hasher_.joinable()) hasher_.join();
  }
  bool matches() {
    if (hasher_.joinable()) hasher_.join();
    return !sum_ || *sum_ == load_u64(data_ + body_end_);
  }

 private:
  static constexpr size_t kThreadedBytes = size_t(1) << 20;
  const uint8_t* data_;
  size_t body_end_;
  std::optional<uint64_t> sum_;  // unset: no checksum to check (a truncated file)
  std::thread hasher_;
};

}  // namespace

Trace read_trace_binary(std::istream& in, const std::string& name_for_errors, uint64_t max_bytes) {
  return detail::read_trace_binary_bytes(slurp(in, name_for_errors, max_bytes), name_for_errors);
}

Trace detail::read_trace_binary_bytes(std::string&& bytes, const std::string& name,
                                      std::optional<BodyChecksum> known_checksum) {
  const uint8_t* data = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t size = bytes.size();
  if (size == 0) throw TraceFileError(name + ": empty file (not a warpviz trace)");
  if (std::memcmp(data, kMagic, std::min<size_t>(size, 8)) != 0)
    throw TraceFileError(name + ": not a warpviz trace (bad magic bytes)");
  if (size < 12) throw TraceFileError(name + ": truncated (the header is cut off)");
  const uint32_t version = load_u32(data + 8);
  if (version > kTraceBinaryVersion)
    throw TraceFileError(name + ": written by a newer warpviz (format version " +
                         std::to_string(version) + "; this build reads up to " +
                         std::to_string(kTraceBinaryVersion) + ")");
  if (version == 0) throw TraceFileError(name + ": corrupt (format version 0)");
  if (size < kHeaderBytes) throw TraceFileError(name + ": truncated (the header is cut off)");

  const uint64_t declared = load_u64(data + 12);
  if (declared < kHeaderBytes + kChecksumBytes)
    throw TraceFileError(name + ": corrupt (impossible file size " + std::to_string(declared) + ")");
  if (size > declared)
    throw TraceFileError(name + ": corrupt (" + std::to_string(size - declared) +
                         " unexpected bytes after the end of the trace)");
  const bool truncated = size < declared;
  const size_t body_end = truncated ? size : size - kChecksumBytes;
  const size_t declared_body_end = size_t(declared - kChecksumBytes);

  // The checksum comes first: a damaged file is reported as such, whatever
  // else its damage makes the parse find. When it runs on a thread of its own
  // (ChecksumCheck), its verdict is still taken before the parse's.
  ChecksumCheck checksum(version, data, body_end, !truncated, known_checksum);
  const auto mismatch = [&] { return TraceFileError(name + ": corrupt (checksum mismatch)"); };
  Trace trace;
  ByteReader r(data, kHeaderBytes, body_end, declared_body_end, name);
  StepsFound steps;
  try {
    read_body(r, trace, version, steps);
  } catch (const CutOff& cut) {
    if (!checksum.matches()) throw mismatch();
    if (truncated) throw TraceFileError(name + ": truncated (" + cut.what + " is cut off)");
    throw TraceFileError(name + ": corrupt (" + cut.what + " runs past the end)");
  } catch (const TraceFileError&) {
    if (!checksum.matches()) throw mismatch();
    throw;
  }
  if (!checksum.matches()) throw mismatch();
  const size_t expected_end = truncated ? declared_body_end : body_end;
  if (r.pos() > expected_end)
    throw TraceFileError(name + ": corrupt (the content runs into the checksum)");
  // A complete body in a file shorter than the header claims: the claim is what
  // is wrong (a flipped high byte of file_size reads as exabytes missing).
  if (truncated && r.pos() + kChecksumBytes == size)
    throw TraceFileError(name + ": corrupt (the size field says " + std::to_string(declared) +
                         " bytes, but the trace ends after " + std::to_string(size) + ")");
  if (r.pos() < expected_end) {
    if (truncated)
      throw TraceFileError(name + ": corrupt (the size field says " + std::to_string(declared) +
                           " bytes, but the content ends at byte " + std::to_string(r.pos()) + " of " +
                           std::to_string(size) + ")");
    throw TraceFileError(name + ": corrupt (the content ends " +
                         std::to_string(expected_end - r.pos()) +
                         " bytes before the checksum)");
  }
  // Everything parsed, so only (part of) the checksum is missing.
  if (truncated) throw TraceFileError(name + ": truncated (the checksum is cut off)");
  trace.steps.adopt(std::move(bytes), steps.begin, steps.end, std::move(steps.offsets));
  return trace;
}

}  // namespace warpviz
