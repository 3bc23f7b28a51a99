// A course's grading test for the warp-sum exercise (README.md here): the
// student's file must sum one warp's 32 ints with five __shfl_down_sync
// rounds (offsets 16, 8, 4, 2, 1) and write the total to *total.
//
//   grade_warp_reduce --submission student.cu      (or WARPVIZ_SUBMISSION=student.cu)
//
// Each test reads Prepare / Run / Verify; the run is recorded once, on the
// CPU emulator, and shared by the tests.
#define CATCH_CONFIG_RUNNER
#include <warpviz/testing.h>

#include <cstdlib>
#include <iostream>
#include <random>

using namespace warpviz;
using namespace warpviz::testing;

namespace {

std::string g_submission;

// Prepare: 32 seeded values, positive and negative, and their sum.
struct Exercise {
  std::vector<int> values;
  int sum = 0;
  std::string input_spec;  // "values:v0,v1,..."
};

const Exercise& exercise() {
  static const Exercise e = [] {
    Exercise x;
    std::mt19937 rng(2024);
    std::uniform_int_distribution<int> dist(-1000, 1000);
    x.input_spec = "values:";
    for (int lane = 0; lane < 32; ++lane) {
      x.values.push_back(dist(rng));
      x.sum += x.values.back();
      x.input_spec += (lane ? "," : "") + std::to_string(x.values.back());
    }
    return x;
  }();
  return e;
}

// Run: one warp of 32 threads; `total` holds one int. A run that does not
// compile or crashes throws RunFailed, and each test fails with its message.
const Recording& submission() {
  static const Recording rec =
      record_file(KernelFile(g_submission).grid(1).block(32).input(exercise().input_spec).len("total", 1));
  return rec;
}

}  // namespace

TEST_CASE("the total is the sum of the 32 values", "[grading][sum]") {
  CHECK_THAT(submission().output("total").element(0), HasValue<int>(exercise().sum));
}

TEST_CASE("exactly five shuffles, all shfl.down", "[grading][shuffles]") {
  CHECK_THAT(submission().steps().shuffles(), HasStepCount(5));
  CHECK_THAT(submission().steps().op(Op::ShflDown), HasStepCount(5));
}

TEST_CASE("each round, every lane reads the lane `offset` above it", "[grading][sources]") {
  const StepQuery rounds = submission().steps().op(Op::ShflDown);
  for (int round = 0; round < 5; ++round) {
    const int offset = 16 >> round;
    // shfl.down: lane l reads l + offset; past lane 31 it keeps its own value
    // (the source is itself).
    std::vector<int> expected(32);
    for (int lane = 0; lane < 32; ++lane) expected[size_t(lane)] = lane + offset < 32 ? lane + offset : lane;
    INFO("round " << round << " (offset " << offset << ")");
    CHECK_THAT(rounds.nth(size_t(round)), ReadSources(expected));
  }
}

TEST_CASE("no lane reads an undefined value", "[grading][undefined]") {
  CHECK_THAT(submission().steps(), NoUndefinedReads());
}

int main(int argc, char* argv[]) {
  Catch::Session session;
  using Catch::clara::Opt;
  session.cli(session.cli() |
              Opt(g_submission, "file.cu")["--submission"]("the student's .cu file (else $WARPVIZ_SUBMISSION)"));
  if (const int rc = session.applyCommandLine(argc, argv)) return rc;
  if (g_submission.empty())
    if (const char* env = std::getenv("WARPVIZ_SUBMISSION")) g_submission = env;
  if (g_submission.empty() && !session.configData().listTests && !session.configData().showHelp) {
    std::cerr << "grade_warp_reduce: name the submission: --submission FILE.cu or WARPVIZ_SUBMISSION=FILE.cu\n";
    return 2;
  }
  return session.run();
}
