// Every built-in scenario run on the CPU emulator: the steps and per-lane values
// a student would check by hand, and the measured cases of docs/warp-rules.md#cases that go
// through a scenario. Expected values come from the semantics doc (measured on
// an H200) or from small independent reference loops written here.
#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "warpviz/backends.h"
#include "warpviz/bank_model.h"
#include "warpviz/input_spec.h"
#include "warpviz/scenario.h"
#include "warpviz/trace_diff.h"
#include "warpviz/testing.h"
#include "warpviz/trace_io.h"
#include "warpviz/warp_paths.h"
#include "warpviz/warp_rules.h"

using namespace warpviz;
using testing::HasBankCost;
using testing::HasStepCount;
using testing::ReadSources;
using testing::Recording;
using testing::record_scenario;
using testing::SuppliedValue;

namespace {

Trace run(const std::string& scenario, std::vector<std::pair<std::string, std::string>> sets = {},
          const std::string& input = "") {
  const ResolvedScenario r = resolve_scenario({scenario, std::move(sets), input});
  return run_scenario_cpu(r, emu::RecordFilter{});
}

uint32_t f32_bits(float f) { return std::bit_cast<uint32_t>(f); }
float as_f32(uint64_t bits) { return std::bit_cast<float>(uint32_t(bits)); }
int32_t as_i32(uint64_t bits) { return int32_t(uint32_t(bits)); }

std::vector<uint64_t> out_bits(const Trace& t, const std::string& name = "out") {
  const TraceOutput* o = t.output(name);
  REQUIRE(o != nullptr);
  return o->bits;
}

std::vector<int64_t> out_ints(const Trace& t, const std::string& name = "out") {
  std::vector<int64_t> v;
  for (uint64_t b : out_bits(t, name)) v.push_back(as_i32(b));
  return v;
}

// Lane results of a single-shuffle run of the playground, as ints.
std::vector<int64_t> shfl(std::vector<std::pair<std::string, std::string>> sets) {
  return out_ints(run("shfl", std::move(sets)));
}

std::vector<int64_t> repeat_each(std::initializer_list<int64_t> values, int times) {
  std::vector<int64_t> v;
  for (int64_t x : values)
    for (int i = 0; i < times; ++i) v.push_back(x);
  return v;
}

std::vector<int64_t> lanes(std::initializer_list<std::vector<int64_t>> parts) {
  std::vector<int64_t> v;
  for (const auto& p : parts) v.insert(v.end(), p.begin(), p.end());
  return v;
}

std::vector<int64_t> range(int64_t first, int64_t last) {  // inclusive
  std::vector<int64_t> v;
  for (int64_t x = first; x <= last; ++x) v.push_back(x);
  return v;
}

// The trace without its watch steps (WARPVIZ_WATCH): the warp ops alone, seq as recorded.
Trace without_watches(Trace t) {
  TraceSteps kept;
  for (const TraceStep& s : t.steps)
    if (!op_is_watch(s.op)) kept.push_back(s);
  t.steps = std::move(kept);
  return t;
}

// The 1-based line of the first occurrence of `text` in the trace's kernel source.
uint32_t source_line_of(const Trace& t, const std::string& text) {
  const size_t pos = t.meta.source_text.find(text);
  REQUIRE(pos != std::string::npos);
  return uint32_t(std::count(t.meta.source_text.begin(), t.meta.source_text.begin() + long(pos), '\n') + 1);
}

std::string values_list(const std::vector<std::string>& items) {
  std::string s = "values:";
  for (size_t i = 0; i < items.size(); ++i) s += (i ? "," : "") + items[i];
  return s;
}

}  // namespace

// ---------------------------------------------------------------------------
// The seed demo: warp_sum, warp_sum_xor, warp_max, test_shuffle, reduce_sum
// ---------------------------------------------------------------------------

TEST_CASE("warp_sum over lane ids: offsets 16..1, sources, partial sums", "[scenario][warp_sum]") {
  const Trace recorded = run("warp_sum");
  REQUIRE(recorded.steps.size() == 10);  // five shuffles, each followed by a watch of val
  const Trace t = without_watches(recorded);
  REQUIRE(t.meta.backend == "cpu");
  REQUIRE(t.meta.source_path == "kernels/warp_shuffle.cu");
  REQUIRE(t.meta.source_text.find("__shfl_down_sync(0xFFFFFFFF, val, offset)") != std::string::npos);
  REQUIRE(t.steps.size() == 5);
  const int64_t offsets[] = {16, 8, 4, 2, 1};
  for (int s = 0; s < 5; ++s) {
    const TraceStep& step = t.steps[s];
    CHECK(step.op == Op::ShflDown);
    CHECK(step.args.b == offsets[s]);
    CHECK(step.args.width == 32);
    CHECK(step.args.c == 0x1f);
    CHECK(step.mask == 0xffffffffu);
    CHECK(step.seq == uint32_t(2 * s));  // the watch after it is seq 2 s + 1
    for (int lane = 0; lane < 32; ++lane) {
      const LaneRecord& l = step.lanes[lane];
      CHECK(l.active());
      const bool in_range = lane + offsets[s] < 32;
      CHECK(l.ok() == in_range);
      CHECK(l.src == (in_range ? lane + offsets[s] : lane));
      CHECK(l.out == step.lanes[l.src].in);
    }
  }
  // The source line of every step is the shuffle's line in the kernel file.
  const size_t pos = t.meta.source_text.find("val += __shfl_down_sync(0xFFFFFFFF, val, offset);");
  const uint32_t line = uint32_t(std::count(t.meta.source_text.begin(), t.meta.source_text.begin() + long(pos), '\n') + 1);
  CHECK(t.steps[0].line == line);

  // After the offset-16 step, lane i < 16 holds i + (i + 16): the next step's input.
  for (int lane = 0; lane < 16; ++lane) CHECK(as_f32(t.steps[1].lanes[lane].in) == float(lane + lane + 16));
  // Upper lanes re-added their own value: lane 31 holds 62 after the first step.
  CHECK(as_f32(t.steps[1].lanes[31].in) == 62.0f);
  const auto& out = out_bits(t);
  REQUIRE(out.size() == 32);
  CHECK(as_f32(out[0]) == 496.0f);
  // case 27 of docs/warp-rules.md#cases (f32 here): lane l ends at 496 + 16 l.
  for (int lane = 0; lane < 32; ++lane) CHECK(out[lane] == f32_bits(float(496 + 16 * lane)));
}

TEST_CASE("warp_sum watches val after each round: lane 0 holds 16, 48, 112, 240, 496", "[scenario][warp_sum][watch]") {
  const Trace t = run("warp_sum", {}, "iota");
  const Recording rec(t);
  const testing::StepQuery watches = rec.steps().watch("val");
  REQUIRE_THAT(watches, HasStepCount(5));
  REQUIRE_THAT(rec.steps().watches(), HasStepCount(5));  // no other name
  const uint32_t line = source_line_of(t, "WARPVIZ_WATCH(val);");
  const float lane0[] = {16, 48, 112, 240, 496};
  for (size_t k = 0; k < 5; ++k) {
    INFO("watch " << k);
    const TraceStep& w = watches.nth(k).step();
    CHECK(w.op == Op::Watch);
    CHECK(watch_name(w.args) == "val");
    CHECK(w.line == line);
    CHECK(w.dtype == DType::F32);
    CHECK(w.mask == 0xffffffffu);  // every lane is converged in the loop
    CHECK(w.seq == uint32_t(2 * k + 1));  // right after its round's shuffle
    CHECK(as_f32(w.lanes[0].out) == lane0[k]);
    // Each lane's watched value is what its shuffle gave it added to its own:
    // the in + out of the round before, and the in of the round after.
    const TraceStep& shuffle = t.steps[2 * k];
    REQUIRE(shuffle.op == Op::ShflDown);
    for (int lane = 0; lane < 32; ++lane) {
      const LaneRecord& l = w.lanes[lane];
      CHECK(l.active());
      CHECK(l.ok());
      CHECK_FALSE(l.undefined());
      CHECK(l.src == -1);
      CHECK(l.in == l.out);
      CHECK(as_f32(l.out) == as_f32(shuffle.lanes[lane].in) + as_f32(shuffle.lanes[lane].out));
      if (k + 1 < 5) CHECK(l.out == t.steps[2 * k + 2].lanes[lane].in);
    }
  }
  // The last watch is the kernel's output, lane by lane.
  CHECK(watches.nth(4).step().lanes[31].out == out_bits(t)[31]);

  // i32 too: the dtype follows the variable's type.
  const Recording ints = record_scenario("warp_sum", {{"dtype", "i32"}});
  REQUIRE_THAT(ints.steps().watch("val"), HasStepCount(5));
  CHECK(ints.steps().watch("val").nth(4).step().dtype == DType::I32);
  CHECK(as_i32(ints.steps().watch("val").nth(4).step().lanes[0].out) == 496);
}

TEST_CASE("warp_sum_xor's last watch holds 496 in every lane", "[scenario][warp_sum][watch]") {
  for (const char* dtype : {"f32", "i32"}) {
    INFO("dtype " << dtype);
    const Trace t = run("warp_sum_xor", {{"dtype", dtype}}, "iota");
    const Recording rec(t);
    const testing::StepQuery watches = rec.steps().watch("val");
    REQUIRE_THAT(watches, HasStepCount(5));
    const TraceStep& last = watches.nth(4).step();
    CHECK(last.mask == 0xffffffffu);
    for (int lane = 0; lane < 32; ++lane) {
      const uint64_t v = last.lanes[lane].out;
      CHECK((std::string(dtype) == "f32" ? double(as_f32(v)) : double(as_i32(v))) == 496.0);
    }
    // The first round pairs lanes l and l ^ 1: lane 0 holds 0 + 1.
    const uint64_t first = watches.nth(0).step().lanes[0].out;
    CHECK((std::string(dtype) == "f32" ? double(as_f32(first)) : double(as_i32(first))) == 1.0);
  }
}

