// The built-in scenarios and how a request becomes a validated run.
//
// [SECTION] Parameter helpers
// [SECTION] The scenario table
// [SECTION] Resolving a request
// [SECTION] Seed claims
#include <algorithm>
#include <bit>
#include <sstream>

#include "warpviz/input_spec.h"
#include "warpviz/scenario.h"
#include "warpviz/version.h"

namespace warpviz {

// ============================================================================
// [SECTION] Parameter helpers
// ============================================================================

const std::string& ParamValues::get(const std::string& name) const {
  const auto it = values.find(name);
  if (it == values.end()) throw ScenarioError("internal: parameter '" + name + "' was not resolved");
  return it->second;
}

int64_t ParamValues::get_int(const std::string& name) const {
  const auto v = parse_value(DType::I64, get(name));
  if (v) return int64_t(*v);
  const auto hex = parse_hex(DType::U64, get(name));
  if (hex) return int64_t(*hex);
  throw ScenarioError("internal: parameter '" + name + "' is not an integer");
}

uint32_t ParamValues::get_mask(const std::string& name) const {
  const auto v = parse_hex(DType::U32, get(name));
  if (!v) throw ScenarioError("internal: parameter '" + name + "' is not a mask");
  return uint32_t(*v);
}

const ParamSpec* ScenarioSpec::find_param(std::string_view param) const {
  for (const auto& p : params)
    if (p.name == param) return &p;
  return nullptr;
}

namespace {

ParamSpec dtype_param(std::string default_dtype, std::vector<std::string> choices) {
  return ParamSpec{"dtype", ParamKind::Choice, std::move(default_dtype), "value type", std::move(choices)};
}
ParamSpec mask_param(std::string name, std::string help) {
  return ParamSpec{std::move(name), ParamKind::Mask, "0xffffffff", std::move(help), {}};
}
ParamSpec int_param(std::string name, std::string default_value, int64_t min, int64_t max, std::string help) {
  ParamSpec p{std::move(name), ParamKind::Int, std::move(default_value), std::move(help), {}};
  p.min = min;
  p.max = max;
  return p;
}
ParamSpec choice_param(std::string name, std::string default_value, std::vector<std::string> choices,
                       std::string help) {
  return ParamSpec{std::move(name), ParamKind::Choice, std::move(default_value), std::move(help),
                   std::move(choices)};
}

size_t one_warp(const ParamValues&) { return kWarpSize; }
size_t n_elements(const ParamValues& p) { return size_t(p.get_int("n")); }

// ============================================================================
// [SECTION] The scenario table
// ============================================================================

std::vector<ScenarioSpec> build_scenarios() {
  const std::string seed_demo = "kernels/warp_shuffle.cu";
  const std::string article = "kernels/warp_reduce_int.cu";
  std::vector<ScenarioSpec> s;

  s.push_back({"test_shuffle", "the seed's test_shuffle: shfl_down by 1 plus shfl_xor by 1, per lane",
               seed_demo, "test_shuffle", {dtype_param("f32", {"f32", "f64", "i32"})}, "iota", one_warp,
               {{"seeds/000 main()", "Thread 0 result: (expected: 0+1 + 0^1=1 = 1.0)", "out", 0, "1"},
                {"seeds/000 main()", "Thread 5 result: (expected: 6 + 5^1=4 = 10.0)", "out", 5, "10"}}});
  s.push_back({"warp_sum", "the seed's warp_sum: val += __shfl_down_sync(full, val, offset), offset 16 -> 1",
               seed_demo, "warp_sum_kernel", {dtype_param("f32", {"f32", "i32"})}, "iota", one_warp, {}});
  s.push_back({"warp_sum_xor", "the seed's butterfly: val += __shfl_xor_sync(full, val, offset), offset 1 -> 16",
               seed_demo, "warp_sum_xor_kernel", {dtype_param("f32", {"f32", "i32"})}, "iota", one_warp, {}});
  s.push_back({"warp_max", "the seed's warp_max: fmaxf with __shfl_down_sync, offset 16 -> 1", seed_demo,
               "warp_max_kernel", {dtype_param("f32", {"f32"})}, "iota", one_warp, {}});
  s.push_back({"shfl", "one shuffle: the playground for edge cases (widths, masks, args beyond 31, raw PTX c)",
               "kernels/shfl_playground.cu", "shfl_playground",
               {choice_param("op", "down", {"idx", "up", "down", "xor"}, "shuffle variant"),
                int_param("arg", "1", INT32_MIN, UINT32_MAX, "srcLane / delta / laneMask (only 5 bits reach the hardware)"),
                int_param("width", "32", INT32_MIN, INT32_MAX, "width; 1,2,4,8,16,32 are defined, others follow the PTX formula"),
                ParamSpec{"c", ParamKind::Text, "auto", "raw PTX c operand (hex); auto builds it from width", {}},
                mask_param("mask", "member mask passed to the shuffle"),
                ParamSpec{"active", ParamKind::Text, "mask", "lanes that execute the shuffle (a mask, or 'mask')", {}},
                dtype_param("i32", {"i32", "u32", "f32", "f64"})},
               "iota", one_warp, {}});
  s.push_back({"reduce_sum", "the seed's two-level reduce_sum: warp_sum, warp sums through shared memory, warp 0 again",
               seed_demo, "reduce_sum",
               {int_param("n", "1024", 1, int64_t(1) << 26, "number of input elements"),
                int_param("block", "256", 32, 1024, "threads per block (a multiple of 32)"), dtype_param("f32", {"f32"})},
               "ones", n_elements, {}});
  s.push_back({"reduce_int", "the article's reduceKernel: warpReduceSum, warpSums[32], warp 0 reduces the warp sums",
               article, "reduceKernel",
               {int_param("n", "1024", 1, int64_t(1) << 26, "number of input elements"),
                int_param("block", "256", 32, 1024, "threads per block (a multiple of 32)"), dtype_param("i32", {"i32"})},
               "iota", n_elements,
               {{"article, warpReduceSum", "return value; // 所有 lane 都持有相同结果 (every lane holds the same result)",
                 "warp_result", -1, ""}}});
  s.push_back({"vote", "the article's vote: pred = value > 0; ballot, any, all, __ffs(ballot) - 1, __popc(ballot)",
               "kernels/warp_vote.cu", "vote_kernel",
               {choice_param("predicate", "positive", {"positive", "raw"},
                             "positive: value > 0 (the article); raw: the value itself, any non-zero is true"),
                mask_param("mask", "member mask of the votes"), dtype_param("i32", {"i32", "f32"})},
               "random:1", one_warp, {}});
  s.push_back({"compact", "stream compaction: keep non-zero values, slot = popc(ballot & lanes below)",
               "kernels/warp_vote.cu", "compact_kernel", {dtype_param("i32", {"i32", "f32"})},
               "values:5,0,0,7,1,0,3,0,0,0,2,8,0,0,0,4,6,0,0,0,9,0,1,0,0,3,0,0,5,0,0,2", one_warp, {}});
  s.push_back({"match", "__match_any_sync and __match_all_sync: lanes holding identical bits",
               "kernels/match_redux.cu", "match_kernel",
               {mask_param("mask", "member mask"), dtype_param("i32", {"i32", "u32", "f32", "f64"})},
               "values:3,1,4,1,5,9,2,6,5,3,5,8,9,7,9,3,2,3,8,4,6,2,6,4,3,3,8,3,2,7,9,5", one_warp, {}});
  s.push_back({"redux", "__reduce_add/min/max/and/or/xor_sync over the lanes in the mask",
               "kernels/match_redux.cu", "redux_kernel",
               {mask_param("mask", "member mask (lanes outside it do not run the reductions)"),
                dtype_param("i32", {"i32", "u32"})},
               "random:1", one_warp, {}});
  s.push_back({"cg_reduce", "cooperative groups: tiled_partition<32>, tile.shfl_down, cg::reduce(tile, v, op)",
               "kernels/cooperative_groups.cu", "cg_reduce_kernel",
               {choice_param("op", "plus", {"plus", "less", "greater"}, "cg operator"),
                dtype_param("f32", {"f32", "i32"})},
               "iota", one_warp, {}});
  s.push_back({"cg_scan", "cooperative groups: inclusive_scan and exclusive_scan over tiles",
               "kernels/cooperative_groups.cu", "cg_scan_kernel",
               {choice_param("tile", "8", {"1", "2", "4", "8", "16", "32"}, "tile size"),
                dtype_param("f32", {"f32", "i32"})},
               "iota", one_warp, {}});
  s.push_back({"coalesced", "coalesced_threads() in a branch: shfl(v, 0), shfl_down(v, 1), shfl_up(v, 1)",
               "kernels/cooperative_groups.cu", "coalesced_kernel",
               {ParamSpec{"active", ParamKind::Mask, "0xaaaaaaaa", "lanes that take the branch", {}},
                dtype_param("i32", {"i32", "f32"})},
               "iota", one_warp, {}});
  s.push_back({"bits", "per-lane bit intrinsics: __popc, __ffs, __clz, __brev, __fns(fns_mask, lane, fns_offset)",
               "kernels/bits.cu", "bits_kernel",
               {ParamSpec{"fns_mask", ParamKind::Mask, "0x00ff00f1", "mask searched by __fns", {}},
                int_param("fns_offset", "1", -32, 32, "offset passed to __fns"), dtype_param("u32", {"u32"})},
               "iota", one_warp, {}});
  return s;
}

}  // namespace

const std::vector<ScenarioSpec>& scenario_specs() {
  static const std::vector<ScenarioSpec> specs = build_scenarios();
  return specs;
}

const ScenarioSpec* find_scenario(std::string_view name) {
  for (const auto& s : scenario_specs())
    if (s.name == name) return &s;
  return nullptr;
}

std::string scenario_names() {
  std::string names;
  for (const auto& s : scenario_specs()) names += (names.empty() ? "" : ", ") + s.name;
  return names;
}

// ============================================================================
// [SECTION] Resolving a request
// ============================================================================

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

std::string valid_params(const ScenarioSpec& spec) {
  std::vector<std::string> names;
  for (const auto& p : spec.params) names.push_back(p.name);
  return names.empty() ? "(none)" : join(names);
}

// Validates one value and returns its normal form.
std::string normalise_param(const ScenarioSpec& spec, const ParamSpec& p, const std::string& value) {
  const std::string where = spec.name + ": " + p.name + "=" + value;
  switch (p.kind) {
    case ParamKind::Int: {
      auto v = parse_value(DType::I64, value);
      // Hex only with its prefix: "12abc" is a typo, not 0x12abc.
      if (!v && value.rfind("0x", 0) == 0) v = parse_hex(DType::U64, value);
      if (!v || value.empty()) throw ScenarioError(where + ": not an integer");
      const int64_t i = int64_t(*v);
      if (i < p.min || i > p.max)
        throw ScenarioError(where + ": out of range [" + std::to_string(p.min) + ", " + std::to_string(p.max) + "]");
      return std::to_string(i);
    }
    case ParamKind::Mask: {
      auto v = parse_value(DType::U32, value);
      if (!v || value.rfind("0x", 0) == 0) v = parse_hex(DType::U32, value);
      if (!v || value.empty()) throw ScenarioError(where + ": not a 32-bit lane mask (e.g. 0xffff0000)");
      return format_hex(DType::U32, *v);
    }
    case ParamKind::Choice:
      if (std::find(p.choices.begin(), p.choices.end(), value) == p.choices.end())
        throw ScenarioError(where + ": valid values are " + join(p.choices));
      return value;
    case ParamKind::Text: return value;
  }
  return value;
}

void add_shfl_notes(ResolvedScenario& r) {
  const ParamValues& p = r.params;
  const int64_t width = p.get_int("width");
  const int64_t arg = p.get_int("arg");
  const bool raw_c = p.get("c") != "auto";
  if (raw_c) {
    const auto c = parse_hex(DType::U32, p.get("c"));
    if (!c) throw ScenarioError("shfl: c=" + p.get("c") + ": not a hex c operand (e.g. 0x181f), or auto");
    r.params.values["c"] = format_hex(DType::U32, *c);
    r.notes.push_back("raw PTX shfl.sync with c = " + r.params.values["c"] + "; width is ignored");
  } else if (!(width >= 1 && width <= 32 && std::has_single_bit(uint64_t(width)))) {
    const uint32_t segmask = uint32_t(((32 - width) << 8) >> 8) & 0x1f;
    std::ostringstream note;
    note << "width " << width << " is undefined in the CUDA C++ API (it must be 1, 2, 4, 8, 16 or 32); "
         << "the hardware applies the PTX formula anyway: c = ((32 - width) << 8) | clamp gives segmask 0x"
         << std::hex << segmask;
    r.notes.push_back(note.str());
  }
  const uint32_t b5 = uint32_t(arg) & 31;
  if (arg < 0 || arg > 31)
    r.notes.push_back("arg " + std::to_string(arg) + ": shfl.sync uses only the low 5 bits of b, so it acts as " +
                      std::to_string(b5));
  const std::string& active = p.get("active");
  if (active != "mask") {
    auto a = parse_hex(DType::U32, active);
    if (!a) throw ScenarioError("shfl: active=" + active + ": not a lane mask, or 'mask'");
    r.params.values["active"] = format_hex(DType::U32, *a);
    const uint32_t mask = p.get_mask("mask");
    if (*a & ~mask)
      r.notes.push_back("lanes " + format_hex(DType::U32, *a & ~mask) +
                        " execute a shuffle whose mask leaves them out: undefined, marked in the trace");
  }
}

}  // namespace

