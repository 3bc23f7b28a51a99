// The scenario table (filled by the kernels' declarations) and how a request
// becomes a validated run.
//
// [SECTION] Parameter helpers
// [SECTION] The scenario table
// [SECTION] Resolving a request
// [SECTION] Seed claims
#include <algorithm>
#include <optional>

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

// ============================================================================
// [SECTION] The scenario table
// ============================================================================

namespace {

// Filled before main by the kernels' registrars (scenario_decl.h); a local
// static, so it exists whichever object file's registrar runs first.
std::vector<ScenarioSpec>& scenario_table() {
  static std::vector<ScenarioSpec> table;
  return table;
}

}  // namespace

void register_scenario(ScenarioSpec spec) {
  std::vector<ScenarioSpec>& table = scenario_table();
  for (const ScenarioSpec& s : table) {
    if (s.name != spec.name) continue;
    if (s.source_path == spec.source_path) return;  // the same file, compiled for the other backend
    throw ScenarioError("scenario '" + spec.name + "' is declared twice: in " + s.source_path + " and in " +
                        spec.source_path);
  }
  const auto place = std::find_if(table.begin(), table.end(), [&](const ScenarioSpec& s) {
    return s.order > spec.order || (s.order == spec.order && s.name > spec.name);
  });
  table.insert(place, std::move(spec));
}

const std::vector<ScenarioSpec>& scenario_specs() { return scenario_table(); }

const ScenarioSpec* find_scenario(std::string_view name) {
  for (const auto& s : scenario_specs())
    if (s.name == name) return &s;
  return nullptr;
}

const ScenarioSpec& adjacent_scenario(std::string_view name, int direction) {
  const auto& specs = scenario_specs();
  if (specs.empty()) throw ScenarioError("no scenarios are registered (is the kernels library linked?)");
  const ScenarioSpec* current = find_scenario(name);
  if (!current) return direction < 0 ? specs.back() : specs.front();
  const long n = long(specs.size());
  const long i = long(current - specs.data());
  return specs[size_t(((i + direction) % n + n) % n)];
}

const ScenarioTraits& scenario_traits(std::string_view name) {
  static const ScenarioTraits none;
  const ScenarioSpec* spec = find_scenario(name);
  return spec ? spec->traits : none;
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
  if (spec.check) spec.check(r);

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