TEST_CASE("the built-in reductions watch their running value", "[scenario][watch]") {
  struct Expected {
    const char* scenario;
    const char* name;
    size_t watches;  // in block 0, warp 0
  };
  // warp_max: five rounds; reduce_sum/reduce_int: five per level, two levels in
  // warp 0; cg_reduce: the reduction's result, once.
  for (const Expected& e : {Expected{"warp_max", "val", 5}, Expected{"reduce_sum", "val", 10},
                            Expected{"reduce_int", "value", 10}, Expected{"cg_reduce", "v", 1}}) {
    INFO(e.scenario);
    const Trace t = run(e.scenario);
    const Recording rec(t);
    CHECK_THAT(rec.steps().block(0).warp(0).watch(e.name), HasStepCount(e.watches));
    // Watching changes nothing else: the warp ops are those of the kernel.
    for (const TraceStep& s : t.steps)
      if (op_is_watch(s.op)) CHECK(watch_name(s.args) == e.name);
  }
  // warp_max's last watch is its output.
  const Trace max = run("warp_max", {}, "random:3");
  const Recording rec(max);
  for (int lane = 0; lane < 32; ++lane)
    CHECK(rec.steps().watch("val").nth(4).step().lanes[lane].out == out_bits(max)[size_t(lane)]);
}

TEST_CASE("warp_sum i32 and warp_sum_xor: case 27", "[scenario][warp_sum][semantics]") {
  const auto down = out_ints(run("warp_sum", {{"dtype", "i32"}}));
  for (int lane = 0; lane < 32; ++lane) CHECK(down[lane] == 496 + 16 * lane);
  const Recording x = record_scenario("warp_sum_xor", {{"dtype", "i32"}});
  REQUIRE_THAT(x.steps(), HasStepCount(10));  // with a watch of val after each
  REQUIRE_THAT(x.steps().op(Op::ShflXor), HasStepCount(5));
  for (int s = 0; s < 5; ++s) {
    CHECK(x.steps().shuffles().nth(size_t(s)).step().args.b == (1 << s));
    std::vector<int> partners(32);
    for (int lane = 0; lane < 32; ++lane) partners[size_t(lane)] = lane ^ (1 << s);
    CHECK_THAT(x.steps().shuffles().nth(size_t(s)), ReadSources(partners));
  }
  for (int v : x.output("out").as<int>()) CHECK(v == 496);
}

TEST_CASE("float reduction order: the 1e8 example and case 28", "[scenario][warp_sum][float][semantics]") {
  std::vector<std::string> items;
  for (int lane = 0; lane < 32; ++lane)
    items.push_back(lane == 0 ? "1e8" : lane == 17 ? "-1e8" : (lane % 2) ? "1" : "0.3");
  const std::string input = values_list(items);
  const auto& down = out_bits(run("warp_sum", {}, input));
  CHECK(down[0] == 0x41000000u);
  CHECK(down[31] == 0x42000000u);
  // The doc's butterfly runs 16 -> 1, as cg::reduce does.
  for (uint64_t b : out_bits(run("cg_reduce", {}, input))) CHECK(b == 0x41000000u);
  // The seed's warp_sum_xor runs 1 -> 16: another tree, another rounding. A plain
  // float butterfly in that order (no NaNs here, so host floats are exact) agrees.
  std::vector<float> ref(32);
  for (int lane = 0; lane < 32; ++lane) ref[lane] = lane == 0 ? 1e8f : lane == 17 ? -1e8f : (lane % 2) ? 1.0f : 0.3f;
  for (int m = 1; m < 32; m <<= 1) {
    std::vector<float> next(32);
    for (int lane = 0; lane < 32; ++lane) next[lane] = ref[lane] + ref[lane ^ m];
    ref = next;
  }
  CHECK(ref[0] == 16.0f);
  for (uint64_t b : out_bits(run("warp_sum_xor", {}, input))) CHECK(b == f32_bits(ref[0]));
}

TEST_CASE("warp_max follows a shfl_down fmaxf tree", "[scenario][warp_max]") {
  const std::string input = "random:5";
  const ResolvedScenario r = resolve_scenario({"warp_max", {}, input});
  std::vector<float> ref(32);
  for (int i = 0; i < 32; ++i) ref[i] = as_f32(r.input_bits[i]);
  for (int offset = 16; offset > 0; offset >>= 1) {
    std::vector<float> next = ref;
    for (int lane = 0; lane < 32; ++lane) next[lane] = std::max(ref[lane], lane + offset < 32 ? ref[lane + offset] : ref[lane]);
    ref = next;
  }
  const Trace t = without_watches(run("warp_max", {}, input));
  REQUIRE(t.steps.size() == 5);
  const auto& out = out_bits(t);
  for (int lane = 0; lane < 32; ++lane) CHECK(as_f32(out[lane]) == ref[lane]);
  CHECK(as_f32(out[0]) == *std::max_element(ref.begin(), ref.end()));
}

TEST_CASE("warp_max: fmaxf drops one NaN, two NaNs give the canonical NaN", "[scenario][warp_max][float]") {
  std::string input = "bits:";
  for (int lane = 0; lane < 32; ++lane) input += std::string(lane ? "," : "") + (lane == 16 ? "0x7fc00001" : "0x3f800000");
  const Trace t = without_watches(run("warp_max", {}, input));
  // Offset 16: lane 0 meets lane 16's NaN and keeps 1.0; lane 16 is out of range,
  // reads itself, and fmaxf(NaN, NaN) gives 0x7fffffff (sm_90 FMNMX).
  CHECK(t.steps[1].lanes[0].in == 0x3f800000u);
  CHECK(t.steps[1].lanes[16].in == 0x7fffffffu);
  const auto& out = out_bits(t);
  CHECK(out[0] == 0x3f800000u);
  CHECK(out[16] == 0x3f800000u);  // offset 8 brought lane 24's 1.0
}

TEST_CASE("test_shuffle: lane 0 is 2.0 on the hardware, not the seed's 1.0", "[scenario][test_shuffle][seed]") {
  const Trace t = run("test_shuffle");
  const auto& out = out_bits(t);
  CHECK(as_f32(out[0]) == 2.0f);
  CHECK(as_f32(out[5]) == 10.0f);
  CHECK(as_f32(out[31]) == 61.0f);  // down keeps its own 31, xor reads 30
  REQUIRE(t.steps.size() == 2);
  CHECK(t.steps[0].op == Op::ShflDown);
  CHECK(t.steps[1].op == Op::ShflXor);
  const auto claims = check_seed_claims(*find_scenario("test_shuffle"), t);
  REQUIRE(claims.size() == 2);
  CHECK_FALSE(claims[0].holds);
  CHECK(claims[0].actual == "2");
  CHECK(claims[1].holds);
}

TEST_CASE("reduce_sum: per-block partial sums, two warp_sum rounds in warp 0", "[scenario][reduce_sum]") {
  const Trace t = run("reduce_sum", {{"n", "1000"}, {"block", "256"}});
  CHECK(t.meta.grid.x == 4);
  CHECK(t.meta.block.x == 256);
  const auto& out = out_bits(t);
  REQUIRE(out.size() == 4);
  CHECK(as_f32(out[0]) == 256.0f);
  CHECK(as_f32(out[3]) == 232.0f);  // 1000 - 768 elements in the last block
  // Per block: 8 warps x (5 shuffles, each followed by a watch of val, and lane
  // 0's warpSums store), plus warp 0's load of the slots and its second
  // warp_sum with its watches.
  const Recording rec(t);
  CHECK_THAT(rec.steps(), HasStepCount(4 * (8 * 11 + 1 + 10)));
  CHECK_THAT(rec.steps().shuffles(), HasStepCount(4 * 45));
  CHECK_THAT(rec.steps().watch("val"), HasStepCount(4 * 45));
  CHECK_THAT(rec.steps().block(1).warp(0), HasStepCount(22));
  CHECK_THAT(rec.steps().block(1).warp(7), HasStepCount(11));
  CHECK_THAT(rec.steps().op(Op::StoreShared), HasStepCount(4 * 8));
  CHECK_THAT(rec.steps().op(Op::LoadShared), HasStepCount(4));
  // Steps are ordered block, warp, seq.
  for (size_t i = 1; i < t.steps.size(); ++i) {
    const TraceStep& a = t.steps[i - 1];
    const TraceStep& b = t.steps[i];
    CHECK(std::make_tuple(a.block, a.warp, a.seq) < std::make_tuple(b.block, b.warp, b.seq));
  }
  // Lane 0 of warp 3 writes its sum to smem[3]; warp 0's lanes 0..7 read the slots back.
  const testing::StepRef store = rec.steps().block(0).warp(3).op(Op::StoreShared).nth(0);
  CHECK(store.active_lanes() == 1u);
  CHECK_THAT(store.lane(0), SuppliedValue<float>(32.0f));
  CHECK(store.step().lanes[0].addr == 3 * sizeof(float));
  const testing::StepRef load = rec.steps().block(0).warp(0).op(Op::LoadShared).nth(0);
  CHECK(load.active_lanes() == 0xffu);
  // Warp 0's second round starts from the 8 warp sums (lanes 0..7) and zeros.
  const testing::StepRef second = rec.steps().block(0).warp(0).shuffles().nth(5);
  REQUIRE(second.seq() == 12);  // 5 shuffles and 5 watches, the store, the load
  for (int lane = 0; lane < 32; ++lane) CHECK_THAT(second.lane(lane), SuppliedValue<float>(lane < 8 ? 32.0f : 0.0f));
}

