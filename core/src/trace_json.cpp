// The JSON trace form: readable, diffable, and lossless.
//
// Sections:
//   value rules     which dtype a lane's "out" uses; hex widths; "args" keys;
//                   derived bank fields; measurements
//   writer          trace_to_json
//   reader          JsonPath, field readers, StepStreamer, trace_from_json
//
// ---- value rules --------------------------------------------------------------
// Hex strings hold exact bits: "0x" + 8 lowercase digits for 32-bit values, 16 for
// 64-bit ones (format_hex). A 32-bit field whose bits do not fit in 32 bits (no
// recorder produces one) is written with 16 digits so that nothing is lost; the
// reader accepts that widened form too.
//
// "in" uses the step dtype. "out" uses the op's result dtype: u32 (8 digits) for
// ops whose result is a lane mask or a bool (vote.ballot, vote.any, vote.all,
// activemask, match.any, match.all), the step dtype for everything else
// (shuffles, redux, syncwarp, shared-memory ops).
//
// "args": a watch (WARPVIZ_WATCH) writes only {"name": "val"}, its variable's
// name (packed into OpArgs in memory: trace.h, "watch steps"); a watch's lanes
// hold the variable's value in both "in" and "out". Watches came with version 2:
// a version 1 file holding one is refused.
//
// Shuffles always write their three operands under the PTX names
// (shfl.idx: "srcLane", shfl.up/shfl.down: "delta", shfl.bfly: "laneMask"),
// plus "width" and "c" (u32 hex). Other ops write {} unless an operand differs
// from the OpArgs default (b 0, width 32, c 0); such operands are written as "b",
// "width" and "c", and read back with the same defaults. Unknown args keys are
// rejected, since they usually mean the wrong op.
//
// "addr" and "bytes" are written for shared-memory steps, and for any other step
// whose lanes carry a nonzero one. Unknown keys elsewhere are ignored.
//
// Derived bank fields: every ld.shared / st.shared step also carries
// "wavefronts" and "conflicts" (the bank model of bank_model.h,
// docs/warp-rules.md#wavefronts), and each of its active lanes a "bank" (0-31, of the lane's first word).
// They are written for people and scripts reading the file, computed from the
// lanes' addr/bytes/active, and ignored on read: the model recomputes them, so a
// hand-edited file cannot make them disagree with the addresses. The reader does
// refuse a shared step the model cannot cost (a width other than 1, 2, 4, 8 or
// 16 bytes, or mixed widths among its active lanes).
//
// "measurements" (trace level, optional): {"latency_cycles": 31.5, ...}, the
// figures measured on a GPU (TraceMeta::measurements). Omitted when there are
// none; absent reads as none. A non-finite figure is written as null and reads
// back as NaN (JSON has no NaN); the binary form keeps its exact bits.
//
// Checks beyond the schema, as in the binary form: grid and block within CUDA's
// limits, each step's block and warp inside them, a lane "src" of null or 0..31
// (-1 is read as null).
//
// Memory: nlohmann's document costs tens of bytes per JSON value, so the steps
// (nearly all of a real file) never become one: the fast reader (below) fills
// each step from the parser's SAX events, and the reader it falls back on reads
// each step as soon as its object closes and then drops it from the document. A step may hold at most kMaxStepEvents parse events (a real one has
// under 1,000), members outside the schema at the top level are dropped unread,
// and outside "steps" nothing nests deeper than an output's array; so junk like
// 10^7 empty steps or a deep array fails at once instead of filling memory.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "trace_io_internal.h"
#include "warpviz/bank_model.h"
#include "warpviz/trace_io.h"

namespace warpviz {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kFormatName = "warpviz-trace";


bool lane_has_memory(const LaneRecord& l) { return l.addr != 0 || l.bytes != 0; }

bool step_has_memory(const TraceStep& s) {
  if (op_is_shared(s.op)) return true;
  // addr holds each lane's b (written as "b"); a lane's bytes still need "bytes"
  // (found by tests/fuzz/fuzz_json: they were dropped on write).
  if (s.step_flags & kStepPerLaneOperand) {
    for (const LaneRecord& l : s.lanes)
      if (l.bytes != 0) return true;
    return false;
  }
  for (const LaneRecord& l : s.lanes)
    if (lane_has_memory(l)) return true;
  return false;
}

// ---- writer -------------------------------------------------------------------

std::string hex_lossless(DType t, uint64_t bits) {
  return mask_to_width(t, bits) == bits ? format_hex(t, bits) : format_hex(DType::U64, bits);
}

Json dims_json(const Dim3& d) { return Json::array({d.x, d.y, d.z}); }

Json args_json(const TraceStep& s) {
  Json args = Json::object();
  const OpArgs defaults;
  if (op_is_watch(s.op)) {
    args["name"] = watch_name(s.args);
  } else if (op_is_shuffle(s.op)) {
    args[op_operand_name(s.op)] = s.args.b;
    args["width"] = s.args.width;
    args["c"] = format_hex(DType::U32, s.args.c);
    if (s.step_flags & kStepRawOperandC) args["raw_c"] = true;
    if (s.step_flags & kStepPerLaneOperand) args["per_lane_b"] = true;
  } else {
    if (s.args.b != defaults.b) args["b"] = s.args.b;
    if (s.args.width != defaults.width) args["width"] = s.args.width;
    if (s.args.c != defaults.c) args["c"] = format_hex(DType::U32, s.args.c);
  }
  return args;
}

Json step_json(const TraceStep& s) {
  Json j = Json::object();
  j["block"] = s.block;
  j["warp"] = s.warp;
  j["seq"] = s.seq;
  j["op"] = op_name(s.op);
  j["line"] = s.line;
  j["mask"] = format_hex(DType::U32, s.mask);
  j["dtype"] = dtype_name(s.dtype);
  j["args"] = args_json(s);
  const DType result = op_result_dtype(s.op, s.dtype);
  const bool memory = step_has_memory(s);
  // The model's cost; a hand-built step it cannot cost (a bad width) just goes
  // without (the reader would refuse it anyway).
  bool costed = false;
  BankAnalysis bank;
  if (op_is_shared(s.op)) {
    try {
      bank = analyze_shared_access(shared_access_of(s));
      costed = true;
    } catch (const std::invalid_argument&) {
    }
  }
  if (costed) {
    j["wavefronts"] = bank.wavefronts;
    j["conflicts"] = bank.conflicts;
  }
  Json lanes = Json::array();
  for (int i = 0; i < kWarpSize; ++i) {
    const LaneRecord& l = s.lanes[i];
    Json lane = Json::object();
    lane["lane"] = i;
    lane["active"] = l.active();
    lane["in"] = hex_lossless(s.dtype, l.in);
    lane["src"] = l.src == -1 ? Json(nullptr) : Json(int(l.src));
    lane["ok"] = l.ok();
    lane["undefined"] = l.undefined();
    lane["out"] = hex_lossless(result, l.out);
    if (memory) {
      lane["addr"] = l.addr;
      lane["bytes"] = l.bytes;
    }
    if (costed && l.active()) lane["bank"] = int(bank.bank[i]);
    if (s.step_flags & kStepPerLaneOperand) lane["b"] = l.addr;
    lanes.push_back(std::move(lane));
  }
  j["lanes"] = std::move(lanes);
  return j;
}

}  // namespace

