// Trace files, value text forms, diff and dump.
//
// Sections:
//   fixtures        a hand-built realistic trace, a small one, field-by-field compare
//   dtype           names, value and hex text forms
//   op names
//   binary form     round trip, hostile input
//   JSON form       round trip, schema, errors
//   files           save/load by path
//   diff
//   dump
//   performance     hidden ([.perf]): 1,000,000 lane records
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <sstream>

#include <xxhash.h>

#include "../core/src/trace_io_internal.h"
#include "warpviz/bank_model.h"
#include "warpviz/dtype.h"
#include "warpviz/trace.h"
#include "warpviz/trace_diff.h"
#include "warpviz/trace_dump.h"
#include "warpviz/trace_io.h"
#include "warpviz/warp_paths.h"
#include "divergent_traces.h"
#include "trace_compare.h"
#include "temp_dir.h"

using namespace warpviz;

namespace {

// ---- fixtures -------------------------------------------------------------------

uint64_t f32_bits(float f) { return std::bit_cast<uint32_t>(f); }
uint64_t f64_bits(double d) { return std::bit_cast<uint64_t>(d); }

TraceStep make_step(uint32_t seq, Op op, DType dtype, uint32_t line, uint32_t mask) {
  TraceStep s;
  s.block = 0;
  s.warp = 0;
  s.seq = seq;
  s.op = op;
  s.dtype = dtype;
  s.line = line;
  s.mask = mask;
  return s;
}

// A trace shaped like a real recording: shuffles of several widths, votes, match,
// redux, a shared store, undefined lanes, NaN payloads, -0.0 and 64-bit values
// with high bits set.
Trace realistic_trace() {
  Trace t;
  TraceMeta& m = t.meta;
  m.scenario = "warp_reduce";
  m.params = {{"n", "32"}, {"op", "sum"}, {"tile", "32"}};
  m.dtype = DType::F32;
  m.input_spec = "random:7";
  m.grid = {2, 1, 1};
  m.block = {64, 1, 1};
  m.backend = "cpu";
  m.device = "CPU emulator";
  m.compute_capability = "9.0";
  m.tool_version = "0.1.0";
  m.source_path = "kernels/warp_reduce.cu";
  m.source_text =
      "// 归约：每个线程束求和 (warp sum)\n"
      "__global__ void warp_reduce(float* out) {\n"
      "  float v = threadIdx.x * 0.5f;\n"
      "  v += __shfl_down_sync(0xffffffff, v, 4);  // 下移 4\n"
      "}\n";
  // 0.1 has no short binary form: the JSON text must still read back exactly.
  m.measurements = {{"latency_cycles", 33.25},
                    {"ncu.l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 2},
                    {"throughput_cycles", 0.1}};

  // 0: shfl.down f32, full warp; lanes 28..31 are out of range and keep their value.
  TraceStep s0 = make_step(0, Op::ShflDown, DType::F32, 4, 0xffffffffu);
  s0.args = {4, 32, 0x1f};
  for (int i = 0; i < 32; ++i) s0.lanes[i].in = f32_bits(float(i) * 0.5f);
  s0.lanes[3].in = f32_bits(-0.0f);
  s0.lanes[9].in = 0x7fc00123;  // NaN with a payload
  for (int i = 0; i < 32; ++i) {
    LaneRecord& l = s0.lanes[i];
    const bool in_range = i + 4 < 32;
    l.src = int8_t(in_range ? i + 4 : i);
    l.out = s0.lanes[l.src].in;
    l.flags = kLaneActive | (in_range ? kLaneOk : 0);
  }
  t.steps.push_back(s0);

  // 1: shfl.idx f64 under mask 0x0000fff0 reading lane 3, which is outside the mask:
  // lanes 4..15 get an undefined result; the rest did not run.
  TraceStep s1 = make_step(1, Op::ShflIdx, DType::F64, 7, 0x0000fff0u);
  s1.args = {3, 16, 0x101f};
  for (int i = 0; i < 32; ++i) {
    LaneRecord& l = s1.lanes[i];
    if (i >= 4 && i < 16) {
      l.in = f64_bits(-1.0 / (i + 1)) | 1;  // sign and low bits set
      l.src = 3;
      l.out = 0xfff8000000000456ull;         // whatever the backend produced
      l.flags = kLaneActive | kLaneOk | kLaneUndefined;
    }
  }
  s1.lanes[5].in = f64_bits(-0.0);
  t.steps.push_back(s1);

  // 2: vote.ballot i32.
  TraceStep s2 = make_step(2, Op::Ballot, DType::I32, 9, 0xffffffffu);
  for (int i = 0; i < 32; ++i) {
    s2.lanes[i].in = i % 3 == 0 ? 1 : 0;
    s2.lanes[i].out = 0x49249249;
    s2.lanes[i].flags = kLaneActive;
  }
  t.steps.push_back(s2);

  // 3: match.any u64 on values that differ only in bit 0, high word set.
  TraceStep s3 = make_step(3, Op::MatchAny, DType::U64, 11, 0xffffffffu);
  for (int i = 0; i < 32; ++i) {
    s3.lanes[i].in = 0xdeadbeef00000000ull | uint64_t(i & 1);
    s3.lanes[i].out = (i & 1) ? 0xaaaaaaaa : 0x55555555;
    s3.lanes[i].flags = kLaneActive;
  }
  t.steps.push_back(s3);

  // 4: redux.add i32 of -lane: -496.
  TraceStep s4 = make_step(4, Op::ReduxAdd, DType::I32, 13, 0xffffffffu);
  for (int i = 0; i < 32; ++i) {
    s4.lanes[i].in = uint32_t(-i);
    s4.lanes[i].out = uint32_t(-496);
    s4.lanes[i].flags = kLaneActive;
  }
  t.steps.push_back(s4);

  // 5: st.shared u32, stride 2 words (bank conflicts), lanes 30/31 inactive.
  TraceStep s5 = make_step(5, Op::StoreShared, DType::U32, 15, 0x3fffffffu);
  for (int i = 0; i < 30; ++i) {
    s5.lanes[i].in = uint32_t(i * 3);
    s5.lanes[i].addr = uint32_t(i * 8);
    s5.lanes[i].bytes = 4;
    s5.lanes[i].flags = kLaneActive;
  }
  t.steps.push_back(s5);

  // 6: activemask carrying operands it does not use: must still round-trip.
  TraceStep s6 = make_step(6, Op::ActiveMask, DType::U32, 17, 0);
  s6.args = {7, 16, 5};
  for (int i = 0; i < 32; ++i) {
    s6.lanes[i].out = 0xffffffff;
    s6.lanes[i].flags = kLaneActive;
  }
  t.steps.push_back(s6);

  // 7: shfl.bfly i64, width 8, negative values, second warp of block 1.
  TraceStep s7 = make_step(0, Op::ShflXor, DType::I64, 19, 0xffffffffu);
  s7.block = 1;
  s7.warp = 1;
  s7.args = {-1, 8, 0x181f};
  for (int i = 0; i < 32; ++i) s7.lanes[i].in = uint64_t(-int64_t(i) * 1000000007ll);
  for (int i = 0; i < 32; ++i) {
    LaneRecord& l = s7.lanes[i];
    l.src = int8_t(i ^ 7);
    l.out = s7.lanes[l.src].in;
    l.flags = kLaneActive | kLaneOk;
  }
  t.steps.push_back(s7);

  TraceOutput out{"out", DType::F32, {}};
  out.bits = {f32_bits(1.5f), f32_bits(-0.0f), 0x7fc00001, 0x7fffffff, f32_bits(0.1f),
              f32_bits(-3e38f), 0x7f800000, 1};
  TraceOutput count{"count", DType::U64, {0xffffffffffffffffull, 0x8000000000000001ull, 0}};
  t.outputs = {out, count};
  return t;
}

// Two steps and a short output: small enough to cut and flip at every byte.
Trace small_trace() {
  Trace t;
  t.meta.scenario = "tiny";
  t.meta.params = {{"k", "v"}};
  t.meta.dtype = DType::I32;
  t.meta.input_spec = "iota";
  t.meta.backend = "cpu";
  t.meta.source_text = "x\n";
  t.meta.measurements = {{"latency_cycles", 31}};
  TraceStep a = make_step(0, Op::ShflUp, DType::I32, 1, 0xffffffffu);
  a.args = {1, 32, 0};
  for (int i = 0; i < 32; ++i) {
    a.lanes[i].in = uint64_t(i);
    a.lanes[i].src = int8_t(i == 0 ? 0 : i - 1);
    a.lanes[i].out = uint64_t(i == 0 ? 0 : i - 1);
    a.lanes[i].flags = kLaneActive | (i > 0 ? kLaneOk : 0);
  }
  TraceStep b = make_step(1, Op::LoadShared, DType::F64, 2, 0xffffffffu);
  for (int i = 0; i < 32; ++i) {
    b.lanes[i].out = f64_bits(i + 0.25);
    b.lanes[i].addr = uint32_t(i * 8);
    b.lanes[i].bytes = 8;
    b.lanes[i].flags = kLaneActive;
  }
  t.steps.push_back(a);
  t.steps.push_back(b);
  t.outputs = {{"out", DType::I32, {1, 2, 0xffffffff}}};
  return t;
}

void require_same_lane(const LaneRecord& a, const LaneRecord& b) {
  REQUIRE(a.in == b.in);
  REQUIRE(a.out == b.out);
  REQUIRE(a.addr == b.addr);
  REQUIRE(a.src == b.src);
  REQUIRE(int(a.flags) == int(b.flags));
  REQUIRE(int(a.bytes) == int(b.bytes));
}

void require_same_trace(const Trace& a, const Trace& b) {
  const TraceMeta &ma = a.meta, &mb = b.meta;
  REQUIRE(ma.scenario == mb.scenario);
  REQUIRE(ma.params == mb.params);
  REQUIRE(ma.dtype == mb.dtype);
  REQUIRE(ma.input_spec == mb.input_spec);
  REQUIRE(ma.grid == mb.grid);
  REQUIRE(ma.block == mb.block);
  REQUIRE(ma.backend == mb.backend);
  REQUIRE(ma.device == mb.device);
  REQUIRE(ma.compute_capability == mb.compute_capability);
  REQUIRE(ma.tool_version == mb.tool_version);
  REQUIRE(ma.source_path == mb.source_path);
  REQUIRE(ma.source_text == mb.source_text);
  REQUIRE(ma.measurements == mb.measurements);
  REQUIRE(a.overflow == b.overflow);
  REQUIRE(a.steps.size() == b.steps.size());
  for (size_t i = 0; i < a.steps.size(); ++i) {
    INFO("step " << i);
    const TraceStep &sa = a.steps[i], &sb = b.steps[i];
    REQUIRE(sa.block == sb.block);
    REQUIRE(sa.warp == sb.warp);
    REQUIRE(sa.seq == sb.seq);
    REQUIRE(sa.line == sb.line);
    REQUIRE(sa.mask == sb.mask);
    REQUIRE(sa.op == sb.op);
    REQUIRE(sa.dtype == sb.dtype);
    REQUIRE(sa.args.b == sb.args.b);
    REQUIRE(sa.args.width == sb.args.width);
    REQUIRE(sa.args.c == sb.args.c);
    for (int l = 0; l < kWarpSize; ++l) {
      INFO("lane " << l);
      require_same_lane(sa.lanes[l], sb.lanes[l]);
    }
  }
  REQUIRE(a.outputs.size() == b.outputs.size());
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    REQUIRE(a.outputs[i].name == b.outputs[i].name);
    REQUIRE(a.outputs[i].dtype == b.outputs[i].dtype);
    REQUIRE(a.outputs[i].bits == b.outputs[i].bits);
  }
}

std::string to_binary(const Trace& t) {
  std::ostringstream out(std::ios::binary);
  write_trace_binary(t, out);
  return out.str();
}

Trace from_binary(const std::string& bytes, const std::string& name = "trace.wvt") {
  std::istringstream in(bytes, std::ios::binary);
  return read_trace_binary(in, name);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const TraceFileError& e) {
    return e.what();
  }
  return "(no error)";
}

void store_le64(std::string& s, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) s[at + size_t(i)] = char(uint8_t(v >> (8 * i)));
}

uint64_t fnv1a64(const std::string& s, size_t n) {
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < n; ++i) {
    h ^= uint8_t(s[i]);
    h *= 1099511628211ull;
  }
  return h;
}

// The checksum a .wvt of the version in its header (byte 8) stores: FNV-1a 64
// up to version 3, XXH3-64 (seed 0) from version 4 on.
uint64_t wvt_checksum(const std::string& s, size_t n) {
  if (uint8_t(s[8]) >= kTraceBinaryXxh3Version) return XXH3_64bits(s.data(), n);
  return fnv1a64(s, n);
}

// Keeps a mutated file self-consistent (size field, checksum) so the reader's
// structural checks, not the checksum, have to catch the damage.
void reseal(std::string& s) {
  store_le64(s, 12, s.size());
  store_le64(s, s.size() - 8, wvt_checksum(s, s.size() - 8));
}

using warpviz::testing_support::TempDir;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

// ---- dtype ------------------------------------------------------------------------

