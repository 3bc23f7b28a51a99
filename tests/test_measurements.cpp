// The measurements file (assets/measurements/*.json): what `bench reduce` and
// `bench latency` write and the Cost panel reads.
#include <catch2/catch.hpp>

#include "warpviz/measurements.h"

using namespace warpviz;

namespace {

Measurements sample() {
  Measurements m;
  LatencyBenchmark l;
  l.on = {"NVIDIA H200", "580.95.05", "13.0", 132, "2026-12-01", "warpviz-cli bench latency"};
  l.chain_length = 4096;
  l.alu_cycles = 2.0;
  l.ops.push_back({"shfl.idx", "constant source lane", "chain", 23.5, 25.5, 0.5});
  l.ops.push_back({"ld.shared", "conflict-free", "pointer chase", 30.0, 30.0, 1.0});
  l.ops.push_back({"ld.shared", "32-way conflict", "pointer chase", 95.0, 95.0, 0.031});
  m.latency = l;
  ReduceBenchmark r;
  r.on = l.on;
  r.copy_gb_per_s = 4000;
  r.repeat = 21;
  r.timings.push_back({"a", "tree", "f32", 28, 0.40, 0.39, 0.41, 2684, 0.67, 0.6, true, "relative error 1e-07"});
  r.timings.push_back({"b", "article", "f32", 28, 0.30, 0.29, 0.31, 3579, 0.89, 0.8, true, "relative error 1e-07"});
  r.timings.push_back({"a", "tree", "f32", 20, 0.01, 0.01, 0.01, 400, 0.1, 0.5, true, ""});
  r.timings.push_back({"b", "article", "f32", 20, 0.02, 0.02, 0.02, 200, 0.05, 0.25, true, ""});
  m.reduce = r;
  return m;
}

}  // namespace

TEST_CASE("a measurements file reads back what was written", "[trace][measurements]") {
  const Measurements written = sample();
  const Measurements read = parse_measurements(measurements_to_json(written));
  REQUIRE(read.latency);
  REQUIRE(read.reduce);
  CHECK(read.latency->on.device == "NVIDIA H200");
  CHECK(read.latency->on.command == "warpviz-cli bench latency");
  REQUIRE(read.latency->ops.size() == 3);
  CHECK(read.latency->ops[2].variant == "32-way conflict");
  CHECK(read.latency->ops[2].ops_per_sm_per_cycle == Approx(0.031));
  REQUIRE(read.reduce->timings.size() == 4);
  CHECK(read.reduce->find("b", "f32", 28)->median_ms == Approx(0.30));
  CHECK(read.reduce->find("b", "i32", 28) == nullptr);
  CHECK(read.latency->find("ld.shared")->variant == "conflict-free");
}

TEST_CASE("the article's speed claims are judged from the figures", "[trace][measurements]") {
  Measurements m = sample();
  std::vector<ClaimVerdict> v = m.verdicts();
  REQUIRE(v.size() == 3);
  CHECK_FALSE(v[0].holds);  // 23.5 cycles is not single-digit
  CHECK(v[0].measured.find("23.5") != std::string::npos);
  CHECK(v[1].holds);        // shuffle 23.5 < ld.shared 30
  CHECK(v[2].holds);        // at the largest size (2^28) the shuffle variant is faster
  CHECK(v[2].measured.find("2^28") != std::string::npos);

  m.latency->ops[0].latency_cycles = 6;
  m.reduce->timings[1].median_ms = 0.5;
  v = m.verdicts();
  CHECK(v[0].holds);
  CHECK_FALSE(v[2].holds);
  m.latency.reset();
  CHECK(m.verdicts().size() == 1);
}

TEST_CASE("what is not a measurements file is refused by name", "[trace][measurements]") {
  CHECK_THROWS_WITH(parse_measurements("{\"version\": 1}", "x.json"), Catch::Contains("not a warpviz measurements"));
  CHECK_THROWS_WITH(parse_measurements("[1,2", "x.json"), Catch::Contains("not JSON"));
  CHECK_THROWS_WITH(parse_measurements("{\"format\": \"warpviz-measurements\", \"version\": 7}", "x.json"),
                    Catch::Contains("newer"));
  CHECK_THROWS_WITH(parse_measurements("{\"format\": \"warpviz-measurements\", \"version\": 1, \"latency\": "
                                       "{\"ops\": [{\"op\": \"shfl.idx\"}]}}",
                                       "x.json"),
                    Catch::Contains("x.json"));
  CHECK_THROWS_AS(read_measurements("/nonexistent/h200.json"), MeasurementsError);
}

TEST_CASE("the shipped H200 measurements hold every op, the reductions and the verdicts", "[trace][measurements]") {
  const Measurements m = read_measurements(std::string(WARPVIZ_SOURCE_DIR) + "/assets/measurements/h200.json");
  REQUIRE(m.latency);
  REQUIRE(m.reduce);
  CHECK(m.latency->on.device == "NVIDIA H200");
  CHECK_FALSE(m.latency->on.driver.empty());
  CHECK_FALSE(m.latency->on.date.empty());
  CHECK(m.latency->on.command.find("bench latency") != std::string::npos);
  // Every op the latency benchmark measures, with a latency that is a latency.
  for (const char* op : {"shfl.idx", "shfl.up", "shfl.down", "shfl.bfly", "vote.ballot", "vote.any", "activemask",
                         "match.any", "redux.add", "ld.shared", "st.shared"}) {
    INFO(op);
    const OpCost* c = m.latency->find(op);
    REQUIRE(c);
    CHECK(c->latency_cycles > 0);
    CHECK(c->ops_per_sm_per_cycle > 0);
  }
  REQUIRE(m.latency->find("ld.shared", "32-way conflict"));
  CHECK(m.latency->find("ld.shared", "32-way conflict")->latency_cycles >
        m.latency->find("ld.shared", "conflict-free")->latency_cycles);
  // Every variant summed right, both types, both sizes; CUB is the reference.
  for (const char* dtype : {"f32", "i32"})
    for (int log2_n : {28, 20})
      for (const char* variant : {"a", "b", "c", "d", "e"}) {
        INFO(dtype << " 2^" << log2_n << " " << variant);
        const ReduceTiming* t = m.reduce->find(variant, dtype, log2_n);
        REQUIRE(t);
        CHECK(t->correct);
        CHECK(t->median_ms > 0);
      }
  CHECK(m.reduce->find("e", "f32", 28)->vs_cub == Approx(1.0));
  CHECK(m.verdicts().size() == 4);
}
