// warpviz/testing.h on itself: its queries find the steps a scenario or a
// user's file recorded, its matchers pass on what holds and fail on what does
// not, and a failure names the step and lane with expected against got.
#include <catch2/catch.hpp>

#include "warpviz/testing.h"

using namespace warpviz;
using namespace warpviz::testing;

namespace {

std::string fixture(const std::string& name) { return std::string(WARPVIZ_TEST_USER_FILES) + "/" + name; }

// What a matcher says after matching `arg`: the text Catch2 prints after it.
template <class M, class A>
std::pair<bool, std::string> verdict(const M& matcher, const A& arg) {
  const bool ok = matcher.match(arg);
  return {ok, matcher.toString()};
}

}  // namespace

TEST_CASE("queries filter by op, line, block, warp and lane", "[testing][query]") {
  // reduce_sum defaults: 4 blocks of 256 threads, each warp sums with five
  // shfl.down, then warp 0 of each block sums the warps' totals (passed
  // through the shared warpSums: one st.shared per warp, one ld.shared).
  const Recording rec = record_scenario("reduce_sum");
  const StepQuery down = rec.steps().op(Op::ShflDown);
  // Every shuffle is followed by a watch of val (WARPVIZ_WATCH after each round).
  CHECK(down.count() == rec.trace().steps.size() - 4 * (8 + 1) - rec.steps().watches().count());
  CHECK(rec.steps().watch("val").count() == down.count());
  CHECK(rec.steps().watch("other").empty());
  CHECK(rec.steps().block(1).warp(0).watch("val").describe() == "10 steps [block 1, warp 0, watch val]");
  const StepQuery b1w0 = down.block(1).warp(0);
  CHECK(b1w0.count() == 10);  // warp_sum twice
  CHECK(down.block(1).warp(3).count() == 5);
  for (const StepRef& s : b1w0.all()) {
    CHECK(s.block() == 1);
    CHECK(s.warp() == 0);
  }
  const uint32_t line = b1w0.nth(0).line();
  CHECK(down.line(line).count() == down.count());
  CHECK(down.line(line + 1000).empty());
  CHECK(rec.steps().op(Op::Ballot).empty());
  CHECK(b1w0.nth(7).seq() == 16);  // the watches, the store and the load come between
  CHECK(b1w0[7].ordinal() == 7);
  CHECK(b1w0.describe() == "10 steps [shfl.down, block 1, warp 0]");
  CHECK_THROWS_WITH(b1w0.nth(10), "there is no step 10 among the 10 steps [shfl.down, block 1, warp 0] (they are steps 0 to 9)");
  CHECK_THROWS_WITH(down.line(9999).nth(0), "there is no step 0: no step matched [shfl.down, line 9999]");
  CHECK_THROWS_AS(b1w0.nth(0).lane(32), std::out_of_range);
}

TEST_CASE("the lane filter keeps the steps a lane executed", "[testing][query]") {
  // Lanes 0-15 run the shuffle; lane 20 runs nothing.
  const Recording rec = record_scenario("shfl", {{"op", "down"}, {"arg", "8"}, {"mask", "0x0000ffff"}});
  CHECK(rec.steps().lane(3).count() == 1);
  CHECK(rec.steps().lane(20).empty());
  CHECK(rec.steps().nth(0).active_lanes() == 0x0000ffffu);
}

TEST_CASE("lane values read as the type the test names", "[testing][values]") {
  const Recording sum = record_scenario("warp_sum");  // f32, input lane ids
  const LaneRef lane3 = sum.steps().nth(0).lane(3);
  CHECK(lane3.in<float>() == 3.0f);
  CHECK(lane3.out<float>() == 19.0f);  // lane 19's value
  CHECK(lane3.out<uint32_t>() == 0x41980000u);  // 19.0f's bits
  CHECK(verdict(GotValue<float>(19.0f), lane3) == std::pair<bool, std::string>{true, "got 19"});
  CHECK(verdict(GotValue<float>(20.0f), lane3) == std::pair<bool, std::string>{false, "got 19, expected 20"});
  CHECK(verdict(SuppliedValue<float>(3.0f), lane3).first);
  CHECK(verdict(HasValue<float>(496.0f), sum.output("out").element(0)).first);
  CHECK(verdict(HasValue<float>(497.5f), sum.output("out").element(0)).second == "is 496, expected 497.5");

  const Recording ints = record_scenario("warp_sum", {{"dtype", "i32"}});
  std::vector<int> expected;
  for (int lane = 0; lane < 32; ++lane) expected.push_back(496 + 16 * lane);
  CHECK_THAT(ints.output("out"), OutputEquals<int>(expected));
  expected[3] = 7;
  expected[9] = 8;
  CHECK(verdict(OutputEquals<int>(expected), ints.output("out")) ==
        std::pair<bool, std::string>{false, "where out[3] is 544, expected 7 (2 elements differ: 3, 9)"});
  CHECK(verdict(OutputEquals<int>({1, 2}), ints.output("out")).second == "has 32 elements, expected 2");
  CHECK_THROWS_WITH(ints.output("sum"), "the recording has no output `sum` (its outputs: out)");
  CHECK(Catch::Detail::stringify(ints.output("out")) == "output out (i32, 32 elements)");
}