TEST_CASE("reduce_sum record filter keeps the chosen warps only", "[scenario][reduce_sum][record]") {
  const ResolvedScenario r = resolve_scenario({"reduce_sum", {{"n", "4096"}}, ""});
  emu::RecordFilter filter;
  filter.blocks = {2};
  filter.warps = {0, 3};
  const Trace t = run_scenario_cpu(r, filter);
  CHECK(t.steps.size() == 22 + 11);  // warp 0: 10 + store + load + 10; warp 3: 10 + store
  for (const TraceStep& s : t.steps) {
    CHECK(s.block == 2);
    CHECK((s.warp == 0 || s.warp == 3));
  }
  filter.max_steps = 4;
  const Trace capped = run_scenario_cpu(r, filter);
  CHECK(capped.steps.size() == 4);
  CHECK(capped.overflow);
}

// ---------------------------------------------------------------------------
// The article: reduce_int, vote, compact, cooperative groups
// ---------------------------------------------------------------------------

TEST_CASE("reduce_int: block sums, and only lane 0 holds the warp total", "[scenario][reduce_int][seed]") {
  const Trace t = run("reduce_int", {{"n", "1024"}, {"block", "256"}});
  const auto out = out_ints(t);
  REQUIRE(out.size() == 4);
  for (int b = 0; b < 4; ++b) {
    int64_t expected = 0;
    for (int i = b * 256; i < (b + 1) * 256; ++i) expected += i;
    CHECK(out[b] == expected);
  }
  const auto warp_result = out_ints(t, "warp_result");
  CHECK(warp_result[0] == 496);
  CHECK(warp_result[31] == 31 * 32);  // lane 31 is out of range at every offset: it doubles five times
  const auto claims = check_seed_claims(*find_scenario("reduce_int"), t);
  REQUIRE(claims.size() == 1);
  CHECK_FALSE(claims[0].holds);
}

TEST_CASE("vote: ballot, any, all, ffs - 1 and popc of value > 0", "[scenario][vote]") {
  const ResolvedScenario r = resolve_scenario({"vote", {}, "random:3"});
  uint32_t expected_ballot = 0;
  for (int lane = 0; lane < 32; ++lane)
    if (as_i32(r.input_bits[lane]) > 0) expected_ballot |= 1u << lane;
  const Trace t = run("vote", {}, "random:3");
  for (int64_t b : out_ints(t)) CHECK(uint32_t(b) == expected_ballot);
  for (int64_t v : out_ints(t, "any")) CHECK(v == (expected_ballot != 0));
  for (int64_t v : out_ints(t, "all")) CHECK(v == (expected_ballot == 0xffffffffu));
  for (int64_t v : out_ints(t, "first")) CHECK(v == std::countr_zero(expected_ballot));
  for (int64_t v : out_ints(t, "count")) CHECK(v == std::popcount(expected_ballot));
  REQUIRE(t.steps.size() == 3);
  CHECK(t.steps[0].op == Op::Any);
  CHECK(t.steps[1].op == Op::All);
  CHECK(t.steps[2].op == Op::Ballot);
}

TEST_CASE("vote: case 21", "[scenario][vote][semantics]") {
  std::vector<std::string> thirds, raw;
  for (int lane = 0; lane < 32; ++lane) {
    thirds.push_back(lane % 3 == 0 ? "1" : "0");
    raw.push_back(lane % 2 ? "-1" : lane == 4 ? "2" : "0");
  }
  CHECK(uint32_t(out_ints(run("vote", {}, values_list(thirds)))[0]) == 0x49249249u);
  // Any non-zero predicate counts: -1 and 2 set their bits.
  CHECK(uint32_t(out_ints(run("vote", {{"predicate", "raw"}}, values_list(raw)))[7]) == 0xaaaaaabau);
  // With value > 0 (the article's predicate) -1 is false.
  CHECK(uint32_t(out_ints(run("vote", {}, values_list(raw)))[7]) == 0x00000010u);
}

TEST_CASE("vote with a partial mask: lanes outside do not vote", "[scenario][vote]") {
  const Trace t = run("vote", {{"mask", "0x0000ffff"}}, "ones");
  const auto ballot = out_ints(t);
  CHECK(uint32_t(ballot[0]) == 0x0000ffffu);
  CHECK(ballot[20] == 0);  // never written
  CHECK(out_ints(t, "all")[0] == 1);
  for (int lane = 16; lane < 32; ++lane) CHECK_FALSE(t.steps[2].lanes[lane].active());
}

TEST_CASE("compact: kept lanes land at popc of the kept lanes below", "[scenario][compact]") {
  const ResolvedScenario r = resolve_scenario({"compact", {}, ""});
  std::vector<int64_t> kept;
  for (uint64_t b : r.input_bits)
    if (as_i32(b) != 0) kept.push_back(as_i32(b));
  const Trace t = run("compact");
  const auto out = out_ints(t), slot = out_ints(t, "slot"), count = out_ints(t, "count");
  for (size_t i = 0; i < kept.size(); ++i) CHECK(out[i] == kept[i]);
  int below = 0;
  for (int lane = 0; lane < 32; ++lane) {
    const bool keep = as_i32(r.input_bits[lane]) != 0;
    CHECK(slot[lane] == (keep ? below : -1));
    CHECK(count[lane] == int64_t(kept.size()));
    below += keep;
  }
}

TEST_CASE("cg_reduce: tile shfl_down, xor butterfly for floats, redux for ints", "[scenario][cg]") {
  const Trace watched = run("cg_reduce");
  REQUIRE(watched.steps.size() == 7);
  CHECK(watched.steps[6].op == Op::Watch);  // WARPVIZ_WATCH(v) after the reduction
  const Trace f = without_watches(watched);
  REQUIRE(f.steps.size() == 6);
  CHECK(f.steps[0].op == Op::ShflDown);
  for (int s = 1; s < 6; ++s) {
    CHECK(f.steps[s].op == Op::ShflXor);
    CHECK(f.steps[s].args.b == (16 >> (s - 1)));
    CHECK(f.steps[s].args.width == 32);
  }
  for (uint64_t b : out_bits(f)) CHECK(as_f32(b) == 496.0f);
  const auto down = out_bits(f, "shfl_down");
  for (int lane = 0; lane < 32; ++lane) CHECK(as_f32(down[lane]) == float(lane < 31 ? lane + 1 : 31));

  const Trace i = without_watches(run("cg_reduce", {{"dtype", "i32"}}));
  REQUIRE(i.steps.size() == 2);
  CHECK(i.steps[1].op == Op::ReduxAdd);
  for (int64_t v : out_ints(i)) CHECK(v == 496);
}

TEST_CASE("cg_reduce with cg::less: case 29, non-uniform lanes", "[scenario][cg][semantics]") {
  std::vector<std::string> bits;
  for (int lane = 0; lane < 32; ++lane) {
    std::string b;
    if (lane == 3) b = "0x7fc00001";
    else if (lane == 26) b = "0x7fc00000";
    else if (lane == 9) b = "0x00000000";
    else if (lane == 20) b = "0x80000000";
    else {
      char buf[16];
      std::snprintf(buf, sizeof buf, "0x%08x", f32_bits(-float(lane + 100)));
      b = buf;
    }
    bits.push_back(b);
  }
  std::string input = "bits:";
  for (size_t k = 0; k < bits.size(); ++k) input += (k ? "," : "") + bits[k];
  const auto& out = out_bits(run("cg_reduce", {{"op", "less"}}, input));
  for (int lane = 0; lane < 32; ++lane) {
    if (lane == 3) CHECK(out[lane] == 0x7fc00001u);
    else if (lane == 26) CHECK(out[lane] == 0x7fc00000u);
    else if (lane <= 2) CHECK(as_f32(out[lane]) == -130.0f);
    else CHECK(as_f32(out[lane]) == -131.0f);
  }
}

TEST_CASE("cg_scan: case 30, exclusive scans over tiles of 8", "[scenario][cg][semantics]") {
  const Trace f = run("cg_scan", {{"tile", "8"}}, "random:4");
  const auto& in = resolve_scenario({"cg_scan", {{"tile", "8"}}, "random:4"}).input_bits;
  const auto& ex = out_bits(f);
  const auto& inc = out_bits(f, "inclusive");
  for (int lane = 0; lane < 32; ++lane) {
    const int rank = lane % 8;
    if (rank == 0) CHECK(ex[lane] == 0x00000000u);
    else CHECK(ex[lane] == inc[lane - 1]);
    (void)in;
  }
  const Trace i = run("cg_scan", {{"tile", "8"}, {"dtype", "i32"}}, "random:4");
  const auto iex = out_ints(i), iinc = out_ints(i, "inclusive");
  const auto& iin = resolve_scenario({"cg_scan", {{"dtype", "i32"}}, "random:4"}).input_bits;
  for (int lane = 0; lane < 32; ++lane) {
    CHECK(iex[lane] == iinc[lane] - as_i32(iin[lane]));
    int64_t sum = 0;
    for (int k = lane - lane % 8; k <= lane; ++k) sum += as_i32(iin[k]);
    CHECK(iinc[lane] == sum);
  }
}

TEST_CASE("coalesced: case 31, odd lanes", "[scenario][cg][semantics]") {
  const Trace t = run("coalesced");
  const auto first = out_ints(t), down = out_ints(t, "shfl_down"), up = out_ints(t, "shfl_up"),
             rank = out_ints(t, "rank");
  for (int lane = 1; lane < 32; lane += 2) {
    CHECK(first[lane] == 1);
    CHECK(down[lane] == (lane == 31 ? 31 : lane + 2));
    CHECK(up[lane] == (lane == 1 ? 1 : lane - 2));
    CHECK(rank[lane] == lane / 2);
  }
  CHECK(t.steps[0].op == Op::ActiveMask);
  CHECK(t.steps[0].lanes[1].out == 0xaaaaaaaau);  // case (c) of docs/warp-rules.md#cases: __activemask() in an odd-lane branch
}

