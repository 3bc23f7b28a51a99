// The built-in scenarios and how a request becomes a validated run.
//
// [SECTION] Parameter helpers
// [SECTION] The scenario table
// [SECTION] The shared-memory scenarios
// [SECTION] Resolving a request
// [SECTION] Seed claims
#include <algorithm>
#include <bit>
#include <optional>
#include <sstream>

#include "warpviz/bank_model.h"
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
size_t n_squared(const ParamValues& p) { return size_t(p.get_int("n")) * size_t(p.get_int("n")); }

std::vector<ScenarioSpec> shared_memory_scenarios();

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
  for (ScenarioSpec& spec : shared_memory_scenarios()) s.push_back(std::move(spec));
  return s;
}

// ============================================================================
// [SECTION] The shared-memory scenarios
// ============================================================================

const char* const kBankArticle = "seeds/001 (Bank Conflict)";

// Whether the run's parameters are these (name, value) pairs.
std::function<bool(const ParamValues&)> params_are(std::vector<std::pair<std::string, std::string>> wanted) {
  return [wanted = std::move(wanted)](const ParamValues& p) {
    for (const auto& [name, value] : wanted) {
      const auto it = p.values.find(name);
      if (it == p.values.end() || it->second != value) return false;
    }
    return true;
  };
}

SeedClaim shared_claim(std::string text, std::string op, int wavefronts, int conflicts,
                       std::function<bool(const ParamValues&)> applies) {
  SeedClaim c;
  c.source = kBankArticle;
  c.text = std::move(text);
  c.shared_op = std::move(op);
  c.wavefronts = wavefronts;
  c.conflicts = conflicts;
  c.applies = std::move(applies);
  return c;
}

// The article's rules, as claims about the one access of `bank` (4-byte
// floats, as the article's tile) and the column reads of `transpose`.
// The article's ✅ and ❌ are quoted as ✓ and ×: the app's font has neither (nor ✗).
std::vector<SeedClaim> bank_claims() {
  std::vector<SeedClaim> claims;
  // The article's warp is whole: a partial `active` mask is another access.
  const std::pair<std::string, std::string> whole_warp{"active", "0xffffffff"};
  claims.push_back(shared_claim("tile[threadIdx.y][threadIdx.x] // ✓ 每线程一列，各打各的 bank (conflict-free)", "",
                                1, 0, params_are({{"pattern", "row"}, {"elem", "4"}, whole_warp})));
  claims.push_back(shared_claim("float v = tile[threadIdx.x][0]; // × 32 个线程打同一个 bank → 32 路冲突 (32-way)",
                                "", 32, 31, params_are({{"pattern", "column"}, {"cols", "32"}, {"elem", "4"}, whole_warp})));
  claims.push_back(shared_claim("float v2 = tileP[threadIdx.x][0]; // ✓ 相邻线程差 33 个 float，落不同 bank", "", 1, 0,
                                params_are({{"pattern", "column"}, {"cols", "33"}, {"elem", "4"}, whole_warp})));
  // "跨步为奇数通常安全；跨步 32 的倍数必冲突": odd strides are usually safe,
  // multiples of 32 always conflict (stride in elements of 4 bytes). The rule
  // is about lanes on different words: with stride 0, or a stride of a whole
  // tile, every lane wraps onto element 0 (a broadcast), which is not its case.
  const auto stride_is = [whole_warp](bool (*test)(int64_t)) {
    return [test, whole = params_are({{"pattern", "stride"}, {"elem", "4"}, whole_warp})](const ParamValues& p) {
      // Parameters may come from a trace file: cols is looked at only once known good.
      if (!whole(p) || (p.get("cols") != "32" && p.get("cols") != "33")) return false;
      const int64_t stride = p.get_int("stride");
      return stride % (kWarpSize * p.get_int("cols")) != 0 && test(stride);
    };
  };
  claims.push_back(shared_claim("跨步为奇数通常安全 (an odd stride is usually safe)", "", 1, 0,
                                stride_is([](int64_t s) { return s % 2 == 1; })));
  SeedClaim multiple = shared_claim("跨步 32 的倍数必冲突 (a stride that is a multiple of 32 always conflicts)", "", -1,
                                    -1, stride_is([](int64_t s) { return s % 32 == 0; }));
  multiple.min_conflicts = 1;
  claims.push_back(std::move(multiple));
  return claims;
}

