// The scenario registry: every scenario's parameters, defaults, input size and
// kernel source, independent of the backend that runs it. The scenarios are
// declared next to their kernels (recording/include/warpviz/scenario_decl.h),
// whose registrars hand each spec to register_scenario() before main.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "warpviz/trace.h"

namespace warpviz {

// Bad scenario names, parameters or inputs; the message names the valid ones.
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class ParamKind : uint8_t {
  Int,     // decimal (or 0x hex), within [min, max]
  Mask,    // a 32-bit lane mask, hex or decimal
  Choice,  // one of `choices`
  Text,    // free text, validated by the scenario (e.g. addrs=a,b,c)
};

struct ParamSpec {
  std::string name;
  ParamKind kind = ParamKind::Int;
  std::string default_value;
  std::string help;
  std::vector<std::string> choices;
  int64_t min = INT32_MIN, max = INT32_MAX;
};

class ParamValues {
 public:
  std::map<std::string, std::string> values;

  const std::string& get(const std::string& name) const;
  int64_t get_int(const std::string& name) const;
  uint32_t get_mask(const std::string& name) const;
};

// A claim the seed material makes about a result, checked against the trace.
struct SeedClaim {
  std::string source;       // "seeds/000 (demo main)"
  std::string text;         // the claim as the seed states it
  std::string output;       // which output; empty for a claim about shared-memory steps
  int index = -1;           // element checked; -1: "every lane of a warp holds the same value"
  std::string expected;     // the seed's expected value (decimal), for index >= 0

  // A claim about shared-memory steps (output empty): every recorded step of
  // `shared_op` (ld.shared / st.shared; empty: both) costs `wavefronts` and
  // `conflicts` by the bank model (bank_model.h), or at least `min_conflicts`;
  // -1 leaves a figure unchecked.
  std::string shared_op{};
  int wavefronts = -1, conflicts = -1, min_conflicts = -1;
  // The run's parameters the claim is about (pattern=column, cols=32, ...);
  // a run they do not describe is not checked. Unset: every run.
  std::function<bool(const ParamValues&)> applies{};
  std::string source_zh{};  // `source` in Chinese (L switches); empty: `source`
};

struct SeedClaimResult {
  const SeedClaim* claim = nullptr;
  bool holds = false;
  std::string actual;  // what the trace holds
};

// What the views do with a scenario's runs beyond the common panels: looked up
// by a trace's scenario name, so no view compares names itself.
struct ScenarioTraits {
  bool shows_tile = false;       // the bank view draws T tile[32][cols] from the run's cols and elem parameters
  std::string pad_param;         // a choice 32|33 the bank view's padding toggle flips (empty: no toggle)
  bool block_reduction = false;  // the block panel follows a two-level reduction (warp sums through shared memory)
  bool compaction = false;       // the vote panel shows each kept lane's slot next to the ballot
  bool times_bank_cost = false;  // the GPU backend times the run's single shared access (bank_cost.h)
};

struct ResolvedScenario;

struct ScenarioSpec {
  std::string name;
  // Where the scenario stands in the seeds' lesson (shuffles, reductions,
  // votes, cooperative groups, banks); the table is sorted by it, so the order
  // never depends on which object file the linker reads first.
  int order = 0;
  std::string summary;
  std::string summary_zh;   // the summary in Chinese (L switches); empty: the English one
  std::string source_path;  // kernel source, relative to the repository root
  std::string kernel;       // the __global__ function that runs
  std::vector<ParamSpec> params;
  std::string default_input;
  // How many input values the scenario reads, given its parameters.
  std::function<size_t(const ParamValues&)> input_count;
  std::vector<SeedClaim> seed_claims;
  // The run's value type when it has no dtype parameter (bank: from elem).
  std::function<DType(const ParamValues&)> dtype_of{};
  // What the parameter kinds cannot check (bank's addrs, transpose's n), and
  // notes on legal but surprising values (shfl's width 12). Throws ScenarioError.
  std::function<void(ResolvedScenario&)> check{};
  ScenarioTraits traits{};

  const ParamSpec* find_param(std::string_view param) const;
};

// Adds a scenario to the table, in its place by `order` (then name). The
// kernels' registrars call it before main; a name registered again from the
// same source file is that file compiled for another backend and is ignored,
// from another file it is a ScenarioError.
void register_scenario(ScenarioSpec spec);

const std::vector<ScenarioSpec>& scenario_specs();
const ScenarioSpec* find_scenario(std::string_view name);
std::string scenario_names();  // "a, b, c" for messages
// The traits of a trace's scenario; a name no scenario has gets none.
const ScenarioTraits& scenario_traits(std::string_view name);
// The scenario `direction` places after `name` in the table (wrapping around),
// the order of the seeds' lesson: shuffles, reductions, votes, cooperative
// groups, banks. An unknown name gives the first (or, going back, the last).
const ScenarioSpec& adjacent_scenario(std::string_view name, int direction);

struct ScenarioRequest {
  std::string scenario;
  std::vector<std::pair<std::string, std::string>> sets;  // --set NAME=VALUE, in order
  std::string input;                                      // empty: the scenario's default
};

struct ResolvedScenario {
  const ScenarioSpec* spec = nullptr;
  ParamValues params;  // every parameter, defaults filled in, normalised
  DType dtype = DType::F32;
  std::string input_spec;
  std::vector<uint64_t> input_bits;
  std::vector<std::string> notes;  // e.g. "width 12 is undefined in the C++ API, ..."
};

// Validates names, parameters and input; throws ScenarioError.
ResolvedScenario resolve_scenario(const ScenarioRequest& request);

// Fills the backend-independent part of a trace's metadata.
void fill_trace_meta(const ResolvedScenario& resolved, Trace& trace);

// The claims that apply to the trace's run (its parameters), each checked.
std::vector<SeedClaimResult> check_seed_claims(const ScenarioSpec& spec, const Trace& trace);

}  // namespace warpviz
