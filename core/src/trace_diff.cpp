// Lane-by-lane comparison of two traces (CPU emulator vs GPU, or two runs).
//
// Sections:
//   collector       counts every difference, keeps the first max_differences
//   metadata        only with compare_meta; never backend/device/tool_version;
//                   measurements by name (exact bits: two runs' cycles differ)
//   steps           step fields, then each lane; with paths_in_any_order,
//                   each divergent region path by path (warp_paths.h)
//   interleavings   regions whose paths ran in another order, said in words
//   outputs         by name: dtype, length, bits
#include "warpviz/trace_diff.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <string>

#include "warpviz/warp_paths.h"

namespace warpviz {

namespace {

// Ops whose result is a lane mask or a bool: their "out" is u32 whatever the
// step dtype (same rule as the JSON form).
std::string show(DType t, uint64_t bits) {
  // A 32-bit value with high bits (never produced, but possible in a file) shows
  // all of them so the difference stays visible.
  const DType hex_type = mask_to_width(t, bits) == bits ? t : DType::U64;
  return format_value(t, bits) + " (" + format_hex(hex_type, bits) + ")";
}

std::string show_bool(bool v) { return v ? "true" : "false"; }
std::string show_src(int8_t src) { return src == -1 ? "none" : std::to_string(src); }

// ---- collector ----------------------------------------------------------------

class DiffCollector {
 public:
  explicit DiffCollector(size_t max) : max_(max) {}

  void add(const std::string& where, const std::string& a, const std::string& b) {
    ++total_;
    if (found_.size() < max_) found_.push_back({where, a, b});
  }
  template <typename T, typename Show>
  void check(const T& a, const T& b, const std::string& where, Show show_value) {
    if (!(a == b)) add(where, show_value(a), show_value(b));
  }
  void check_text(const std::string& a, const std::string& b, const std::string& where) {
    if (a != b) add(where, a, b);
  }
  size_t total() const { return total_; }
  std::vector<TraceDifference> take() { return std::move(found_); }

