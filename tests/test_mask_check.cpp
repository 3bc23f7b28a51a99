// Member masks naming lanes that never arrived (warpviz/mask_check.h): kernels
// run on the emulator, then the check names the missing lanes.
#include <catch2/catch.hpp>
#include <string>

#include "warpviz/backends.h"
#include "warpviz/mask_check.h"
#include "warpviz/scenario.h"

// Catch2 first: record.cuh defines CUDA's built-in names as macros.
#include "warpviz/record.cuh"

using namespace warpviz;

namespace {

template <class Kernel>
Trace launch_one_warp(Kernel body) {
  Trace trace;
  emu::launch_grid(Dim3{1}, Dim3{32}, body, emu::RecordFilter{}, trace);
  trace.meta.block = Dim3{32};  // as a scenario's or a file's run records it
  return trace;
}

}  // namespace

TEST_CASE("a full mask inside if threadIdx.x < 16 names lanes 16-31 as absent", "[emulator][mask]") {
  // Prepare / Run
  const Trace t = launch_one_warp([&] {
    int v = threadIdx.x;
    if (threadIdx.x < 16) v += __shfl_down_sync(0xffffffff, v, 8);
    (void)v;
  });
  // Verify
  REQUIRE(t.steps.size() == 1);
  CHECK(mask_lanes_absent(t.steps[0]) == 0xffff0000u);
  const auto found = steps_with_absent_mask_lanes(t);
  REQUIRE(found.size() == 1);
  CHECK(found[0].step == 0);
  CHECK(found[0].lanes == 0xffff0000u);
  const std::string warning = absent_mask_warning(t, found[0]);
  CHECK(warning.find("mask 0xffffffff") != std::string::npos);
  CHECK(warning.find("lanes 16-31") != std::string::npos);
  CHECK(warning.find("the result is undefined") != std::string::npos);
  CHECK(warning.find("shfl.down") != std::string::npos);
}

TEST_CASE("a mask of exactly the lanes that arrive names none", "[emulator][mask]") {
  const Trace t = launch_one_warp([&] {
    int v = threadIdx.x;
    if (threadIdx.x < 16) v += __shfl_down_sync(0x0000ffff, v, 8);
    v = __shfl_xor_sync(0xffffffff, v, 1);  // converged again: all 32 arrive
    (void)v;
  });
  REQUIRE(t.steps.size() == 2);
  CHECK(mask_lanes_absent(t.steps[0]) == 0);
  CHECK(mask_lanes_absent(t.steps[1]) == 0);
  CHECK(steps_with_absent_mask_lanes(t).empty());
}

TEST_CASE("ops without a member mask are never reported", "[emulator][mask]") {
  const Trace t = launch_one_warp([&] {
    if (threadIdx.x % 2) (void)__activemask();
  });
  REQUIRE(t.steps.size() == 1);
  CHECK(t.steps[0].op == Op::ActiveMask);
  CHECK(mask_lanes_absent(t.steps[0]) == 0);
}

TEST_CASE("a full mask in a partial last warp names no lanes past the block", "[emulator][mask]") {
  Trace t;
  emu::launch_grid(Dim3{1}, Dim3{48}, [&] { (void)__shfl_xor_sync(0xffffffff, int(threadIdx.x), 1); },
                   emu::RecordFilter{}, t);
  t.meta.block = Dim3{48};
  REQUIRE(t.steps.size() == 2);
  CHECK(lanes_in_warp(t.meta.block, 1) == 0x0000ffffu);
  CHECK(lanes_in_warp(Dim3{64}, 1) == 0xffffffffu);
  CHECK(lanes_in_warp(Dim3{16}, 1) == 0u);
  CHECK(steps_with_absent_mask_lanes(t).empty());
  CHECK(mask_lanes_absent(t.steps[1]) == 0xffff0000u);  // counted when every lane is said to exist
}

TEST_CASE("lane ranges join runs of lanes", "[mask]") {
  CHECK(lane_ranges(0) == "");
  CHECK(lane_ranges(0x0000ffffu) == "0-15");
  CHECK(lane_ranges(0x8000000bu) == "0-1, 3, 31");
  CHECK(lane_ranges(0xffffffffu) == "0-31");
  CHECK(lane_ranges(0x80000000u) == "31");
}