TEST_CASE("dtype names and widths", "[trace][dtype]") {
  for (int i = 0; i < kDTypeCount; ++i) {
    const DType t = DType(i);
    REQUIRE(parse_dtype(dtype_name(t)) == t);
  }
  REQUIRE(std::string(dtype_name(DType::F32)) == "f32");
  REQUIRE(std::string(dtype_name(DType::U64)) == "u64");
  REQUIRE_FALSE(parse_dtype("float").has_value());
  REQUIRE(dtype_bytes(DType::I32) == 4);
  REQUIRE(dtype_bytes(DType::F64) == 8);
  REQUIRE(dtype_is_64bit(DType::I64));
  REQUIRE_FALSE(dtype_is_64bit(DType::F32));
  REQUIRE(mask_to_width(DType::U32, 0x123456789ull) == 0x23456789u);
  REQUIRE(mask_to_width(DType::U64, 0x123456789ull) == 0x123456789ull);
}

TEST_CASE("integer values: decimal text, range checked", "[trace][dtype]") {
  REQUIRE(format_value(DType::I32, 0xffffffff) == "-1");
  REQUIRE(format_value(DType::U32, 0xffffffff) == "4294967295");
  REQUIRE(format_value(DType::I64, 0x8000000000000000ull) == "-9223372036854775808");
  REQUIRE(format_value(DType::U64, ~0ull) == "18446744073709551615");

  REQUIRE(parse_value(DType::I32, "-1") == 0xffffffffull);
  REQUIRE(parse_value(DType::I32, "2147483647") == 0x7fffffffull);
  REQUIRE(parse_value(DType::I32, "-2147483648") == 0x80000000ull);
  REQUIRE_FALSE(parse_value(DType::I32, "2147483648"));
  REQUIRE_FALSE(parse_value(DType::I32, "-2147483649"));
  REQUIRE_FALSE(parse_value(DType::I32, "12a"));
  REQUIRE_FALSE(parse_value(DType::I32, ""));
  REQUIRE_FALSE(parse_value(DType::I32, " 1"));
  REQUIRE_FALSE(parse_value(DType::I32, "1.5"));
  REQUIRE_FALSE(parse_value(DType::U32, "-1"));
  REQUIRE_FALSE(parse_value(DType::U32, "4294967296"));
  REQUIRE(parse_value(DType::U32, "4294967295") == 0xffffffffull);
  REQUIRE(parse_value(DType::U32, "+7") == 7u);
  REQUIRE(parse_value(DType::I64, "-9223372036854775808") == 0x8000000000000000ull);
  REQUIRE_FALSE(parse_value(DType::I64, "9223372036854775808"));
  REQUIRE(parse_value(DType::U64, "18446744073709551615") == ~0ull);
  REQUIRE_FALSE(parse_value(DType::U64, "18446744073709551616"));
}

TEST_CASE("float values: shortest round-trip text, NaN payloads, signed zero", "[trace][dtype]") {
  REQUIRE(format_value(DType::F32, f32_bits(0.1f)) == "0.1");
  REQUIRE(format_value(DType::F32, f32_bits(1.5f)) == "1.5");
  REQUIRE(format_value(DType::F32, f32_bits(-0.0f)) == "-0");
  REQUIRE(format_value(DType::F32, 0) == "0");
  REQUIRE(format_value(DType::F32, 0x7f800000) == "inf");
  REQUIRE(format_value(DType::F32, 0xff800000) == "-inf");
  REQUIRE(format_value(DType::F32, 0x7fffffff) == "nan(0x7fffffff)");
  REQUIRE(format_value(DType::F32, 0xffc00001) == "nan(0xffc00001)");
  REQUIRE(format_value(DType::F64, f64_bits(0.1)) == "0.1");
  REQUIRE(format_value(DType::F64, f64_bits(-0.0)) == "-0");
  REQUIRE(format_value(DType::F64, 0x7ff8000000000123ull) == "nan(0x7ff8000000000123)");

  // Rounded once, decimal to binary32: 0.1 is 0x3dcccccd.
  REQUIRE(parse_value(DType::F32, "0.1") == 0x3dcccccdull);
  REQUIRE(parse_value(DType::F64, "0.1") == 0x3fb999999999999aull);
  // Just above the tie 1 + 2^-24: via double it would round to the tie and then to
  // even (1.0); rounded directly it is 1 + 2^-23.
  REQUIRE(parse_value(DType::F32, "1.0000000596046448") == 0x3f800001ull);
  REQUIRE(parse_value(DType::F32, "-0") == 0x80000000ull);
  REQUIRE(parse_value(DType::F32, "inf") == 0x7f800000ull);
  REQUIRE(parse_value(DType::F32, "+inf") == 0x7f800000ull);
  REQUIRE(parse_value(DType::F32, "-inf") == 0xff800000ull);
  const auto nan = parse_value(DType::F32, "nan");
  REQUIRE(nan);
  REQUIRE(std::isnan(std::bit_cast<float>(uint32_t(*nan))));
  REQUIRE(parse_value(DType::F32, "nan(0x7fc00123)") == 0x7fc00123ull);
  REQUIRE_FALSE(parse_value(DType::F32, "nan(0x3f800000)"));  // not a NaN pattern
  REQUIRE(parse_value(DType::F64, "nan(0xfff8000000000456)") == 0xfff8000000000456ull);
  REQUIRE(parse_value(DType::F32, "1e-45") == 1u);                // smallest subnormal
  REQUIRE(parse_value(DType::F32, "1e-50") == 0u);                // underflows to zero
  REQUIRE(parse_value(DType::F32, "-1e-50") == 0x80000000ull);
  REQUIRE_FALSE(parse_value(DType::F32, "1e39"));                 // too large for f32
  REQUIRE(parse_value(DType::F64, "1e39"));
  REQUIRE_FALSE(parse_value(DType::F32, "1.5x"));
  REQUIRE_FALSE(parse_value(DType::F32, "1e"));
  REQUIRE_FALSE(parse_value(DType::F32, ""));
  REQUIRE_FALSE(parse_value(DType::F32, "0x10"));
}

TEST_CASE("every dtype: value text and hex text read back to the same bits", "[trace][dtype]") {
  std::mt19937_64 rng(12345);
  std::vector<uint64_t> samples = {0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x7f800000,
                                   0x7fc00123, 0x00000001, 0x3dcccccd};
  for (int i = 0; i < 2000; ++i) samples.push_back(rng());
  for (int ti = 0; ti < kDTypeCount; ++ti) {
    const DType t = DType(ti);
    for (uint64_t raw : samples) {
      const uint64_t bits = mask_to_width(t, raw);
      INFO(dtype_name(t) << " " << format_hex(t, bits));
      REQUIRE(parse_value(t, format_value(t, bits)) == bits);
      const std::string hex = format_hex(t, bits);
      REQUIRE(hex.size() == size_t(2 + dtype_bytes(t) * 2));
      REQUIRE(parse_hex(t, hex) == bits);
    }
  }
}

TEST_CASE("hex text", "[trace][dtype]") {
  REQUIRE(format_hex(DType::F32, 0x3dcccccd) == "0x3dcccccd");
  REQUIRE(format_hex(DType::I32, 1) == "0x00000001");
  REQUIRE(format_hex(DType::U64, 0xdeadbeef00000001ull) == "0xdeadbeef00000001");
  REQUIRE(format_hex(DType::F64, 0) == "0x0000000000000000");
  REQUIRE(parse_hex(DType::U32, "0xFFffFFff") == 0xffffffffull);
  REQUIRE(parse_hex(DType::U32, "ff") == 0xffull);
  REQUIRE(parse_hex(DType::I64, "0xffffffffffffffff") == ~0ull);
  REQUIRE_FALSE(parse_hex(DType::U32, "0x1ffffffff"));
  REQUIRE_FALSE(parse_hex(DType::U64, "0x1ffffffffffffffff"));
  REQUIRE_FALSE(parse_hex(DType::U32, "0x"));
  REQUIRE_FALSE(parse_hex(DType::U32, ""));
  REQUIRE_FALSE(parse_hex(DType::U32, "0xg1"));
  REQUIRE_FALSE(parse_hex(DType::U32, "-0x1"));
}

// ---- op names -----------------------------------------------------------------------

TEST_CASE("op names round-trip, shfl.xor is accepted for bfly", "[trace][ops]") {
  for (int i = 0; i < kOpCount; ++i) {
    Op op{};
    REQUIRE(parse_op(op_name(Op(i)), &op));
    REQUIRE(op == Op(i));
  }
  REQUIRE(std::string(op_name(Op::ShflXor)) == "shfl.bfly");
  REQUIRE(std::string(op_name(Op::Ballot)) == "vote.ballot");
  REQUIRE(std::string(op_name(Op::StoreShared)) == "st.shared");
  Op op{};
  REQUIRE(parse_op("shfl.xor", &op));
  REQUIRE(op == Op::ShflXor);
  REQUIRE_FALSE(parse_op("shfl.sideways", &op));
}

// ---- binary form --------------------------------------------------------------------

TEST_CASE("binary form round-trips every field", "[trace][io][binary]") {
  const Trace t = realistic_trace();
  const std::string bytes = to_binary(t);
  REQUIRE(bytes.compare(0, 8, "WARPVIZT") == 0);
  const Trace back = from_binary(bytes);
  require_same_trace(t, back);
  REQUIRE(diff_traces(t, back).empty());

  Trace flagged = t;
  flagged.overflow = true;
  flagged.steps.clear();
  require_same_trace(flagged, from_binary(to_binary(flagged)));
}

TEST_CASE("binary form: wrong magic, newer version, checksum", "[trace][io][binary][errors]") {
  const std::string good = to_binary(small_trace());

  std::string bad_magic = good;
  bad_magic[0] = 'X';
  REQUIRE(error_of([&] { from_binary(bad_magic); }) ==
          "trace.wvt: not a warpviz trace (bad magic bytes)");
  REQUIRE(error_of([&] { from_binary("hello, world\n"); }) ==
          "trace.wvt: not a warpviz trace (bad magic bytes)");

  std::string newer = good;
  newer[8] = 7;
  const std::string reads_up_to = "; this build reads up to " + std::to_string(kTraceBinaryVersion) + ")";
  REQUIRE(error_of([&] { from_binary(newer); }) ==
          "trace.wvt: written by a newer warpviz (format version 7" + reads_up_to);
  newer[8] = char(kTraceBinaryVersion + 1);  // the first version after this build's
  REQUIRE(error_of([&] { from_binary(newer); }) == "trace.wvt: written by a newer warpviz (format version " +
                                                        std::to_string(kTraceBinaryVersion + 1) + reads_up_to);

  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 0x10;
  REQUIRE(error_of([&] { from_binary(flipped); }) == "trace.wvt: corrupt (checksum mismatch)");
}

TEST_CASE("binary form: every cut point and every flipped byte is an error",
          "[trace][io][binary][errors]") {
  const std::string good = to_binary(small_trace());
  for (size_t cut = 0; cut < good.size(); ++cut) {
    INFO("cut at " << cut << " of " << good.size());
    const std::string msg = error_of([&] { from_binary(good.substr(0, cut)); });
    REQUIRE(msg != "(no error)");
    if (cut >= 8) REQUIRE(msg.find("truncated") != std::string::npos);
  }
  for (size_t at = 0; at < good.size(); ++at) {
    INFO("flipped byte " << at);
    std::string bad = good;
    bad[at] ^= 0x5a;
    REQUIRE(error_of([&] { from_binary(bad); }) != "(no error)");
  }
  REQUIRE(error_of([&] { from_binary(good + "x"); }).find("corrupt") != std::string::npos);
}

TEST_CASE("binary form: truncation names the step that is cut off", "[trace][io][binary][errors]") {
  const Trace t = realistic_trace();
  const std::string good = to_binary(t);
  // The last step is a 64-bit shuffle: 39 header bytes + 32 lanes of 18.
  const size_t last_step = good.size() - 8 - (39 + 32 * 18);
  REQUIRE(error_of([&] { from_binary(good.substr(0, last_step + 100)); }) ==
          "trace.wvt: truncated (step 7 of 8 is cut off)");
  REQUIRE(error_of([&] { from_binary(good.substr(0, good.size() - 3)); }) ==
          "trace.wvt: truncated (the checksum is cut off)");
  REQUIRE(error_of([&] { from_binary(good.substr(0, 30)); }) ==
          "trace.wvt: truncated (the metadata is cut off)");
}

TEST_CASE("binary form: resealed random damage never crashes", "[trace][io][binary][errors]") {
  // Mutations with a valid size field and checksum reach the structural checks:
  // counts against the remaining bytes, enum ranges, flag bits.
  const std::string good = to_binary(small_trace());
  std::mt19937 rng(99);
  int rejected = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string bad = good;
    const int flips = 1 + int(rng() % 4);
    for (int f = 0; f < flips; ++f) bad[20 + rng() % (bad.size() - 28)] = char(rng());
    reseal(bad);
    try {
      from_binary(bad);
    } catch (const TraceFileError&) {
      ++rejected;
    }
  }
  REQUIRE(rejected > 0);

  // A step count of 2^60 must be refused before anything is allocated for it.
  std::string huge = good;
  const size_t step_count_at = good.size() - 8 - (40 + 32 * 10) - (40 + 32 * 23) - 8;  // two steps of 40-byte headers
  REQUIRE(huge[step_count_at] == 2);
  store_le64(huge, step_count_at, 1ull << 60);
  reseal(huge);
  const std::string msg = error_of([&] { from_binary(huge); });
  REQUIRE(msg.find("corrupt (step count") != std::string::npos);

  // An unknown op is named as such.
  std::string bad_op = good;
  bad_op[step_count_at + 8 + 20] = char(kOpCount);
  reseal(bad_op);
  REQUIRE(error_of([&] { from_binary(bad_op); }) ==
          "trace.wvt: corrupt (unknown op " + std::to_string(kOpCount) + " in step 0 of 2)");
}

