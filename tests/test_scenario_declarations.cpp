// The scenario declarations (scenario_decl.h) and the registry they fill: every
// scenario has host code on the CPU backend, the table keeps the lesson's
// order whatever the link order, a dtype without host code is an error, and
// the views' traits come from the declarations.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "warpviz/backends.h"
#include "warpviz/scenario.h"
#include "warpviz/scenario_decl.h"
#include "warpviz/version.h"

using namespace warpviz;

namespace {

std::vector<std::string> names(const std::vector<ScenarioSpec>& specs) {
  std::vector<std::string> out;
  for (const ScenarioSpec& s : specs) out.push_back(s.name);
  return out;
}

ResolvedScenario resolve(const std::string& scenario, std::vector<std::pair<std::string, std::string>> sets = {}) {
  return resolve_scenario({scenario, std::move(sets), ""});
}

}  // namespace

TEST_CASE("the table holds the built-ins in the seeds' lesson order", "[scenario][declaration]") {
  // shuffles, reductions, votes (divergence among them), cooperative groups, banks: what PageDown and
  // `warpviz-cli list` walk. The order keys, not the link order, decide it.
  const std::vector<std::string> lesson{"test_shuffle", "warp_sum", "warp_sum_xor", "warp_max", "shfl",
                                        "reduce_sum",   "reduce_int", "vote",       "divergence", "compact",  "match",
                                        "redux",        "cg_reduce",  "cg_scan",    "coalesced", "bits",
                                        "bank",         "transpose"};
  CHECK(names(scenario_specs()) == lesson);
  for (size_t i = 1; i < scenario_specs().size(); ++i) CHECK(scenario_specs()[i - 1].order < scenario_specs()[i].order);
}

TEST_CASE("every scenario has host code on the CPU backend", "[scenario][declaration]") {
  REQUIRE(!scenario_specs().empty());
  for (const ScenarioSpec& spec : scenario_specs()) {
    INFO(spec.name);
    CHECK(find_scenario_runner(spec.name) != nullptr);
    CHECK(!spec.summary.empty());
    CHECK(!spec.kernel.empty());
    CHECK(spec.input_count);
    CHECK(!kernel_source_text(spec.source_path).empty());  // listed in kernels/kernel_files.cmake
  }
  // And nothing runs that the table does not list.
  for (const auto& [name, runner] : scenario_runners()) {
    INFO(name);
    CHECK(find_scenario(name) != nullptr);
  }
}

TEST_CASE("every dtype a scenario offers runs on the CPU backend", "[scenario][declaration][dtype]") {
  for (const ScenarioSpec& spec : scenario_specs()) {
    const ParamSpec* dtype = spec.find_param("dtype");
    if (!dtype) continue;
    CHECK(dtype->default_value == dtype->choices.front());
    for (const std::string& choice : dtype->choices) {
      INFO(spec.name << " dtype=" << choice);
      std::vector<std::pair<std::string, std::string>> sets{{"dtype", choice}};
      if (spec.find_param("n")) sets.emplace_back("n", "64");  // small, and a multiple of 32 for transpose
      const Trace t = run_scenario_cpu(resolve(spec.name, sets), emu::RecordFilter{});
      CHECK(t.meta.dtype == parse_dtype(choice));
    }
  }
}

TEST_CASE("a dtype without host code is an error naming the scenario and its dtypes", "[scenario][declaration][dtype]") {
  // Prepare: a resolved run whose dtype the scenario's host code does not take
  // (a hand-made request; resolve_scenario itself refuses it by the choices).
  ResolvedScenario r = resolve("warp_max");
  r.dtype = DType::I32;
  // Run / Verify: an error, never a run in f32.
  CHECK_THROWS_MATCHES(run_scenario_cpu(r, emu::RecordFilter{}), ScenarioError,
                       Catch::Matchers::Message("warp_max: dtype i32 has no host code; it runs f32"));
  ResolvedScenario shfl = resolve("shfl");
  shfl.dtype = DType::U64;
  CHECK_THROWS_WITH(run_scenario_cpu(shfl, emu::RecordFilter{}),
                    Catch::Contains("shfl") && Catch::Contains("u64") && Catch::Contains("i32, u32, f32, f64"));
  CHECK_THROWS_WITH(resolve("warp_max", {{"dtype", "i32"}}), Catch::Contains("valid values are f32"));
}

TEST_CASE("run<T...> declares the dtype parameter and dispatches on it", "[scenario][declaration][dtype]") {
  // Prepare: a declaration that is never registered.
  std::vector<DType> ran;
  ScenarioDeclaration decl("not_registered", 1);
  decl.run<int, double>([&ran](Session& s, auto value) {
    ran.push_back(ValueBits<typename decltype(value)::type>::dtype);
    CHECK(s.dtype() == ran.back());
  });
  const ParamSpec* dtype = decl.spec().find_param("dtype");
  REQUIRE(dtype != nullptr);
  CHECK(dtype->kind == ParamKind::Choice);
  CHECK(dtype->choices == std::vector<std::string>{"i32", "f64"});
  CHECK(dtype->default_value == "i32");

  // Run: each dtype it takes, then one it does not.
  ResolvedScenario r;
  Trace trace;
  const emu::RecordFilter filter;
  for (DType t : {DType::F64, DType::I32}) {
    r.dtype = t;
    Session session(r, filter, trace);
    decl.runner()(session);
  }
  r.dtype = DType::F32;
  Session f32_session(r, filter, trace);

  // Verify
  CHECK(ran == std::vector<DType>{DType::F64, DType::I32});
  CHECK_THROWS_MATCHES(decl.runner()(f32_session), ScenarioError,
                       Catch::Matchers::Message("not_registered: dtype f32 has no host code; it runs i32, f64"));
}

TEST_CASE("a scenario name is declared once", "[scenario][declaration]") {
  const size_t count = scenario_specs().size();
  ScenarioSpec again = *find_scenario("warp_sum");
  again.summary = "the same file compiled for the other backend";
  register_scenario(again);  // ignored: the first registration stays
  CHECK(scenario_specs().size() == count);
  CHECK(find_scenario("warp_sum")->summary != again.summary);

  ScenarioSpec other = again;
  other.source_path = "my_kernels/warp_sum.cu";
  CHECK_THROWS_WITH(register_scenario(other),
                    Catch::Contains("'warp_sum' is declared twice") && Catch::Contains("my_kernels/warp_sum.cu"));
  CHECK(scenario_specs().size() == count);
}

TEST_CASE("the views' traits come from the declarations", "[scenario][declaration][view]") {
  for (const ScenarioSpec& spec : scenario_specs()) {
    INFO(spec.name);
    const ScenarioTraits& t = scenario_traits(spec.name);
    const bool tile = spec.name == "bank" || spec.name == "transpose";
    CHECK(t.shows_tile == tile);
    CHECK(t.pad_param == (tile ? "cols" : ""));
    if (tile) CHECK(spec.find_param("cols") != nullptr);
    CHECK(t.block_reduction == (spec.name == "reduce_sum" || spec.name == "reduce_int"));
    CHECK(t.compaction == (spec.name == "compact"));
    CHECK(t.times_bank_cost == (spec.name == "bank"));
  }
  // A trace of no registered scenario (a user's kernel) gets no traits.
  const ScenarioTraits& none = scenario_traits("user:my_kernel");
  CHECK_FALSE(none.shows_tile);
  CHECK(none.pad_param.empty());
  CHECK_FALSE(none.block_reduction);
  CHECK_FALSE(none.compaction);
}