TEST_CASE("ReadsFrom and ReadSources name the lane, the step and both sources", "[testing][sources]") {
  const Recording rec = record_scenario("warp_sum");
  const StepRef round2 = rec.steps().op(Op::ShflDown).nth(2);  // offset 4
  CHECK(Catch::Detail::stringify(round2.lane(3)) ==
        "lane 3 of step 2 (shfl.down, line " + std::to_string(round2.line()) + ", block 0, warp 0, seq 4)");  // seq 1, 3: watches
  CHECK(verdict(ReadsFrom(7), round2.lane(3)) == std::pair<bool, std::string>{true, "read lane 7"});
  CHECK(verdict(ReadsFrom(5), round2.lane(3)) == std::pair<bool, std::string>{false, "read lane 7, expected lane 5"});

  std::vector<int> sources(32);
  for (int lane = 0; lane < 32; ++lane) sources[size_t(lane)] = lane + 4 < 32 ? lane + 4 : lane;
  CHECK_THAT(round2, ReadSources(sources));
  sources[3] = 5;
  sources[30] = 2;
  CHECK(verdict(ReadSources(sources), round2) ==
        std::pair<bool, std::string>{false, "where lane 3 read lane 7, expected lane 5 (2 lanes differ: 3, 30)"});
  CHECK_FALSE(ReadSources({1, 2, 3}).match(round2));

  // Lanes 0-15 run the shuffle: lane 20 reads nothing, and saying so passes.
  const StepRef half = record_scenario("shfl", {{"op", "down"}, {"arg", "8"}, {"mask", "0x0000ffff"}}).steps().nth(0);
  CHECK(verdict(ReadsFrom(-1), half.lane(20)) == std::pair<bool, std::string>{true, "did not execute the step, as expected"});
  CHECK(verdict(ReadsFrom(28), half.lane(20)) ==
        std::pair<bool, std::string>{false, "did not execute the step, expected it to read lane 28"});
}

TEST_CASE("HasStepCount lists the steps it found", "[testing][count]") {
  const Recording rec = record_scenario("warp_sum");
  CHECK_THAT(rec.steps().shuffles(), HasStepCount(5));
  const auto [ok, text] = verdict(HasStepCount(6), rec.steps().shuffles());
  CHECK_FALSE(ok);
  CHECK_THAT(text, Catch::StartsWith("where 6 were expected (found: shfl.down line "));
  CHECK_THAT(text, Catch::EndsWith(" seq 8)"));  // each shuffle followed by a watch of val
  CHECK(Catch::Detail::stringify(rec.steps().shuffles()) == "the 5 steps [shuffles]");
}

TEST_CASE("NoUndefinedReads says which lane read which, and why it is undefined", "[testing][undefined]") {
  CHECK_THAT(record_scenario("warp_sum").steps(), NoUndefinedReads());

  // Lanes 0-15 run shfl_down(0xffff, v, 8): lanes 8-15 read 16-23, outside the mask.
  const Recording outside = record_scenario("shfl", {{"op", "down"}, {"arg", "8"}, {"mask", "0x0000ffff"}});
  const std::string line = std::to_string(outside.steps().nth(0).line());
  CHECK(verdict(NoUndefinedReads(), outside.steps()) ==
        std::pair<bool, std::string>{false, "have undefined results on 8 lanes of 1 step: step 0 (shfl.down, line " +
                                                line + ", block 0, warp 0, seq 0): lane 8 read lane 16, which is "
                                                "outside the mask 0x0000ffff (undefined lanes: 8-15)"});

  // Every lane runs shfl_xor(0xffff, v, 1): lanes 16-31 are not in their own mask.
  const Recording own = record_scenario("shfl", {{"op", "xor"}, {"arg", "1"}, {"mask", "0x0000ffff"}, {"active", "0xffffffff"}});
  CHECK_THAT(verdict(NoUndefinedReads(), own.steps()).second,
             Catch::Contains("lane 16 is not in its own mask 0x0000ffff"));
}