namespace {

// Bytes of the binary metadata before the measurements (see trace_binary.cpp).
size_t meta_bytes_before_measurements(const TraceMeta& m) {
  auto str = [](const std::string& s) { return 4 + s.size(); };
  size_t n = str(m.scenario) + 4;
  for (const auto& [k, v] : m.params) n += str(k) + str(v);
  n += 1 + str(m.input_spec) + 6 * 4;
  for (const std::string* s : {&m.backend, &m.device, &m.compute_capability, &m.tool_version,
                               &m.source_path, &m.source_text})
    n += str(*s);
  return n + 1;  // overflow
}

// The version-1 form of a trace: no measurement block, version field 1.
std::string as_version_1(const Trace& t) {
  std::string bytes = to_binary(t);
  const size_t at = 20 + meta_bytes_before_measurements(t.meta);
  size_t block = 4;
  for (const auto& [name, value] : t.meta.measurements) block += 4 + name.size() + 8;
  REQUIRE(uint8_t(bytes[at]) == t.meta.measurements.size());  // the count is where we think
  bytes.erase(at, block);
  bytes[8] = 1;
  reseal(bytes);
  return bytes;
}

uint64_t bits_of(double d) { return std::bit_cast<uint64_t>(d); }

}  // namespace

TEST_CASE("binary form 2 keeps measurements bit for bit: NaN payload, -0, 0.1", "[trace][io][binary]") {
  Trace t = small_trace();
  t.meta.measurements = {{"latency_cycles", 0.1},
                         {"ncu.l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 31},
                         {"nan", std::bit_cast<double>(0x7ff8000000000abcull)},
                         {"minus_zero", -0.0},
                         {"inf", -std::numeric_limits<double>::infinity()}};
  const std::string bytes = to_binary(t);
  REQUIRE(uint8_t(bytes[8]) == kTraceBinaryVersion);
  const Trace back = from_binary(bytes);
  REQUIRE(back.meta.measurements.size() == t.meta.measurements.size());
  for (const auto& [name, value] : t.meta.measurements) {
    INFO(name);
    REQUIRE(back.meta.measurements.count(name) == 1);
    REQUIRE(bits_of(back.meta.measurements.at(name)) == bits_of(value));
  }
  // None at all: a zero count.
  t.meta.measurements.clear();
  REQUIRE(from_binary(to_binary(t)).meta.measurements.empty());
}

TEST_CASE("binary form: version 1 files (no measurements) are still read", "[trace][io][binary]") {
  Trace t = realistic_trace();
  const Trace v1 = from_binary(as_version_1(t));
  REQUIRE(v1.meta.measurements.empty());
  t.meta.measurements.clear();
  require_same_trace(t, v1);

  // A version-2 body labelled version 1 has 4+ bytes too many: caught, not misread.
  std::string mislabelled = to_binary(small_trace());
  mislabelled[8] = 1;
  reseal(mislabelled);
  REQUIRE(error_of([&] { from_binary(mislabelled); }).find("corrupt") != std::string::npos);

  // A trace the H200 wrote before format 2 (assets/traces/shfl.wvt as first shipped).
  const std::string shipped = std::string(WARPVIZ_SOURCE_DIR) + "/tests/fixtures/old_traces/shfl_v1.wvt";
  const std::string file = read_file(shipped);
  REQUIRE(file.size() > 20);
  REQUIRE(uint8_t(file[8]) == 1);
  const Trace old = load_trace(shipped);
  REQUIRE_FALSE(old.steps.empty());
  REQUIRE(old.meta.measurements.empty());
}

TEST_CASE("binary form: hostile measurement blocks", "[trace][io][binary][errors]") {
  Trace t = small_trace();
  const size_t at = 20 + meta_bytes_before_measurements(t.meta);
  std::string huge = to_binary(t);
  REQUIRE(uint8_t(huge[at]) == 1);
  huge[at + 3] = 0x7f;  // count 0x7f000001
  reseal(huge);
  REQUIRE(error_of([&] { from_binary(huge); }).find("corrupt (measurement count 2130706433") !=
          std::string::npos);

  // The writer never repeats a name; a file that does is damaged.
  t.meta.measurements = {{"aa", 1}, {"ab", 2}};
  std::string twice = to_binary(t);
  const size_t second_name = at + 4 + (4 + 2 + 8) + 4;
  REQUIRE(twice.substr(second_name, 2) == "ab");
  twice[second_name + 1] = 'a';
  reseal(twice);
  REQUIRE(error_of([&] { from_binary(twice); }) ==
          "trace.wvt: corrupt (measurement \"aa\" appears twice)");
}

TEST_CASE("binary form: a shared step the bank model cannot cost is corrupt", "[trace][io][binary][errors]") {
  Trace t = small_trace();
  // the ld.shared step: not a width any LDS has
  t.steps.modify(1, [&](TraceStep& edited) { edited.lanes[4].bytes = 3; });
  REQUIRE(error_of([&] { from_binary(to_binary(t)); }) ==
          "trace.wvt: corrupt (shared-memory step with mixed access widths (8 and 3 bytes) in "
          "step 1 of 2)");
  t.steps.modify(1, [](TraceStep& s) {
    for (LaneRecord& l : s.lanes) l.bytes = 12;
  });
  REQUIRE(error_of([&] { from_binary(to_binary(t)); }).find("access width 12 bytes") !=
          std::string::npos);
  // Inactive lanes' widths are not part of the access.
  t = small_trace();
  t.steps.modify(1, [&](TraceStep& edited) { edited.lanes[4].bytes = 3; });
  t.steps.modify(1, [&](TraceStep& edited) { edited.lanes[4].flags = 0; });
  REQUIRE(from_binary(to_binary(t)).steps[1].lanes[4].bytes == 3);
}

namespace {

void store_le32(std::string& s, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) s[at + size_t(i)] = char(uint8_t(v >> (8 * i)));
}

// An empty trace's bytes up to and including its output count (at byte 86: the
// 20-byte header and 66 bytes of empty metadata), the count set to `outputs` and
// the header claiming `claimed` bytes, then `tail` (the start of an output).
std::string claims_more(uint32_t outputs, uint64_t claimed, const std::string& tail) {
  Trace empty;
  std::string bytes = to_binary(empty);
  constexpr size_t kOutputCountAt = 86;
  REQUIRE(bytes.size() == kOutputCountAt + 4 + 8 + 8);  // count, step count, checksum
  bytes.resize(kOutputCountAt + 4);
  store_le32(bytes, kOutputCountAt, outputs);
  store_le64(bytes, 12, claimed);
  return bytes + tail;
}

// The error of reading `bytes`, and how long it took.
std::string timed_error(const std::string& bytes, double* seconds) {
  const auto start = std::chrono::steady_clock::now();
  const std::string msg = error_of([&] { from_binary(bytes, "t.wvt"); });
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return msg;
}

}  // namespace

TEST_CASE("binary form: a header claiming more than the file cannot make counts allocate",
          "[trace][io][binary][errors][hostile]") {
  // Before the fix a 95-byte file asked outputs.resize(4294967295) (std::bad_alloc,
  // which error_of does not catch) and a 123-byte one took gigabytes for seconds.
  double seconds = 0;
  const std::string name_and_dtype = std::string(4, '\0') + char(DType::U32);
  const std::string f95 = claims_more(0xffffffffu, uint64_t(1) << 40, name_and_dtype);
  REQUIRE(f95.size() == 95);
  CHECK(timed_error(f95, &seconds) == "t.wvt: truncated (the output list is cut off)");
  CHECK(seconds < 1.0);

  std::string output = name_and_dtype + char(4) + std::string(8, '\0') + std::string(19, '\x7f');
  store_le64(output, 6, uint64_t(1) << 36);  // the element count: 256 GiB of u32s
  const std::string f123 = claims_more(100'000'000, uint64_t(1) << 40, output);
  REQUIRE(f123.size() == 123);
  CHECK(timed_error(f123, &seconds) == "t.wvt: truncated (the output list is cut off)");
  CHECK(seconds < 1.0);

  // One output whose element count is what is huge.
  const std::string elements = claims_more(1, uint64_t(1) << 40, output);
  CHECK(timed_error(elements, &seconds) == "t.wvt: truncated (output \"\" is cut off)");
  CHECK(seconds < 1.0);

  // A count that the claimed size cannot hold either is corrupt, not truncated.
  const std::string small_claim = claims_more(0xffffffffu, 200, name_and_dtype);
  CHECK(timed_error(small_claim, &seconds) ==
        "t.wvt: corrupt (output count 4294967295 in the output list does not fit in the file)");
}

TEST_CASE("binary form: a flipped high byte of the size field is named as such", "[trace][io][binary][errors]") {
  const std::string good = to_binary(small_trace());
  std::string bad = good;
  bad[19] ^= 0xff;  // file_size's top byte: claims ~18 EB
  const std::string msg = error_of([&] { from_binary(bad); });
  CHECK(msg == "trace.wvt: corrupt (the size field says " + std::to_string(0xff00000000000000ull + good.size()) +
                   " bytes, but the trace ends after " + std::to_string(good.size()) + ")");
}

TEST_CASE("binary form: the byte limit and a stream that cannot seek", "[trace][io][binary][errors]") {
  const std::string good = to_binary(small_trace());
  std::istringstream in(good, std::ios::binary);
  REQUIRE(error_of([&] { read_trace_binary(in, "t.wvt", good.size() - 1); }) ==
          "t.wvt: larger than the limit of " + std::to_string(good.size() - 1) +
              " bytes (set WARPVIZ_MAX_TRACE_BYTES to raise it)");
  std::istringstream exact(good, std::ios::binary);
  require_same_trace(small_trace(), read_trace_binary(exact, "t.wvt", good.size()));

  // A streambuf that refuses to seek, as a pipe does: still read whole.
  struct NoSeek : std::stringbuf {
    using std::stringbuf::stringbuf;
    pos_type seekoff(off_type, std::ios::seekdir, std::ios::openmode) override { return pos_type(-1); }
    pos_type seekpos(pos_type, std::ios::openmode) override { return pos_type(-1); }
  } buf(good, std::ios::in | std::ios::binary);
  std::istream pipe(&buf);
  require_same_trace(small_trace(), read_trace_binary(pipe, "pipe"));
}

TEST_CASE("parse_byte_count and WARPVIZ_MAX_TRACE_BYTES", "[trace][io]") {
  CHECK(parse_byte_count("4096") == 4096u);
  CHECK(parse_byte_count("64K") == 65536u);
  CHECK(parse_byte_count("512M") == uint64_t(512) << 20);
  CHECK(parse_byte_count("2G") == uint64_t(2) << 30);
  CHECK(parse_byte_count("1TiB") == uint64_t(1) << 40);
  for (const char* bad : {"", "0", "-1", "1.5G", "12 M", "G", "99999999999999999999", "20000000T"}) {
    INFO(bad);
    CHECK_FALSE(parse_byte_count(bad));
  }
  ::setenv("WARPVIZ_MAX_TRACE_BYTES", "3M", 1);
  CHECK(max_trace_bytes() == uint64_t(3) << 20);
  ::setenv("WARPVIZ_MAX_TRACE_BYTES", "lots", 1);
  CHECK(error_of([] { max_trace_bytes(); }) ==
        "WARPVIZ_MAX_TRACE_BYTES='lots' is not a byte count (e.g. 4096, 512M, 2G)");
  ::unsetenv("WARPVIZ_MAX_TRACE_BYTES");
  CHECK(max_trace_bytes() == kDefaultMaxTraceBytes);
}

TEST_CASE("binary form: lane sources, grid and block, and steps' places are checked",
          "[trace][io][binary][errors]") {
  auto read_back = [](const Trace& t) { return error_of([&] { from_binary(to_binary(t)); }); };
  Trace t = small_trace();
  for (int src : {32, 64, 127, -2, -128}) {
    INFO("src " << src);
    t = small_trace();
    t.steps.modify(0, [&](TraceStep& edited) { edited.lanes[3].src = int8_t(src); });
    CHECK(read_back(t) == "trace.wvt: corrupt (source lane " + std::to_string(src) +
                              " in step 0 of 2 lane 3 (a lane is -1 to 31))");
  }
  // Legitimate: -1 for none, and a big grid of which one block was recorded.
  t = small_trace();
  t.steps.modify(1, [&](TraceStep& edited) { edited.lanes[0].src = -1; });
  t.meta.grid = {10'000'000, 1, 1};
  t.steps.modify(1, [&](TraceStep& edited) { edited.block = 9'999'999; });
  CHECK(read_back(t) == "(no error)");
  t.meta.grid = {0x7fffffffu, 65535, 65535};
  t.meta.block = {32, 32, 1};
  t.steps.modify(1, [&](TraceStep& edited) { edited.warp = 31; });
  CHECK(read_back(t) == "(no error)");

  t = small_trace();
  t.meta.grid = {0x80000000u, 1, 1};
  CHECK(read_back(t) ==
        "trace.wvt: corrupt (grid [2147483648, 1, 1] exceeds CUDA's limits (x < 2^31, y and z < 65536))");
  t.meta.grid = {1, 65536, 1};
  CHECK(read_back(t).find("exceeds CUDA's limits") != std::string::npos);
  t.meta.grid = {1, 1, 0};
  CHECK(read_back(t) == "trace.wvt: corrupt (grid [1, 1, 0] has a zero dimension)");
  t.meta.grid = {1, 1, 1};
  t.meta.block = {64, 32, 1};
  CHECK(read_back(t) ==
        "trace.wvt: corrupt (block [64, 32, 1] exceeds CUDA's limits (1024 threads; z at most 64))");

  t = small_trace();
  t.meta.grid = {2, 1, 1};
  t.meta.block = {64, 1, 1};
  t.steps.modify(1, [&](TraceStep& edited) { edited.block = 2; });
  CHECK(read_back(t) == "trace.wvt: corrupt (block 2 is outside the grid's 2 blocks in step 1 of 2)");
  t.steps.modify(1, [&](TraceStep& edited) { edited.block = 1; });
  t.steps.modify(1, [&](TraceStep& edited) { edited.warp = 2; });
  CHECK(read_back(t) == "trace.wvt: corrupt (warp 2 is outside the block's 2 warps in step 1 of 2)");
  t.meta.block = {65, 1, 1};  // a third, partial warp
  CHECK(read_back(t) == "(no error)");
}