ResolvedScenario resolve_scenario(const ScenarioRequest& request) {
  ResolvedScenario r;
  r.spec = find_scenario(request.scenario);
  if (!r.spec)
    throw ScenarioError("unknown scenario '" + request.scenario + "'; valid scenarios: " + scenario_names());
  const ScenarioSpec& spec = *r.spec;
  for (const auto& p : spec.params) r.params.values[p.name] = p.default_value;
  for (const auto& [name, value] : request.sets) {
    const ParamSpec* p = spec.find_param(name);
    if (!p)
      throw ScenarioError("unknown parameter '" + name + "' for " + spec.name + "; valid parameters: " +
                          valid_params(spec));
    r.params.values[name] = value;
  }
  for (const auto& p : spec.params) r.params.values[p.name] = normalise_param(spec, p, r.params.values[p.name]);

  r.dtype = parse_dtype(r.params.get("dtype")).value_or(DType::F32);
  if (spec.find_param("block")) {
    const int64_t block = r.params.get_int("block");
    if (block % kWarpSize != 0)
      throw ScenarioError(spec.name + ": block=" + std::to_string(block) + ": must be a multiple of 32");
  }
  if (spec.name == "shfl") add_shfl_notes(r);

  r.input_spec = request.input.empty() ? spec.default_input : request.input;
  const InputSpec input = parse_input_spec(r.input_spec);
  r.input_bits = make_input_values(input, r.dtype, spec.input_count(r.params));
  return r;
}

