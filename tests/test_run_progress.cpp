// A run's progress: the record a program keeps while it runs (run_progress.h)
// as the runner reads it, and what the time limit makes of it: slow (threads
// still moving) or stuck (a deadlock, an endless loop).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "terminal_progress.h"
#include "warpviz/user_file.h"

using namespace warpviz;
using namespace warpviz::user;

namespace {

std::string fixture(const std::string& name) { return std::string(WARPVIZ_TEST_USER_FILES) + "/" + name; }

FileRun run_file(const std::string& name, FileRequest request = {}, const RunControl& control = {}) {
  request.path = fixture(name);
  return run_user_file(request, control);
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("the progress record of a program of three launches, as it ends", "[progress][user]") {
  // Prepare / Run
  const FileRun run = run_file("three_launches.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  REQUIRE(run.launches.size() == 3);
  // Verify: the last launch, last_one<<<3, 96>>>, every block and thread of it done.
  const FileProgress& p = run.progress;
  CHECK(p.known);
  CHECK_FALSE(p.in_launch);
  CHECK(p.launches_started == 3);
  CHECK(p.launches_finished == 3);
  CHECK(p.launch == 2);
  CHECK(p.kernel == "last_one");
  CHECK(p.blocks_total == 3);
  CHECK(p.blocks_done == 3);
  CHECK(p.threads_total == 288);
  CHECK(p.threads_done == 288);
  CHECK(p.launch_left_s < 0);  // nothing left to guess
}

TEST_CASE("slow is not stuck: a run still moving at the time limit reports its progress", "[progress][user][hang]") {
  // Prepare: watch the record as the run goes.
  std::vector<FileProgress> seen;
  RunControl control;
  control.on_progress = [&seen](const FileProgress& p) { seen.push_back(p); };
  FileRequest request;
  request.time_limit_s = 2.0;
  // Run
  const FileRun run = run_file("slow_shuffles.cu", request, control);
  INFO(run.message << run.compiler_output << run.program_output);
  // Verify: lanes waited at the shuffle and warps at the barrier all along,
  // yet threads went on finishing: slow, with the figures, never a deadlock.
  CHECK(run.outcome == FileOutcome::Timeout);
  CHECK(has(run.message, "slow, not stuck: stopped after the time limit of 2 s"));
  CHECK(has(run.message, "launch 1 (`churn`): "));
  CHECK(has(run.message, " of 4096 blocks done, "));
  CHECK(has(run.message, " of 1048576 threads finished"));
  CHECK(has(run.message, "(after 1 finished launches)"));
  CHECK_FALSE(has(run.message, "deadlock"));
  REQUIRE_FALSE(seen.empty());
  const FileProgress& last = seen.back();
  CHECK(last.in_launch);
  CHECK(last.kernel == "churn");
  CHECK(last.blocks_total == 4096);
  CHECK(last.blocks_done < 4096);
  CHECK(last.threads_done <= last.threads_total);
  // Within one launch the counts only grow, and the clock runs on.
  for (size_t i = 1; i < seen.size(); ++i)
    if (seen[i].launch == seen[i - 1].launch) {
      CHECK(seen[i].blocks_done >= seen[i - 1].blocks_done);
      CHECK(seen[i].threads_done >= seen[i - 1].threads_done);
      CHECK(seen[i].elapsed_s >= seen[i - 1].elapsed_s);
    }
}

TEST_CASE("threads that keep switching but never finish: not called slow progress, not a deadlock",
          "[progress][user][hang]") {
  FileRequest request;
  request.block = Dim3{64};
  request.time_limit_s = 1.5;
  const FileRun run = run_file("spin_round_ballot.cu", request);
  INFO(run.message << run.compiler_output);
  CHECK(run.outcome == FileOutcome::Timeout);
  CHECK(has(run.message, "its threads still reach warp operations, but none has finished or passed a barrier for "));
  CHECK(has(run.message, "launch 0 (`spin_round_ballot`): 0 of 1 block done, 0 of 64 threads finished"));
  CHECK_FALSE(has(run.message, "slow, not stuck"));
  CHECK_FALSE(has(run.message, "deadlock"));
}

TEST_CASE("stuck is a deadlock only when threads wait for the thread that does not move", "[progress][user][hang]") {
  SECTION("warp 1 spins on a flag warp 0 sets after the barrier it waits at: a deadlock") {
    FileRequest request;
    request.block = Dim3{64};
    request.time_limit_s = 1.5;
    const FileRun run = run_file("deadlock.cu", request);
    INFO(run.message);
    CHECK(run.outcome == FileOutcome::Deadlock);
    CHECK(has(run.message, "deadlock: 32 threads wait at __syncthreads()"));
    CHECK(has(run.message, "without reaching a warp operation, a barrier or its end"));
    CHECK_FALSE(has(run.message, "slow"));
  }
  SECTION("a lane spins on a flag another lane of its warp sets: that lane gets to run, as on an H200") {
    FileRequest request;
    request.time_limit_s = 5.0;
    const FileRun run = run_file("lane_waits_for_lane.cu", request);
    INFO(run.message << run.compiler_output);
    if (!WARPVIZ_HAVE_DEVICE_SEMANTICS_PLUGIN) {
      // Without the plugin's meeting points lanes run one at a time: stuck.
      CHECK(run.outcome == FileOutcome::Timeout);
      CHECK(has(run.message, "without __syncwarp()"));
      return;
    }
    CHECK(run.ok());
    CHECK_FALSE(has(run.message, "deadlock"));
  }
  SECTION("host code that never ends: no kernel runs, so neither slow threads nor a deadlock") {
    FileRequest request;
    request.time_limit_s = 1.0;
    const FileRun run = run_file("slow_host.cu", request);
    INFO(run.message << run.compiler_output);
    CHECK(run.outcome == FileOutcome::Timeout);
    CHECK(has(run.message, "in the program's host code, 1 kernel launch done and none running"));
    CHECK(run.progress.launches_finished == 1);
  }
}

TEST_CASE("the progress figures in words, and the terminal's line cut to fit", "[progress][cli]") {
  FileProgress p;
  p.known = p.in_launch = true;
  p.launch = 2;
  p.kernel = "scan";
  p.launches_finished = 2;
  p.blocks_done = 32;
  p.blocks_total = 128;
  p.threads_done = 4096;
  p.threads_total = 16384;
  p.launch_elapsed_s = 10;
  p.launch_left_s = 30;  // 96 blocks left at 10 s for 32
  p.elapsed_s = 12;
  CHECK(describe_progress(p) ==
        "launch 2 (`scan`): 32 of 128 blocks done, 4096 of 16384 threads finished, 10.0 s into the launch, about 30 s "
        "left of it (after 2 finished launches)");
  CHECK(cli::TerminalProgress::line_for(p, 200) == "warpviz: launch 2 scan: 32/128 blocks, 10.0 s, ~30 s left (12 s in all)");
  const std::string cut = cli::TerminalProgress::line_for(p, 30);
  CHECK(cut.size() == 29);  // one column short of the width: no wrap
  CHECK(cut.back() == '~');
  p.in_launch = false;
  CHECK(cli::TerminalProgress::line_for(p, 200) == "warpviz: host code, 2 launches done (12 s in all)");
}