// ---- JSON form ------------------------------------------------------------------------

TEST_CASE("JSON form round-trips every field", "[trace][io][json]") {
  const Trace t = realistic_trace();
  const std::string text = trace_to_json(t);
  const Trace back = trace_from_json(text, "t.json");
  require_same_trace(t, back);
  REQUIRE(trace_to_json(back) == text);
  REQUIRE(trace_to_json(t, -1).find('\n') == std::string::npos);
  require_same_trace(t, trace_from_json(trace_to_json(t, -1), "t.json"));
}

TEST_CASE("JSON form: schema and hex formats", "[trace][io][json]") {
  const Trace t = realistic_trace();
  const std::string text = trace_to_json(t);
  REQUIRE(text.find("归约") != std::string::npos);  // UTF-8 kept as is, not escaped
  const auto j = nlohmann::ordered_json::parse(text);

  REQUIRE(j.begin().key() == "format");
  REQUIRE(j["format"] == "warpviz-trace");
  REQUIRE(j["version"] == kTraceJsonVersion);
  for (const char* key : {"scenario", "params", "dtype", "input", "backend", "device",
                          "compute_capability", "tool_version", "grid", "block", "source",
                          "overflow", "steps", "outputs", "output_dtypes"})
    REQUIRE(j.contains(key));
  REQUIRE(j["params"]["op"] == "sum");
  REQUIRE(j["dtype"] == "f32");
  REQUIRE(j["input"] == "random:7");
  REQUIRE(j["grid"] == nlohmann::ordered_json::array({2, 1, 1}));
  REQUIRE(j["source"]["path"] == "kernels/warp_reduce.cu");
  REQUIRE(j["source"]["text"] == t.meta.source_text);
  REQUIRE(j["steps"].size() == t.steps.size());

  const auto& down = j["steps"][0];
  REQUIRE(down["op"] == "shfl.down");
  REQUIRE(down["mask"] == "0xffffffff");
  REQUIRE(down["args"] == nlohmann::ordered_json({{"delta", 4}, {"width", 32}, {"c", "0x0000001f"}}));
  REQUIRE(down["lanes"].size() == 32);
  REQUIRE(down["lanes"][9]["in"] == "0x7fc00123");
  REQUIRE(down["lanes"][3]["in"] == "0x80000000");
  REQUIRE(down["lanes"][0]["src"] == 4);
  REQUIRE(down["lanes"][31]["ok"] == false);
  REQUIRE_FALSE(down["lanes"][0].contains("addr"));

  const auto& idx = j["steps"][1];
  REQUIRE(idx["args"]["srcLane"] == 3);
  REQUIRE(idx["args"]["width"] == 16);
  REQUIRE(idx["args"]["c"] == "0x0000101f");
  REQUIRE(idx["mask"] == "0x0000fff0");
  REQUIRE(idx["lanes"][0]["src"].is_null());
  REQUIRE(idx["lanes"][0]["active"] == false);
  REQUIRE(idx["lanes"][4]["undefined"] == true);
  REQUIRE(idx["lanes"][4]["out"] == "0xfff8000000000456");
  REQUIRE(idx["lanes"][4]["in"].get<std::string>().size() == 18);

  const auto& ballot = j["steps"][2];
  REQUIRE(ballot["args"] == nlohmann::ordered_json::object());
  REQUIRE(ballot["lanes"][0]["out"] == "0x49249249");

  // match.any on u64: 16-digit inputs, 8-digit mask result.
  const auto& match = j["steps"][3];
  REQUIRE(match["lanes"][1]["in"] == "0xdeadbeef00000001");
  REQUIRE(match["lanes"][1]["out"] == "0xaaaaaaaa");

  REQUIRE(j["steps"][4]["lanes"][0]["out"] == "0xfffffe10");
  const auto& store = j["steps"][5];
  REQUIRE(store["lanes"][3]["addr"] == 24);
  REQUIRE(store["lanes"][3]["bytes"] == 4);
  REQUIRE(j["steps"][6]["args"] == nlohmann::ordered_json({{"b", 7}, {"width", 16}, {"c", "0x00000005"}}));
  REQUIRE(j["steps"][7]["args"]["laneMask"] == -1);
  REQUIRE(j["steps"][7]["op"] == "shfl.bfly");

  REQUIRE(j["outputs"]["out"][1] == "0x80000000");
  REQUIRE(j["outputs"]["count"][0] == "0xffffffffffffffff");
  REQUIRE(j["output_dtypes"]["out"] == "f32");
  REQUIRE(j["output_dtypes"]["count"] == "u64");
}

TEST_CASE("JSON form: errors name the file and the field", "[trace][io][json][errors]") {
  const std::string good = trace_to_json(realistic_trace());
  auto edited = [&](const std::function<void(nlohmann::ordered_json&)>& edit) {
    auto j = nlohmann::ordered_json::parse(good);
    edit(j);
    return error_of([&] { trace_from_json(j.dump(), "t.json"); });
  };

  const std::string bad_json = error_of([&] { trace_from_json("{\"format\": ", "t.json"); });
  REQUIRE(bad_json.rfind("t.json: invalid JSON: ", 0) == 0);
  REQUIRE(bad_json.find("parse error") != std::string::npos);

  REQUIRE(edited([](auto& j) { j["format"] = "chrome-trace"; }).rfind(
              "t.json: not a warpviz trace", 0) == 0);
  REQUIRE(error_of([&] { trace_from_json("[1, 2]", "t.json"); }).rfind(
              "t.json: not a warpviz trace", 0) == 0);
  REQUIRE(edited([](auto& j) { j["version"] = 7; }) ==
          "t.json: written by a newer warpviz (format version 7; this build reads up to " +
              std::to_string(kTraceJsonVersion) + ")");
  REQUIRE(edited([](auto& j) { j["steps"][0]["lanes"].erase(31); }) ==
          "t.json: steps[0].lanes: expected 32 lanes, found 31");
  REQUIRE(edited([](auto& j) { j["steps"][3]["lanes"][7]["in"] = 12; }) ==
          "t.json: steps[3].lanes[7].in: expected a hex string");
  REQUIRE(edited([](auto& j) { j["steps"][2]["lanes"][7]["in"] = "0x1ffffffff"; }) ==
          "t.json: steps[2].lanes[7].in: hex value 0x1ffffffff is too wide for i32");
  REQUIRE(edited([](auto& j) { j["steps"][1]["op"] = "shfl.left"; }) ==
          "t.json: steps[1].op: unknown op \"shfl.left\"");
  REQUIRE(edited([](auto& j) { j["steps"][1]["args"].erase("width"); }) ==
          "t.json: steps[1].args.width: missing");
  REQUIRE(edited([](auto& j) { j["steps"][2]["args"]["delta"] = 1; }) ==
          "t.json: steps[2].args.delta: not an argument of vote.ballot");
  REQUIRE(edited([](auto& j) { j["steps"][5]["lanes"][0].erase("addr"); }) ==
          "t.json: steps[5].lanes[0].addr: missing");
  REQUIRE(edited([](auto& j) { j["steps"][0]["lanes"][2]["lane"] = 5; }) ==
          "t.json: steps[0].lanes[2].lane: expected 2");
  REQUIRE(edited([](auto& j) { j["steps"][0]["block"] = -1; }) ==
          "t.json: steps[0].block: expected an integer from 0 to 4294967295");
  REQUIRE(edited([](auto& j) { j["steps"][0]["dtype"] = "f16"; }) ==
          "t.json: steps[0].dtype: unknown dtype \"f16\"");
  REQUIRE(edited([](auto& j) { j["grid"] = {1, 2}; }) == "t.json: grid: expected [x, y, z]");
  REQUIRE(edited([](auto& j) { j.erase("scenario"); }) == "t.json: scenario: missing");
  REQUIRE(edited([](auto& j) { j["overflow"] = "no"; }) == "t.json: overflow: expected true or false");
  REQUIRE(edited([](auto& j) { j["output_dtypes"].erase("count"); }) ==
          "t.json: output_dtypes.count: missing");
  REQUIRE(edited([](auto& j) { j["outputs"]["out"][2] = "nan"; }) ==
          "t.json: outputs.out[2]: expected a hex string");
}

TEST_CASE("JSON form: shared steps carry the bank model's wavefronts, conflicts and banks",
          "[trace][io][json][bank]") {
  const Trace t = realistic_trace();
  const auto j = nlohmann::ordered_json::parse(trace_to_json(t));
  const auto& store = j["steps"][5];
  // Step 5 stores 30 lanes at 8-byte stride: banks 0, 2, .., 30 each get two
  // words (docs/warp-rules.md#wavefronts: stride 2 words costs 2 wavefronts, 1 conflict).
  REQUIRE(store["wavefronts"] == 2);
  REQUIRE(store["conflicts"] == 1);
  const BankAnalysis model = analyze_shared_access(shared_access_of(t.steps[5]));
  REQUIRE(store["wavefronts"] == model.wavefronts);
  REQUIRE(store["conflicts"] == model.conflicts);
  for (int l = 0; l < 30; ++l) {
    INFO("lane " << l);
    REQUIRE(store["lanes"][size_t(l)]["bank"] == (2 * l) % 32);
  }
  REQUIRE_FALSE(store["lanes"][30].contains("bank"));  // inactive
  REQUIRE_FALSE(j["steps"][0].contains("wavefronts"));  // not a shared step
  REQUIRE_FALSE(j["steps"][0]["lanes"][0].contains("bank"));

  // 64-bit loads at 8l: two conflict-free half-warps.
  const auto small = nlohmann::ordered_json::parse(trace_to_json(small_trace()));
  REQUIRE(small["steps"][1]["wavefronts"] == 2);
  REQUIRE(small["steps"][1]["conflicts"] == 0);
  REQUIRE(small["steps"][1]["lanes"][17]["bank"] == 2);
}

TEST_CASE("JSON form: the bank fields are derived, not read back", "[trace][io][json][bank]") {
  const Trace t = realistic_trace();
  auto j = nlohmann::ordered_json::parse(trace_to_json(t));
  j["steps"][5]["wavefronts"] = 999;
  j["steps"][5]["conflicts"] = "many";
  j["steps"][5]["lanes"][3]["bank"] = 17;
  j["steps"][5].erase("wavefronts");
  const Trace back = trace_from_json(j.dump(), "t.json");
  require_same_trace(t, back);
  const auto again = nlohmann::ordered_json::parse(trace_to_json(back));
  REQUIRE(again["steps"][5]["wavefronts"] == 2);
  REQUIRE(again["steps"][5]["lanes"][3]["bank"] == 6);

  // But a shared step the model cannot cost is refused.
  j["steps"][5]["lanes"][3]["bytes"] = 5;
  REQUIRE(error_of([&] { trace_from_json(j.dump(), "t.json"); }) ==
          "t.json: steps[5]: shared-memory step with mixed access widths (4 and 5 bytes)");
}