TEST_CASE("HasBankCost checks each shared step against the bank model", "[testing][bank]") {
  const Recording column = record_scenario("bank", {{"pattern", "column"}, {"elem", "4"}, {"cols", "32"}});
  CHECK_THAT(column.steps().shared(), HasBankCost(32, 31));
  CHECK(column.steps().nth(0).bank().conflicts == 31);
  const auto [ok, text] = verdict(HasBankCost(1, 0), column.steps().shared());
  CHECK_FALSE(ok);
  CHECK_THAT(text, Catch::StartsWith("where step 0 (ld.shared, line "));
  CHECK_THAT(text, Catch::EndsWith(" costs 32 wavefronts, 31 conflicts, expected 1 wavefronts, 0 conflicts"));
  CHECK(verdict(HasBankCost(32, -1), column.steps()) == std::pair<bool, std::string>{true, "each cost 32 wavefronts"});
  CHECK_THAT(record_scenario("bank", {{"pattern", "column"}, {"cols", "33"}}).steps(), HasBankCost(1, 0));
  CHECK(verdict(HasBankCost(-1, 0), record_scenario("warp_sum").steps().shuffles()).second ==
        "hold step 0 (shfl.down, line " + std::to_string(record_scenario("warp_sum").steps().nth(0).line()) +
            ", block 0, warp 0, seq 0), which is no shared-memory step");
  CHECK_THROWS_AS(record_scenario("warp_sum").steps().nth(0).bank(), std::invalid_argument);
}

TEST_CASE("record_file runs a user's kernel, and a failed run throws its message", "[testing][file]") {
  const Recording rec = record_file(KernelFile(fixture("my_sum.cu")).input("iota"));
  CHECK_THAT(rec.steps().op(Op::ShflDown).line(4), HasStepCount(5));
  CHECK_THAT(rec.output("out").element(0), HasValue<int>(496));
  CHECK_THAT(rec.steps().nth(0).lane(3), ReadsFrom(19));

  CHECK_THROWS_AS(record_file(KernelFile(fixture("syntax_error.cu"))), RunFailed);
  CHECK_THROWS_WITH(record_file(KernelFile(fixture("syntax_error.cu"))), Catch::Contains("compile error"));
  CHECK_THROWS_WITH(record_file(KernelFile(fixture("out_of_bounds.cu"))), Catch::Contains("crash"));
  CHECK_THROWS_WITH(record_file(KernelFile(fixture("warp_shuffle.cu"))), Catch::Contains("launched 2 kernels"));
  CHECK(record_file(KernelFile(fixture("warp_shuffle.cu")), "reduce_sum").trace().meta.grid.x == 4);
  CHECK(record_file_launches(KernelFile(fixture("warp_shuffle.cu"))).size() == 2);
}

TEST_CASE("the README's example holds", "[testing][file]") {
  const Recording rec = record_file(KernelFile(fixture("my_sum.cu")).input("iota"));
  const StepQuery rounds = rec.steps().op(Op::ShflDown);
  CHECK_THAT(rounds, HasStepCount(5));
  CHECK_THAT(rounds.nth(2).lane(3), ReadsFrom(7));
  CHECK_THAT(rounds.nth(2).lane(3), GotValue<int>(7 + 23 + 15 + 31));
  CHECK_THAT(rec.steps(), NoUndefinedReads());
  CHECK_THAT(rec.output("out").element(0), HasValue<int>(496));
}

TEST_CASE("record_scenario passes the backend through", "[testing][scenario]") {
  std::string why;
  if (cuda_backend_available(&why)) {
    // On a GPU the recording matches the emulator's sources.
    CHECK_THAT(record_scenario("warp_sum", {}, "", BackendChoice::Cuda).steps().nth(0).lane(3), ReadsFrom(19));
  } else {
    CHECK_THROWS_WITH(record_scenario("warp_sum", {}, "", BackendChoice::Cuda), Catch::StartsWith("scenario warp_sum: "));
  }
  CHECK(record_scenario("warp_sum", {}, "", BackendChoice::Cpu).trace().meta.backend == "cpu");
}

TEST_CASE("record_scenario turns a bad request into RunFailed", "[testing][scenario]") {
  CHECK_THROWS_WITH(record_scenario("warp_summ"), Catch::StartsWith("scenario warp_summ: ") && Catch::Contains("warp_sum"));
  CHECK_THROWS_AS(record_scenario("warp_sum", {{"dtype", "f16"}}), RunFailed);
}
