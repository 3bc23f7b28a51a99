// The Cost panel's content (view/cost_view.h): a step's op against the
// measured figures, shared steps as wavefronts x cost, reductions against CUB.
#include <catch2/catch.hpp>

#include "warpviz/backends.h"
#include "warpviz/scenario.h"
#include "warpviz/view/cost_view.h"

using namespace warpviz;

namespace {

Measurements figures() {
  Measurements m;
  LatencyBenchmark l;
  l.on = {"NVIDIA H200", "580.95.05", "13.0", 132, "2026-12-01", "warpviz-cli bench latency"};
  l.ops = {{"shfl.down", "", "", 24, 24, 0.5},
           {"vote.any", "", "", 10, 10, 0.5},
           {"ld.shared", "conflict-free", "", 30, 30, 1},
           {"ld.shared", "32-way conflict", "", 92, 92, 0.03},
           {"st.shared", "conflict-free", "", 20, 50, 1}};
  m.latency = l;
  ReduceBenchmark r;
  r.on = l.on;
  r.copy_gb_per_s = 4000;
  r.hbm_peak_gb_per_s = 4800;
  r.timings = {{"a", "tree", "f32", 28, 1, 1, 1, 1000, 0.25, 0.25, true, ""},
               {"e", "CUB", "f32", 28, 0.25, 0.25, 0.25, 4000, 1, 1, true, ""},
               {"a", "tree", "i32", 28, 1, 1, 1, 900, 0.2, 0.2, true, ""},
               {"a", "tree", "f32", 20, 1, 1, 1, 10, 0.01, 0.1, true, ""}};
  m.reduce = r;
  return m;
}

Trace run(const std::string& scenario, std::vector<std::pair<std::string, std::string>> params = {}) {
  return run_scenario_cpu(resolve_scenario({scenario, std::move(params), "iota"}), emu::RecordFilter{});
}

size_t first_step(const Trace& t, Op op) {
  for (size_t i = 0; i < t.steps.size(); ++i)
    if (t.steps[i].op == op) return i;
  FAIL("no step of that op");
  return 0;
}

}  // namespace

TEST_CASE("a shuffle step shows its measured latency beside shared memory's", "[view][cost]") {
  const Trace t = run("warp_sum");
  const view::CostView v = view::cost_view(figures(), "shipped", t, first_step(t, Op::ShflDown), view::Language::English);
  CHECK(v.measured);
  CHECK(v.op == "shfl.down");
  REQUIRE(v.rows.size() == 3);
  CHECK(v.rows[0].label == "shfl.down");
  CHECK(v.rows[0].current);
  CHECK(v.rows[0].latency_cycles == 24);
  CHECK(v.rows[1].label == "ld.shared (conflict-free)");
  CHECK_FALSE(v.rows[1].current);
  CHECK(v.source.find("NVIDIA H200") != std::string::npos);
  CHECK(v.source.find("shipped") != std::string::npos);
  CHECK(v.bars.empty());  // not a reduction over a block
}

TEST_CASE("vote.all is costed as the VOTE instruction it is", "[view][cost]") {
  const Trace t = run("vote");
  const view::CostView v = view::cost_view(figures(), "shipped", t, first_step(t, Op::All), view::Language::English);
  CHECK(v.measured);
  CHECK(v.rows[0].label == "vote.any");
  CHECK(v.message.find("vote.any") != std::string::npos);
}

TEST_CASE("a shared step costs its wavefronts", "[view][cost]") {
  // 32 lanes down one column of a 32-wide tile: one bank, 32 words, 32 wavefronts.
  const Trace t = run("bank", {{"pattern", "column"}, {"cols", "32"}});
  const size_t load = first_step(t, Op::LoadShared);
  const view::CostView v = view::cost_view(figures(), "shipped", t, load, view::Language::English);
  REQUIRE(v.shared);
  CHECK(v.wavefronts == 32);
  CHECK(v.cycles_per_extra_wavefront == Approx((92.0 - 30.0) / 31.0));
  CHECK(v.estimated_cycles == Approx(92.0));
  // Padding the row to 33 words spreads the column over every bank: one wavefront.
  const Trace padded = run("bank", {{"pattern", "column"}, {"cols", "33"}});
  const view::CostView p =
      view::cost_view(figures(), "shipped", padded, first_step(padded, Op::LoadShared), view::Language::English);
  CHECK(p.wavefronts == 1);
  CHECK(p.estimated_cycles == Approx(30.0));
}

TEST_CASE("the reductions show every variant against CUB at the largest size", "[view][cost]") {
  const Trace t = run("reduce_sum");
  const view::CostView v = view::cost_view(figures(), "shipped", t, 0, view::Language::English);
  REQUIRE(v.bars.size() == 2);  // f32 at 2^28: a and e
  CHECK(v.bars_title == "f32, 2^28");
  CHECK(v.bars[1].is_cub);
  CHECK(v.copy_gb_per_s == 4000);
  const Trace ints = run("reduce_int");
  CHECK(view::cost_view(figures(), "shipped", ints, 0, view::Language::English).bars.size() == 1);
  // Each bar says in words what it is: the letters meant something only on hover.
  CHECK(v.bars[0].label == "shared-memory tree");
  CHECK(v.bars[1].label == "CUB");
}

TEST_CASE("a reduction bar is labelled in words in either language", "[view][cost]") {
  using view::Language;
  CHECK(view::bar_label("b", "anything", Language::English) == "warp shuffles");
  CHECK(view::bar_label("b", "anything", Language::Chinese) == "warp shuffle");
  CHECK(view::bar_label("d-stride", "", Language::English) == "grid-stride loads");
  // A variant a newer benchmark adds: its description's first part, else its letter.
  CHECK(view::bar_label("f", "two-pass tree, 4 per thread", Language::English) == "two-pass tree");
  CHECK(view::bar_label("f", "", Language::English) == "f");
  // Every shipped variant has words, not its letter.
  const Measurements shipped = read_measurements(std::string(WARPVIZ_SOURCE_DIR) + "/assets/measurements/h200.json");
  REQUIRE(shipped.reduce);
  for (const ReduceTiming& t : shipped.reduce->timings) {
    const std::string label = view::bar_label(t.variant, t.description, Language::English);
    CHECK(label != t.variant);
  }
}

TEST_CASE("without figures the panel says so", "[view][cost]") {
  const Trace t = run("warp_sum");
  const view::CostView v = view::cost_view(Measurements{}, "shipped", t, 0, view::Language::Chinese);
  CHECK_FALSE(v.measured);
  CHECK(v.message == "没有载入测量数据。");
  Measurements only_reduce = figures();
  only_reduce.latency.reset();
  CHECK(view::cost_view(only_reduce, "shipped", t, 0, view::Language::English).message.find("no op latencies") !=
        std::string::npos);
}