TEST_CASE("JSON form: measurements at the trace level", "[trace][io][json]") {
  Trace t = realistic_trace();
  auto j = nlohmann::ordered_json::parse(trace_to_json(t));
  REQUIRE(j["measurements"]["latency_cycles"] == 33.25);
  REQUIRE(j["measurements"]["ncu.l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] == 2);
  REQUIRE(trace_from_json(j.dump(), "t.json").meta.measurements == t.meta.measurements);

  // None: omitted, and absent reads as none.
  t.meta.measurements.clear();
  j = nlohmann::ordered_json::parse(trace_to_json(t));
  REQUIRE_FALSE(j.contains("measurements"));
  REQUIRE(trace_from_json(j.dump(), "t.json").meta.measurements.empty());
  j["measurements"] = nlohmann::ordered_json::object();
  REQUIRE(trace_from_json(j.dump(), "t.json").meta.measurements.empty());

  // JSON has no NaN: null both ways.
  t.meta.measurements = {{"throughput_cycles", std::numeric_limits<double>::quiet_NaN()}};
  j = nlohmann::ordered_json::parse(trace_to_json(t));
  REQUIRE(j["measurements"]["throughput_cycles"].is_null());
  REQUIRE(std::isnan(trace_from_json(j.dump(), "t.json").meta.measurements.at("throughput_cycles")));

  j["measurements"]["latency_cycles"] = "fast";
  REQUIRE(error_of([&] { trace_from_json(j.dump(), "t.json"); }) ==
          "t.json: measurements.latency_cycles: expected a number");
  j["measurements"] = nlohmann::ordered_json::array({1});
  REQUIRE(error_of([&] { trace_from_json(j.dump(), "t.json"); }) ==
          "t.json: measurements: expected an object");
}

TEST_CASE("JSON form: hostile input is a TraceFileError, fast", "[trace][io][json][errors][hostile]") {
  const std::string good = trace_to_json(realistic_trace());
  auto edited = [&](const std::function<void(nlohmann::ordered_json&)>& edit) {
    auto j = nlohmann::ordered_json::parse(good);
    edit(j);
    return error_of([&] { trace_from_json(j.dump(), "t.json"); });
  };

  // nlohmann throws out_of_range, not parse_error, for a number beyond a double.
  std::string huge_version = nlohmann::ordered_json::parse(good).dump();
  const std::string version_member = "\"version\":" + std::to_string(kTraceJsonVersion);
  const size_t at = huge_version.find(version_member);
  REQUIRE(at != std::string::npos);
  huge_version.replace(at, version_member.size(), "\"version\":1e999");
  const std::string overflow = error_of([&] { trace_from_json(huge_version, "t.json"); });
  CHECK(overflow.rfind("t.json: invalid JSON: ", 0) == 0);
  CHECK(overflow.find("number overflow") != std::string::npos);

  // 10^7 empty steps (30 MB): the first one fails, before the rest is held.
  std::string empty_steps = "{\"format\":\"warpviz-trace\",\"version\":1,\"steps\":[{}";
  empty_steps.reserve(30'000'100);
  for (int i = 1; i < 10'000'000; ++i) empty_steps += ",{}";
  empty_steps += "]}";
  const auto start = std::chrono::steady_clock::now();
  CHECK(error_of([&] { trace_from_json(empty_steps, "t.json"); }) == "t.json: steps[0].block: missing");
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 1.0);

  // One step of deep junk stops at the step budget.
  const std::string deep = "{\"steps\":[" + std::string(100'000, '[') + std::string(100'000, ']') + "]}";
  CHECK(error_of([&] { trace_from_json(deep, "t.json"); }) ==
        "t.json: steps[0]: too large for a step (more than 16384 JSON values)");
  CHECK(error_of([&] { trace_from_json("{\"steps\":[1]}", "t.json"); }) == "t.json: steps[0]: expected an object");

  // Outside the steps nothing nests deeper than an output's values.
  CHECK(edited([](auto& j) { j["params"]["n"] = nlohmann::ordered_json::array({1}); }) ==
        "t.json: params.n: expected plain values, found a nested array");
  CHECK(edited([](auto& j) { j["outputs"]["out"][2] = nlohmann::ordered_json::object(); }) ==
        "t.json: outputs: expected plain values, found a nested object");
  // Members outside the schema are dropped unread, whatever they hold.
  CHECK(edited([](auto& j) { j["notes"] = {{"deep", {{"er", {1, 2, {{"x", 3}}}}}}}; }) == "(no error)");
  CHECK(edited([](auto& j) {
          j["steps"][0]["wavefronts"] = {1, 2};
          j["steps"][0]["lanes"][3]["bank"] = {{"anything", 1}};
        }) == "(no error)");
}

TEST_CASE("JSON form: lane sources, grid and block, and steps' places are checked", "[trace][io][json][errors]") {
  const std::string good = trace_to_json(realistic_trace());  // grid [2,1,1], block [64,1,1]
  auto edited = [&](const std::function<void(nlohmann::ordered_json&)>& edit) {
    auto j = nlohmann::ordered_json::parse(good);
    edit(j);
    return error_of([&] { trace_from_json(j.dump(), "t.json"); });
  };
  for (int src : {32, 64, 127, -2}) {
    INFO("src " << src);
    CHECK(edited([&](auto& j) { j["steps"][0]["lanes"][3]["src"] = src; }) ==
          "t.json: steps[0].lanes[3].src: expected an integer from -1 to 31");
  }
  CHECK(edited([](auto& j) { j["steps"][0]["lanes"][3]["src"] = -1; }) == "(no error)");
  CHECK(edited([](auto& j) { j["steps"][7]["block"] = 2; }) == "t.json: steps[7].block: 2 is outside the grid's 2 blocks");
  CHECK(edited([](auto& j) { j["steps"][7]["warp"] = 2; }) == "t.json: steps[7].warp: 2 is outside the block's 2 warps");
  // A big grid with few recorded blocks is how GPU traces look.
  CHECK(edited([](auto& j) { j["grid"] = {10'000'000, 1, 1}; }) == "(no error)");
  CHECK(edited([](auto& j) { j["grid"] = {2147483648u, 1, 1}; }) ==
        "t.json: grid [2147483648, 1, 1] exceeds CUDA's limits (x < 2^31, y and z < 65536)");
  CHECK(edited([](auto& j) { j["block"] = {2048, 1, 1}; }) ==
        "t.json: block [2048, 1, 1] exceeds CUDA's limits (1024 threads; z at most 64)");
  CHECK(edited([](auto& j) { j["grid"] = {0, 1, 1}; }) == "t.json: grid [0, 1, 1] has a zero dimension");
}

// ---- files ----------------------------------------------------------------------------

TEST_CASE("load_trace: a file big enough for the page-faulting thread reads back exactly",
          "[trace][io][files]") {
  // Over 16 MiB of file and of steps: both buffers get a PageFaulter, which
  // faults their pages in from the end back while the read and the parse fill
  // them from the front; what they hold must not change.
  Trace t = realistic_trace();
  const TraceSteps pattern = t.steps;
  t.steps.clear();
  for (uint32_t i = 0; i < 60000; ++i) {
    TraceStep s = pattern[i % pattern.size()];
    s.seq = i;
    s.lanes[i % kWarpSize].out = i;  // no two steps alike
    t.steps.push_back(s);
  }
  const TempDir dir;
  const std::string wvt = dir.file("big.wvt");
  save_trace(t, wvt);
  REQUIRE(std::filesystem::file_size(wvt) > (size_t(16) << 20));
  REQUIRE(t.steps.encoded_bytes() > (size_t(16) << 20));
  const Trace back = load_trace(wvt);
  REQUIRE(back.steps.size() == t.steps.size());
  CHECK(back.steps[59999].lanes[59999 % kWarpSize].out == 59999);
  // Every stored field, byte for byte (comparing field by field takes millions of checks).
  CHECK(to_binary(back) == read_file(wvt));
  // Cut short, it is still a clear error, not a crash.
  std::string cut = read_file(wvt);
  cut.resize(cut.size() * 3 / 4);
  std::ofstream(dir.file("cut.wvt"), std::ios::binary) << cut;
  CHECK(error_of([&] { load_trace(dir.file("cut.wvt")); }).rfind(dir.file("cut.wvt") + ": truncated (", 0) == 0);
  // load_trace hashes a big file's body as it reads it: a byte flipped in the
  // first chunk, in the middle, in the last byte of the body, or in the stored
  // checksum is still the checksum's mismatch.
  const std::string intact = read_file(wvt);
  for (const size_t at : {size_t(100), intact.size() / 2, intact.size() - 9, intact.size() - 1}) {
    INFO("flipped byte " << at << " of " << intact.size());
    std::string flipped = intact;
    flipped[at] ^= 0x10;
    std::ofstream(dir.file("flipped.wvt"), std::ios::binary | std::ios::trunc) << flipped;
    CHECK(error_of([&] { load_trace(dir.file("flipped.wvt")); }) == dir.file("flipped.wvt") + ": corrupt (checksum mismatch)");
  }
}

TEST_CASE("save_trace/load_trace: form by extension, content sniffed on load", "[trace][io][files]") {
  const TempDir dir;
  const Trace t = realistic_trace();

  const std::string wvt = dir.file("run.wvt"), json = dir.file("run.json");
  save_trace(t, wvt);
  save_trace(t, json);
  REQUIRE(read_file(wvt).compare(0, 8, "WARPVIZT") == 0);
  REQUIRE(read_file(json).front() == '{');
  REQUIRE_FALSE(std::filesystem::exists(wvt + ".tmp"));
  require_same_trace(t, load_trace(wvt));
  require_same_trace(t, load_trace(json));

  // The name does not decide the reader: JSON saved under a binary-looking name.
  std::filesystem::copy_file(json, dir.file("misnamed.wvt"));
  require_same_trace(t, load_trace(dir.file("misnamed.wvt")));

  std::ofstream(dir.file("notes.txt")) << "just some notes\n";
  REQUIRE(error_of([&] { load_trace(dir.file("notes.txt")); }).find("not a warpviz trace") !=
          std::string::npos);

  const std::string missing = dir.file("missing.wvt");
  REQUIRE(error_of([&] { load_trace(missing); }) ==
          "cannot open " + missing + ": No such file or directory");
  REQUIRE(error_of([&] { load_trace(dir.path.string()); }).rfind("cannot open", 0) == 0);

  // A failed save leaves the existing file intact.
  const std::string before = read_file(wvt);
  REQUIRE_THROWS_AS(save_trace(t, dir.file("no/such/dir/run.wvt")), TraceFileError);
  REQUIRE(read_file(wvt) == before);
}

TEST_CASE("load_trace: /dev/zero, the byte limit, standard input by name", "[trace][io][files][errors][hostile]") {
  const auto start = std::chrono::steady_clock::now();
  CHECK(error_of([] { load_trace("/dev/zero"); }) ==
        "/dev/zero: not a warpviz trace (neither the binary nor the JSON form)");
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 1.0);

  const TempDir dir;
  const std::string wvt = dir.file("t.wvt");
  save_trace(small_trace(), wvt);
  const uint64_t size = std::filesystem::file_size(wvt);
  CHECK(error_of([&] { load_trace(wvt, size - 1); }) ==
        wvt + ": larger than the limit of " + std::to_string(size - 1) +
            " bytes for a trace (set WARPVIZ_MAX_TRACE_BYTES, or pass --max-bytes to warpviz-cli, to raise it)");
  require_same_trace(small_trace(), load_trace(wvt, size));
  ::setenv("WARPVIZ_MAX_TRACE_BYTES", std::to_string(size - 1).c_str(), 1);
  CHECK(error_of([&] { load_trace(wvt); }).find("larger than the limit") != std::string::npos);
  ::unsetenv("WARPVIZ_MAX_TRACE_BYTES");
  // A character device that is not all zeros: /dev/urandom is refused at once too.
  CHECK(error_of([] { load_trace("/dev/urandom"); }).find("not a warpviz trace") != std::string::npos);
  // Random bytes that happen to start like JSON ('{' then binary) are refused
  // at the first chunk, not read on to the limit: this was /dev/urandom's 1 in 256.
  const std::string like_json = dir.file("like_json");
  {
    std::ofstream out(like_json, std::ios::binary);
    out << "{\"format\": ";
    for (int i = 0; i < 4096; ++i) out.put(char(i * 37 % 256));
  }
  CHECK(error_of([&] { load_trace(like_json); }) ==
        like_json + ": not a warpviz trace (neither the binary nor the JSON form)");
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 2.0);
}