std::vector<SeedClaim> transpose_claims() {
  std::vector<SeedClaim> claims;
  claims.push_back(shared_claim("tile[threadIdx.y][threadIdx.x] // ✓ 各打各的 bank: the row writes", "st.shared", 1, 0,
                                {}));
  claims.push_back(shared_claim("tile[threadIdx.x][0] // × 32 路冲突: the column reads of tile[32][32]", "ld.shared",
                                32, 31, params_are({{"cols", "32"}})));
  claims.push_back(shared_claim("tileP[threadIdx.x][0] // ✓ 落不同 bank: the column reads of tile[32][33]",
                                "ld.shared", 1, 0, params_are({{"cols", "33"}})));
  return claims;
}

std::string bank_default_input() {
  std::string s = "values:";
  for (int lane = 0; lane < kWarpSize; ++lane) s += (lane ? "," : "") + std::to_string(100 + lane);
  return s;
}

std::vector<ScenarioSpec> shared_memory_scenarios() {
  const std::string source = "kernels/shared_banks.cu";
  std::vector<ScenarioSpec> s;

  ScenarioSpec bank{"bank",
                    "one warp, one shared-memory access to T tile[32][cols]: wavefronts and bank conflicts",
                    source,
                    "bank_kernel",
                    {choice_param("pattern", "column", {"row", "column", "broadcast", "stride", "xor-swizzle", "custom"},
                                  "lane l's element: row tile[0][l], column tile[l][0], broadcast tile[0][0], stride "
                                  "element l*stride, xor-swizzle tile[l][l], custom addrs[l]"),
                     int_param("stride", "2", 0, 1 << 20, "elements between lanes, for pattern=stride"),
                     choice_param("elem", "4", {"1", "2", "4", "8", "16"}, "element size in bytes (the access width)"),
                     choice_param("cols", "32", {"32", "33"}, "the tile's row length (33: one element of padding)"),
                     choice_param("op", "load", {"load", "store"}, "the access: a load, or a store of the input"),
                     mask_param("active", "lanes that make the access"),
                     ParamSpec{"addrs", ParamKind::Text, "", "pattern=custom: 32 byte offsets a0,...,a31", {}}},
                    bank_default_input(),
                    one_warp,
                    bank_claims()};
  bank.dtype_of = [](const ParamValues& p) { return p.get_int("elem") >= 8 ? DType::U64 : DType::U32; };
  s.push_back(std::move(bank));

  s.push_back({"transpose", "the classic tile transpose: rows into a shared tile, columns out (cols 33: padded)",
               source, "transpose_kernel",
               {int_param("n", "64", 32, 512, "matrix side (a multiple of 32)"),
                choice_param("cols", "32", {"32", "33"}, "the tile's row length (33: one float of padding)"),
                dtype_param("f32", {"f32"})},
               "iota", n_squared, transpose_claims()});
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

const ScenarioSpec& adjacent_scenario(std::string_view name, int direction) {
  const auto& specs = scenario_specs();
  const ScenarioSpec* current = find_scenario(name);
  if (!current) return direction < 0 ? specs.back() : specs.front();
  const long n = long(specs.size());
  const long i = long(current - specs.data());
  return specs[size_t(((i + direction) % n + n) % n)];
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

// A non-negative integer, decimal or 0x hex.
std::optional<uint64_t> parse_offset(const std::string& text) {
  if (text.empty() || text[0] == '-' || text[0] == '+') return std::nullopt;
  if (text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0) return parse_hex(DType::U64, text);
  return parse_value(DType::U64, text);
}

// addrs: exactly 32 byte offsets, each a multiple of elem inside the tile;
// written back in decimal.
void check_bank_params(ResolvedScenario& r) {
  const ParamValues& p = r.params;
  const bool custom = p.get("pattern") == "custom";
  const std::string addrs = p.get("addrs");
  if (!custom && !addrs.empty())
    throw ScenarioError("bank: addrs=... is only read with pattern=custom (pattern is " + p.get("pattern") + ")");
  if (!custom) return;
  if (addrs.empty()) throw ScenarioError("bank: pattern=custom needs addrs=a0,a1,...,a31 (32 byte offsets)");
  const int64_t elem = p.get_int("elem");
  const int64_t tile_bytes = 32 * p.get_int("cols") * elem;
  std::vector<std::string> items;
  for (size_t start = 0;;) {
    const size_t comma = addrs.find(',', start);
    items.push_back(addrs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (items.size() != size_t(kWarpSize))
    throw ScenarioError("bank: addrs has " + std::to_string(items.size()) +
                        " offsets; it takes exactly 32 (one byte offset per lane, comma-separated)");
  std::string normal;
  for (size_t lane = 0; lane < items.size(); ++lane) {
    const std::string where = "bank: addrs: lane " + std::to_string(lane) + "'s offset '" + items[lane] + "'";
    const auto v = parse_offset(items[lane]);
    if (!v) throw ScenarioError(where + " is not a non-negative integer (decimal or 0x hex)");
    if (int64_t(*v % uint64_t(elem)) != 0)
      throw ScenarioError(where + " is not a multiple of elem=" + std::to_string(elem));
    if (*v >= uint64_t(tile_bytes))
      throw ScenarioError(where + " is outside the tile (" + std::to_string(tile_bytes) + " bytes: 32 x cols=" +
                          p.get("cols") + " x elem=" + std::to_string(elem) + ")");
    normal += (lane ? "," : "") + std::to_string(*v);
  }
  r.params.values["addrs"] = normal;
}

void check_transpose_params(const ResolvedScenario& r) {
  const int64_t n = r.params.get_int("n");
  if (n % 32 != 0) throw ScenarioError("transpose: n=" + std::to_string(n) + ": must be a multiple of 32");
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

  if (spec.find_param("dtype"))
    r.dtype = parse_dtype(r.params.get("dtype")).value_or(DType::F32);
  else
    r.dtype = spec.dtype_of ? spec.dtype_of(r.params) : DType::F32;
  if (spec.find_param("block")) {
    const int64_t block = r.params.get_int("block");
    if (block % kWarpSize != 0)
      throw ScenarioError(spec.name + ": block=" + std::to_string(block) + ": must be a multiple of 32");
  }
  if (spec.name == "shfl") add_shfl_notes(r);
  if (spec.name == "bank") check_bank_params(r);
  if (spec.name == "transpose") check_transpose_params(r);

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

namespace {

std::string shared_figures(const TraceStep& step, const BankAnalysis& a) {
  return std::string(op_name(step.op)) + " at line " + std::to_string(step.line) + " (block " +
         std::to_string(step.block) + " warp " + std::to_string(step.warp) + "): " + std::to_string(a.wavefronts) +
         " wavefronts, " + std::to_string(a.conflicts) + " conflicts";
}

// Every matching shared step must cost what the claim says. False when the
// trace has no such step (nothing to check).
bool check_shared_claim(const SeedClaim& claim, const Trace& trace, SeedClaimResult& result) {
  size_t checked = 0;
  std::string first;
  result.holds = true;
  for (const TraceStep& step : trace.steps) {
    if (!op_is_shared(step.op) || (!claim.shared_op.empty() && claim.shared_op != op_name(step.op))) continue;
    const BankAnalysis a = analyze_shared_access(shared_access_of(step));
    const bool holds = (claim.wavefronts < 0 || a.wavefronts == uint32_t(claim.wavefronts)) &&
                       (claim.conflicts < 0 || a.conflicts == uint32_t(claim.conflicts)) &&
                       (claim.min_conflicts < 0 || a.conflicts >= uint32_t(claim.min_conflicts));
    if (checked++ == 0) first = shared_figures(step, a);
    if (!holds) {
      result.holds = false;
      result.actual = "the bank model gives " + shared_figures(step, a);
      return true;
    }
  }
  if (checked == 0) return false;
  result.actual = checked == 1 ? first : std::to_string(checked) + " steps as claimed; the first: " + first;
  return true;
}

}  // namespace

std::vector<SeedClaimResult> check_seed_claims(const ScenarioSpec& spec, const Trace& trace) {
  std::vector<SeedClaimResult> results;
  ParamValues params;
  params.values = trace.meta.params;
  for (const SeedClaim& claim : spec.seed_claims) {
    if (claim.applies) {
      try {
        if (!claim.applies(params)) continue;
      } catch (const ScenarioError&) {
        continue;  // a trace without the parameters the claim reads (an older file)
      }
    }
    if (claim.output.empty()) {
      SeedClaimResult result{&claim, false, ""};
      if (check_shared_claim(claim, trace, result)) results.push_back(result);
      continue;
    }
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
