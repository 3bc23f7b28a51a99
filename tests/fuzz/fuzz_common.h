// Shared by the libFuzzer targets: what counts as a finding, and an exact
// comparison of two traces (every field the formats store).
#pragma once

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <string>

#include "warpviz/trace.h"

namespace warpviz::fuzz {

// A finding: print why and abort, so that libFuzzer saves the input.
[[noreturn]] inline void finding(const std::string& why) {
  std::fprintf(stderr, "FUZZ FINDING: %s\n", why.c_str());
  std::fflush(stderr);
  std::abort();
}

// The .wvt checksum of versions 1 to 3 (FNV-1a 64, as trace_binary.cpp computes it).
inline uint64_t fnv1a64(const uint8_t* p, size_t n) {
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

// "" when equal, else the first field that differs. Doubles compare by bits
// (NaN payloads, -0.0); `nan_is_any_nan` lets any NaN match any NaN (the JSON
// form writes a non-finite measurement as null and reads it back as NaN).
inline std::string trace_difference(const Trace& a, const Trace& b, bool nan_is_any_nan = false) {
  const TraceMeta &ma = a.meta, &mb = b.meta;
  if (ma.scenario != mb.scenario) return "meta.scenario";
  if (ma.params != mb.params) return "meta.params";
  if (ma.dtype != mb.dtype) return "meta.dtype";
  if (ma.input_spec != mb.input_spec) return "meta.input_spec";
  if (!(ma.grid == mb.grid)) return "meta.grid";
  if (!(ma.block == mb.block)) return "meta.block";
  if (ma.backend != mb.backend) return "meta.backend";
  if (ma.device != mb.device) return "meta.device";
  if (ma.compute_capability != mb.compute_capability) return "meta.compute_capability";
  if (ma.tool_version != mb.tool_version) return "meta.tool_version";
  if (ma.source_path != mb.source_path) return "meta.source_path";
  if (ma.source_text != mb.source_text) return "meta.source_text";
  if (ma.measurements.size() != mb.measurements.size()) return "meta.measurements (count)";
  for (auto ia = ma.measurements.begin(), ib = mb.measurements.begin(); ia != ma.measurements.end(); ++ia, ++ib) {
    if (ia->first != ib->first) return "meta.measurements (names)";
    const bool both_nan = ia->second != ia->second && ib->second != ib->second;
    if (nan_is_any_nan && both_nan) continue;
    if (std::bit_cast<uint64_t>(ia->second) != std::bit_cast<uint64_t>(ib->second))
      return "meta.measurements[\"" + ia->first + "\"]";
  }
  if (a.overflow != b.overflow) return "overflow";
  if (a.outputs.size() != b.outputs.size()) return "outputs (count)";
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    const TraceOutput &oa = a.outputs[i], &ob = b.outputs[i];
    const std::string at = "outputs[" + std::to_string(i) + "]";
    if (oa.name != ob.name) return at + ".name";
    if (oa.dtype != ob.dtype) return at + ".dtype";
    if (oa.bits != ob.bits) return at + ".bits";
  }
  if (a.steps.size() != b.steps.size()) return "steps (count)";
  for (size_t i = 0; i < a.steps.size(); ++i) {
    const TraceStep &sa = a.steps[i], &sb = b.steps[i];
    const std::string at = "steps[" + std::to_string(i) + "]";
    if (sa.block != sb.block) return at + ".block";
    if (sa.warp != sb.warp) return at + ".warp";
    if (sa.seq != sb.seq) return at + ".seq";
    if (sa.line != sb.line) return at + ".line";
    if (sa.mask != sb.mask) return at + ".mask";
    if (sa.op != sb.op) return at + ".op";
    if (sa.dtype != sb.dtype) return at + ".dtype";
    if (sa.step_flags != sb.step_flags) return at + ".step_flags";
    if (sa.args.b != sb.args.b) return at + ".args.b";
    if (sa.args.width != sb.args.width) return at + ".args.width";
    if (sa.args.c != sb.args.c) return at + ".args.c";
    for (int l = 0; l < kWarpSize; ++l) {
      const LaneRecord &la = sa.lanes[l], &lb = sb.lanes[l];
      const std::string lane = at + ".lanes[" + std::to_string(l) + "]";
      if (la.in != lb.in) return lane + ".in";
      if (la.out != lb.out) return lane + ".out";
      if (la.addr != lb.addr) return lane + ".addr";
      if (la.src != lb.src) return lane + ".src";
      if (la.flags != lb.flags) return lane + ".flags";
      if (la.bytes != lb.bytes) return lane + ".bytes";
    }
  }
  return "";
}

}  // namespace warpviz::fuzz