namespace {

std::vector<std::string> names_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("save_trace: keeps the mode, follows a symlink, never touches X.tmp", "[trace][io][files]") {
  namespace fs = std::filesystem;
  const TempDir dir;
  const Trace t = small_trace();
  const std::string target = dir.file("x.wvt");

  // The user's own x.wvt.tmp, which the old save overwrote and renamed away.
  std::ofstream(dir.file("x.wvt.tmp")) << "my notes\n";
  std::ofstream(target) << "old";
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write);  // 600
  save_trace(t, target);
  CHECK(fs::status(target).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
  CHECK(read_file(dir.file("x.wvt.tmp")) == "my notes\n");
  require_same_trace(t, load_trace(target));
  CHECK(names_in(dir.path) == std::vector<std::string>{"x.wvt", "x.wvt.tmp"});  // no temporary left

  // A symlink stays a link; the file it points at gets the trace, mode kept.
  fs::create_directories(dir.path / "real");
  const std::string real = dir.file("real/y.json");
  std::ofstream(real) << "{}";
  fs::permissions(real, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);  // 640
  fs::create_symlink("real/y.json", dir.path / "link.json");
  save_trace(t, dir.file("link.json"));
  CHECK(fs::is_symlink(dir.path / "link.json"));
  CHECK(fs::read_symlink(dir.path / "link.json") == "real/y.json");
  CHECK(read_file(real).front() == '{');
  require_same_trace(t, load_trace(real));
  CHECK(fs::status(real).permissions() ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  CHECK(names_in(dir.path / "real") == std::vector<std::string>{"y.json"});

  // A dangling link creates its target; a loop is refused.
  fs::create_symlink("real/new.wvt", dir.path / "dangling.wvt");
  save_trace(t, dir.file("dangling.wvt"));
  CHECK(fs::is_symlink(dir.path / "dangling.wvt"));
  require_same_trace(t, load_trace(dir.file("real/new.wvt")));
  fs::create_symlink("loop.wvt", dir.path / "loop.wvt");
  CHECK(error_of([&] { save_trace(t, dir.file("loop.wvt")); }) ==
        "cannot write " + dir.file("loop.wvt") + ": Too many levels of symbolic links");

  // A directory is refused and left alone.
  CHECK(error_of([&] { save_trace(t, dir.file("real")); }) == "cannot write " + dir.file("real") + ": Is a directory");
}

TEST_CASE("save_trace: a failed write leaves the existing file as it was", "[trace][io][files][errors]") {
  const TempDir dir;
  // A name so long that no temporary name beside it fits NAME_MAX: the write
  // fails after the target exists, which root's permissions cannot prevent.
  const std::string target = dir.file(std::string(250, 'a') + ".wvt");
  std::ofstream(target) << "previous content";
  const std::string msg = error_of([&] { save_trace(small_trace(), target); });
  CHECK(msg == "cannot write " + target + ": File name too long");
  CHECK(read_file(target) == "previous content");
  CHECK(names_in(dir.path).size() == 1);
  // A device that fills up: the error is reported, not lost.
  CHECK(error_of([] { save_trace(small_trace(), "/dev/full"); }) == "cannot write /dev/full: No space left on device");
}

// ---- diff -----------------------------------------------------------------------------

TEST_CASE("diff_traces: equal traces, a changed lane, counts", "[trace][diff]") {
  const Trace a = realistic_trace();
  REQUIRE(diff_traces(a, a).empty());

  Trace b = a;
  b.steps.modify(0, [&](TraceStep& edited) { edited.lanes[1].out = f32_bits(99.0f); });
  size_t total = 0;
  auto d = diff_traces(a, b, {}, &total);
  REQUIRE(total == 1);
  REQUIRE(d.size() == 1);
  REQUIRE(d[0].where == "step 0 (block 0 warp 0 shfl.down line 4) lane 1 out");
  REQUIRE(d[0].a == "2.5 (0x40200000)");
  REQUIRE(d[0].b == "99 (0x42c60000)");

  // Mask results are compared and shown as u32.
  b = a;
  b.steps.modify(3, [&](TraceStep& edited) { edited.lanes[1].out = 0x55555555; });
  d = diff_traces(a, b);
  REQUIRE(d.size() == 1);
  REQUIRE(d[0].where == "step 3 (block 0 warp 0 match.any line 11) lane 1 out");
  REQUIRE(d[0].a == "2863311530 (0xaaaaaaaa)");

  b = a;
  b.steps.modify(7, [&](TraceStep& edited) { edited.args.width = 16; });
  b.steps.modify(7, [&](TraceStep& edited) { edited.lanes[2].src = -1; });
  b.outputs[1].bits[1] = 0;
  d = diff_traces(a, b, {}, &total);
  REQUIRE(total == 3);
  REQUIRE(d[0].where == "step 7 (block 1 warp 1 shfl.bfly line 19) args.width");
  REQUIRE(d[1].where == "step 7 (block 1 warp 1 shfl.bfly line 19) lane 2 src");
  REQUIRE(d[1].b == "none");
  REQUIRE(d[2].where == "output \"count\"[1]");

  b = a;
  b.steps.truncate(b.steps.size() - 1);
  d = diff_traces(a, b);
  REQUIRE(d.size() == 1);
  REQUIRE(d[0].where == "step count");

  // Every lane differs, but only max_differences are kept.
  b = a;
  b.steps.modify(4, [](TraceStep& s) {
    for (LaneRecord& l : s.lanes) l.in ^= 1;
  });
  TraceDiffOptions few;
  few.max_differences = 5;
  d = diff_traces(a, b, few, &total);
  REQUIRE(d.size() == 5);
  REQUIRE(total == 32);
}

TEST_CASE("diff_traces: undefined lanes and metadata", "[trace][diff]") {
  const Trace a = realistic_trace();
  Trace b = a;
  b.steps.modify(1, [&](TraceStep& edited) { edited.lanes[6].out = 0; });  // undefined lane: any value is acceptable
  b.steps.modify(1, [&](TraceStep& edited) { edited.lanes[7].src = 9; });
  REQUIRE(diff_traces(a, b).empty());
  TraceDiffOptions strict;
  strict.skip_undefined = false;
  REQUIRE(diff_traces(a, b, strict).size() == 2);

  // Undefined in one trace only: the marking differs and is reported; the
  // values are still skipped.
  b = a;
  b.steps.modify(0, [&](TraceStep& edited) { edited.lanes[2].flags |= kLaneUndefined; });
  b.steps.modify(0, [&](TraceStep& edited) { edited.lanes[2].out = 7; });
  auto d = diff_traces(a, b);
  REQUIRE(d.size() == 1);
  REQUIRE(d[0].where == "step 0 (block 0 warp 0 shfl.down line 4) lane 2 undefined");
  b.steps.modify(0, [&](TraceStep& edited) { edited.lanes[2].flags &= uint8_t(~kLaneActive); });
  d = diff_traces(a, b);
  REQUIRE(d.size() == 2);
  REQUIRE(d[0].where == "step 0 (block 0 warp 0 shfl.down line 4) lane 2 active");

  // Backend, device and tool version differ by design and are never compared.
  b = a;
  b.meta.backend = "cuda";
  b.meta.device = "NVIDIA H200";
  b.meta.tool_version = "9.9";
  TraceDiffOptions meta;
  meta.compare_meta = true;
  REQUIRE(diff_traces(a, b, meta).empty());
  b.meta.params["n"] = "64";
  b.meta.grid.x = 4;
  REQUIRE(diff_traces(a, b).empty());
  d = diff_traces(a, b, meta);
  REQUIRE(d.size() == 2);
  REQUIRE(d[0].where == "meta params.n");
  REQUIRE(d[1].where == "meta grid");
}

TEST_CASE("diff_traces: measurements with --meta only, by name and value", "[trace][diff]") {
  const Trace a = realistic_trace();
  Trace b = a;
  b.meta.measurements["latency_cycles"] = 34;
  b.meta.measurements.erase("throughput_cycles");
  b.meta.measurements["ncu.l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] = 31;
  REQUIRE(diff_traces(a, b).empty());  // the steps are the same
  TraceDiffOptions meta;
  meta.compare_meta = true;
  const auto d = diff_traces(a, b, meta);
  REQUIRE(d.size() == 3);
  REQUIRE(d[0].where == "meta measurements.latency_cycles");
  REQUIRE(d[0].a == "33.25");
  REQUIRE(d[0].b == "34");
  REQUIRE(d[1].where == "meta measurements.throughput_cycles");
  REQUIRE(d[1].b == "(absent)");
  REQUIRE(d[2].where == "meta measurements.ncu.l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
  REQUIRE(d[2].a == "(absent)");

  // A GPU trace against its CPU rerun: the rest of the metadata, not the figures.
  meta.compare_measurements = false;
  REQUIRE(diff_traces(a, b, meta).empty());
  b.meta.input_spec = "ones";
  REQUIRE(diff_traces(a, b, meta).size() == 1);
  meta.compare_measurements = true;

  // The same NaN is no difference.
  Trace c = a, e = a;
  c.meta.measurements["x"] = e.meta.measurements["x"] = std::numeric_limits<double>::quiet_NaN();
  REQUIRE(diff_traces(c, e, meta).empty());
}

// ---- diff: divergent paths in another order -------------------------------------------

TEST_CASE("warp paths: a parity branch's regions, paths by lowest lane, fork and join", "[trace][diff][paths]") {
  const Trace t = test::parity_branch_trace("BABA", "cuda");
  const auto regions = divergent_regions(t.steps);
  REQUIRE(regions.size() == 1);
  const DivergentRegion& r = regions[0];
  CHECK(r.begin == 1);
  CHECK(r.end == 5);
  CHECK(r.fork == 0);
  CHECK(r.join == 5);
  REQUIRE(r.paths.size() == 2);
  CHECK(r.paths[0].lanes == test::kEvenLanes);  // lane 0's path is A whichever ran first
  CHECK(r.paths[1].lanes == test::kOddLanes);
  CHECK(r.paths[0].steps == std::vector<size_t>{2, 4});
  CHECK(r.path_of == std::vector<uint32_t>{1, 0, 1, 0});
  CHECK(region_of_step(regions, 3) == &r);
  CHECK(region_of_step(regions, 0) == nullptr);
  CHECK(region_of_step(regions, 5) == nullptr);
}

TEST_CASE("diff_traces: same per-path results in another interleaving", "[trace][diff][paths]") {
  const Trace cpu = test::parity_branch_trace("ABAB", "cpu");
  const Trace gpu = test::parity_branch_trace("AABB", "cuda");
  // In recorded order the two differ.
  size_t total = 0;
  CHECK_FALSE(diff_traces(gpu, cpu, {}, &total).empty());
  CHECK(total > 0);

  // Path by path they are equal, and the diff says how each interleaved them.
  TraceDiffOptions any_order;
  any_order.paths_in_any_order = true;
  std::vector<PathInterleaving> orders;
  CHECK(diff_traces(gpu, cpu, any_order, &total, &orders).empty());
  CHECK(total == 0);
  REQUIRE(orders.size() == 1);
  CHECK(orders[0].a_order == std::vector<uint32_t>{0, 0, 1, 1});
  CHECK(orders[0].b_order == std::vector<uint32_t>{0, 1, 0, 1});
  CHECK(orders[0].join_line == test::kJoinLine);
  CHECK(describe_interleaving(orders[0], backend_label(gpu, "a"), backend_label(cpu, "b")) ==
        "block 0 warp 0: same per-path results, different interleaving of the paths: both ran path A "
        "(lanes 0x55555555, line 12) first, then path B (lanes 0xaaaaaaaa, line 15) (GPU A A B B, CPU A B A B)"
        "; joined at line 20");
}

TEST_CASE("diff_traces: the path each trace ran first is named", "[trace][diff][paths]") {
  const Trace cpu = test::parity_branch_trace("ABAB", "cpu");
  const Trace gpu = test::parity_branch_trace("BBAA", "cuda");
  TraceDiffOptions any_order;
  any_order.paths_in_any_order = true;
  std::vector<PathInterleaving> orders;
  CHECK(diff_traces(gpu, cpu, any_order, nullptr, &orders).empty());
  REQUIRE(orders.size() == 1);
  CHECK(describe_interleaving(orders[0], "GPU", "CPU") ==
        "block 0 warp 0: same per-path results, different interleaving of the paths: GPU ran path B "
        "(lanes 0xaaaaaaaa, line 15) first, CPU ran path A (lanes 0x55555555, line 12) first "
        "(GPU B B A A, CPU A B A B); joined at line 20");
  // The same order on both sides is no interleaving.
  CHECK(diff_traces(cpu, cpu, any_order, nullptr, &orders).empty());
  CHECK(orders.empty());
}

TEST_CASE("diff_traces: a different result on a reordered path is still a difference", "[trace][diff][paths]") {
  const Trace cpu = test::parity_branch_trace("ABAB", "cpu");
  Trace gpu = test::parity_branch_trace("AABB", "cuda");
  // path B's shuffle (step 3 here, step 2 on the CPU), lane 3
  gpu.steps.modify(3, [&](TraceStep& edited) { edited.lanes[3].out ^= 1; });
  TraceDiffOptions any_order;
  any_order.paths_in_any_order = true;
  size_t total = 0;
  std::vector<PathInterleaving> orders;
  const auto d = diff_traces(gpu, cpu, any_order, &total, &orders);
  REQUIRE(total == 1);
  CHECK(d[0].where == "step 3 (block 0 warp 0 shfl.bfly line 15) lane 3 out");
  CHECK(orders.size() == 1);  // the order is said as well

  // Other lanes on a path: not the same paths, so the steps compare in place.
  Trace other = test::parity_branch_trace("AABB", "cuda");
  other.steps.modify(1, [&](TraceStep& edited) { edited.lanes[1].flags = kLaneActive; });
  CHECK_FALSE(pair_steps_by_path(other.steps, cpu.steps));
  CHECK_FALSE(diff_traces(other, cpu, any_order, &total, &orders).empty());
  CHECK(orders.empty());
}

TEST_CASE("compare_traces (GPU tests): another interleaving is equal and said", "[trace][diff][paths]") {
  const Trace cpu = test::parity_branch_trace("ABAB", "cpu");
  const Trace gpu = test::parity_branch_trace("BBAA", "cuda");
  const test::TraceComparison cmp = test::compare_traces(gpu, cpu);
  CHECK(cmp.equal());
  CHECK(cmp.steps == 6);
  CHECK(cmp.active_lanes == 6 * 32 - 4 * 16);
  CHECK(cmp.describe_interleavings("GPU", "CPU").find("GPU ran path B (lanes 0xaaaaaaaa, line 15) first") !=
        std::string::npos);
  // A lane's flags on a reordered path are compared with the same path's step.
  Trace flagged = gpu;
  // path B's shuffle, lane 5
  flagged.steps.modify(1, [&](TraceStep& edited) { edited.lanes[5].flags |= kLaneUndefined; });
  const test::TraceComparison bad = test::compare_traces(flagged, cpu);
  CHECK_FALSE(bad.equal());
  REQUIRE(bad.flags.size() == 1);
  CHECK(bad.flags[0].where == "step 1 (block 0 warp 0 shfl.bfly line 15) lane 5 flags");
}


// ---- dump -----------------------------------------------------------------------------

TEST_CASE("dump_trace: header, step lines, lane table, outputs", "[trace][dump]") {
  const Trace t = realistic_trace();
  std::ostringstream out;
  dump_trace(t, out);
  const std::string text = out.str();
  INFO(text);
  REQUIRE(text.find("scenario  warp_reduce") != std::string::npos);
  REQUIRE(text.find("params    n=32 op=sum tile=32") != std::string::npos);
  REQUIRE(text.find("source    kernels/warp_reduce.cu") != std::string::npos);
  REQUIRE(text.find("steps     8") != std::string::npos);
  REQUIRE(text.find("measured  latency_cycles = 33.25\n"
                    "          ncu.l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum = 2\n"
                    "          throughput_cycles = 0.1\n") != std::string::npos);
  REQUIRE(text.find("step 0  block 0 warp 0  line 4  shfl.down delta=4 width=32 c=0x1f "
                    "mask=0xffffffff  dtype f32") != std::string::npos);
  REQUIRE(text.find("step 6  block 0 warp 0  line 17  activemask b=7 width=16 c=0x5 "
                    "mask=0x00000000  dtype u32") != std::string::npos);

  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  auto row_of = [&](const std::string& step_title, int lane) {
    size_t i = 0;
    while (i < lines.size() && lines[i].rfind(step_title, 0) != 0) ++i;
    REQUIRE(i + 2 + size_t(lane) < lines.size());
    return lines[i + 2 + size_t(lane)];  // title, column heads, then lanes
  };
  auto words = [](const std::string& s) {
    std::istringstream ws(s);
    std::vector<std::string> v;
    for (std::string w; ws >> w;) v.push_back(w);
    return v;
  };
  using Words = std::vector<std::string>;
  REQUIRE(words(row_of("step 0 ", 9)) == Words{"9", "yes", "nan(0x7fc00123)", "13", "yes", "6.5"});
  REQUIRE(words(row_of("step 0 ", 3)) == Words{"3", "yes", "-0", "7", "yes", "3.5"});
  REQUIRE(words(row_of("step 0 ", 30)) == Words{"30", "yes", "15", "30", "no", "15"});
  REQUIRE(words(row_of("step 1 ", 0)) == Words{"0", "no", "-", "-", "-", "-"});
  REQUIRE(words(row_of("step 1 ", 6)).back() == "UNDEFINED");
  REQUIRE(words(row_of("step 2 ", 0)) == Words{"0", "yes", "1", "-", "no", "0x49249249"});
  // A shared step adds addr, bytes and bank (byte 24 is word 6).
  REQUIRE(words(row_of("step 5 ", 3)) == Words{"3", "yes", "9", "-", "no", "0", "24", "4", "6"});
  REQUIRE(words(row_of("step 5 ", 30)) == Words{"30", "no", "-", "-", "-", "-", "0", "0", "-"});
  REQUIRE(words(row_of("step 1 ", -1)) == Words{"lane", "active", "in", "src", "ok", "out"});
  REQUIRE(words(row_of("step 5 ", -1)).back() == "bank");
  // Stride 2 words over 30 lanes: banks 0, 2, .., 30 hold two words each.
  REQUIRE(text.find("step 5  block 0 warp 0  line 15  st.shared mask=0x3fffffff  dtype u32  "
                    "wavefronts 2  conflicts 1\n") != std::string::npos);
  REQUIRE(text.find("output \"out\" (f32, 8 values)\n  0: 1.5\n  1: -0\n  2: nan(0x7fc00001)") !=
          std::string::npos);
  REQUIRE(text.find("output \"count\" (u64, 3 values)\n  0: 18446744073709551615") !=
          std::string::npos);

  std::ostringstream hex_out;
  DumpOptions hex;
  hex.hex = true;
  hex.active_only = true;
  dump_trace(t, hex_out, hex);
  const std::string hex_text = hex_out.str();
  REQUIRE(hex_text.find("0x40d00000") != std::string::npos);  // 6.5
  REQUIRE(hex_text.find("  0: 0x3fc00000") != std::string::npos);
  // Step 1 shows only its 12 active lanes.
  REQUIRE(hex_text.find("\n      0  no") == std::string::npos);
}

// ---- fuzzing regressions (tests/fuzz, scripts/fuzz.sh) ------------------------------------

// fuzz_json: a shuffle with a per-lane operand (each lane's b in addr) whose
// lane carries a nonzero "bytes" lost it on write, so the round trip changed it.
TEST_CASE("JSON form: a per-lane shuffle keeps its lanes' bytes", "[trace][io][json][fuzz]") {
  Trace t = small_trace();
  TraceStep s = t.steps[0];
  s.step_flags = kStepPerLaneOperand;
  for (int i = 0; i < 32; ++i) s.lanes[i].addr = uint32_t(i ^ 1);
  s.lanes[3].bytes = 3;
  t.steps.set(0, s);
  const std::string text = trace_to_json(t);
  const Trace back = trace_from_json(text, "t.json");
  require_same_trace(t, back);
  REQUIRE(int(back.steps[0].lanes[3].bytes) == 3);
  REQUIRE(back.steps[0].lanes[3].addr == 2u);
  REQUIRE(trace_to_json(back) == text);
}

// ---- performance ------------------------------------------------------------------------

TEST_CASE("binary form reads 1,000,000 lane records quickly", "[.perf][trace][io]") {
  Trace t = realistic_trace();
  const TraceSteps pattern = t.steps;
  t.steps.clear();
  for (size_t i = 0; i < 31250; ++i) {
    TraceStep s = pattern[i % pattern.size()];
    s.seq = uint32_t(i);
    t.steps.push_back(s);
  }
  const TempDir dir;
  const std::string path = dir.file("big.wvt");
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  save_trace(t, path);
  auto t1 = Clock::now();
  const Trace back = load_trace(path);
  auto t2 = Clock::now();
  const double write_s = std::chrono::duration<double>(t1 - t0).count();
  const double read_s = std::chrono::duration<double>(t2 - t1).count();
  WARN("binary " << std::filesystem::file_size(path) / 1e6 << " MB; save " << write_s
                 << " s, load " << read_s << " s");
  REQUIRE(back.steps.size() == t.steps.size());
  REQUIRE(read_s < 0.3);
}

// ---- watch steps (WARPVIZ_WATCH) ------------------------------------------------------

namespace {

// A watch of `name` over lanes `mask`, each lane's value from value_of(lane).
template <class ValueOf>
TraceStep watch_step(uint32_t seq, const std::string& name, DType dtype, uint32_t mask, ValueOf value_of) {
  TraceStep s = make_step(seq, Op::Watch, dtype, 7, mask);
  s.args = watch_name_args(name.data(), name.size());
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!((mask >> lane) & 1u)) continue;
    LaneRecord& l = s.lanes[lane];
    l.in = l.out = value_of(lane);
    l.flags = kLaneActive | kLaneOk;
  }
  return s;
}

// small_trace with three watches: an f32 of every lane with a NaN payload and -0.0,
// an f64 of the even lanes, and an i32 with a 16-character expression for a name.
Trace trace_with_watches() {
  Trace t = small_trace();
  t.steps.push_back(watch_step(2, "val", DType::F32, 0xffffffffu, [](int lane) {
    return lane == 3 ? uint64_t(0x7fc00abcu) : lane == 4 ? f32_bits(-0.0f) : f32_bits(float(lane) + 0.5f);
  }));
  t.steps.push_back(watch_step(3, "partial", DType::F64, 0x55555555u, [](int lane) { return f64_bits(lane / 3.0); }));
  t.steps.push_back(watch_step(4, "sum + a[lane-1]", DType::I32, 0x0000ffffu,
                               [](int lane) { return uint64_t(uint32_t(-lane)); }));
  for (size_t i = 2; i < t.steps.size(); ++i) t.steps.modify(i, [](TraceStep& s) { s.warp = 0; });
  return t;
}

}  // namespace

TEST_CASE("watch names: packed into a step's args, 16 printable characters at most", "[trace][watch]") {
  CHECK(watch_name(watch_name_args("val", 3)) == "val");
  const OpArgs full = watch_name_args("0123456789abcdef", 16);
  CHECK(watch_name(full) == "0123456789abcdef");
  CHECK(watch_args_valid(full));
  // The bytes land in b, then width, then c, little-endian.
  CHECK(uint64_t(full.b) == 0x3736353433323130ull);
  CHECK(uint32_t(full.width) == 0x62613938u);
  CHECK(full.c == 0x66656463u);
  CHECK(watch_name_fits("a[i] + b", 8));
  CHECK_FALSE(watch_name_fits("", 0));
  CHECK_FALSE(watch_name_fits("0123456789abcdefg", 17));
  CHECK_FALSE(watch_name_fits("tab\there", 8));
  CHECK_FALSE(watch_name_fits("caf\xc3\xa9", 5));  // UTF-8: not ASCII
  CHECK_FALSE(watch_args_valid(OpArgs{}));           // empty: no name
  OpArgs gap = watch_name_args("ab", 2);
  gap.c = 0x41;  // a byte after the NUL
  CHECK_FALSE(watch_args_valid(gap));
  CHECK(std::string(op_name(Op::Watch)) == "watch");
}

TEST_CASE("binary form: watch steps round-trip bit for bit, as version 4", "[trace][io][binary][watch]") {
  const Trace t = trace_with_watches();
  const std::string bytes = to_binary(t);
  REQUIRE(uint8_t(bytes[8]) == 4);
  REQUIRE(kTraceBinaryVersion == 4);
  const Trace back = from_binary(bytes);
  require_same_trace(t, back);
  REQUIRE(back.steps[2].op == Op::Watch);
  CHECK(watch_name(back.steps[2].args) == "val");
  CHECK(back.steps[2].lanes[3].out == 0x7fc00abcu);  // the NaN's payload
  CHECK(back.steps[2].lanes[4].out == 0x80000000u);  // -0.0
  CHECK(watch_name(back.steps[4].args) == "sum + a[lane-1]");
  CHECK(diff_traces(t, back).empty());
}

TEST_CASE("binary form: version 4's checksum is XXH3-64; a version 3 file with FNV-1a still reads",
          "[trace][io][binary][errors]") {
  const Trace t = trace_with_watches();
  const std::string v4 = to_binary(t);
  REQUIRE(uint8_t(v4[8]) == 4);
  // The stored checksum is XXH3-64 of every byte before it, not FNV-1a.
  const size_t body = v4.size() - 8;
  std::string stored(v4, body);
  std::string xxh3(8, '\0'), fnv(8, '\0');
  store_le64(xxh3, 0, XXH3_64bits(v4.data(), body));
  store_le64(fnv, 0, fnv1a64(v4, body));
  CHECK(stored == xxh3);
  CHECK(stored != fnv);

  // One content byte flipped (a lane's value, deep in the steps): the checksum says so.
  for (const size_t at : {size_t(30), body / 2, body - 1}) {
    INFO("flipped byte " << at << " of " << v4.size());
    std::string flipped = v4;
    flipped[at] ^= 0x01;
    CHECK(error_of([&] { from_binary(flipped); }) == "trace.wvt: corrupt (checksum mismatch)");
  }
  // Damage to the checksum itself is the same mismatch.
  std::string bad_sum = v4;
  bad_sum.back() ^= 0x40;
  CHECK(error_of([&] { from_binary(bad_sum); }) == "trace.wvt: corrupt (checksum mismatch)");

  // The same trace as a version 3 file: the layout is the same, the checksum FNV-1a.
  std::string v3 = v4;
  v3[8] = 3;
  store_le64(v3, body, fnv1a64(v3, body));
  require_same_trace(t, from_binary(v3));
  // A version 3 file sealed with XXH3 (a version 4 checksum under a 3) is damaged.
  std::string v3_xxh3 = v3;
  store_le64(v3_xxh3, body, XXH3_64bits(v3.data(), body));
  CHECK(error_of([&] { from_binary(v3_xxh3); }) == "trace.wvt: corrupt (checksum mismatch)");
  // And a flipped byte in the version 3 file is caught by its FNV-1a.
  std::string v3_flipped = v3;
  v3_flipped[body / 2] ^= 0x01;
  CHECK(error_of([&] { from_binary(v3_flipped); }) == "trace.wvt: corrupt (checksum mismatch)");
  // Written again, the version 3 trace becomes version 4, byte for byte the first file.
  CHECK(to_binary(from_binary(v3)) == v4);
}

TEST_CASE("binary form: a watch step in an older file, or without a name, is corrupt",
          "[trace][io][binary][watch][errors]") {
  const Trace t = trace_with_watches();
  std::string as_v2 = to_binary(t);
  as_v2[8] = 2;
  reseal(as_v2);
  CHECK(error_of([&] { from_binary(as_v2); }) ==
        "trace.wvt: corrupt (a watch step in a format version 2 file (watch steps came with 3) in step 2 of 5)");
  // Without the watches the same bytes are a fine version 2 file.
  Trace plain = t;
  plain.steps.truncate(2);
  std::string plain_v2 = to_binary(plain);
  plain_v2[8] = 2;
  reseal(plain_v2);
  require_same_trace(plain, from_binary(plain_v2));

  Trace nameless = t;
  nameless.steps.modify(3, [&](TraceStep& edited) { edited.args = OpArgs{}; });
  CHECK(error_of([&] { from_binary(to_binary(nameless)); }) ==
        "trace.wvt: corrupt (a watch step whose args hold no variable name in step 3 of 5)");
  Trace unprintable = t;
  unprintable.steps.modify(3, [&](TraceStep& edited) { edited.args = watch_name_args("a\nb", 3); });
  CHECK(error_of([&] { from_binary(to_binary(unprintable)); }).find("no variable name") != std::string::npos);
}

TEST_CASE("JSON form: a watch step is op watch, args {name}, the value in and out", "[trace][io][json][watch]") {
  const Trace t = trace_with_watches();
  const std::string text = trace_to_json(t);
  const auto j = nlohmann::ordered_json::parse(text);
  REQUIRE(j["version"] == 2);
  REQUIRE(kTraceJsonVersion == 2);
  const auto& watch = j["steps"][2];
  CHECK(watch["op"] == "watch");
  CHECK(watch["args"] == nlohmann::ordered_json{{"name", "val"}});
  CHECK(watch["dtype"] == "f32");
  CHECK(watch["mask"] == "0xffffffff");
  CHECK(watch["lanes"][5]["in"] == "0x40b00000");  // 5.5
  CHECK(watch["lanes"][5]["out"] == "0x40b00000");
  CHECK(watch["lanes"][3]["out"] == "0x7fc00abc");
  CHECK(j["steps"][3]["lanes"][1]["active"] == false);
  CHECK(j["steps"][3]["lanes"][2]["out"] == "0x3fe5555555555555");  // 2/3 as f64
  CHECK(j["steps"][4]["args"]["name"] == "sum + a[lane-1]");

  const Trace back = trace_from_json(text, "t.json");
  require_same_trace(t, back);
  CHECK(diff_traces(t, back).empty());
}

TEST_CASE("JSON form: watch names and versions are checked", "[trace][io][json][watch][errors]") {
  const std::string good = trace_to_json(trace_with_watches());
  auto edited = [&](auto edit) {
    auto j = nlohmann::ordered_json::parse(good);
    edit(j);
    return error_of([&] { trace_from_json(j.dump(), "t.json"); });
  };
  CHECK(edited([](auto& j) { j["version"] = 1; }) ==
        "t.json: steps[2].op: a watch step in a format version 1 file (watch steps came with 2)");
  CHECK(edited([](auto& j) { j["steps"][2]["args"]["name"] = "0123456789abcdefg"; }) ==
        "t.json: steps[2].args.name: \"0123456789abcdefg\" is not a watched name (1 to 16 printable ASCII "
        "characters)");
  CHECK(edited([](auto& j) { j["steps"][2]["args"]["name"] = ""; }).find("is not a watched name") !=
        std::string::npos);
  CHECK(edited([](auto& j) { j["steps"][2]["args"].erase("name"); }) == "t.json: steps[2].args.name: missing");
  CHECK(edited([](auto& j) { j["steps"][2]["args"]["b"] = 1; }) ==
        "t.json: steps[2].args.b: not an argument of watch (it takes \"name\")");
  CHECK(edited([](auto& j) { j["steps"][2]["args"]["name"] = 5; }) == "t.json: steps[2].args.name: expected a string");
}

TEST_CASE("older trace files still read: the shipped version 1 and 2 files, a version 1 JSON",
          "[trace][io][watch]") {
  // Traces written before watch steps: warp_sum as first shipped (version 1,
  // tests/fixtures/old_traces/) and a bank trace still shipped at version 2.
  const std::string root = std::string(WARPVIZ_SOURCE_DIR);
  for (const std::string& name : {root + "/tests/fixtures/old_traces/warp_sum_v1.wvt",
                                 root + "/assets/traces/bank_column_32.wvt"}) {
    INFO(name);
    const std::string file = read_file(name);
    REQUIRE(file.size() > 20);
    const int version = uint8_t(file[8]);
    CHECK(version < int(kTraceBinaryWatchVersion));
    const Trace old = load_trace(name);
    REQUIRE_FALSE(old.steps.empty());
    CHECK(std::none_of(old.steps.begin(), old.steps.end(), [](const TraceStep& s) { return op_is_watch(s.op); }));
    // Written again it is version 4, and reads back the same.
    const Trace again = from_binary(to_binary(old));
    CHECK(diff_traces(old, again, TraceDiffOptions{true}).empty());
  }
  // A JSON file of version 1 (no watch steps) reads as it did.
  auto j = nlohmann::ordered_json::parse(trace_to_json(small_trace()));
  j["version"] = 1;
  require_same_trace(small_trace(), trace_from_json(j.dump(), "old.json"));
}

TEST_CASE("dump_trace: a watch step reads `watch NAME`", "[trace][dump][watch]") {
  std::ostringstream out;
  dump_trace(trace_with_watches(), out);
  const std::string text = out.str();
  CHECK(text.find("step 2  block 0 warp 0  line 7  watch val mask=0xffffffff  dtype f32\n") != std::string::npos);
  CHECK(text.find("watch sum + a[lane-1] mask=0x0000ffff  dtype i32") != std::string::npos);
  CHECK(text.find("5.5") != std::string::npos);
}

// ---- the fast JSON reader against the document reader -----------------------------
// trace_from_json reads with SAX events straight into steps and falls back on the
// document reader wherever it is unsure. The fast one must read every trace the
// writer writes, to the same trace, and on damaged text either give up or say
// exactly what the document reader says.

namespace {

// "" and the trace, or the error's text.
std::pair<std::string, std::optional<Trace>> read_by_document(const std::string& text) {
  try {
    return {"", detail::read_trace_json_by_document(text, "t.json")};
  } catch (const TraceFileError& e) {
    return {e.what(), std::nullopt};
  } catch (const nlohmann::ordered_json::exception& e) {
    return {std::string("nlohmann: ") + e.what(), std::nullopt};
  }
}

// The fast reader's verdict: a trace, an error's text, or "gave up".
std::pair<std::string, std::optional<Trace>> read_fast(const std::string& text) {
  try {
    std::optional<Trace> t = detail::read_trace_json_fast(text, "t.json");
    if (!t) return {"gave up", std::nullopt};
    return {"", std::move(t)};
  } catch (const TraceFileError& e) {
    return {e.what(), std::nullopt};
  } catch (const nlohmann::ordered_json::exception& e) {
    return {std::string("nlohmann: ") + e.what(), std::nullopt};
  }
}

void require_fast_agrees(const std::string& text, bool must_read_fast) {
  const auto [fast_error, fast] = read_fast(text);
  if (fast_error == "gave up") {
    REQUIRE_FALSE(must_read_fast);
    return;
  }
  const auto [doc_error, doc] = read_by_document(text);
  REQUIRE(fast_error == doc_error);
  if (doc) {
    REQUIRE(fast);
    // The binary form holds every field bit for bit (NaN payloads too).
    REQUIRE(to_binary(*doc) == to_binary(*fast));
  }
}

// A trace with every kind of step the writer has a form for.
std::vector<Trace> json_reader_traces() {
  std::vector<Trace> traces = {small_trace(), realistic_trace(), trace_with_watches()};
  Trace shared = small_trace();
  TraceStep st = make_step(2, Op::StoreShared, DType::U32, 9, 0x0000ffffu);
  for (int i = 0; i < 16; ++i) {
    st.lanes[i].flags = kLaneActive | kLaneOk;
    st.lanes[i].in = uint64_t(i * 3);
    st.lanes[i].addr = uint32_t(i * 4);
    st.lanes[i].bytes = 4;
  }
  shared.steps.push_back(st);
  TraceStep per_lane = make_step(3, Op::ShflIdx, DType::F64, 11, 0xffffffffu);
  per_lane.step_flags = kStepPerLaneOperand | kStepRawOperandC;
  per_lane.args = {5, 16, 0x101f};
  for (int i = 0; i < 32; ++i) {
    per_lane.lanes[i].flags = kLaneActive | kLaneOk;
    per_lane.lanes[i].addr = uint32_t(i ^ 1);
    per_lane.lanes[i].src = int8_t(i ^ 1);
    per_lane.lanes[i].in = uint64_t(i) << 40 | 7;
    per_lane.lanes[i].out = uint64_t(i ^ 1) << 40 | 7;
  }
  shared.steps.push_back(per_lane);
  traces.push_back(shared);
  return traces;
}

}  // namespace

TEST_CASE("JSON: the fast reader reads what the writer writes, as the document reader does",
          "[trace][io][json]") {
  for (const Trace& t : json_reader_traces()) {
    for (int indent : {-1, 0, 1}) {
      const std::string text = trace_to_json(t, indent);
      require_fast_agrees(text, true);
      REQUIRE(read_fast(text).second.has_value());
    }
  }
}

TEST_CASE("JSON: on damaged text the fast reader gives up or says what the document reader says",
          "[trace][io][json][errors]") {
  using Json = nlohmann::ordered_json;
  std::mt19937 rng(12345);
  const std::vector<Json> replacements = {
      Json(nullptr), Json(true), Json(false), Json(0), Json(-1), Json(31), Json(32), Json(255), Json(256),
      Json(4294967295ull), Json(4294967296ull), Json(-4294967296ll), Json(1.5), Json(""), Json("0x"),
      Json("0x00000001"), Json("0xffffffff"), Json("0x0000000000000001"), Json("0xffffffffffffffff"),
      Json("0x1"), Json("shfl.idx"), Json("ld.shared"), Json("watch"), Json("f64"), Json("u32"), Json("val"),
      Json::object(), Json::array(), Json::array({1, 2, 3}), Json::object({{"x", 1}})};
  const std::vector<std::string> extra_keys = {"lane", "b",    "addr", "bytes", "src", "in",  "out",
                                               "c",    "name", "op",   "mask",  "zz",  "steps"};
  int fast_reads = 0, checked = 0;
  for (const Trace& t : json_reader_traces()) {
    const Json good = Json::parse(trace_to_json(t));
    for (int round = 0; round < 400; ++round) {
      Json j = good;
      // Walk to a random value and replace, remove or add beside it.
      Json* at = &j;
      std::vector<Json*> path = {at};
      for (int depth = 0; depth < 6 && (at->is_object() || at->is_array()) && !at->empty(); ++depth) {
        const size_t pick = rng() % at->size();
        at = at->is_object() ? &std::next(at->begin(), std::ptrdiff_t(pick)).value() : &(*at)[pick];
        path.push_back(at);
        if (rng() % 4 == 0) break;
      }
      switch (rng() % 3) {
        case 0: *at = replacements[rng() % replacements.size()]; break;
        case 1:
          if (path.size() > 1 && path[path.size() - 2]->is_object()) {
            Json& parent = *path[path.size() - 2];
            for (auto it = parent.begin(); it != parent.end(); ++it)
              if (&it.value() == at) {
                parent.erase(it);
                break;
              }
          } else if (path.size() > 1 && path[path.size() - 2]->is_array() && !path[path.size() - 2]->empty()) {
            path[path.size() - 2]->erase(path[path.size() - 2]->size() - 1);
          }
          break;
        default:
          if (at->is_object()) (*at)[extra_keys[rng() % extra_keys.size()]] = replacements[rng() % replacements.size()];
          else *at = replacements[rng() % replacements.size()];
          break;
      }
      std::string text = j.dump();
      // Now and then a key twice, or a cut: text no document can hold.
      if (round % 7 == 0) {
        const size_t key_at = text.find("\"lane\":", rng() % text.size());
        if (key_at != std::string::npos) text.insert(key_at, "\"lane\":3,");
      } else if (round % 11 == 0) {
        text.resize(rng() % text.size());
      }
      INFO("round " << round << ": " << text.substr(0, 2000));
      require_fast_agrees(text, false);
      fast_reads += read_fast(text).second.has_value();
      ++checked;
    }
  }
  // The mutations do not all hit a field the reader refuses.
  CHECK(fast_reads > checked / 20);
}

TEST_CASE("binary form: on a big file the checksum, checked beside the parse, still comes first",
          "[trace][io][binary][errors]") {
  // Over 1 MiB, where the checksum runs on a thread of its own.
  Trace t = realistic_trace();
  const TraceSteps pattern = t.steps;
  t.steps.clear();
  for (uint32_t i = 0; i < 4000; ++i) {
    TraceStep s = pattern[i % pattern.size()];
    s.seq = i;
    t.steps.push_back(s);
  }
  // Last, a step of the plainest layout (32-bit values, no memory): 40 + 32 x 10 bytes.
  t.steps.push_back(make_step(4000, Op::ShflIdx, DType::I32, 1, 0xffffffffu));
  const std::string good = to_binary(t);
  REQUIRE(good.size() > (size_t(1) << 20));
  CHECK(to_binary(from_binary(good)) == good);
  // The last step's op made unknown: the parse would stop there, but the file
  // is damaged, and that is what is said first.
  std::string bad_op = good;
  const size_t op_at = good.size() - 8 - (40 + 32 * 10) + 20;
  REQUIRE(uint8_t(bad_op[op_at]) == uint8_t(Op::ShflIdx));
  bad_op[op_at] = char(0xee);
  CHECK(error_of([&] { from_binary(bad_op); }) == "trace.wvt: corrupt (checksum mismatch)");
  // The same damage resealed reaches the structural checks.
  reseal(bad_op);
  CHECK(error_of([&] { from_binary(bad_op); }) == "trace.wvt: corrupt (unknown op 238 in step 4000 of 4001)");
  // Cut short: truncated, no checksum to check.
  CHECK(error_of([&] { from_binary(good.substr(0, good.size() / 2)); }).rfind("trace.wvt: truncated (", 0) == 0);

  // As version 3, whose FNV-1a runs on a thread of its own beside the parse:
  // the same verdicts, the checksum's first.
  std::string good_v3 = good;
  good_v3[8] = 3;
  reseal(good_v3);
  require_same_trace(from_binary(good), from_binary(good_v3));
  std::string bad_op_v3 = good_v3;
  bad_op_v3[op_at] = char(0xee);
  CHECK(error_of([&] { from_binary(bad_op_v3); }) == "trace.wvt: corrupt (checksum mismatch)");
  reseal(bad_op_v3);
  CHECK(error_of([&] { from_binary(bad_op_v3); }) == "trace.wvt: corrupt (unknown op 238 in step 4000 of 4001)");
}