// ---------------------------------------------------------------------------
// divergence: two branches, each path's ops over its own mask
// ---------------------------------------------------------------------------

namespace {

// The 1-based line of the kernel source that holds `text` (so no test pins a line number).
uint32_t source_line(const Trace& t, const std::string& text) {
  std::istringstream lines(t.meta.source_text);
  std::string line;
  for (uint32_t n = 1; std::getline(lines, line); ++n)
    if (line.find(text) != std::string::npos) return n;
  FAIL("no line holds " << text);
  return 0;
}

uint32_t lanes_of(const TraceStep& s) {
  uint32_t lanes = 0;
  for (int lane = 0; lane < 32; ++lane) lanes |= uint32_t(s.lanes[lane].active()) << lane;
  return lanes;
}

}  // namespace

TEST_CASE("divergence: which lanes took which path, their masks and ballots", "[scenario][divergence]") {
  // Prepare: the input, and every result worked out here from it.
  const ResolvedScenario r = resolve_scenario({"divergence", {}, ""});
  std::vector<int> v;
  for (uint64_t b : r.input_bits) v.push_back(as_i32(b));
  std::vector<int> neighbour(32);
  uint32_t rising = 0, above = 0;
  for (int lane = 0; lane < 32; ++lane) {
    const int partner = lane & 1 ? lane + 2 : lane ^ 2;   // odd: down 2; even: xor 2
    neighbour[lane] = partner < 32 ? v[partner] : v[lane];  // lane 31 keeps its own
    if (neighbour[lane] > v[lane]) rising |= 1u << lane;
    if (v[lane] > 0) above |= 1u << lane;
  }
  REQUIRE(above != 0);  // the default input takes both sides of the data branch
  REQUIRE(above != 0xffffffffu);

  // Run
  const Trace t = run("divergence");

  // Verify: the outputs.
  const auto out = out_ints(t), parity = out_ints(t, "parity_ballot"), first = out_ints(t, "first"),
             side = out_ints(t, "side_ballot"), got_neighbour = out_ints(t, "neighbour");
  const int first_above = std::countr_zero(above), first_other = std::countr_zero(~above);
  for (int lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane << ", value " << v[lane]);
    const uint32_t path = lane & 1 ? 0xaaaaaaaau : 0x55555555u;
    CHECK(got_neighbour[lane] == neighbour[lane]);
    CHECK(uint32_t(parity[lane]) == (rising & path));  // a path's ballot has its own lanes' bits only
    CHECK(uint32_t(out[lane]) == rising);                // after the join, both paths' bits in one word
    const bool is_above = (above >> lane) & 1u;
    CHECK(first[lane] == v[is_above ? first_above : first_other]);
    uint32_t expected_side = 0;
    for (int other = 0; other < 32; ++other)
      if (((above >> other) & 1u) == is_above && (is_above ? v[other] >= 5 : v[other] == 0)) expected_side |= 1u << other;
    CHECK(uint32_t(side[lane]) == expected_side);
  }

  // Verify: the steps, in the emulator's order. It completes the waiting group
  // of the lowest lane first, so the paths take turns: even, odd, even, odd.
  const uint32_t fork = source_line(t, "const unsigned odd = __ballot_sync(FULL"),
                 odd_shfl = source_line(t, "neighbour = __shfl_down_sync(odd"),
                 even_shfl = source_line(t, "neighbour = __shfl_xor_sync(~odd"),
                 odd_ballot = source_line(t, "parity_ballot = __ballot_sync(odd"),
                 even_ballot = source_line(t, "parity_ballot = __ballot_sync(~odd"),
                 data_fork = source_line(t, "const unsigned above = __ballot_sync(FULL"),
                 join = source_line(t, "const unsigned rising = __ballot_sync(FULL");
  REQUIRE(t.steps.size() == 11);
  const std::vector<std::pair<uint32_t, uint32_t>> expected = {
      {fork, 0xffffffffu},     {even_shfl, 0x55555555u}, {odd_shfl, 0xaaaaaaaau}, {even_ballot, 0x55555555u},
      {odd_ballot, 0xaaaaaaaau}, {data_fork, 0xffffffffu}};
  for (size_t i = 0; i < expected.size(); ++i) {
    INFO("step " << i);
    CHECK(t.steps[i].line == expected[i].first);
    CHECK(t.steps[i].mask == expected[i].second);
    CHECK(lanes_of(t.steps[i]) == expected[i].second);  // the mask is exactly the lanes that ran it
  }
  CHECK(t.steps[0].lanes[7].out == 0xaaaaaaaau);
  CHECK(t.steps[5].lanes[0].out == above);
  // The data branch: the lanes above first (lane 0's group first), each with its mask.
  const uint32_t lowest_side = above & 1u ? above : ~above;
  CHECK(lanes_of(t.steps[6]) == lowest_side);
  CHECK(t.steps[6].mask == lowest_side);
  CHECK(lanes_of(t.steps[7]) == ~lowest_side);
  CHECK(t.steps[10].line == join);
  CHECK(t.steps[10].lanes[31].out == rising);
  // Every read of every path is defined: each source lane is in the mask and active.
  for (const TraceStep& s : t.steps)
    for (int lane = 0; lane < 32; ++lane) CHECK_FALSE(s.lanes[lane].undefined());
  // Lane 31's down 2 is out of range: it keeps its own value, p = 0.
  CHECK_FALSE(t.steps[2].lanes[31].ok());
  CHECK(t.steps[2].lanes[29].src == 31);
  CHECK(t.steps[1].lanes[4].src == 6);

  // The trace's divergent regions (warp_paths.h): the two branches.
  const auto regions = divergent_regions(t.steps);
  REQUIRE(regions.size() == 2);
  CHECK(regions[0].begin == 1);
  CHECK(regions[0].end == 5);
  CHECK(t.steps[regions[0].join].line == data_fork);
  CHECK(regions[1].fork == 5);
  CHECK(t.steps[regions[1].join].line == join);
  REQUIRE(regions[1].paths.size() == 2);
  CHECK(regions[1].paths[0].lanes == lowest_side);
}

TEST_CASE("divergence: a branch every lane takes is no divergence", "[scenario][divergence]") {
  const Trace t = run("divergence", {{"threshold", "-100"}}, "random:4");
  REQUIRE(t.steps.size() == 9);  // fork, 2 + 2 on the parity paths, the vote, 2 in the if, the join
  CHECK(t.steps[6].mask == 0xffffffffu);
  CHECK(divergent_regions(t.steps).size() == 1);
  for (int64_t b : out_ints(t, "first")) CHECK(b == as_i32(resolve_scenario({"divergence", {}, "random:4"}).input_bits[0]));
}

TEST_CASE("divergence in f32: the same branches, the paths' own values", "[scenario][divergence]") {
  std::vector<std::string> values;
  uint32_t above = 0;
  for (int lane = 0; lane < 32; ++lane) {
    values.push_back(lane % 3 == 0 ? "-1.25" : "2.5");
    if (lane % 3 != 0) above |= 1u << lane;
  }
  const Trace t = run("divergence", {{"dtype", "f32"}}, values_list(values));
  REQUIRE(t.steps.size() == 11);
  CHECK(t.steps[5].lanes[0].out == above);
  const auto first = out_bits(t, "first");
  for (int lane = 0; lane < 32; ++lane) CHECK(as_f32(first[lane]) == (lane % 3 == 0 ? -1.25f : 2.5f));
}

// ---------------------------------------------------------------------------
// match, redux, bits
// ---------------------------------------------------------------------------

TEST_CASE("match: groups of equal values, match_all", "[scenario][match]") {
  const ResolvedScenario r = resolve_scenario({"match", {}, ""});
  const Trace t = run("match");
  const auto any = out_ints(t);
  for (int lane = 0; lane < 32; ++lane) {
    uint32_t expected = 0;
    for (int other = 0; other < 32; ++other)
      if (r.input_bits[other] == r.input_bits[lane]) expected |= 1u << other;
    CHECK(uint32_t(any[lane]) == expected);
  }
  CHECK(out_ints(t, "all")[0] == 0);
  CHECK(out_ints(t, "pred")[0] == 0);
  const Trace same = run("match", {}, "const:7");
  CHECK(uint32_t(out_ints(same, "all")[4]) == 0xffffffffu);
  CHECK(out_ints(same, "pred")[4] == 1);
}

TEST_CASE("match: cases 22 and 23, bitwise comparison", "[scenario][match][semantics]") {
  std::vector<std::string> zeros, nans, seven;
  for (int lane = 0; lane < 32; ++lane) {
    zeros.push_back(lane % 2 ? "0x80000000" : "0x00000000");
    nans.push_back(lane % 2 ? "0x7fc00001" : "0x7fc00000");
    seven.push_back(lane == 5 ? "8" : "7");
  }
  for (const auto& items : {zeros, nans}) {
    std::string input = "bits:";
    for (size_t k = 0; k < items.size(); ++k) input += (k ? "," : "") + items[k];
    const auto any = out_ints(run("match", {{"dtype", "f32"}}, input));
    for (int lane = 0; lane < 32; ++lane) CHECK(uint32_t(any[lane]) == (lane % 2 ? 0xaaaaaaaau : 0x55555555u));
  }
  const Trace t = run("match", {}, values_list(seven));
  for (int64_t v : out_ints(t, "all")) CHECK(v == 0);
  for (int64_t v : out_ints(t, "pred")) CHECK(v == 0);
  // 64-bit values that differ only in the high word do not match.
  std::string wide = "bits:";
  for (int lane = 0; lane < 32; ++lane) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s0x%08x00000001", lane ? "," : "", lane % 2 ? 0x40000000u : 0x3ff00000u);
    wide += buf;
  }
  const auto any64 = out_ints(run("match", {{"dtype", "f64"}}, wide));
  CHECK(uint32_t(any64[0]) == 0x55555555u);
}