 private:
  size_t max_;
  size_t total_ = 0;
  std::vector<TraceDifference> found_;
};

std::string show_u32(uint32_t v) { return std::to_string(v); }
std::string show_dim(const Dim3& d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

// ---- metadata -----------------------------------------------------------------

void diff_meta(const TraceMeta& a, const TraceMeta& b, bool measurements, DiffCollector& c) {
  c.check_text(a.scenario, b.scenario, "meta scenario");
  for (const auto& [key, value] : a.params) {
    auto it = b.params.find(key);
    c.check_text(value, it == b.params.end() ? "(absent)" : it->second, "meta params." + key);
  }
  for (const auto& [key, value] : b.params)
    if (!a.params.count(key)) c.add("meta params." + key, "(absent)", value);
  c.check_text(dtype_name(a.dtype), dtype_name(b.dtype), "meta dtype");
  c.check_text(a.input_spec, b.input_spec, "meta input");
  c.check(a.grid, b.grid, "meta grid", show_dim);
  c.check(a.block, b.block, "meta block", show_dim);
  if (!measurements) return;
  // A GPU figure is compared bit for bit (NaN equals NaN); it never enters a
  // comparison of steps.
  auto text = [](double v) { return format_value(DType::F64, std::bit_cast<uint64_t>(v)); };
  for (const auto& [name, value] : a.measurements) {
    auto it = b.measurements.find(name);
    const std::string where = "meta measurements." + name;
    if (it == b.measurements.end())
      c.add(where, text(value), "(absent)");
    else if (std::bit_cast<uint64_t>(value) != std::bit_cast<uint64_t>(it->second))
      c.add(where, text(value), text(it->second));
  }
  for (const auto& [name, value] : b.measurements)
    if (!a.measurements.count(name)) c.add("meta measurements." + name, "(absent)", text(value));
}

// ---- steps --------------------------------------------------------------------

std::string step_where(size_t index, const TraceStep& s) {
  return "step " + std::to_string(index) + " (block " + std::to_string(s.block) + " warp " +
         std::to_string(s.warp) + " " + op_name(s.op) + " line " + std::to_string(s.line) + ")";
}

void diff_lane(const TraceStep& sa, const TraceStep& sb, int lane, bool skip_undefined,
               const std::string& where, DiffCollector& c) {
  const LaneRecord& a = sa.lanes[lane];
  const LaneRecord& b = sb.lanes[lane];
  const std::string at = where + " lane " + std::to_string(lane) + " ";
  c.check(a.active(), b.active(), at + "active", show_bool);
  c.check(a.undefined(), b.undefined(), at + "undefined", show_bool);
  // An undefined result is whatever the backend produced: only whether the lane
  // ran, and that both call it undefined, is comparable.
  if (skip_undefined && (a.undefined() || b.undefined())) return;
  c.check(a.ok(), b.ok(), at + "ok", show_bool);
  c.check(a.src, b.src, at + "src", show_src);
  if (a.in != b.in) c.add(at + "in", show(sa.dtype, a.in), show(sb.dtype, b.in));
  if (a.out != b.out)
    c.add(at + "out", show(op_result_dtype(sa.op, sa.dtype), a.out),
          show(op_result_dtype(sb.op, sb.dtype), b.out));
  c.check(a.addr, b.addr, at + "addr", show_u32);
  c.check(a.bytes, b.bytes, at + "bytes", [](uint8_t v) { return std::to_string(v); });
}

bool lanes_equal(const LaneRecord& a, const LaneRecord& b) {
  return a.in == b.in && a.out == b.out && a.addr == b.addr && a.src == b.src &&
         a.flags == b.flags && a.bytes == b.bytes;
}

// compare_seq is off where a path's step is compared with the same step run
// at another point of the warp's order.
void diff_step(size_t index, const TraceStep& a, const TraceStep& b, bool skip_undefined, bool compare_seq,
               DiffCollector& c) {
  const bool header_equal = a.block == b.block && a.warp == b.warp && (!compare_seq || a.seq == b.seq) &&
                            a.op == b.op && a.line == b.line && a.mask == b.mask &&
                            a.dtype == b.dtype && a.args.b == b.args.b &&
                            a.args.width == b.args.width && a.args.c == b.args.c &&
                            a.step_flags == b.step_flags;
  bool lanes_same = true;
  for (int i = 0; i < kWarpSize && lanes_same; ++i) lanes_same = lanes_equal(a.lanes[i], b.lanes[i]);
  if (header_equal && lanes_same) return;  // the common case, without building strings

  const std::string where = step_where(index, a);
  const std::string at = where + " ";
  c.check(a.block, b.block, at + "block", show_u32);
  c.check(a.warp, b.warp, at + "warp", show_u32);
  if (compare_seq) c.check(a.seq, b.seq, at + "seq", show_u32);
  c.check(a.op, b.op, at + "op", [](Op op) { return std::string(op_name(op)); });
  c.check(a.line, b.line, at + "line", show_u32);
  c.check(a.mask, b.mask, at + "mask", [](uint32_t m) { return format_hex(DType::U32, m); });
  c.check(a.dtype, b.dtype, at + "dtype", [](DType t) { return std::string(dtype_name(t)); });
  c.check(a.args.b, b.args.b, at + "args.b", [](int64_t v) { return std::to_string(v); });
  c.check(a.args.width, b.args.width, at + "args.width", [](int32_t v) { return std::to_string(v); });
  c.check(a.args.c, b.args.c, at + "args.c", [](uint32_t v) { return format_hex(DType::U32, v); });
  c.check(a.step_flags, b.step_flags, at + "step flags", [](uint8_t f) { return std::to_string(f); });
  for (int lane = 0; lane < kWarpSize; ++lane)
    if (!lanes_equal(a.lanes[lane], b.lanes[lane])) diff_lane(a, b, lane, skip_undefined, where, c);
}

// ---- outputs ------------------------------------------------------------------

void diff_outputs(const Trace& a, const Trace& b, DiffCollector& c) {
  for (const TraceOutput& oa : a.outputs) {
    const std::string where = "output \"" + oa.name + "\"";
    const TraceOutput* ob = b.output(oa.name);
    if (!ob) {
      c.add(where, std::to_string(oa.bits.size()) + " values", "(absent)");
      continue;
    }
    c.check(oa.dtype, ob->dtype, where + " dtype", [](DType t) { return std::string(dtype_name(t)); });
    c.check(oa.bits.size(), ob->bits.size(), where + " length",
            [](size_t n) { return std::to_string(n); });
    const size_t n = std::min(oa.bits.size(), ob->bits.size());
    for (size_t i = 0; i < n; ++i)
      if (oa.bits[i] != ob->bits[i])
        c.add(where + "[" + std::to_string(i) + "]", show(oa.dtype, oa.bits[i]),
              show(ob->dtype, ob->bits[i]));
  }
  for (const TraceOutput& ob : b.outputs)
    if (!a.output(ob.name))
      c.add("output \"" + ob.name + "\"", "(absent)", std::to_string(ob.bits.size()) + " values");
}

// ---- interleavings ---------------------------------------------------------------

// The regions of a whose paths b ran in another order; `pairs` is
// pair_steps_by_path's (so b's regions lie where a's do, path for path).
std::vector<PathInterleaving> find_interleavings(const Trace& a, const Trace& b,
                                                 const std::vector<std::pair<size_t, size_t>>& pairs) {
  std::vector<PathInterleaving> found;
  const std::vector<DivergentRegion> regions_b = divergent_regions(b.steps);
  for (const DivergentRegion& ra : divergent_regions(a.steps)) {
    const DivergentRegion* rb = region_of_step(regions_b, pairs[ra.begin].second);
    if (!rb || rb->path_of == ra.path_of) continue;
    PathInterleaving p;
    p.block = ra.block;
    p.warp = ra.warp;
    p.a_begin = ra.begin;
    p.a_end = ra.end;
    for (const DivergentPath& path : ra.paths) {
      p.path_lanes.push_back(path.lanes);
      p.path_lines.push_back(a.steps.line(path.steps.front()));
    }
    p.a_order = ra.path_of;
    p.b_order = rb->path_of;
    if (ra.join != kNoStep) p.join_line = a.steps.line(ra.join);
    found.push_back(std::move(p));
  }
  return found;
}

}  // namespace

std::string describe_interleaving(const PathInterleaving& p, const std::string& a_name, const std::string& b_name) {
  auto path = [&](uint32_t i) {
    char lanes[16];
    std::snprintf(lanes, sizeof lanes, "0x%08x", p.path_lanes[i]);
    return "path " + path_name(i) + " (lanes " + lanes + ", line " + std::to_string(p.path_lines[i]) + ")";
  };
  auto letters = [](const std::vector<uint32_t>& order) {
    std::string s;
    for (uint32_t i : order) s += (s.empty() ? "" : " ") + path_name(i);
    return s;
  };
  std::string s = "block " + std::to_string(p.block) + " warp " + std::to_string(p.warp) +
                  ": same per-path results, different interleaving of the paths: ";
  const uint32_t a_first = p.a_order.front(), b_first = p.b_order.front();
  if (a_first != b_first) {
    s += a_name + " ran " + path(a_first) + " first, " + b_name + " ran " + path(b_first) + " first";
  } else {
    s += "both ran " + path(a_first) + " first";
    for (uint32_t i = 0; i < p.path_lanes.size(); ++i)
      if (i != a_first) s += ", then " + path(i);
  }
  s += " (" + a_name + " " + letters(p.a_order) + ", " + b_name + " " + letters(p.b_order) + ")";
  s += p.join_line ? "; joined at line " + std::to_string(p.join_line) : "; no join recorded";
  return s;
}

std::string backend_label(const Trace& t, const std::string& fallback) {
  if (t.meta.backend == "cuda") return "GPU";
  if (t.meta.backend == "cpu") return "CPU";
  return fallback;
}

std::vector<TraceDifference> diff_traces(const Trace& a, const Trace& b, const TraceDiffOptions& options,
                                         size_t* total, std::vector<PathInterleaving>* interleavings) {
  DiffCollector c(options.max_differences);
  if (options.compare_meta) diff_meta(a.meta, b.meta, options.compare_measurements, c);
  c.check(a.overflow, b.overflow, "overflow", show_bool);
  c.check(a.steps.size(), b.steps.size(), "step count", [](size_t n) { return std::to_string(n); });
  if (interleavings) interleavings->clear();
  const auto by_path = options.paths_in_any_order ? pair_steps_by_path(a.steps, b.steps) : std::nullopt;
  if (by_path) {
    // Each path's steps against the same path's; a step is named by its place in a.
    for (const auto& [ia, ib] : *by_path)
      diff_step(ia, a.steps[ia], b.steps[ib], options.skip_undefined, ia == ib, c);
    if (interleavings) *interleavings = find_interleavings(a, b, *by_path);
  } else {
    // Steps are compared pairwise up to the shorter trace; the count difference
    // above already says that one trace has more.
    const size_t n = std::min(a.steps.size(), b.steps.size());
    for (size_t i = 0; i < n; ++i) diff_step(i, a.steps[i], b.steps[i], options.skip_undefined, true, c);
  }
  diff_outputs(a, b, c);
  if (total) *total = c.total();
  return c.take();
}

}  // namespace warpviz