std::string trace_to_json(const Trace& trace, int indent) {
  const TraceMeta& m = trace.meta;
  Json j = Json::object();
  j["format"] = kFormatName;
  j["version"] = kTraceJsonVersion;
  j["scenario"] = m.scenario;
  Json params = Json::object();
  for (const auto& [key, value] : m.params) params[key] = value;
  j["params"] = std::move(params);
  j["dtype"] = dtype_name(m.dtype);
  j["input"] = m.input_spec;
  j["backend"] = m.backend;
  j["device"] = m.device;
  j["compute_capability"] = m.compute_capability;
  j["tool_version"] = m.tool_version;
  j["grid"] = dims_json(m.grid);
  j["block"] = dims_json(m.block);
  j["source"] = Json{{"path", m.source_path}, {"text", m.source_text}};
  j["overflow"] = trace.overflow;
  if (!m.measurements.empty()) {
    Json measured = Json::object();
    for (const auto& [name, value] : m.measurements)
      measured[name] = std::isfinite(value) ? Json(value) : Json(nullptr);
    j["measurements"] = std::move(measured);
  }

  Json steps = Json::array();
  for (const TraceStep& s : trace.steps) steps.push_back(step_json(s));
  j["steps"] = std::move(steps);

  Json outputs = Json::object(), output_dtypes = Json::object();
  for (const TraceOutput& o : trace.outputs) {
    Json values = Json::array();
    for (uint64_t v : o.bits) values.push_back(hex_lossless(o.dtype, v));
    outputs[o.name] = std::move(values);
    output_dtypes[o.name] = dtype_name(o.dtype);
  }
  j["outputs"] = std::move(outputs);
  j["output_dtypes"] = std::move(output_dtypes);
  // Invalid UTF-8 (a Latin-1 source file, say) is replaced rather than refused;
  // the binary form keeps such bytes exactly.
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

// ---- reader -------------------------------------------------------------------

namespace {

// A JSON path built on the stack and spelled out only when there is an error:
// "steps[3].lanes[7].in".
struct JsonPath {
  const JsonPath* parent = nullptr;
  const char* key = nullptr;  // object member, or nullptr for an array index
  size_t index = 0;

  JsonPath operator/(const char* k) const { return JsonPath{this, k, 0}; }
  JsonPath operator[](size_t i) const { return JsonPath{this, nullptr, i}; }

  std::string str() const {
    if (!parent) return key ? key : "";
    std::string s = parent->str();
    if (key) {
      if (!s.empty()) s += '.';
      s += key;
    } else {
      s += "[" + std::to_string(index) + "]";
    }
    return s;
  }
};

class JsonReader {
 public:
  explicit JsonReader(const std::string& name) : name_(name) {}

  [[noreturn]] void fail(const JsonPath& path, const std::string& what) const {
    const std::string p = path.str();
    throw TraceFileError(name_ + ": " + (p.empty() ? "" : p + ": ") + what);
  }

  const Json& member(const Json& obj, const JsonPath& path) const {
    auto it = obj.find(path.key);
    if (it == obj.end()) fail(path, "missing");
    return *it;
  }
  const Json& object(const Json& obj, const JsonPath& path) const {
    const Json& v = member(obj, path);
    if (!v.is_object()) fail(path, "expected an object");
    return v;
  }
  const Json& array(const Json& obj, const JsonPath& path) const {
    const Json& v = member(obj, path);
    if (!v.is_array()) fail(path, "expected an array");
    return v;
  }
  std::string string(const Json& v, const JsonPath& path) const {
    if (!v.is_string()) fail(path, "expected a string");
    return v.get<std::string>();
  }
  std::string string(const Json& obj, const char* key, const JsonPath& parent) const {
    const JsonPath path = parent / key;
    return string(member(obj, path), path);
  }
  bool boolean(const Json& obj, const char* key, const JsonPath& parent) const {
    const JsonPath path = parent / key;
    const Json& v = member(obj, path);
    if (!v.is_boolean()) fail(path, "expected true or false");
    return v.get<bool>();
  }
  // Any integer in [lo, hi]; floats and out-of-range values are refused.
  int64_t integer(const Json& v, const JsonPath& path, int64_t lo, int64_t hi) const {
    bool in_range = false;
    int64_t n = 0;
    if (v.is_number_unsigned()) {
      const uint64_t u = v.get<uint64_t>();
      in_range = hi >= 0 && u <= uint64_t(hi);
      n = int64_t(u);
    } else if (v.is_number_integer()) {
      n = v.get<int64_t>();
      in_range = n >= lo && n <= hi;
    } else {
      fail(path, "expected an integer");
    }
    if (!in_range)
      fail(path, "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
    return n;
  }
  uint32_t u32(const Json& obj, const char* key, const JsonPath& parent) const {
    const JsonPath path = parent / key;
    return uint32_t(integer(member(obj, path), path, 0, std::numeric_limits<uint32_t>::max()));
  }
  // See "value rules" above: 8 or 16 digits for 32-bit fields, up to 16 for 64-bit.
  uint64_t hex(const Json& v, const JsonPath& path, DType t) const {
    if (v.is_string()) {
      const std::string& s = v.get_ref<const std::string&>();
      if (s.size() > 2 && s[0] == '0' && s[1] == 'x') {
        const size_t digits = s.size() - 2;
        const bool widened = !dtype_is_64bit(t) && digits == 16;
        if (auto bits = parse_hex(widened ? DType::U64 : t, s)) return *bits;
        if (parse_hex(DType::U64, s))
          fail(path, "hex value " + s + " is too wide for " + dtype_name(t));
      }
    }
    fail(path, "expected a hex string");
  }
  uint64_t hex(const Json& obj, const char* key, const JsonPath& parent, DType t) const {
    const JsonPath path = parent / key;
    return hex(member(obj, path), path, t);
  }
  DType dtype(const Json& v, const JsonPath& path) const {
    const std::string s = string(v, path);
    auto t = parse_dtype(s);
    if (!t) fail(path, "unknown dtype \"" + s + "\"");
    return *t;
  }
  Dim3 dims(const Json& obj, const char* key, const JsonPath& root) const {
    const JsonPath path = root / key;
    const Json& v = array(obj, path);
    if (v.size() != 3) fail(path, "expected [x, y, z]");
    Dim3 d;
    d.x = uint32_t(integer(v[0], path[0], 0, std::numeric_limits<uint32_t>::max()));
    d.y = uint32_t(integer(v[1], path[1], 0, std::numeric_limits<uint32_t>::max()));
    d.z = uint32_t(integer(v[2], path[2], 0, std::numeric_limits<uint32_t>::max()));
    return d;
  }

 private:
  const std::string& name_;
};

// A watch's args: {"name": "val"} and nothing else.
void read_watch_args(const JsonReader& r, const Json& args, const JsonPath& path, TraceStep& s) {
  for (auto it = args.begin(); it != args.end(); ++it)
    if (it.key() != "name") r.fail(path / it.key().c_str(), "not an argument of watch (it takes \"name\")");
  const std::string name = r.string(args, "name", path);
  if (!watch_name_fits(name.data(), name.size()))
    r.fail(path / "name", "\"" + name + "\" is not a watched name (1 to " + std::to_string(kWatchNameBytes) +
                              " printable ASCII characters)");
  s.args = watch_name_args(name.data(), name.size());
  s.step_flags = 0;
}

void read_args(const JsonReader& r, const Json& args, const JsonPath& path, TraceStep& s) {
  if (op_is_watch(s.op)) return read_watch_args(r, args, path, s);
  const bool shuffle = op_is_shuffle(s.op);
  const char* b_key = shuffle ? op_operand_name(s.op) : "b";
  for (auto it = args.begin(); it != args.end(); ++it) {
    const std::string& k = it.key();
    if (k != b_key && k != "width" && k != "c" && !(shuffle && (k == "raw_c" || k == "per_lane_b"))) {
      const JsonPath bad = path / k.c_str();
      r.fail(bad, std::string("not an argument of ") + op_name(s.op));
    }
  }
  const OpArgs defaults;
  const JsonPath b_path = path / b_key, width_path = path / "width", c_path = path / "c";
  auto b = args.find(b_key), width = args.find("width"), c = args.find("c");
  if (shuffle) {
    if (b == args.end()) r.fail(b_path, "missing");
    if (width == args.end()) r.fail(width_path, "missing");
    if (c == args.end()) r.fail(c_path, "missing");
  }
  s.args.b = b == args.end() ? defaults.b
                             : r.integer(*b, b_path, std::numeric_limits<int64_t>::min(),
                                         std::numeric_limits<int64_t>::max());
  s.args.width = width == args.end()
                     ? defaults.width
                     : int32_t(r.integer(*width, width_path, std::numeric_limits<int32_t>::min(),
                                         std::numeric_limits<int32_t>::max()));
  s.args.c = c == args.end() ? defaults.c : uint32_t(r.hex(*c, c_path, DType::U32));
  s.step_flags = 0;
  if (shuffle && args.contains("raw_c") && r.boolean(args, "raw_c", path)) s.step_flags |= kStepRawOperandC;
  if (shuffle && args.contains("per_lane_b") && r.boolean(args, "per_lane_b", path))
    s.step_flags |= kStepPerLaneOperand;
}

void read_lane(const JsonReader& r, const Json& j, const JsonPath& path, const TraceStep& s,
               int index, LaneRecord& l) {
  if (!j.is_object()) r.fail(path, "expected an object");
  const JsonPath lane_path = path / "lane";
  if (r.integer(r.member(j, lane_path), lane_path, 0, kWarpSize - 1) != index)
    r.fail(lane_path, "expected " + std::to_string(index));
  l.flags = 0;
  if (r.boolean(j, "active", path)) l.flags |= kLaneActive;
  if (r.boolean(j, "ok", path)) l.flags |= kLaneOk;
  if (r.boolean(j, "undefined", path)) l.flags |= kLaneUndefined;
  l.in = r.hex(j, "in", path, s.dtype);
  l.out = r.hex(j, "out", path, op_result_dtype(s.op, s.dtype));
  const JsonPath src_path = path / "src";
  const Json& src = r.member(j, src_path);
  l.src = src.is_null() ? int8_t(-1) : int8_t(r.integer(src, src_path, -1, kWarpSize - 1));
  // Required where the op touches shared memory, optional (default 0) elsewhere.
  const bool shared = op_is_shared(s.op);
  if (shared || j.contains("addr")) l.addr = r.u32(j, "addr", path);
  if (s.step_flags & kStepPerLaneOperand) l.addr = r.u32(j, "b", path);
  if (shared || j.contains("bytes")) {
    const JsonPath bytes_path = path / "bytes";
    l.bytes = uint8_t(r.integer(r.member(j, bytes_path), bytes_path, 0, 255));
  }
}

void read_step(const JsonReader& r, const Json& j, const JsonPath& path, TraceStep& s) {
  if (!j.is_object()) r.fail(path, "expected an object");
  s.block = r.u32(j, "block", path);
  s.warp = r.u32(j, "warp", path);
  s.seq = r.u32(j, "seq", path);
  const std::string op = r.string(j, "op", path);
  if (!parse_op(op, &s.op)) r.fail(path / "op", "unknown op \"" + op + "\"");
  s.line = r.u32(j, "line", path);
  s.mask = uint32_t(r.hex(j, "mask", path, DType::U32));
  const JsonPath dtype_path = path / "dtype";
  s.dtype = r.dtype(r.member(j, dtype_path), dtype_path);
  const JsonPath args_path = path / "args";
  read_args(r, r.object(j, args_path), args_path, s);
  const JsonPath lanes_path = path / "lanes";
  const Json& lanes = r.array(j, lanes_path);
  if (lanes.size() != size_t(kWarpSize))
    r.fail(lanes_path, "expected " + std::to_string(kWarpSize) + " lanes, found " +
                           std::to_string(lanes.size()));
  for (int i = 0; i < kWarpSize; ++i) read_lane(r, lanes[size_t(i)], lanes_path[size_t(i)], s, i, s.lanes[i]);
  // "wavefronts", "conflicts" and the lanes' "bank" are derived: not read back.
  if (op_is_shared(s.op)) {
    try {
      analyze_shared_access(shared_access_of(s));
    } catch (const std::invalid_argument& e) {
      r.fail(path, e.what());
    }
  }
}

void read_outputs(const JsonReader& r, const Json& j, Trace& t) {
  const JsonPath root;
  const JsonPath outputs_path = root / "outputs";
  const JsonPath dtypes_path = root / "output_dtypes";
  const Json& outputs = r.object(j, outputs_path);
  const Json& dtypes = r.object(j, dtypes_path);
  for (auto it = outputs.begin(); it != outputs.end(); ++it) {
    TraceOutput& o = t.outputs.emplace_back();
    o.name = it.key();
    const JsonPath out_path = outputs_path / o.name.c_str();
    const JsonPath dtype_path = dtypes_path / o.name.c_str();
    auto d = dtypes.find(o.name);
    if (d == dtypes.end()) r.fail(dtype_path, "missing");
    o.dtype = r.dtype(*d, dtype_path);
    if (!it->is_array()) r.fail(out_path, "expected an array");
    o.bits.reserve(it->size());
    for (size_t i = 0; i < it->size(); ++i) o.bits.push_back(r.hex((*it)[i], out_path[i], o.dtype));
  }
  for (auto it = dtypes.begin(); it != dtypes.end(); ++it)
    if (!outputs.contains(it.key()))
      r.fail(dtypes_path / it.key().c_str(), "no such output in \"outputs\"");
}

int64_t read_header(const JsonReader& r, const Json& j, const std::string& name) {
  if (!j.is_object()) throw TraceFileError(name + ": not a warpviz trace (not a JSON object)");
  auto format = j.find("format");
  if (format == j.end() || !format->is_string() || format->get<std::string>() != kFormatName)
    throw TraceFileError(name + ": not a warpviz trace (\"format\" is not \"" +
                         std::string(kFormatName) + "\")");
  const JsonPath root;
  const JsonPath version_path = root / "version";
  const int64_t version = r.integer(r.member(j, version_path), version_path,
                                    std::numeric_limits<int64_t>::min(),
                                    std::numeric_limits<int64_t>::max());
  if (version > kTraceJsonVersion)
    throw TraceFileError(name + ": written by a newer warpviz (format version " +
                         std::to_string(version) + "; this build reads up to " +
                         std::to_string(kTraceJsonVersion) + ")");
  if (version < 1) r.fail(version_path, "unsupported version " + std::to_string(version));
  return version;
}

void read_meta(const JsonReader& r, const Json& j, Trace& t) {
  const JsonPath root;
  TraceMeta& m = t.meta;
  m.scenario = r.string(j, "scenario", root);
  const JsonPath params_path = root / "params";
  const Json& params = r.object(j, params_path);
  for (auto it = params.begin(); it != params.end(); ++it)
    m.params[it.key()] = r.string(*it, params_path / it.key().c_str());
  const JsonPath dtype_path = root / "dtype";
  m.dtype = r.dtype(r.member(j, dtype_path), dtype_path);
  m.input_spec = r.string(j, "input", root);
  m.backend = r.string(j, "backend", root);
  m.device = r.string(j, "device", root);
  m.compute_capability = r.string(j, "compute_capability", root);
  m.tool_version = r.string(j, "tool_version", root);
  m.grid = r.dims(j, "grid", root);
  m.block = r.dims(j, "block", root);
  if (const std::string why = detail::launch_shape_problem(m.grid, m.block); !why.empty()) r.fail(root, why);
  const JsonPath source_path = root / "source";
  const Json& source = r.object(j, source_path);
  m.source_path = r.string(source, "path", source_path);
  m.source_text = r.string(source, "text", source_path);
  t.overflow = r.boolean(j, "overflow", root);
  auto measured = j.find("measurements");
  if (measured == j.end()) return;
  const JsonPath measured_path = root / "measurements";
  if (!measured->is_object()) r.fail(measured_path, "expected an object");
  for (auto it = measured->begin(); it != measured->end(); ++it) {
    const JsonPath path = measured_path / it.key().c_str();
    if (it->is_null())
      m.measurements[it.key()] = std::numeric_limits<double>::quiet_NaN();
    else if (it->is_number())
      m.measurements[it.key()] = it->get<double>();
    else
      r.fail(path, "expected a number");
  }
}

// What follows the parse: the header, the metadata, the checks of the steps
// against them, the outputs. `j` is the document without the steps' contents.
void read_document(const JsonReader& r, const Json& j, const std::string& name, Trace& t) {
  const int64_t version = read_header(r, j, name);
  read_meta(r, j, t);
  const JsonPath root;
  const JsonPath steps_path = root / "steps";
  r.array(j, steps_path);  // present, and an array (its steps are already read)
  for (size_t i = 0; i < t.steps.size(); ++i) {
    if (op_is_watch(t.steps.op(i)) && version < kTraceJsonWatchVersion)
      r.fail(steps_path[i] / "op", "a watch step in a format version " + std::to_string(version) +
                                       " file (watch steps came with " + std::to_string(kTraceJsonWatchVersion) + ")");
    const detail::StepPlaceProblem place = detail::step_place_problem(t.steps[i], t.meta.grid, t.meta.block);
    if (place.field) r.fail(steps_path[i] / place.field, place.why);
  }
  read_outputs(r, j, t);
}

// The parser callback that streams "steps" (see "Memory" at the top).

// The top-level members of a trace document: the SAX reader and the document
// reader both skip others with the same rule.
bool known_member(const std::string& key) {
  static const char* const kMembers[] = {
      "format", "version", "scenario", "params", "dtype", "input", "backend", "device",
      "compute_capability", "tool_version", "grid", "block", "source", "overflow",
      "measurements", "steps", "outputs", "output_dtypes"};
  for (const char* m : kMembers)
    if (key == m) return true;
  return false;
}

class StepStreamer {
 public:
  static constexpr size_t kMaxStepEvents = 16384;

  StepStreamer(const JsonReader& r, Trace& t) : r_(r), t_(t) {}

  // nlohmann's depth: the containers around the event (the root object's own
  // start and end are depth 0, its keys depth 1; a step's start and end depth 2).
  bool operator()(int depth, Json::parse_event_t event, Json& parsed) {
    using E = Json::parse_event_t;
    const bool opens = event == E::object_start || event == E::array_start;
    if (depth == 0 && event == E::array_start)
      r_.fail(root_, "not a warpviz trace (not a JSON object)");
    // Inside a dropped member's value until the next member or the root's end
    // (nlohmann reports no end for a dropped container).
    if (skipping_ && !(depth == 1 && event == E::key) && depth != 0) return false;
    skipping_ = false;
    if (event == E::key && depth == 1) {
      top_key_ = parsed.get<std::string>();
      if (!known_member(top_key_)) {
        skipping_ = true;
        return false;  // dropped: nlohmann keeps nothing of its value
      }
      if (top_key_ == "steps" && std::exchange(steps_member_seen_, true))
        r_.fail(root_ / "steps", "appears twice");
      return true;
    }
    if (event == E::key && depth == 2) sub_key_ = parsed.get<std::string>();
    if (depth == 1 && top_key_ == "steps" && event == E::array_start) {
      in_steps_ = true;
      return true;
    }
    if (in_steps_) {
      if (depth == 1) {  // the array's end; the steps were dropped one by one
        in_steps_ = false;
        return true;
      }
      const JsonPath steps = root_ / "steps";
      if (++step_events_ > kMaxStepEvents)
        r_.fail(steps[t_.steps.size()],
                "too large for a step (more than " + std::to_string(kMaxStepEvents) + " JSON values)");
      if (depth == 2 && event == E::object_end) {
        TraceStep step;
        read_step(r_, parsed, steps[t_.steps.size()], step);
        t_.steps.push_back(step);
        step_events_ = 0;
        return false;  // drop it from the document
      }
      if (depth == 2 && (event == E::value || event == E::array_end))
        r_.fail(steps[t_.steps.size()], "expected an object");
      return true;
    }
    // Outside the steps the schema nests no deeper than "outputs": {"out": [...]}.
    if (opens && depth >= 2 && !(depth == 2 && top_key_ == "outputs" && event == E::array_start)) {
      const JsonPath top = root_ / top_key_.c_str();
      r_.fail(depth == 2 ? top / sub_key_.c_str() : top,
              std::string("expected plain values, found a nested ") +
                  (event == E::object_start ? "object" : "array"));
    }
    return true;
  }

 private:

  const JsonReader& r_;
  Trace& t_;
  const JsonPath root_;  // paths point at their parent: it must outlive them
  std::string top_key_, sub_key_;
  bool in_steps_ = false, steps_member_seen_ = false, skipping_ = false;
  size_t step_events_ = 0;
};

Trace read_trace_json(const std::string& text, const std::string& name) {
  const JsonReader r(name);
  Trace t;
  // A real step is well over 1 KiB of JSON: this never reserves more than the text.
  t.steps.reserve(text.size() / 4096);
  StepStreamer streamer(r, t);
  Json j;
  try {
    j = Json::parse(text, [&](int depth, Json::parse_event_t event, Json& parsed) {
      return streamer(depth, event, parsed);
    });
  } catch (const Json::exception& e) {
    // parse_error, and out_of_range for a number beyond a double (1e999).
    throw TraceFileError(name + ": invalid JSON: " + e.what());
  }
  read_document(r, j, name, t);
  return t;
}


// ---- the fast path: SAX events straight into steps -----------------------------
//
// Building each step's nlohmann document (a map per lane, a string per key) is
// most of the time of read_trace_json. This reader takes nlohmann's SAX events
// and fills each TraceStep as they come; only the members outside "steps" and a
// step's small "args" become documents. It accepts only what read_trace_json
// accepts and reads it to the same trace: at anything it is not sure of (a
// value of the wrong type or out of range, a key twice, an unknown member, a
// nesting the schema lacks, too many events in a step), it gives up, and the
// caller reads the text again with read_trace_json, whose messages name the
// field and the step. Invalid JSON is reported here, with the same message the
// other reader gives (the same parser finds it at the same byte).

// A scalar as the SAX events give it.
struct RawValue {
  enum class Kind : uint8_t { None, Null, Bool, Int, Uint, Float, Str };
  Kind kind = Kind::None;
  bool b = false;
  int64_t i = 0;
  uint64_t u = 0;
  std::string str;

  // JsonReader::integer's rule: any integer in [lo, hi].
  bool integer(int64_t lo, int64_t hi, int64_t& out) const {
    if (kind == Kind::Uint) {
      if (hi < 0 || u > uint64_t(hi)) return false;
      out = int64_t(u);
      return true;
    }
    if (kind == Kind::Int) {
      if (i < lo || i > hi) return false;
      out = i;
      return true;
    }
    return false;
  }
  bool u32(uint32_t& out) const {
    int64_t v = 0;
    if (!integer(0, std::numeric_limits<uint32_t>::max(), v)) return false;
    out = uint32_t(v);
    return true;
  }
  // JsonReader::hex's rule: "0x" and 8 or 16 digits for 32-bit types, up to 16 for 64-bit.
  bool hex(DType t, uint64_t& out) const {
    if (kind != Kind::Str || str.size() <= 2 || str[0] != '0' || str[1] != 'x') return false;
    const bool widened = !dtype_is_64bit(t) && str.size() - 2 == 16;
    const std::optional<uint64_t> bits = parse_hex(widened ? DType::U64 : t, str);
    if (!bits) return false;
    out = *bits;
    return true;
  }
};

class FastJsonReader final : public nlohmann::json_sax<Json> {
 public:
  FastJsonReader(const std::string& name, Trace& t) : name_(name), t_(t) {}

  bool gave_up() const { return gave_up_; }
  Json& document() { return root_; }

  bool null() override { return scalar([](RawValue& v) { v.kind = RawValue::Kind::Null; }, Json(nullptr)); }
  bool boolean(bool b) override {
    return scalar([b](RawValue& v) { v.kind = RawValue::Kind::Bool, v.b = b; }, Json(b));
  }
  bool number_integer(number_integer_t n) override {
    return scalar([n](RawValue& v) { v.kind = RawValue::Kind::Int, v.i = n; }, Json(n));
  }
  bool number_unsigned(number_unsigned_t n) override {
    return scalar([n](RawValue& v) { v.kind = RawValue::Kind::Uint, v.u = n; }, Json(n));
  }
  bool number_float(number_float_t x, const string_t&) override {
    return scalar([](RawValue& v) { v.kind = RawValue::Kind::Float; }, Json(x));
  }
  bool string(string_t& text) override {
    if (where_ == Where::Args) return put_arg(Json(std::move(text)));
    if (in_step()) {
      RawValue* v = step_value();
      if (!v) return ok_or_give_up();
      v->kind = RawValue::Kind::Str;
      v->str.swap(text);
      return true;
    }
    return put(Json(std::move(text)));
  }
  bool binary(binary_t&) override { return give_up(); }

  bool start_object(std::size_t) override {
    switch (where_) {
      case Where::Outside:
        if (depth_ == 0) {
          ++depth_;
          return true;
        }
        return open_document(Json::object());
      case Where::Steps:
        where_ = Where::Step;
        begin_step();
        return count();
      case Where::Step:
        if (key_ != Key::Args || seen(Key::Args)) return give_up();
        step_seen_ |= 1u << int(Key::Args);
        where_ = Where::Args;
        args_ = Json::object();
        return count();
      case Where::Lanes:
        if (lane_count_ == kWarpSize) return give_up();
        where_ = Where::Lane;
        lanes_[lane_count_++] = LaneValues{};
        return count();
      default: return give_up();
    }
  }
  bool end_object() override {
    switch (where_) {
      case Where::Outside: return close_document();
      case Where::Step:
        where_ = Where::Steps;
        return count() && finish_step();
      case Where::Args: where_ = Where::Step; return count();
      case Where::Lane: where_ = Where::Lanes; return count();
      default: return give_up();
    }
  }
  bool start_array(std::size_t) override {
    if (where_ == Where::Step) {
      if (key_ != Key::Lanes || seen(Key::Lanes)) return give_up();
      step_seen_ |= 1u << int(Key::Lanes);
      where_ = Where::Lanes;
      lane_count_ = 0;
      return count();
    }
    if (where_ != Where::Outside || depth_ == 0) return give_up();
    if (depth_ == 1 && top_key_ == "steps") {
      if (steps_seen_) return give_up();
      steps_seen_ = true;
      root_["steps"] = Json::array();
      where_ = Where::Steps;
      return true;
    }
    return open_document(Json::array());
  }
  bool end_array() override {
    if (where_ == Where::Lanes) {
      where_ = Where::Step;
      return count();
    }
    if (where_ == Where::Steps) {
      where_ = Where::Outside;
      return true;
    }
    if (where_ == Where::Outside) return close_document();
    return give_up();
  }
  bool key(string_t& k) override {
    switch (where_) {
      case Where::Outside:
        if (depth_ == 1) {
          // Members outside the schema are dropped unread by the other reader.
          if (!known_member(k)) return give_up();
          top_key_ = k;
          return true;
        }
        pending_key_ = k;
        return true;
      case Where::Step: key_ = step_key(k); return count();
      case Where::Args: pending_key_ = k; return count();
      case Where::Lane: lane_key_ = lane_key(k); return count();
      default: return give_up();
    }
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    throw TraceFileError(name_ + ": invalid JSON: " + e.what());
  }

 private:
  enum class Where : uint8_t { Outside, Steps, Step, Args, Lanes, Lane };
  // A step's members that are read; Other: ignored when scalar (derived fields).
  enum class Key : uint8_t { Block, Warp, Seq, Op, Line, Mask, DType, Args, Lanes, Other };
  enum class LaneKey : uint8_t { Lane, Active, In, Src, Ok, Undefined, Out, Addr, Bytes, B, Other };
  static constexpr int kStepKeys = 9, kLaneKeys = 10;

  struct LaneValues {
    RawValue v[kLaneKeys];
    uint32_t seen = 0;
  };

  static Key step_key(const std::string& k) {
    static const char* const kNames[] = {"block", "warp", "seq", "op", "line", "mask", "dtype", "args", "lanes"};
    for (int i = 0; i < kStepKeys; ++i)
      if (k == kNames[i]) return Key(i);
    return Key::Other;
  }
  static LaneKey lane_key(const std::string& k) {
    static const char* const kNames[] = {"lane", "active", "in", "src", "ok", "undefined", "out", "addr", "bytes", "b"};
    for (int i = 0; i < kLaneKeys; ++i)
      if (k == kNames[i]) return LaneKey(i);
    return LaneKey::Other;
  }

  bool give_up() {
    gave_up_ = true;
    return false;  // stops the parse
  }
  bool ok_or_give_up() { return gave_up_ ? false : count(); }
  // The other reader refuses a step of more than StepStreamer::kMaxStepEvents events.
  bool count() { return ++step_events_ <= StepStreamer::kMaxStepEvents || give_up(); }
  bool in_step() const { return where_ == Where::Step || where_ == Where::Lane || where_ == Where::Args; }
  bool seen(Key k) const { return (step_seen_ >> int(k)) & 1u; }

  // Where a scalar inside a step goes (null: ignored, or given up).
  RawValue* step_value() {
    if (where_ == Where::Step) {
      if (key_ == Key::Other) return nullptr;
      if (key_ == Key::Args || key_ == Key::Lanes || seen(key_)) return give_up(), nullptr;
      step_seen_ |= 1u << int(key_);
      return &step_[int(key_)];
    }
    if (where_ == Where::Lane) {
      if (lane_key_ == LaneKey::Other) return nullptr;
      LaneValues& lane = lanes_[lane_count_ - 1];
      if ((lane.seen >> int(lane_key_)) & 1u) return give_up(), nullptr;
      lane.seen |= 1u << int(lane_key_);
      return &lane.v[int(lane_key_)];
    }
    return give_up(), nullptr;  // a string in "args" goes through put_arg
  }

  template <class SetRaw>
  bool scalar(SetRaw set, Json value) {
    if (where_ == Where::Args) return put_arg(std::move(value));
    if (in_step()) {
      RawValue* v = step_value();
      if (!v) return ok_or_give_up();
      set(*v);
      return count();
    }
    return put(std::move(value));
  }
  bool put_arg(Json value) {
    args_[pending_key_] = std::move(value);
    return count();
  }

  // Members outside "steps": a document, as the other reader builds it.
  bool put(Json value) {
    if (where_ == Where::Args) return put_arg(std::move(value));
    if (where_ != Where::Outside || depth_ == 0) return give_up();
    if (depth_ == 1) {
      if (top_key_ == "steps") return give_up();
      root_[top_key_] = std::move(value);
      return true;
    }
    Json& into = *open_.back();
    if (into.is_object()) into[pending_key_] = std::move(value);
    else into.push_back(std::move(value));
    return true;
  }
  bool open_document(Json container) {
    // Outside the steps nothing nests deeper than "outputs": {"out": [...]}.
    if (depth_ >= 2 && !(depth_ == 2 && top_key_ == "outputs" && container.is_array())) return give_up();
    if (top_key_ == "steps") return give_up();
    Json* at = nullptr;
    if (depth_ == 1) {
      at = &(root_[top_key_] = std::move(container));
    } else {
      Json& into = *open_.back();
      if (into.is_object()) {
        at = &(into[pending_key_] = std::move(container));
      } else {
        into.push_back(std::move(container));
        at = &into.back();
      }
    }
    open_.push_back(at);
    ++depth_;
    return true;
  }
  bool close_document() {
    --depth_;
    if (!open_.empty() && depth_ >= 1) open_.pop_back();
    return true;
  }

  void begin_step() {
    step_seen_ = 0;
    step_events_ = 0;
    lane_count_ = 0;
    args_ = Json();
    for (RawValue& v : step_) v.kind = RawValue::Kind::None;
  }

  // The step as read_step reads it, or give up.
  bool finish_step() {
    constexpr uint32_t kAll = (1u << kStepKeys) - 1;
    if (step_seen_ != kAll || lane_count_ != kWarpSize || !args_.is_object()) return give_up();
    TraceStep& s = step_read_;
    s = TraceStep{};
    bool ok = step_[int(Key::Block)].u32(s.block) && step_[int(Key::Warp)].u32(s.warp) &&
              step_[int(Key::Seq)].u32(s.seq) && step_[int(Key::Line)].u32(s.line) &&
              step_[int(Key::Op)].kind == RawValue::Kind::Str && parse_op(step_[int(Key::Op)].str, &s.op);
    uint64_t mask = 0;
    ok = ok && step_[int(Key::Mask)].hex(DType::U32, mask);
    s.mask = uint32_t(mask);
    std::optional<DType> dtype;
    if (ok && step_[int(Key::DType)].kind == RawValue::Kind::Str) dtype = parse_dtype(step_[int(Key::DType)].str);
    if (!ok || !dtype) return give_up();
    s.dtype = *dtype;
    try {
      read_args(JsonReader(name_), args_, JsonPath{}, s);
    } catch (const TraceFileError&) {
      return give_up();
    } catch (const Json::exception&) {
      return give_up();
    }
    const DType out_dtype = op_result_dtype(s.op, s.dtype);
    const bool shared = op_is_shared(s.op), per_lane_b = s.step_flags & kStepPerLaneOperand;
    auto has = [](const LaneValues& lane, LaneKey k) { return (lane.seen >> int(k)) & 1u; };
    for (int i = 0; i < kWarpSize; ++i) {
      const LaneValues& lane = lanes_[i];
      const RawValue* v = lane.v;
      LaneRecord& l = s.lanes[i];
      int64_t index = -1;
      if (!has(lane, LaneKey::Lane) || !v[int(LaneKey::Lane)].integer(0, kWarpSize - 1, index) || index != i)
        return give_up();
      for (LaneKey k : {LaneKey::Active, LaneKey::Ok, LaneKey::Undefined})
        if (!has(lane, k) || v[int(k)].kind != RawValue::Kind::Bool) return give_up();
      l.flags = uint8_t((v[int(LaneKey::Active)].b ? kLaneActive : 0) | (v[int(LaneKey::Ok)].b ? kLaneOk : 0) |
                        (v[int(LaneKey::Undefined)].b ? kLaneUndefined : 0));
      if (!has(lane, LaneKey::In) || !v[int(LaneKey::In)].hex(s.dtype, l.in)) return give_up();
      if (!has(lane, LaneKey::Out) || !v[int(LaneKey::Out)].hex(out_dtype, l.out)) return give_up();
      const RawValue& src = v[int(LaneKey::Src)];
      int64_t src_lane = -1;
      if (!has(lane, LaneKey::Src) || (src.kind != RawValue::Kind::Null && !src.integer(-1, kWarpSize - 1, src_lane)))
        return give_up();
      l.src = int8_t(src_lane);
      if ((shared || has(lane, LaneKey::Addr)) && !v[int(LaneKey::Addr)].u32(l.addr)) return give_up();
      if (per_lane_b && (!has(lane, LaneKey::B) || !v[int(LaneKey::B)].u32(l.addr))) return give_up();
      if (shared || has(lane, LaneKey::Bytes)) {
        int64_t bytes = 0;
        if (!v[int(LaneKey::Bytes)].integer(0, 255, bytes)) return give_up();
        l.bytes = uint8_t(bytes);
      }
    }
    if (shared) {
      try {
        analyze_shared_access(shared_access_of(s));
      } catch (const std::invalid_argument&) {
        return give_up();
      }
    }
    t_.steps.push_back(s);
    return true;
  }

  const std::string& name_;
  Trace& t_;
  Json root_ = Json::object();
  std::vector<Json*> open_;  // the open containers of root_'s members
  int depth_ = 0;            // containers open outside the steps, the root included
  std::string top_key_, pending_key_;
  bool steps_seen_ = false, gave_up_ = false;
  Where where_ = Where::Outside;
  // The step being read.
  Key key_ = Key::Other;
  LaneKey lane_key_ = LaneKey::Other;
  uint32_t step_seen_ = 0;
  size_t step_events_ = 0;
  RawValue step_[kStepKeys];
  Json args_;
  LaneValues lanes_[kWarpSize];
  int lane_count_ = 0;
  TraceStep step_read_;  // the step being read, appended when whole
};

}  // namespace

// The trace, or nullopt where read_trace_json must read it (see above).
std::optional<Trace> detail::read_trace_json_fast(const std::string& text, const std::string& name) {
  Trace t;
  t.steps.reserve(text.size() / 4096);
  FastJsonReader reader(name, t);
  const bool parsed = Json::sax_parse(text, &reader);
  if (reader.gave_up() || !parsed) return std::nullopt;
  read_document(JsonReader(name), reader.document(), name, t);
  // The reservation guessed from the text's size: give back what it overshot.
  if (t.steps.arena_capacity() - t.steps.encoded_bytes() > t.steps.encoded_bytes() / 8) t.steps.shrink_to_fit();
  return t;
}

Trace detail::read_trace_json_by_document(const std::string& text, const std::string& name) {
  return read_trace_json(text, name);
}

Trace trace_from_json(const std::string& text, const std::string& name_for_errors) {
  try {
    if (std::optional<Trace> fast = detail::read_trace_json_fast(text, name_for_errors)) return std::move(*fast);
    return read_trace_json(text, name_for_errors);
  } catch (const Json::exception& e) {
    // The field readers check types first; this keeps the promise that every
    // failure is a TraceFileError should one of nlohmann's checks still fire.
    throw TraceFileError(name_for_errors + ": " + e.what());
  }
}

}  // namespace warpviz