TEST_CASE("redux: case 24 and a sub-mask", "[scenario][redux][semantics]") {
  const Trace wrap = run("redux", {}, "const:2147483647");
  CHECK(uint32_t(out_ints(wrap)[0]) == 0xffffffe0u);
  std::vector<std::string> centred;
  for (int lane = 0; lane < 32; ++lane) centred.push_back(std::to_string(lane - 16));
  const Trace s = run("redux", {}, values_list(centred));
  CHECK(out_ints(s, "min")[0] == -16);
  CHECK(out_ints(s, "max")[0] == 15);
  std::string as_unsigned = "bits:";
  for (int lane = 0; lane < 32; ++lane) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%s0x%08x", lane ? "," : "", uint32_t(lane - 16));
    as_unsigned += buf;
  }
  const Trace u = run("redux", {{"dtype", "u32"}}, as_unsigned);
  CHECK(uint32_t(out_ints(u, "min")[0]) == 0u);
  CHECK(uint32_t(out_ints(u, "max")[0]) == 0xffffffffu);
  const Trace sub = run("redux", {{"mask", "0xff"}}, "iota");
  CHECK(out_ints(sub)[0] == 28);
  CHECK(out_ints(sub, "or")[7] == 7);
  CHECK(out_ints(sub)[8] == 0);  // lane 8 is outside the mask and wrote nothing
}

TEST_CASE("bits: cases 25 and 26", "[scenario][bits][semantics]") {
  const Trace t = run("bits");
  const auto fns = out_ints(t, "fns");
  CHECK(fns[1] == 4);
  CHECK(uint32_t(fns[24]) == 0xffffffffu);
  const auto fns_down = out_ints(run("bits", {{"fns_offset", "-1"}}), "fns");
  CHECK(fns_down[3] == 0);
  CHECK(fns_down[8] == 7);
  std::string input = "bits:0x00000000,0x80000000,0x00000006,0xffffffff";
  for (int lane = 4; lane < 32; ++lane) input += ",0x00000001";
  const Trace b = run("bits", {}, input);
  CHECK(out_ints(b, "ffs")[0] == 0);
  CHECK(out_ints(b, "ffs")[1] == 32);
  CHECK(out_ints(b, "clz")[0] == 32);
  CHECK(uint32_t(out_ints(b, "brev")[2]) == 0x60000000u);
  CHECK(out_ints(b)[3] == 32);
}

TEST_CASE("bits records one watch per intrinsic holding each lane's output", "[scenario][bits]") {
  // Prepare / Run: the per-lane intrinsics are no warp steps; their watches
  // are what the lanes, the timeline and presentation mode show.
  const Trace t = run("bits", {}, "random:7");
  // Verify: popc, ffs, clz, brev, fns in the kernel's order, every lane's
  // value the one it wrote out.
  const std::vector<std::pair<std::string, std::string>> order = {
      {"popc", "out"}, {"ffs", "ffs"}, {"clz", "clz"}, {"brev", "brev"}, {"fns", "fns"}};
  REQUIRE(t.steps.size() == order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    INFO(order[i].first);
    const TraceStep step = t.steps[i];
    CHECK(step.op == Op::Watch);
    CHECK(watch_name(step.args) == order[i].first);
    CHECK(step.mask == 0xffffffffu);
    const auto expected = out_bits(t, order[i].second);
    for (int lane = 0; lane < 32; ++lane) CHECK(uint32_t(step.lanes[lane].out) == uint32_t(expected[size_t(lane)]));
  }
}

// ---------------------------------------------------------------------------
// The shuffle playground: every measured shuffle row through `shfl`
// ---------------------------------------------------------------------------

TEST_CASE("shfl: cases 1-15", "[scenario][shfl][semantics]") {
  CHECK(shfl({{"op", "up"}, {"arg", "3"}, {"width", "8"}}) ==
        lanes({{0, 1, 2}, range(0, 4), {8, 9, 10}, range(8, 12), {16, 17, 18}, range(16, 20), {24, 25, 26}, range(24, 28)}));
  CHECK(shfl({{"op", "down"}, {"arg", "3"}, {"width", "8"}}) ==
        lanes({range(3, 7), {5, 6, 7}, range(11, 15), {13, 14, 15}, range(19, 23), {21, 22, 23}, range(27, 31), {29, 30, 31}}));
  CHECK(shfl({{"op", "xor"}, {"arg", "9"}, {"width", "8"}}) ==
        lanes({range(0, 7), {1, 0, 3, 2, 5, 4, 7, 6}, range(16, 23), {17, 16, 19, 18, 21, 20, 23, 22}}));
  CHECK(shfl({{"op", "xor"}, {"arg", "16"}, {"width", "16"}}) == lanes({range(0, 15), range(0, 15)}));
  CHECK(shfl({{"op", "idx"}, {"arg", "35"}}) == repeat_each({3}, 32));
  CHECK(shfl({{"op", "idx"}, {"arg", "-1"}}) == repeat_each({31}, 32));
  CHECK(shfl({{"op", "idx"}, {"arg", "10"}, {"width", "8"}}) == repeat_each({2, 10, 18, 26}, 8));
  CHECK(shfl({{"op", "up"}, {"arg", "33"}}) == lanes({{0}, range(0, 30)}));
  CHECK(shfl({{"op", "down"}, {"arg", "33"}}) == lanes({range(1, 31), {31}}));
  CHECK(shfl({{"op", "up"}, {"arg", "32"}}) == range(0, 31));
  CHECK(shfl({{"op", "xor"}, {"arg", "32"}}) == range(0, 31));
  for (const char* op : {"idx", "up", "down"})
    CHECK(shfl({{"op", op}, {"arg", "5"}, {"width", "1"}}) == range(0, 31));
  // Width 1 with xor: the formula only bounds j from above (as in case 3), so a
  // lane whose partner is lower reads it. docs/warp-rules.md#widths says "width 1 reads itself";
  // the formula, which reproduced every measured row, disagrees for xor.
  std::vector<int64_t> xor_w1;
  for (int lane = 0; lane < 32; ++lane) xor_w1.push_back((lane ^ 5) < lane ? (lane ^ 5) : lane);
  CHECK(shfl({{"op", "xor"}, {"arg", "5"}, {"width", "1"}}) == xor_w1);
  CHECK(shfl({{"op", "up"}, {"arg", "4294967295"}}) == lanes({range(0, 30), {0}}));
  CHECK(shfl({{"op", "down"}, {"arg", "1"}, {"width", "16"}}) == lanes({range(1, 15), {15}, range(17, 31), {31}}));
  CHECK(shfl({{"op", "idx"}, {"arg", "5"}, {"width", "12"}}) == repeat_each({1, 5, 1, 5, 17, 21, 17, 21}, 4));
  CHECK(shfl({{"op", "down"}, {"arg", "3"}, {"width", "12"}}) ==
        lanes({range(3, 11), {9, 10, 11}, {15}, {13, 14, 15}, range(19, 27), {25, 26, 27}, {31}, {29, 30, 31}}));
  CHECK(shfl({{"op", "idx"}, {"arg", "40"}, {"width", "64"}}) == repeat_each({8}, 32));
}

TEST_CASE("shfl: raw PTX c operands, cases 16-18", "[scenario][shfl][semantics]") {
  const Trace t16 = run("shfl", {{"op", "up"}, {"arg", "1"}, {"c", "0x1f"}});
  CHECK(out_ints(t16) == range(0, 31));
  for (int64_t p : out_ints(t16, "in_range")) CHECK(p == 0);
  const Trace t17 = run("shfl", {{"op", "xor"}, {"arg", "9"}, {"c", "0x181f"}});
  CHECK(out_ints(t17) == lanes({range(0, 7), {1, 0, 3, 2, 5, 4, 7, 6}, range(16, 23), {17, 16, 19, 18, 21, 20, 23, 22}}));
  CHECK(out_ints(t17, "in_range") == repeat_each({0, 1, 0, 1}, 8));
  CHECK(t17.steps[0].args.c == 0x181fu);
  const Trace t18 = run("shfl", {{"op", "down"}, {"arg", "4"}, {"c", "0x0810"}});
  CHECK(out_ints(t18) == lanes({range(4, 19), range(16, 31)}));
  CHECK(out_ints(t18, "in_range") == repeat_each({1, 0}, 16));
}

TEST_CASE("shfl: case 19, a double keeps all 64 bits", "[scenario][shfl][semantics]") {
  std::string input = "bits:";
  for (int lane = 0; lane < 32; ++lane) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s0x%08x%08x", lane ? "," : "", 0x40000000u + lane, 0x1000u + lane);
    input += buf;
  }
  const Trace t = run("shfl", {{"op", "down"}, {"arg", "1"}, {"dtype", "f64"}}, input);
  const auto& out = out_bits(t);
  for (int lane = 0; lane < 32; ++lane) {
    const uint64_t src = uint64_t(lane < 31 ? lane + 1 : 31);
    CHECK(out[lane] == (((0x40000000ull + src) << 32) | (0x1000ull + src)));
  }
  CHECK(t.steps[0].dtype == DType::F64);
}