void fill_trace_meta(const ResolvedScenario& resolved, Trace& trace) {
  TraceMeta& m = trace.meta;
  m.scenario = resolved.spec->name;
  m.params = resolved.params.values;
  m.dtype = resolved.dtype;
  m.input_spec = resolved.input_spec;
  m.tool_version = tool_version();
  m.source_path = resolved.spec->source_path;
  m.source_text = kernel_source_text(resolved.spec->source_path);
}

// ============================================================================
// [SECTION] Seed claims
// ============================================================================

std::vector<SeedClaimResult> check_seed_claims(const ScenarioSpec& spec, const Trace& trace) {
  std::vector<SeedClaimResult> results;
  for (const SeedClaim& claim : spec.seed_claims) {
    const TraceOutput* out = trace.output(claim.output);
    if (!out) continue;
    SeedClaimResult result{&claim, false, ""};
    if (claim.index >= 0) {
      if (size_t(claim.index) >= out->bits.size()) continue;
      const uint64_t bits = out->bits[size_t(claim.index)];
      result.actual = format_value(out->dtype, bits);
      const auto expected = parse_value(out->dtype, claim.expected);
      result.holds = expected && *expected == bits;
    } else {
      // Uniform within each warp: report the first lane that differs from its lane 0.
      result.holds = true;
      for (size_t i = 0; i < out->bits.size() && result.holds; ++i) {
        const uint64_t lane0 = out->bits[i - i % kWarpSize];
        if (out->bits[i] != lane0) {
          result.holds = false;
          result.actual = "element " + std::to_string(i) + " holds " + format_value(out->dtype, out->bits[i]) +
                          ", its warp's lane 0 holds " + format_value(out->dtype, lane0);
        }
      }
      if (result.holds) result.actual = "every lane of each warp holds the same value";
    }
    results.push_back(result);
  }
  return results;
}

}  // namespace warpviz