TEST_CASE("shfl: reads from inactive lanes are undefined and marked", "[scenario][shfl][undefined]") {
  // docs/warp-rules.md#inactive-sources / case (a) of docs/warp-rules.md#cases: lanes 0-15 run shfl_down(0xffff, v, 8); lanes 8-15 read 16-23.
  const Trace t = run("shfl", {{"op", "down"}, {"arg", "8"}, {"mask", "0x0000ffff"}});
  const TraceStep& s = t.steps[0];
  for (int lane = 0; lane < 32; ++lane) {
    if (lane < 8) {
      CHECK(s.lanes[lane].active());
      CHECK_FALSE(s.lanes[lane].undefined());
      CHECK(as_i32(s.lanes[lane].out) == lane + 8);
    } else if (lane < 16) {
      CHECK(s.lanes[lane].undefined());
      CHECK(s.lanes[lane].src == lane + 8);
    } else {
      CHECK_FALSE(s.lanes[lane].active());
    }
  }
  // Executing lanes outside their own mask are undefined too.
  const Trace outside = run("shfl", {{"op", "xor"}, {"arg", "1"}, {"mask", "0x0000ffff"}, {"active", "0xffffffff"}});
  CHECK(outside.steps[0].lanes[20].undefined());
  CHECK_FALSE(outside.steps[0].lanes[3].undefined());
}

// ---------------------------------------------------------------------------
// Bad requests
// ---------------------------------------------------------------------------

TEST_CASE("bad scenario requests name the valid choices", "[scenario][errors]") {
  CHECK_THROWS_WITH(resolve_scenario({"warp_summ", {}, ""}), Catch::Contains("valid scenarios: test_shuffle, warp_sum"));
  CHECK_THROWS_WITH(resolve_scenario({"warp_sum", {{"offset", "3"}}, ""}), Catch::Contains("valid parameters: dtype"));
  CHECK_THROWS_WITH(resolve_scenario({"warp_sum", {{"dtype", "f16"}}, ""}), Catch::Contains("valid values are f32, i32"));
  CHECK_THROWS_WITH(resolve_scenario({"shfl", {{"op", "rotate"}}, ""}), Catch::Contains("idx, up, down, xor"));
  CHECK_THROWS_WITH(resolve_scenario({"shfl", {{"width", "wide"}}, ""}), Catch::Contains("not an integer"));
  CHECK_THROWS_WITH(resolve_scenario({"shfl", {{"width", "12abc"}}, ""}), Catch::Contains("not an integer"));
  CHECK(resolve_scenario({"shfl", {{"arg", "0x10"}}, ""}).params.get_int("arg") == 16);
  CHECK_THROWS_WITH(resolve_scenario({"shfl", {{"mask", "0x1ffffffff"}}, ""}), Catch::Contains("lane mask"));
  CHECK_THROWS_WITH(resolve_scenario({"reduce_sum", {{"block", "100"}}, ""}), Catch::Contains("multiple of 32"));
  CHECK_THROWS_WITH(resolve_scenario({"reduce_sum", {{"n", "0"}}, ""}), Catch::Contains("out of range"));
  CHECK_THROWS_WITH(resolve_scenario({"warp_sum", {}, "values:1,2,3"}), Catch::Contains("needs exactly 32"));
  CHECK_THROWS_WITH(resolve_scenario({"warp_sum", {}, "squares"}), Catch::Contains("valid forms"));
  CHECK_THROWS_WITH(resolve_scenario({"warp_sum", {{"dtype", "i32"}}, "const:1.5"}), Catch::Contains("not a i32 value"));
  std::string too_wide = "bits:0xfffffffff";
  for (int lane = 1; lane < 32; ++lane) too_wide += ",0x0";
  CHECK_THROWS_WITH(resolve_scenario({"warp_sum", {}, too_wide}), Catch::Contains("item 0 '0xfffffffff' is not a hex bit pattern"));
  // The bad token is named even where the count is also wrong.
  CHECK_THROWS_WITH(parse_input_spec("bits:zz"), Catch::Contains("item 0 'zz' is not a hex bit pattern"));
  CHECK_THROWS_WITH(resolve_scenario({"warp_sum", {}, "bits:0x1,0xg2"}), Catch::Contains("item 1 '0xg2'"));
  CHECK_THROWS_WITH(parse_input_spec("bits:0x"), Catch::Contains("item 0 '0x'"));
  CHECK_NOTHROW(parse_input_spec("bits:0xffffffffffffffff,7"));
}

TEST_CASE("width 12 runs, with a note that the C++ API calls it undefined", "[scenario][shfl]") {
  const ResolvedScenario r = resolve_scenario({"shfl", {{"width", "12"}}, ""});
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0].find("undefined in the CUDA C++ API") != std::string::npos);
  CHECK(r.notes[0].find("segmask 0x14") != std::string::npos);
}

TEST_CASE("every scenario runs with its defaults and records its source", "[scenario]") {
  for (const ScenarioSpec& spec : scenario_specs()) {
    INFO(spec.name);
    const Trace t = run(spec.name);
    CHECK(!t.steps.empty());  // bits too: its per-lane results are watched
    CHECK(t.output("out") != nullptr);
    CHECK(!t.meta.source_text.empty());
    CHECK(t.meta.source_text.find(spec.kernel) != std::string::npos);
    for (const TraceStep& s : t.steps) {
      CHECK(s.line > 0);
      CHECK(s.line <= uint32_t(std::count(t.meta.source_text.begin(), t.meta.source_text.end(), '\n') + 1));
    }
  }
}

TEST_CASE("every scenario's trace survives binary and JSON round trips", "[scenario][io]") {
  for (const ScenarioSpec& spec : scenario_specs()) {
    INFO(spec.name);
    std::vector<std::pair<std::string, std::string>> sets;
    if (spec.name == "shfl") sets = {{"c", "0x181f"}, {"op", "xor"}, {"arg", "9"}};  // a raw PTX step
    const Trace t = run(spec.name, sets);
    std::stringstream binary;
    write_trace_binary(t, binary);
    const Trace from_binary = read_trace_binary(binary, "mem.wvt");
    const Trace from_json = trace_from_json(trace_to_json(t), "mem.json");
    TraceDiffOptions all;
    all.compare_meta = true;
    all.skip_undefined = false;
    CHECK(diff_traces(t, from_binary, all).empty());
    CHECK(diff_traces(t, from_json, all).empty());
    for (size_t s = 0; s < t.steps.size(); ++s) {
      CHECK(from_binary.steps[s].step_flags == t.steps[s].step_flags);
      CHECK(from_json.steps[s].step_flags == t.steps[s].step_flags);
    }
    CHECK(from_json.meta.source_text == t.meta.source_text);
  }
}

TEST_CASE("finalize_recorded_step marks what the emulator marks", "[scenario][rules][gpu-model]") {
  // A GPU step carries the hardware's facts only: strip what the rules add and
  // scramble what the hardware cannot know, then let finalize restore it.
  std::vector<Trace> traces;
  for (const ScenarioSpec& spec : scenario_specs()) traces.push_back(run(spec.name));
  traces.push_back(run("shfl", {{"op", "down"}, {"arg", "8"}, {"mask", "0x0000ffff"}}));
  traces.push_back(run("shfl", {{"op", "xor"}, {"arg", "1"}, {"mask", "0x0000ffff"}, {"active", "0xffffffff"}}));
  traces.push_back(run("vote", {{"mask", "0x0000ffff"}}));
  for (const Trace& t : traces) {
    for (const TraceStep& original : t.steps) {
      INFO(t.meta.scenario << " step " << original.seq << " " << op_name(original.op));
      TraceStep recorded = original;
      const bool has_predicate = op_is_shuffle(recorded.op) || recorded.op == Op::MatchAll;
      for (LaneRecord& l : recorded.lanes) {
        if (l.undefined()) l.src = 0;
        l.flags = uint8_t(l.flags & ~kLaneUndefined);
        if (!has_predicate) l.flags = uint8_t(l.flags & ~kLaneOk);
      }
      rules::finalize_recorded_step(recorded);
      for (int lane = 0; lane < kWarpSize; ++lane) {
        INFO("lane " << lane);
        CHECK(recorded.lanes[lane].flags == original.lanes[lane].flags);
        CHECK(recorded.lanes[lane].src == original.lanes[lane].src);
      }
    }
  }
}

// ---------------------------------------------------------------------------
// bank and transpose: the shared-memory scenarios (kernels/shared_banks.cu)
// ---------------------------------------------------------------------------

namespace {

const std::vector<std::string> kBankPatterns = {"row", "column", "broadcast", "stride", "xor-swizzle"};
const std::vector<int> kElems = {1, 2, 4, 8, 16};

// Lane l's element, as the brief's pattern table defines it, counted in
// elements from the tile's start.
uint32_t bank_element(const std::string& pattern, int lane, int cols, int stride) {
  if (pattern == "row") return uint32_t(lane);
  if (pattern == "column") return uint32_t(lane * cols);
  if (pattern == "broadcast") return 0;
  if (pattern == "stride") return uint32_t(lane * stride % (32 * cols));
  return uint32_t(lane * cols + lane % cols);  // xor-swizzle: tile[l][0 ^ l]
}

Trace run_bank(const std::string& pattern, int elem, int cols, const std::string& op = "load",
               std::vector<std::pair<std::string, std::string>> more = {}) {
  more.insert(more.begin(), {{"pattern", pattern}, {"elem", std::to_string(elem)}, {"cols", std::to_string(cols)}, {"op", op}});
  return run("bank", more);
}

// The tile as the kernel fills it: element i's first word (its low bytes,
// for 1- and 2-byte elements) is i, the other words 0.
std::vector<uint8_t> filled_tile(int elem, int cols) {
  std::vector<uint8_t> bytes(size_t(32 * cols * elem), 0);
  for (uint32_t i = 0; i < uint32_t(32 * cols); ++i)
    for (int b = 0; b < std::min(elem, 4); ++b) bytes[i * elem + b] = uint8_t(i >> (8 * b));
  return bytes;
}

std::vector<uint64_t> words_of(const std::vector<uint8_t>& bytes) {
  std::vector<uint64_t> words(bytes.size() / 4);
  for (size_t w = 0; w < words.size(); ++w)
    for (int b = 0; b < 4; ++b) words[w] |= uint64_t(bytes[4 * w + b]) << (8 * b);
  return words;
}

}  // namespace

TEST_CASE("bank: every pattern, width and tile addresses the pattern's element", "[scenario][bank]") {
  for (const std::string& pattern : kBankPatterns)
    for (int elem : kElems)
      for (int cols : {32, 33}) {
        INFO("pattern=" << pattern << " elem=" << elem << " cols=" << cols);
        const Trace t = run_bank(pattern, elem, cols);
        REQUIRE(t.steps.size() == 1);
        const TraceStep& s = t.steps[0];
        CHECK(s.op == Op::LoadShared);
        CHECK(s.mask == 0xffffffffu);
        CHECK(s.dtype == (elem >= 8 ? DType::U64 : DType::U32));
        SharedAccess expected;
        expected.bytes = elem;
        expected.active = 0xffffffffu;
        for (int lane = 0; lane < kWarpSize; ++lane) {
          expected.addr[lane] = bank_element(pattern, lane, cols, 2) * uint32_t(elem);
          CHECK(s.lanes[lane].addr == expected.addr[lane]);
          CHECK(s.lanes[lane].bytes == elem);
        }
        // The model's counts for the formula's addresses are the step's.
        const BankAnalysis want = analyze_shared_access(expected);
        const BankAnalysis got = analyze_shared_access(shared_access_of(s));
        CHECK(got.wavefronts == want.wavefronts);
        CHECK(got.conflicts == want.conflicts);
        // A load leaves the tile as filled and reads each element's fill.
        const std::vector<uint8_t> tile = filled_tile(elem, cols);
        CHECK(out_bits(t, "tile") == words_of(tile));
        const std::vector<uint64_t> out = out_bits(t);
        const size_t words = size_t((elem + 3) / 4);
        REQUIRE(out.size() == 32 * words);
        for (int lane = 0; lane < kWarpSize; ++lane) {
          std::vector<uint8_t> element(words * 4, 0);
          std::copy_n(tile.begin() + expected.addr[lane], elem, element.begin());
          const std::vector<uint64_t> w = words_of(element);
          for (size_t k = 0; k < words; ++k) CHECK(out[lane * words + k] == w[k]);
        }
      }
}

TEST_CASE("bank: the article's tiles cost what the hardware measured", "[scenario][bank]") {
  // Worked out by hand from bank = (byte address / 4) % 32 and the phases of docs/warp-rules.md#wavefronts
  // (half-warps for 8 bytes, quarter-warps for 16; loads of one address pair).
  struct Case {
    const char* pattern;
    int elem, cols;
    const char* op;
    uint32_t wavefronts, conflicts;
  };
  const Case cases[] = {
      {"column", 4, 32, "load", 32, 31},    // 32 words 128 B apart: one bank
      {"column", 4, 33, "load", 1, 0},      // 132 B apart: bank l
      {"column", 4, 32, "store", 32, 31},
      {"column", 1, 32, "load", 8, 7},      // 32 B apart: banks 0, 8, 16, 24, eight words each
      {"column", 2, 32, "load", 16, 15},    // 64 B apart: banks 0 and 16
      {"column", 8, 32, "load", 32, 30},    // two half-warps of 16 words in banks 0-1
      {"column", 16, 32, "load", 32, 28},   // four quarter-warps of 8
      {"column", 8, 33, "load", 2, 0},      // 264 B apart: half a warp fills 32 banks
      {"row", 4, 32, "load", 1, 0},
      {"row", 1, 33, "load", 1, 0},         // 32 bytes: 8 words
      {"row", 8, 32, "load", 2, 0},         // docs/warp-rules.md#wavefronts: 8l, 64-bit
      {"row", 16, 32, "load", 4, 0},        // docs/warp-rules.md#wavefronts: 16l, 128-bit
      {"broadcast", 4, 32, "load", 1, 0},
      {"broadcast", 8, 32, "load", 1, 0},   // pairs: the whole warp is one phase
      {"broadcast", 16, 32, "load", 2, 0},
      {"broadcast", 16, 32, "store", 4, 0}, // stores are not paired
      {"stride", 4, 32, "load", 2, 1},      // stride 2: 8l in docs/warp-rules.md#wavefronts
      {"xor-swizzle", 4, 32, "load", 1, 0}, // tile[l][l]: bank l
      {"xor-swizzle", 4, 33, "load", 2, 1}, // padding and swizzle together: word 34l, bank 2l, two lanes a bank
  };
  for (const Case& c : cases) {
    INFO(c.pattern << " elem=" << c.elem << " cols=" << c.cols << " " << c.op);
    const Recording rec(run_bank(c.pattern, c.elem, c.cols, c.op));
    REQUIRE_THAT(rec.steps().op(std::string(c.op) == "load" ? Op::LoadShared : Op::StoreShared), HasStepCount(1));
    CHECK_THAT(rec.steps(), HasBankCost(int(c.wavefronts), int(c.conflicts)));
  }
}

TEST_CASE("bank: stores write the input; in a race the last phase's lowest lane wins", "[scenario][bank]") {
  for (const std::string& pattern : kBankPatterns)
    for (int elem : kElems)
      for (int cols : {32, 33}) {
        INFO("pattern=" << pattern << " elem=" << elem << " cols=" << cols);
        const Trace t = run_bank(pattern, elem, cols, "store", {{"active", "0x7ffffffe"}, {"stride", "3"}});
        REQUIRE(t.steps.size() == 1);
        CHECK(t.steps[0].op == Op::StoreShared);
        CHECK(t.steps[0].mask == 0x7ffffffeu);
        std::vector<uint8_t> tile = filled_tile(elem, cols);
        const size_t words = size_t((elem + 3) / 4);
        std::vector<uint64_t> out(32 * words, 0);
        // As the H200 settles a race: phase by phase (the whole warp, half-warps
        // for 8 bytes, quarter-warps for 16), each phase's lowest lane landing last.
        const int phase = elem == 16 ? 8 : elem == 8 ? 16 : 32;
        std::vector<int> order;
        for (int first = 0; first < 32; first += phase)
          for (int lane = first + phase - 1; lane >= first; --lane)
            if (lane >= 1 && lane <= 30) order.push_back(lane);  // active 0x7ffffffe
        for (int lane : order) {
          const uint64_t value = uint64_t(100 + lane);  // the default input
          uint8_t element[16];
          for (int b = 0; b < 16; ++b) element[b] = uint8_t(value >> (8 * (b % 8)));
          std::copy_n(element, elem, tile.begin() + bank_element(pattern, lane, cols, 3) * elem);
          std::vector<uint8_t> padded(words * 4, 0);
          std::copy_n(element, elem, padded.begin());
          const std::vector<uint64_t> w = words_of(padded);
          for (size_t k = 0; k < words; ++k) out[lane * words + k] = w[k];
          CHECK(t.steps[0].lanes[lane].in == (elem == 1 ? value & 0xff : value));
        }
        CHECK_FALSE(t.steps[0].lanes[0].active());
        CHECK_FALSE(t.steps[0].lanes[31].active());
        CHECK(out_bits(t, "tile") == words_of(tile));
        CHECK(out_bits(t) == out);
      }
}

TEST_CASE("bank: inactive lanes make no access and cost nothing", "[scenario][bank]") {
  // docs/warp-rules.md#wavefronts' measured loads: 128l with 8 lanes active costs 8; 8l with 16 lanes costs 1.
  const Trace eight = run_bank("column", 4, 32, "load", {{"active", "0x000000ff"}});
  const BankAnalysis a = analyze_shared_access(shared_access_of(eight.steps[0]));
  CHECK(eight.steps[0].mask == 0x000000ffu);
  CHECK(a.wavefronts == 8);
  CHECK(a.conflicts == 7);
  const Trace sixteen = run_bank("stride", 4, 32, "load", {{"active", "0x0000ffff"}});
  CHECK(analyze_shared_access(shared_access_of(sixteen.steps[0])).wavefronts == 1);
  const std::vector<uint64_t> out = out_bits(sixteen);
  for (int lane = 16; lane < 32; ++lane) CHECK(out[lane] == 0u);
  CHECK(out[5] == 10u);  // element 10's fill
  const Trace none = run_bank("row", 4, 32, "load", {{"active", "0x00000000"}});
  CHECK(none.steps.empty());
}

TEST_CASE("bank: custom byte offsets give the model's counts", "[scenario][bank]") {
  const auto addrs_of = [](auto offset) {
    std::string s;
    for (int lane = 0; lane < kWarpSize; ++lane) s += (lane ? "," : "") + std::to_string(offset(lane));
    return s;
  };
  struct Case {
    std::string addrs;
    int elem;
    uint32_t wavefronts, conflicts;
  };
  const std::vector<Case> cases = {
      {addrs_of([](int l) { return 8 * l; }), 4, 2, 1},              // docs/warp-rules.md#wavefronts: 8l
      {addrs_of([](int l) { return 12 * l; }), 4, 1, 0},             // 12l
      {addrs_of([](int l) { return (l & 1) * 128; }), 4, 2, 1},      // two words, one bank
      {addrs_of([](int l) { return 32 * l; }), 16, 8, 4},            // 128-bit 32l
      {addrs_of([](int l) { return (l >> 1) * 16; }), 16, 2, 0},     // 128-bit pairs
      {addrs_of([](int l) { return (l & 7) * 16; }), 16, 4, 0},      // lane i == i + 8
      {addrs_of([](int l) { return (l & 15) * 8; }), 8, 2, 0},       // lane i == i + 16
  };
  for (const Case& c : cases) {
    INFO("addrs=" << c.addrs << " elem=" << c.elem);
    const Trace t = run("bank", {{"pattern", "custom"}, {"elem", std::to_string(c.elem)}, {"addrs", c.addrs}});
    REQUIRE(t.steps.size() == 1);
    SharedAccess expected;
    expected.bytes = c.elem;
    expected.active = 0xffffffffu;
    for (int lane = 0; lane < kWarpSize; ++lane) expected.addr[lane] = t.steps[0].lanes[lane].addr;
    const BankAnalysis a = analyze_shared_access(shared_access_of(t.steps[0]));
    CHECK(a.wavefronts == c.wavefronts);
    CHECK(a.conflicts == c.conflicts);
    CHECK(a.wavefronts == analyze_shared_access(expected).wavefronts);
  }
  // Hex offsets are read and written back in decimal.
  std::string hex = "0x80";
  for (int lane = 1; lane < kWarpSize; ++lane) hex += ",0x" + std::string(lane < 16 ? "0" : "") + "0";
  const ResolvedScenario r = resolve_scenario({"bank", {{"pattern", "custom"}, {"addrs", hex}}, ""});
  CHECK(r.params.get("addrs").rfind("128,0,0,", 0) == 0);
  const Trace t = run("bank", {{"pattern", "custom"}, {"addrs", hex}});
  CHECK(t.steps[0].lanes[0].addr == 128u);
  CHECK(out_bits(t)[0] == 32u);  // element 32 = tile[1][0]
}

TEST_CASE("bank: bad parameters are refused with the valid ones", "[scenario][bank][errors]") {
  const auto refuses = [](std::vector<std::pair<std::string, std::string>> sets, const std::string& says) {
    INFO("expecting: " << says);
    CHECK_THROWS_WITH(resolve_scenario({"bank", std::move(sets), ""}), Catch::Contains(says));
  };
  std::string zeros31 = "0";
  for (int i = 1; i < 31; ++i) zeros31 += ",0";
  const std::string zeros32 = zeros31 + ",0";
  refuses({{"elem", "3"}}, "valid values are 1, 2, 4, 8, 16");
  refuses({{"cols", "34"}}, "valid values are 32, 33");
  refuses({{"op", "xchg"}}, "valid values are load, store");
  refuses({{"pattern", "diagonal"}}, "valid values are row, column, broadcast, stride, xor-swizzle, custom");
  refuses({{"pattern", "custom"}}, "pattern=custom needs addrs");
  refuses({{"addrs", zeros32}}, "only read with pattern=custom");
  refuses({{"pattern", "custom"}, {"addrs", zeros31}}, "has 31 offsets; it takes exactly 32");
  refuses({{"pattern", "custom"}, {"addrs", zeros32 + ",0"}}, "has 33 offsets");
  refuses({{"pattern", "custom"}, {"addrs", "-4," + zeros31}}, "lane 0's offset '-4' is not a non-negative integer");
  refuses({{"pattern", "custom"}, {"addrs", zeros31 + ",abc"}}, "lane 31's offset 'abc'");
  refuses({{"pattern", "custom"}, {"addrs", zeros31 + ","}}, "lane 31's offset ''");
  refuses({{"pattern", "custom"}, {"elem", "8"}, {"addrs", "4," + zeros31}}, "not a multiple of elem=8");
  refuses({{"pattern", "custom"}, {"addrs", "4096," + zeros31}}, "outside the tile (4096 bytes");
  refuses({{"pattern", "custom"}, {"cols", "33"}, {"elem", "16"}, {"addrs", "16896," + zeros31}}, "outside the tile");
  refuses({{"stride", "-1"}}, "out of range");
  refuses({{"active", "lots"}}, "not a 32-bit lane mask");
  // The last byte of a 33-column tile of 16-byte elements is inside.
  CHECK_NOTHROW(resolve_scenario({"bank", {{"pattern", "custom"}, {"cols", "33"}, {"elem", "16"}, {"addrs", "16880," + zeros31}}, ""}));
}

TEST_CASE("bank: the article's claims are checked where they apply", "[scenario][bank][seed]") {
  const ScenarioSpec& spec = *find_scenario("bank");
  const auto claims = [&](std::vector<std::pair<std::string, std::string>> sets) {
    return check_seed_claims(spec, run("bank", std::move(sets)));
  };
  const auto column32 = claims({{"pattern", "column"}, {"cols", "32"}});
  REQUIRE(column32.size() == 1);
  CHECK(column32[0].holds);
  CHECK(column32[0].claim->text.find("32 路冲突") != std::string::npos);
  CHECK(column32[0].actual.find("32 wavefronts, 31 conflicts") != std::string::npos);
  const auto column33 = claims({{"pattern", "column"}, {"cols", "33"}});
  REQUIRE(column33.size() == 1);
  CHECK(column33[0].holds);
  CHECK(column33[0].claim->text.find("tileP") != std::string::npos);
  const auto row = claims({{"pattern", "row"}});
  REQUIRE(row.size() == 1);
  CHECK(row[0].holds);
  CHECK(claims({{"pattern", "row"}, {"elem", "8"}}).empty());  // the article's tile holds floats
  for (const char* odd : {"1", "3", "5", "31", "33"}) {
    const auto r = claims({{"pattern", "stride"}, {"stride", odd}});
    REQUIRE(r.size() == 1);
    CHECK(r[0].holds);
  }
  const auto s64 = claims({{"pattern", "stride"}, {"stride", "64"}});
  REQUIRE(s64.size() == 1);
  CHECK(s64[0].holds);
  // A stride of 1024 elements wraps every lane onto element 0: one word, a
  // broadcast. The article's rule speaks of lanes on different words, so
  // neither stride claim is checked there (nor with stride 0).
  CHECK(claims({{"pattern", "stride"}, {"stride", "1024"}}).empty());
  CHECK(claims({{"pattern", "stride"}, {"stride", "0"}}).empty());
  // The article's warp is whole: 8 lanes reading a column are not its 32-way case.
  CHECK(claims({{"pattern", "column"}, {"cols", "32"}, {"active", "0xff"}}).empty());
  // Parameters from a hand-edited trace file are not trusted: cols=0 checks nothing, crashes nothing.
  Trace edited = run("bank", {{"pattern", "stride"}, {"stride", "32"}});
  edited.meta.params["cols"] = "0";
  CHECK(check_seed_claims(*find_scenario("bank"), edited).empty());
  const auto s32_padded = claims({{"pattern", "stride"}, {"stride", "32"}, {"cols", "33"}});
  REQUIRE(s32_padded.size() == 1);
  CHECK(s32_padded[0].holds);
}

TEST_CASE("transpose: the output is the transposed matrix, padded or not", "[scenario][transpose]") {
  for (int n : {32, 64})
    for (const char* cols : {"32", "33"}) {
      INFO("n=" << n << " cols=" << cols);
      const Trace t = run("transpose", {{"n", std::to_string(n)}, {"cols", cols}});
      const std::vector<uint64_t> out = out_bits(t);
      REQUIRE(out.size() == size_t(n * n));
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
          if (as_f32(out[size_t(r * n + c)]) != float(c * n + r)) {
            FAIL_CHECK("out[" << r << "][" << c << "] = " << as_f32(out[size_t(r * n + c)]));
            break;
          }
        }
      // Each warp (one threadIdx.y) writes 4 rows and reads 4 columns.
      const size_t warps = size_t(n / 32) * size_t(n / 32) * 8;
      REQUIRE(t.steps.size() == warps * 8);
      const SharedTotals totals = shared_totals(t);
      CHECK(totals.store_steps == warps * 4);
      CHECK(totals.load_steps == warps * 4);
      CHECK(totals.store_wavefronts == warps * 4);  // rows: one wavefront each
      CHECK(totals.load_wavefronts == warps * 4 * (std::string(cols) == "32" ? 32 : 1));
      for (const SeedClaimResult& claim : check_seed_claims(*find_scenario("transpose"), t)) {
        INFO(claim.claim->text << ": " << claim.actual);
        CHECK(claim.holds);
      }
    }
  // Warp 1 of block 0 (threadIdx.y = 1) reads column 1 + 8j: lane l at tile[l][1 + 8j].
  const Trace t = run("transpose", {{"n", "32"}, {"cols", "33"}});
  const TraceStep& read = t.steps[8 + 4];
  CHECK(read.op == Op::LoadShared);
  CHECK(read.warp == 1);
  for (int lane = 0; lane < kWarpSize; ++lane) CHECK(read.lanes[lane].addr == uint32_t(4 * (lane * 33 + 1)));
}

TEST_CASE("transpose: n must be a multiple of 32 within range", "[scenario][transpose][errors]") {
  CHECK_THROWS_WITH(resolve_scenario({"transpose", {{"n", "48"}}, ""}), Catch::Contains("multiple of 32"));
  CHECK_THROWS_WITH(resolve_scenario({"transpose", {{"n", "1024"}}, ""}), Catch::Contains("out of range"));
  CHECK_THROWS_WITH(resolve_scenario({"transpose", {{"cols", "31"}}, ""}), Catch::Contains("valid values are 32, 33"));
}

TEST_CASE("adjacent_scenario walks the table both ways and wraps", "[scenario]") {
  const auto& specs = scenario_specs();
  REQUIRE(specs.size() >= 2);
  // Forward from each scenario reaches the next one; back undoes it.
  for (size_t i = 0; i < specs.size(); ++i) {
    const ScenarioSpec& next = adjacent_scenario(specs[i].name, 1);
    CHECK(next.name == specs[(i + 1) % specs.size()].name);
    CHECK(adjacent_scenario(next.name, -1).name == specs[i].name);
  }
  CHECK(adjacent_scenario(specs.back().name, 1).name == specs.front().name);
  CHECK(adjacent_scenario(specs.front().name, -1).name == specs.back().name);
  // A trace file of no built-in scenario starts the walk at either end.
  CHECK(adjacent_scenario("user:my_kernel", 1).name == specs.front().name);
  CHECK(adjacent_scenario("", -1).name == specs.back().name);
}
