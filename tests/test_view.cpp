// The app's pure view logic: playback timing, the lane layout, arrows and
// labels of real emulator traces, the vote, history and block views, the UI
// strings and the settings file. Expected values come from the kernels' own
// outputs or from hand counts, never from the view code under test.
#include <algorithm>
#include <bit>
#include <cmath>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <tuple>
#include <unistd.h>

#include "warpviz/backends.h"
#include "warpviz/scenario.h"
#include "warpviz/view/block_view.h"
#include "warpviz/view/history.h"
#include "warpviz/view/lane_view.h"
#include "warpviz/view/output_table.h"
#include "warpviz/view/path_view.h"
#include "warpviz/view/play_order.h"
#include "warpviz/view/playback.h"
#include "warpviz/view/round_stops.h"
#include "warpviz/view/settings.h"
#include "warpviz/view/strings.h"
#include "warpviz/view/vote_view.h"
#include "divergent_traces.h"
#include "temp_dir.h"

using namespace warpviz;
using namespace warpviz::view;
namespace fs = std::filesystem;

namespace {

Trace run(const std::string& scenario, std::vector<std::pair<std::string, std::string>> sets = {},
          const std::string& input = "") {
  return run_scenario_cpu(resolve_scenario({scenario, std::move(sets), input}), {});
}

// `t` without its watch steps, each warp's seq counted again: the shape of a
// trace from before the kernels watched `val`, for tests about the ops alone
// (the watch steps' own place is tested beside them).
Trace without_watches(Trace t) {
  TraceSteps kept;
  uint32_t seq = 0;
  for (size_t i = 0; i < t.steps.size(); ++i) {
    TraceStep s = t.steps[i];
    if (i == 0 || s.block != t.steps.block(i - 1) || s.warp != t.steps.warp(i - 1)) seq = 0;
    if (op_is_watch(s.op)) continue;
    s.seq = seq++;
    kept.push_back(s);
  }
  t.steps = std::move(kept);
  return t;
}


size_t first_step_with(const Trace& t, Op op) {
  for (size_t i = 0; i < t.steps.size(); ++i)
    if (t.steps[i].op == op) return i;
  FAIL("no " << op_name(op) << " step");
  return 0;
}

int32_t output_int(const Trace& t, const std::string& name, size_t i) {
  const TraceOutput* o = t.output(name);
  REQUIRE(o != nullptr);
  REQUIRE(i < o->bits.size());
  return int32_t(uint32_t(o->bits[i]));
}

// A fresh directory per test, removed afterwards.
using warpviz::testing_support::TempDir;

}  // namespace

// ---- playback -----------------------------------------------------------------

TEST_CASE("playback advances speed x dt steps while playing", "[playback]") {
  Playback p(10);
  CHECK(p.step() == 0);
  CHECK_FALSE(p.playing());
  CHECK_FALSE(p.advance(1.0));  // paused: nothing moves
  CHECK(p.position() == 0);

  p.set_speed(2);
  p.play();
  CHECK(p.advance(0.5));  // 0.5 s at 2 steps/s: exactly one step
  CHECK(p.step() == 1);
  CHECK(p.transition() == 0);

  CHECK(p.advance(0.125));  // a quarter of the way to step 2
  CHECK(p.step() == 1);
  CHECK(p.transition() == Approx(0.25));
  CHECK(p.eased_transition() == Approx(0.15625));  // smoothstep(0.25)
  CHECK(p.position() == Approx(1.25));

  p.pause();
  CHECK_FALSE(p.advance(1.0));
  CHECK(p.position() == Approx(1.25));
}

TEST_CASE("playback frame times that do not add up exactly still land on steps", "[playback]") {
  Playback p(10);
  p.set_speed(1);
  p.play();
  for (int i = 0; i < 30; ++i) p.advance(0.1);  // 30 x 0.1 is not exactly 3.0 in binary
  CHECK(p.step() == 3);
  CHECK(p.transition() == 0);
}

TEST_CASE("playback stops and pauses at the last step", "[playback]") {
  Playback p(4);
  p.set_speed(20);
  p.play();
  CHECK(p.advance(10.0));
  CHECK(p.step() == 3);
  CHECK(p.transition() == 0);
  CHECK_FALSE(p.playing());
  CHECK_FALSE(p.advance(1.0));
  CHECK(p.step() == 3);

  p.play();  // from the end, play starts over
  CHECK(p.playing());
  CHECK(p.step() == 0);

  Playback single(1);
  single.play();  // one step: nothing to animate
  CHECK_FALSE(single.playing());
  Playback empty;
  empty.step_forward();
  empty.jump_to_end();
  CHECK(empty.step() == 0);
}

TEST_CASE("playback scrub, seek and single steps", "[playback]") {
  Playback p(6);
  p.scrub(2.75);
  CHECK(p.step() == 2);
  CHECK(p.transition() == Approx(0.75));
  p.step_forward();  // mid-transition: to the next whole step
  CHECK(p.step() == 3);
  CHECK(p.transition() == 0);

  p.scrub(3.5);
  p.step_back();
  CHECK(p.step() == 2);
  CHECK(p.transition() == 0);

  p.scrub(-4);
  CHECK(p.position() == 0);
  p.scrub(99);
  CHECK(p.position() == 5);
  p.step_forward();  // stops at the last
  CHECK(p.step() == 5);

  p.seek(0);
  p.step_back();  // stays at the first
  CHECK(p.step() == 0);
  p.seek(100);
  CHECK(p.step() == 5);
  p.jump_to_start();
  CHECK(p.step() == 0);
  p.jump_to_end();
  CHECK(p.step() == 5);

  p.play();
  p.seek(1);
  p.step_forward();  // stepping pauses
  CHECK_FALSE(p.playing());
  CHECK(p.step() == 2);

  p.toggle();
  CHECK(p.playing());
  p.toggle();
  CHECK_FALSE(p.playing());
}

TEST_CASE("playback speed is clamped and the step count keeps the position", "[playback]") {
  Playback p(10);
  p.set_speed(100);
  CHECK(p.speed() == 20);
  p.set_speed(0);
  CHECK(p.speed() == Approx(0.1));
  p.set_speed(3);
  CHECK(p.speed() == 3);

  p.seek(7);
  p.set_step_count(20);
  CHECK(p.step() == 7);
  CHECK(p.step_count() == 20);
  p.set_step_count(5);
  CHECK(p.step() == 4);
  p.set_step_count(0);
  CHECK(p.step() == 0);
}

TEST_CASE("playback holds each landed step while playing", "[playback]") {
  Playback p(6);
  p.set_speed(1);
  p.set_hold(0.5);
  CHECK(p.hold() == 0.5);
  p.play();
  CHECK(p.advance(1.0));  // lands on step 1 and starts holding it
  CHECK(p.step() == 1);
  CHECK(p.transition() == 0);
  CHECK(p.holding());
  CHECK_FALSE(p.advance(0.25));  // held: nothing moves
  CHECK(p.position() == 1);
  p.advance(0.25);  // the hold is over
  CHECK(p.position() == 1);
  CHECK_FALSE(p.holding());
  p.advance(0.5);
  CHECK(p.position() == Approx(1.5));

  // One long frame spends its time moving, holding, moving: 1 s to step 3, 0.5 s held, 0.25 s on.
  p.advance(0.5 + 0.5 + 0.25);
  CHECK(p.position() == Approx(2.25));

  // Stepping, seeking or pausing ends a hold.
  p.seek(1);
  p.play();
  p.advance(1.0);
  CHECK(p.holding());
  p.seek(4);
  CHECK_FALSE(p.holding());
  // The last step is where play stops, hold or not.
  p.advance(10.0);
  CHECK(p.step() == 5);
  CHECK_FALSE(p.playing());

  p.set_hold(60);
  CHECK(p.hold() == 10);  // longer is a pause: the round option
  p.set_hold(-1);
  CHECK(p.hold() == 0);
}

TEST_CASE("playback pauses after each round of the play order", "[playback][playorder]") {
  const Trace t = run("reduce_sum", {{"n", "256"}});  // one block of 8 warps
  Playback p;
  p.set_order(PlayOrder(t, PlayOrderKind::Causal));
  REQUIRE(p.step_count() == t.steps.size());
  p.set_pause_after_round(true);
  p.set_speed(20);
  p.play();
  p.advance(100);  // stops after warp 7's round 1: 8 shuffles, each with its watch of val
  CHECK_FALSE(p.playing());
  CHECK(p.position() == 15);
  CHECK(t.steps[p.step()].warp == 7);
  CHECK(t.steps[p.step()].seq == 1);
  CHECK(op_is_watch(t.steps[p.step()].op));
  p.play();  // on to the end of round 2
  p.advance(100);
  CHECK(p.position() == 31);

  // Per warp, a round is one warp's shuffle.
  p.set_order(PlayOrder(t, PlayOrderKind::PerWarp));
  p.jump_to_start();
  p.play();
  p.advance(100);
  CHECK(p.position() == 1);

  // Without the option, play runs to the end: the block's total.
  p.set_pause_after_round(false);
  p.play();
  p.advance(100);
  CHECK(p.position() == double(t.steps.size() - 1));
}

TEST_CASE("playback maps positions to steps through its order, and keeps the step when the order changes", "[playback][playorder]") {
  const Trace t = without_watches(run("reduce_sum", {{"n", "256"}}));
  Playback p;
  p.set_order(PlayOrder(t, PlayOrderKind::PerWarp));
  p.seek(6);  // stored step 6: warp 0's ld.shared, after its 5 rounds and its store
  CHECK(p.step() == 6);
  REQUIRE(t.steps[6].op == Op::LoadShared);
  p.set_order(PlayOrder(t, PlayOrderKind::Causal));
  CHECK(p.step() == 6);  // the same step, where the causal order plays it: after 40 rounds and 8 stores
  CHECK(p.position() == 48);

  // step()/shown_step() are trace steps, positions the timeline's.
  p.seek_position(1);
  CHECK(t.steps[p.step()].warp == 1);
  CHECK(t.steps[p.step()].seq == 0);
  p.scrub(1.5);
  CHECK(p.shown_position() == 2);
  CHECK(t.steps[p.shown_step()].warp == 2);
  p.step_forward();
  CHECK(p.position() == 2);
  CHECK(p.step() == p.order().step_at(2));
}

// ---- layout -------------------------------------------------------------------

TEST_CASE("layout: 32 cells per row inside the viewport, in order, no overlap", "[layout]") {
  struct Viewport {
    float w, h, dpi;
  };
  const Viewport viewports[] = {{1600, 500, 1}, {1280, 720, 1}, {800, 900, 1}, {320, 160, 1}, {3840, 1000, 2}};
  for (const Viewport& v : viewports) {
    INFO(v.w << "x" << v.h << " dpi " << v.dpi);
    const LaneLayout l = layout_lanes(v.w, v.h, v.dpi);
    REQUIRE(l.cell_w > 0);
    REQUIRE(l.cell_h > 0);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      for (const Rect& r : {l.in_cells[lane], l.out_cells[lane]}) {
        CHECK(r.x >= 0);
        CHECK(r.y >= 0);
        CHECK(r.x + r.w <= v.w);
        CHECK(r.y + r.h <= v.h);
      }
      CHECK(l.in_cells[lane].x == l.out_cells[lane].x);  // a lane's two cells share a column
      if (lane > 0) {
        CHECK(l.in_cells[lane - 1].x + l.in_cells[lane - 1].w < l.in_cells[lane].x);
        CHECK(l.out_cells[lane - 1].x + l.out_cells[lane - 1].w < l.out_cells[lane].x);
      }
    }
    // Inputs above outputs, with room for the arrows between them.
    const float gap = l.out_cells[0].y - (l.in_cells[0].y + l.in_cells[0].h);
    CHECK(gap >= 0.3f * v.h);
    CHECK(gap <= 0.45f * v.h);
    // The cells use the width, and are never much taller than wide.
    CHECK(l.in_cells[31].x + l.in_cells[31].w - l.in_cells[0].x >= 0.8f * v.w);
    CHECK(l.cell_h <= 1.3f * l.cell_w);
    CHECK(l.font_px > 0);
    CHECK(l.font_px <= l.cell_h);
  }
}

TEST_CASE("layout: text grows with the cells and the DPI", "[layout]") {
  const LaneLayout small = layout_lanes(800, 300, 1);
  const LaneLayout large = layout_lanes(2400, 900, 1);
  CHECK(large.cell_w > 2.5f * small.cell_w);
  CHECK(large.font_px > 2.5f * small.font_px);

  // A tiny panel on a high-DPI screen keeps a larger minimum size.
  CHECK(layout_lanes(400, 120, 2).font_px > layout_lanes(400, 120, 1).font_px);

  // Nothing to lay out in an empty viewport, but nothing negative either.
  const LaneLayout none = layout_lanes(0, 0, 1);
  CHECK(none.cell_w == 0);
  CHECK(none.cell_h == 0);
}

TEST_CASE("travelling value rides its arrow from the source cell to the destination cell", "[layout]") {
  const LaneLayout l = layout_lanes(1600, 600, 1);
  const Arrow arrow{16, 0, ArrowKind::Read};
  // The arrow leaves the bottom of the source cell and ends on top of the destination cell.
  const Point start = travelling_value(l, arrow, 0);
  const Point end = travelling_value(l, arrow, 1);
  CHECK(start.x == Approx(l.in_cells[16].cx()));
  CHECK(start.y == Approx(l.in_cells[16].y + l.in_cells[16].h));
  CHECK(end.x == Approx(l.out_cells[0].cx()));
  CHECK(end.y == Approx(l.out_cells[0].y));

  // The value is where the drawn curve is, all the way (clamped outside 0..1).
  const ArrowCurve curve = arrow_curve(l, arrow);
  for (float t : {0.0f, 0.1f, 0.25f, 0.5f, 0.8f, 1.0f}) {
    CHECK(travelling_value(l, arrow, t).x == Approx(curve.at(t).x));
    CHECK(travelling_value(l, arrow, t).y == Approx(curve.at(t).y));
  }
  CHECK(travelling_value(l, arrow, -1).x == Approx(start.x));
  CHECK(travelling_value(l, arrow, 2).y == Approx(end.y));
  CHECK(travelling_value(l, arrow, std::nanf("")).x == Approx(start.x));

  // Midway it is off the straight line (a slight arc), but not far off, and
  // above it: the arc bows upward.
  const Point mid = travelling_value(l, arrow, 0.5f);
  const float line_x = (start.x + end.x) / 2, line_y = (start.y + end.y) / 2;
  const float off = std::hypot(mid.x - line_x, mid.y - line_y);
  const float length = std::hypot(end.x - start.x, end.y - start.y);
  CHECK(off > 0.02f * length);
  CHECK(off < 0.25f * length);
  CHECK(mid.y < line_y);

  // A lane reading itself goes straight down.
  const Arrow self{20, 20, ArrowKind::Read};
  CHECK(travelling_value(l, self, 0.5f).x == Approx(l.in_cells[20].cx()));
  CHECK(travelling_value(l, self, 0.5f).y == Approx((l.in_cells[20].y + l.in_cells[20].h + l.out_cells[20].y) / 2));

  // A lane keeping its own value loops out to the side and back.
  const Arrow own{20, 20, ArrowKind::KeepOwn};
  const Point own_mid = travelling_value(l, own, 0.5f);
  CHECK(own_mid.x > l.in_cells[20].cx() + 0.3f * l.cell_w);
  CHECK(own_mid.x < l.in_cells[20].cx() + l.cell_w);
  CHECK(travelling_value(l, own, 1).x == Approx(l.out_cells[20].cx()));
}

TEST_CASE("an arrow between far lanes stays in the gap between the rows", "[layout]") {
  // Lane 31 to lane 0 in a wide, low panel: a 0.12 bow of its length would
  // climb into the top row's cells.
  for (const LaneLayout& l : {layout_lanes(1600, 300, 1), layout_lanes(2400, 500, 1), layout_lanes(900, 400, 2)}) {
    const float gap_top = l.in_cells[0].y + l.in_cells[0].h, gap_bottom = l.out_cells[0].y;
    for (const Arrow& arrow : {Arrow{31, 0, ArrowKind::Read}, Arrow{0, 31, ArrowKind::Read}, Arrow{1, 2, ArrowKind::Read}}) {
      const ArrowCurve curve = arrow_curve(l, arrow);
      for (int i = 0; i <= 20; ++i) {
        const Point p = curve.at(float(i) / 20);
        CHECK(p.y >= gap_top - 0.01f);
        CHECK(p.y <= gap_bottom + 0.01f);
      }
      // Still a bow, not a straight line.
      const Point mid = curve.at(0.5f);
      CHECK(mid.y < (curve.from.y + curve.to.y) / 2 - 0.5f);
    }
  }
}

// ---- lane frames ----------------------------------------------------------------

TEST_CASE("lane frame of warp_sum: reads, kept values, labels", "[lanes]") {
  const Trace t = run("warp_sum");  // f32, iota
  REQUIRE(t.steps.size() == 10);  // five shuffles, a watch of val after each

  const LaneFrame f = lane_frame(t, 0, false);
  REQUIRE(f.cells.size() == 32);
  REQUIRE(f.arrows.size() == 32);
  CHECK(place_label(f, Language::English) == "round 1/5");
  CHECK(f.op_label == "shfl.down  delta 16  width 32  mask 0xffffffff");
  for (const Arrow& a : f.arrows) {
    INFO("lane " << a.to_lane);
    if (a.to_lane < 16) {
      CHECK(a.kind == ArrowKind::Read);
      CHECK(a.from_lane == a.to_lane + 16);
      CHECK(f.cells[a.to_lane].state == CellState::Active);
    } else {
      CHECK(a.kind == ArrowKind::KeepOwn);
      CHECK(a.from_lane == a.to_lane);
      CHECK(f.cells[a.to_lane].state == CellState::OutOfRange);
    }
  }
  CHECK(f.arrows[0].from_lane == 16);
  CHECK(f.cells[3].in_text == "3");
  CHECK(f.cells[3].out_text == "19");   // lane 3 reads lane 19's 19
  CHECK(f.cells[20].out_text == "20");  // out of range: its own

  const LaneFrame hex = lane_frame(t, 0, true);
  CHECK(hex.cells[3].in_text == "0x40400000");  // 3.0f

  const LaneFrame last = lane_frame(t, 8, false);
  CHECK(place_label(last, Language::English) == "round 5/5");
  CHECK(last.op_label == "shfl.down  delta 1  width 32  mask 0xffffffff");
  CHECK(last.arrows[0].from_lane == 1);
  CHECK(last.arrows[31].kind == ArrowKind::KeepOwn);

  CHECK(lane_frame(t, 99, false).cells.empty());  // past the end: nothing to draw

  // The watch of val after the round shows the round completed: the same
  // reads, and val after the += in the third row. Its place is its own: a step.
  const LaneFrame watch = lane_frame(t, 1, false);
  CHECK(watch.op_label == "watch  val  f32  \u00b7  shfl.down  delta 16  width 32  mask 0xffffffff");
  CHECK(watch.landed);
  CHECK(watch.arrows.size() == 32);
  REQUIRE(watch.cells.size() == 32);
  CHECK(watch.cells[3].in_text == "3");
  CHECK(watch.cells[3].out_text == "19");
  CHECK(watch.cells[3].after_text == "22");  // 3 + 19
  CHECK(watch.after_name == "val");
  // The watch closes round 1: it says the round, not a step of its own.
  CHECK(watch.is_round);
  CHECK(place_label(watch, Language::English) == "round 1/5");
}

TEST_CASE("layout: a third row under the out row, no overlap, no smaller text", "[layout]") {
  for (auto [w, h, dpi] : {std::tuple{1600.f, 500.f, 1.f}, {1280.f, 720.f, 1.f}, {320.f, 160.f, 1.f}, {3840.f, 1000.f, 2.f}}) {
    INFO(w << "x" << h << " dpi " << dpi);
    const LaneLayout two = layout_lanes(w, h, dpi);
    const LaneLayout three = layout_lanes(w, h, dpi, true);
    CHECK_FALSE(two.has_after);
    CHECK(two.after_cells[0].h == 0);
    REQUIRE(three.has_after);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const Rect& out = three.out_cells[lane];
      const Rect& after = three.after_cells[lane];
      CHECK(after.x == out.x);  // one column per lane
      CHECK(after.y > out.y + out.h);  // below, apart
      CHECK(after.y + after.h <= h);
      CHECK(out.y > three.in_cells[lane].y + three.in_cells[lane].h);
    }
    // The arrows keep room, and the values a readable size.
    CHECK(three.out_cells[0].y - (three.in_cells[0].y + three.in_cells[0].h) >= 0.25f * h);
    CHECK(three.font_px >= 7.0f * dpi);
    CHECK(three.font_px <= three.cell_h);
  }
}

TEST_CASE("lane frames of reductions: val after each round in a third row", "[lanes][watch]") {
  const Trace sum = run("warp_sum", {}, "iota");
  const LaneFrame round1 = lane_frame(sum, 0, false);
  REQUIRE(round1.cells.size() == 32);
  CHECK(round1.after_name == "val");
  CHECK(round1.combine == Combine::Add);
  CHECK_FALSE(round1.landed);
  CHECK(round1.cells[0].after_text == "16");  // 0 + lane 16's 16
  CHECK(round1.cells[20].after_text == "40");  // out of range: 20 + its own 20
  CHECK(after_label(round1, Language::English) == "val after +=");
  CHECK(after_label(round1, Language::Chinese) == "val 相加之后");

  // Round 2 reads 8 lanes down; every lane's val after round 1 is lane + (lane + 16).
  const LaneFrame round2 = lane_frame(sum, 2, false);
  CHECK(place_label(round2, Language::English) == "round 2/5");
  CHECK(lane_summary(round2, 3, Language::English) == "lane 3 \u2190 lane 11: 38; val 22 + 38 = 60");
  CHECK(lane_summary(round1, 20, Language::English) ==
        "lane 20 keeps its own value (source out of range): 20; val 20 + 20 = 40");
  CHECK(lane_summary(round1, 40, Language::English).empty());

  // Without a watch after it, a shuffle has no third row and its tooltip is the read.
  const Trace plain = run("shfl", {{"op", "down"}, {"arg", "8"}});
  const LaneFrame shfl = lane_frame(plain, first_step_with(plain, Op::ShflDown), false);
  CHECK(shfl.after_name.empty());
  CHECK(shfl.cells[3].after_text.empty());
  CHECK(lane_summary(shfl, 3, Language::English) == "lane 3 \u2190 lane 11: " + shfl.cells[3].out_text);

  // The xor butterfly: after its last round every lane holds the total, 0 + ... + 31.
  const Trace xor_sum = run("warp_sum_xor", {}, "iota");
  size_t last = 0;
  for (size_t i = 0; i < xor_sum.steps.size(); ++i)
    if (op_is_shuffle(xor_sum.steps[i].op)) last = i;
  const LaneFrame final_round = lane_frame(xor_sum, last, false);
  CHECK(place_label(final_round, Language::English) == "round 5/5");
  for (const LaneCell& cell : final_round.cells) {
    INFO("lane " << cell.lane);
    CHECK(cell.after_text == "496");
  }
  // Pressing on to the watch shows the same round, landed.
  const LaneFrame landed = lane_frame(xor_sum, last + 1, false);
  CHECK(landed.landed);
  CHECK(landed.cells[17].after_text == "496");
  CHECK(landed.arrows.size() == final_round.arrows.size());

  // fmaxf instead of +=: the values say which.
  const Trace max = run("warp_max");
  const LaneFrame max_round = lane_frame(max, first_step_with(max, Op::ShflDown), false);
  CHECK(max_round.combine == Combine::Max);
  CHECK(after_label(max_round, Language::English) == "val after max");
  CHECK(lane_summary(max_round, 0, Language::English).find("; val max(") != std::string::npos);
}

TEST_CASE("history: watched values or op results, and the source lane of each read", "[history][watch]") {
  const Trace t = run("warp_sum", {}, "iota");
  CHECK(trace_has_watches(t));
  CHECK_FALSE(trace_has_watches(run("shfl", {{"op", "down"}, {"arg", "8"}})));

  const HistoryTable watched = history_table(t, 0, 0, false, HistoryColumns::Watched);
  REQUIRE(watched.step_indices.size() == 5);
  for (size_t i : watched.step_indices) CHECK(op_is_watch(t.steps[i].op));
  // Lane 0's running sum, round by round: 0 + 16, then + lane 8's 8 + 24, ...
  const char* lane0[] = {"16", "48", "112", "240", "496"};
  for (size_t c = 0; c < 5; ++c) CHECK(watched.cells[0][c].text == lane0[c]);
  CHECK(watched.cells[0][0].src == -1);  // a watch reads from no lane

  const HistoryTable ops = history_table(t, 0, 0, false, HistoryColumns::OpResults);
  REQUIRE(ops.step_indices.size() == 5);
  for (size_t i : ops.step_indices) CHECK(op_is_shuffle(t.steps[i].op));
  CHECK(ops.cells[3][0].text == "19");
  CHECK(ops.cells[3][0].src == 19);
  CHECK(ops.cells[3][1].src == 11);  // round 2: 8 lanes down

  CHECK(history_table(t, 0, 0, false).step_indices.size() == 10);  // all, as before

  // The playback's step finds its round's column in either table.
  CHECK(history_column(t, watched, 0) == 0);  // a shuffle: its watch
  CHECK(history_column(t, watched, 3) == 1);
  CHECK(history_column(t, ops, 3) == 1);      // a watch: its shuffle
  CHECK(history_column(t, ops, 2) == 1);
  CHECK(history_column(t, ops, 99) == -1);
}

TEST_CASE("lane frame marks reads of inactive lanes as undefined", "[lanes]") {
  const Trace t = run("shfl", {{"op", "down"}, {"arg", "8"}, {"mask", "0x0000ffff"}});
  REQUIRE(t.steps.size() == 1);
  const LaneFrame f = lane_frame(t, 0, false);
  CHECK(f.op_label == "shfl.down  delta 8  width 32  mask 0x0000ffff");
  REQUIRE(f.arrows.size() == 16);  // one per active lane
  for (const Arrow& a : f.arrows) {
    INFO("lane " << a.to_lane);
    CHECK(a.from_lane == a.to_lane + 8);
    CHECK(a.kind == (a.to_lane < 8 ? ArrowKind::Read : ArrowKind::Undefined));
  }
  for (int lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    const CellState expected = lane < 8 ? CellState::Active : lane < 16 ? CellState::Undefined : CellState::Inactive;
    CHECK(f.cells[lane].state == expected);
    CHECK(f.cells[lane].in_text.empty() == (lane >= 16));
  }
  CHECK(f.cells[0].out_text == "8");
}

TEST_CASE("lane frame labels name each op's operands", "[lanes]") {
  const Trace idx = run("shfl", {{"op", "idx"}, {"arg", "5"}, {"width", "8"}});
  CHECK(lane_frame(idx, 0, false).op_label == "shfl.idx  srcLane 5  width 8  mask 0xffffffff");
  const Trace x = run("shfl", {{"op", "xor"}, {"arg", "9"}, {"c", "0x181f"}});
  CHECK(lane_frame(x, 0, false).op_label == "shfl.bfly  laneMask 9  c 0x0000181f  mask 0xffffffff");

  const Trace vote = run("vote");
  const size_t ballot = first_step_with(vote, Op::Ballot);
  const LaneFrame vf = lane_frame(vote, ballot, false);
  CHECK(vf.op_label == "vote.ballot  mask 0xffffffff");
  CHECK(vf.arrows.empty());  // arrows are for shuffles
  CHECK(vf.cells[0].out_text == format_hex(DType::U32, vote.steps[ballot].lanes[0].out));  // masks read as hex

  const Trace redux = run("redux");
  CHECK(lane_frame(redux, 0, false).op_label == "redux.add  mask 0xffffffff");
  // redux is one instruction a step, not a round of shuffles: "step", numbered as the timeline.
  CHECK(place_label(lane_frame(redux, 0, false), Language::English) == "step 1/" + std::to_string(redux.steps.size()));
  const LaneFrame ballot_frame = lane_frame(vote, ballot, false);
  CHECK_FALSE(ballot_frame.is_round);
  CHECK(place_label(ballot_frame, Language::English) ==
        "step " + std::to_string(ballot + 1) + "/" + std::to_string(vote.steps.size()));
}

TEST_CASE("lane frame of shared-memory steps shows each lane's byte address", "[lanes][bank]") {
  // tile[l][0] of a 32 x 33 float tile: lane l at byte 132 l, where it reads element 33 l.
  const Trace load = run("bank", {{"pattern", "column"}, {"cols", "33"}});
  REQUIRE(load.steps.size() == 1);
  const LaneFrame lf = lane_frame(load, 0, false);
  CHECK(lf.arrows.empty());
  CHECK(lf.cells[0].in_text == "@0");
  CHECK(lf.cells[5].in_text == "@660");
  CHECK(lf.cells[5].out_text == "165");  // the fill: every element's first word is its index
  // A store brings its value (the default input: 100 + lane) to its address.
  const Trace store = run("bank", {{"pattern", "row"}, {"op", "store"}});
  const LaneFrame sf = lane_frame(store, 0, false);
  CHECK(sf.cells[3].in_text == "103");
  CHECK(sf.cells[3].out_text == "@12");
}

// ---- votes ----------------------------------------------------------------------

TEST_CASE("ballot view of the vote scenario matches the hardware's ballot", "[votes]") {
  const Trace t = run("vote");  // random:1, value > 0
  const TraceStep& step = t.steps[first_step_with(t, Op::Ballot)];
  const auto v = ballot_view(step);
  REQUIRE(v.has_value());

  uint32_t expected = 0;  // independently: lanes whose predicate was non-zero
  for (int lane = 0; lane < 32; ++lane)
    if (uint32_t(step.lanes[lane].in) != 0) expected |= 1u << lane;
  CHECK(v->ballot == expected);
  CHECK(v->ballot == uint32_t(step.lanes[0].out));
  CHECK(v->ballot != 0);
  CHECK(v->ballot != 0xffffffffu);
  for (int lane = 0; lane < 32; ++lane) CHECK(v->predicate[lane] == bool((expected >> lane) & 1));
  CHECK(v->popc == output_int(t, "count", 0));
  CHECK(v->first_lane == output_int(t, "first", 0));
  CHECK(v->ffs == v->first_lane + 1);

  CHECK(ballot_view(t.steps[first_step_with(t, Op::Any)]).has_value());
  CHECK_FALSE(ballot_view(run("warp_sum").steps[0]).has_value());
}

TEST_CASE("ballot view with a partial mask counts only the voting lanes", "[votes]") {
  const Trace t = run("vote", {{"mask", "0x0000ffff"}}, "ones");
  const auto v = ballot_view(t.steps[first_step_with(t, Op::Ballot)]);
  REQUIRE(v.has_value());
  CHECK(v->ballot == 0x0000ffffu);
  CHECK(v->popc == 16);
  CHECK(v->first_lane == 0);
  CHECK(v->active[15]);
  CHECK_FALSE(v->active[16]);
}

TEST_CASE("compaction slots", "[votes]") {
  const auto hand = compaction_slots(0b1011);
  CHECK(hand[0].slot == 0);
  CHECK(hand[1].slot == 1);
  CHECK(hand[2].slot == -1);
  CHECK(hand[3].slot == 2);
  CHECK(hand[31].slot == -1);
  CHECK(compaction_slots(0xffffffffu)[31].slot == 31);

  // Against the compact kernel's own slot output.
  const Trace t = run("compact");
  const auto v = ballot_view(t.steps[first_step_with(t, Op::Ballot)]);
  REQUIRE(v.has_value());
  const auto slots = compaction_slots(v->ballot);
  REQUIRE(slots.size() == 32);
  for (int lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    CHECK(slots[lane].lane == lane);
    CHECK(slots[lane].slot == output_int(t, "slot", lane));
  }
}

TEST_CASE("match groups of the match scenario agree with match.any's masks", "[votes]") {
  const Trace t = run("match");  // 3,1,4,1,5,9,2,6,5,3,5,8,...
  const TraceStep& step = t.steps[first_step_with(t, Op::MatchAny)];
  const auto groups = match_groups(step);
  CHECK(groups[0] == 0);  // 3
  CHECK(groups[1] == 1);  // 1
  CHECK(groups[2] == 2);  // 4
  CHECK(groups[3] == 1);  // 1 again
  CHECK(groups[4] == 3);  // 5
  std::set<int> ids(groups.begin(), groups.end());
  CHECK(ids == std::set<int>{0, 1, 2, 3, 4, 5, 6, 7, 8});  // nine distinct values, dense ids
  for (int a = 0; a < 32; ++a)
    for (int b = 0; b < 32; ++b) {
      INFO("lanes " << a << " and " << b);
      CHECK((groups[a] == groups[b]) == bool((step.lanes[a].out >> b) & 1));
    }

  const Trace half = run("match", {{"mask", "0x0000ffff"}});
  const auto half_groups = match_groups(half.steps[first_step_with(half, Op::MatchAny)]);
  for (int lane = 16; lane < 32; ++lane) CHECK(half_groups[lane] == -1);
  CHECK(half_groups[0] == 0);
}

// ---- history --------------------------------------------------------------------

TEST_CASE("history table of warp_sum: dims, texts, heat and clicks", "[history]") {
  const Trace t = run("warp_sum");
  const HistoryTable h = history_table(t, 0, 0, false);
  REQUIRE(h.step_indices.size() == 10);  // the shuffles and the watches of val between them
  REQUIRE(h.cells.size() == 32);
  for (const auto& row : h.cells) CHECK(row.size() == 10);

  // A click on column c shows that step: its round (a shuffle) or the watched
  // val (the running sum after that round), and values.
  for (size_t c = 0; c < h.step_indices.size(); ++c) {
    Playback p(t.steps.size());
    p.seek(h.step_indices[c]);
    CHECK(t.steps[p.step()].seq == c);
    const LaneFrame f = lane_frame(t, p.step(), false);
    if (c % 2 == 0) {
      CHECK(place_label(f, Language::English) == "round " + std::to_string(c / 2 + 1) + "/5");
      CHECK(h.cells[7][c].text == f.cells[7].out_text);
    } else {
      // The watch shows its round completed, the watched val in the third row.
      CHECK(f.landed);
      CHECK(f.op_label.rfind("watch  val", 0) == 0);
      CHECK(h.cells[7][c].text == f.cells[7].after_text);
    }
  }
  CHECK(h.cells[0][9].text == "496");  // the last watch: lane 0's sum

  // Step 0 reads 16..31 (lanes 0-15 from above, 16-31 their own): lowest and highest.
  CHECK(h.cells[0][0].text == "16");
  CHECK(h.cells[0][0].heat == 0);
  CHECK(h.cells[15][0].heat == 1);
  CHECK(h.cells[31][0].heat == 1);  // equal values, equal heat
  CHECK(h.cells[8][0].heat == Approx(8.0 / 15));
  CHECK(h.cells[5][0].active);
  CHECK_FALSE(h.cells[5][0].undefined);

  CHECK(history_table(t, 0, 0, true).cells[0][0].text == "0x41800000");  // 16.0f
}

TEST_CASE("history table of one warp of a multi-warp trace", "[history]") {
  const Trace t = run("reduce_sum");
  const HistoryTable w3 = history_table(t, 1, 3, false);
  REQUIRE(w3.step_indices.size() == 11);  // five rounds with their watches, lane 0's warpSums store
  for (size_t i : w3.step_indices) {
    CHECK(t.steps[i].block == 1);
    CHECK(t.steps[i].warp == 3);
  }
  CHECK(history_table(t, 0, 0, false).step_indices.size() == 22);  // warp 0 reduces twice, stores and loads

  const HistoryTable none = history_table(t, 0, 31, false);
  CHECK(none.step_indices.empty());
  CHECK(none.cells.size() == 32);

  // Undefined reads never count as hot or cold.
  const Trace u = run("shfl", {{"op", "down"}, {"arg", "8"}, {"mask", "0x0000ffff"}});
  const HistoryTable hu = history_table(u, 0, 0, false);
  CHECK(hu.cells[9][0].undefined);
  CHECK(hu.cells[9][0].heat == 0);
  CHECK(hu.cells[7][0].heat == 1);  // 15, the largest defined read
  CHECK_FALSE(hu.cells[20][0].active);
  CHECK(hu.cells[20][0].text.empty());
}

// ---- block view -----------------------------------------------------------------

TEST_CASE("block view of reduce_sum with ones", "[block]") {
  const Trace t = run("reduce_sum");  // n 1024, block 256, ones
  const BlockView b = block_view(t, 0);
  REQUIRE(b.warps.size() == 8);
  const TraceStep& final_first = t.steps[b.final_round.at(0)];
  for (uint32_t w = 0; w < 8; ++w) {
    INFO("warp " << w);
    CHECK(b.warps[w].warp == w);
    CHECK(b.warps[w].value == "32");
    const TraceStep& last = t.steps[b.warps[w].last_step];
    CHECK(last.warp == w);
    CHECK(last.seq == 9);  // the watch after the fifth shuffle closes the phase
    // Lane 0 alone writes warpSums[w], right after its five rounds.
    const TraceStep& store = t.steps[b.warps[w].store_step];
    CHECK(store.op == Op::StoreShared);
    CHECK(store.warp == w);
    CHECK(store.seq == 10);  // after five rounds and their watches
    CHECK(store.lanes[0].active());
    CHECK_FALSE(store.lanes[1].active());
    CHECK(store.lanes[0].addr == 4 * w);  // float warpSums[32]: slot w
    // The slot is what warp 0's lane w reads back for the final round.
    CHECK(format_value(final_first.dtype, final_first.lanes[w].in) == b.warps[w].value);
  }
  // Warp 0 reads the eight slots (lanes 0-7), then reduces them in five rounds.
  REQUIRE(b.load_step != view::kNoStep);
  const TraceStep& load = t.steps[b.load_step];
  CHECK(load.op == Op::LoadShared);
  CHECK(load.warp == 0);
  for (int lane = 0; lane < 32; ++lane) CHECK(load.lanes[lane].active() == (lane < 8));
  REQUIRE(b.final_round.size() == 5);
  for (size_t k = 0; k < 5; ++k) {
    CHECK(t.steps[b.final_round[k]].warp == 0);
    CHECK(t.steps[b.final_round[k]].seq == 12 + 2 * k);  // each round: a shuffle, then its watch
  }
  CHECK(b.output_step == b.final_round.back() + 1);  // the last round's watch of val
  CHECK(b.final_end == b.output_step + 1);
  CHECK(b.block_output == "256");
  CHECK(b.all_block_outputs == std::vector<std::string>(4, "256"));

  const BlockView b3 = block_view(t, 3);
  CHECK(b3.block == 3);
  CHECK(b3.warps.size() == 8);
  CHECK(b3.block_output == "256");

  const BlockView missing = block_view(t, 40);
  CHECK(missing.warps.empty());
  CHECK(missing.final_round.empty());
  CHECK(missing.block_output.empty());
}

TEST_CASE("block view of reduce_int with iota", "[block]") {
  const Trace t = run("reduce_int");  // n 1024, block 256, iota
  const BlockView b = block_view(t, 1);
  REQUIRE(b.warps.size() == 8);
  for (uint32_t w = 0; w < 8; ++w) {
    const int64_t first = 256 + 32 * int64_t(w);
    CHECK(b.warps[w].value == std::to_string(32 * first + 496));  // first + ... + first+31
  }
  CHECK(b.block_output == std::to_string(256 * 256 + 32640));  // 256 + ... + 511
  CHECK(b.all_block_outputs.size() == 4);
  CHECK(b.all_block_outputs[0] == "32640");
}

// ---- play order -------------------------------------------------------------------

namespace {

// reduce_sum's float lane 0 after a `val += shfl` step: what it read plus what it had.
float lane0_sum(const TraceStep& s) {
  return std::bit_cast<float>(uint32_t(s.lanes[0].in)) + std::bit_cast<float>(uint32_t(s.lanes[0].out));
}

}  // namespace

TEST_CASE("causal order of reduce_sum: first rounds side by side, the warpSums writes, then warp 0", "[playorder]") {
  // Prepare: 4 blocks of 8 warps (n 1024, block 256); the shuffles and the
  // shared accesses (the watches after each round: see the test below).
  const Trace t = without_watches(run("reduce_sum"));
  const PlayOrder order(t, PlayOrderKind::Causal);
  REQUIRE(order.size() == t.steps.size());
  // Run / Verify: every step plays exactly once, and position_of inverts step_at.
  std::set<size_t> played;
  for (size_t p = 0; p < order.size(); ++p) {
    played.insert(order.step_at(p));
    CHECK(order.position_of(order.step_at(p)) == p);
  }
  CHECK(played.size() == t.steps.size());

  // Block 0: 8 warps x 5 rounds, then 8 stores, then warp 0's load and 5 final rounds.
  size_t p = 0;
  for (uint32_t round = 0; round < 5; ++round) {
    for (uint32_t warp = 0; warp < 8; ++warp, ++p) {
      const TraceStep& s = t.steps[order.step_at(p)];
      INFO("position " << p);
      CHECK(s.block == 0);
      CHECK(s.warp == warp);
      CHECK(s.op == Op::ShflDown);
      CHECK(s.seq == round);
      CHECK(s.args.b == (16 >> round));
      CHECK(order.ends_round(p) == (warp == 7));  // a round ends with its last warp
    }
  }
  for (uint32_t warp = 0; warp < 8; ++warp, ++p) {
    const TraceStep& s = t.steps[order.step_at(p)];
    CHECK(s.op == Op::StoreShared);
    CHECK(s.warp == warp);
    CHECK(order.ends_round(p) == (warp == 7));
  }
  CHECK(t.steps[order.step_at(p)].op == Op::LoadShared);
  CHECK(t.steps[order.step_at(p)].warp == 0);
  CHECK(order.ends_round(p++));
  for (uint32_t round = 0; round < 5; ++round, ++p) {
    const TraceStep& s = t.steps[order.step_at(p)];
    CHECK(s.warp == 0);
    CHECK(s.op == Op::ShflDown);
    CHECK(s.args.b == (16 >> round));
    CHECK(order.ends_round(p));
  }
  // Blocks follow one another: block 1 starts right after block 0's total.
  CHECK(t.steps[order.step_at(p)].block == 1);
  CHECK(t.steps[order.step_at(p - 1)].block == 0);

  // End lands on the block's total: lane 0 of the last block's last final round.
  const TraceStep& last = t.steps[order.step_at(order.size() - 1)];
  const TraceOutput* out = t.output("out");
  REQUIRE(out != nullptr);
  CHECK(last.warp == 0);
  CHECK(last.block == out->bits.size() - 1);
  CHECK(lane0_sum(last) == std::bit_cast<float>(uint32_t(out->bits[last.block])));
  CHECK(order.ends_round(order.size() - 1));
}

TEST_CASE("per-warp order is the stored one; a single warp plays as stored either way", "[playorder]") {
  const Trace t = run("reduce_int");
  const PlayOrder per_warp(t, PlayOrderKind::PerWarp);
  REQUIRE(per_warp.size() == t.steps.size());
  for (size_t i = 0; i < t.steps.size(); ++i) {
    CHECK(per_warp.step_at(i) == i);
    CHECK(per_warp.position_of(i) == i);
    // Each op is one warp's round; a shuffle's round ends with the watch after it.
    const bool watch_follows = i + 1 < t.steps.size() && op_is_watch(t.steps[i + 1].op) &&
                               t.steps[i + 1].block == t.steps[i].block && t.steps[i + 1].warp == t.steps[i].warp;
    CHECK(per_warp.ends_round(i) == !watch_follows);
  }
  // The causal order differs for this multi-warp trace.
  const PlayOrder causal(t, PlayOrderKind::Causal);
  CHECK(causal.step_at(2) != 2);  // position 1 is warp 0's watch, 2 warp 1's first shuffle

  for (const char* scenario : {"warp_sum", "vote", "test_shuffle"}) {
    const Trace one = run(scenario);
    INFO(scenario);
    REQUIRE(one.meta.block.count() == 32);
    const PlayOrder order(one, PlayOrderKind::Causal);
    REQUIRE(order.size() == one.steps.size());
    for (size_t i = 0; i < one.steps.size(); ++i) CHECK(order.step_at(i) == i);
  }
  // Without a trace: the stored order of n steps.
  const PlayOrder plain(4);
  CHECK(plain.step_at(2) == 2);
  CHECK(plain.step_at(9) == 3);
  CHECK(plain.phase(0) == nullptr);
  CHECK(PlayOrder().step_at(0) == 0);

  PlayOrderKind kind = PlayOrderKind::Causal;
  CHECK(parse_play_order(play_order_id(PlayOrderKind::PerWarp), &kind));
  CHECK(kind == PlayOrderKind::PerWarp);
  CHECK_FALSE(parse_play_order("sideways", &kind));
}

TEST_CASE("a step that records a value plays with the round of the shuffle before it", "[playorder]") {
  // Prepare: one block of reduce_sum; every shuffle is followed by a watch of val.
  const Trace t = run("reduce_sum", {{"n", "256"}});
  // Run
  const PlayOrder order(t, PlayOrderKind::Causal);
  // Verify: each warp's shuffle, then its watch, warp by warp, round by round.
  for (uint32_t round = 0; round < 5; ++round)
    for (uint32_t warp = 0; warp < 8; ++warp) {
      const size_t p = 16 * round + 2 * warp;
      const TraceStep& shuffle = t.steps[order.step_at(p)];
      const TraceStep& watch = t.steps[order.step_at(p + 1)];
      INFO("round " << round << " warp " << warp);
      CHECK(shuffle.op == Op::ShflDown);
      CHECK(shuffle.warp == warp);
      CHECK(shuffle.args.b == (16 >> round));
      CHECK(watch.op == Op::Watch);
      CHECK(watch.warp == warp);
      CHECK(watch.seq == shuffle.seq + 1);
      CHECK_FALSE(order.ends_round(p));
      CHECK(order.ends_round(p + 1) == (warp == 7));
      // Its label is its round's.
      CHECK(position_label(t, order, p + 1, Language::English) ==
            "first reduction, round " + std::to_string(round + 1) + "/5");
    }
  CHECK(t.steps[order.step_at(80)].op == Op::StoreShared);
  // The block view still finds five final rounds, each a shuffle and its watch.
  const BlockView b = block_view(t, 0);
  REQUIRE(b.final_round.size() == 5);
  for (size_t r = 0; r < 5; ++r) CHECK(t.steps[b.final_round[r]].op == Op::ShflDown);
  CHECK(t.steps[b.output_step].op == Op::Watch);  // the output shows after the last round's watch
  CHECK(b.warps.size() == 8);
  CHECK(b.warps[3].value == "32");
}

TEST_CASE("phase labels say the two reductions in words", "[playorder][strings]") {
  const Trace t = run("reduce_sum", {{"n", "256"}});  // one block of 8 warps
  const PlayOrder order(t, PlayOrderKind::Causal);
  auto en = [&](size_t p) { return position_label(t, order, p, Language::English); };
  // Each round: 8 warps x (a shuffle and its watch of val) = 16 positions.
  CHECK(en(0) == "first reduction, round 1/5");
  CHECK(en(16 * 2 + 3) == "first reduction, round 3/5");
  CHECK(en(80) == "lane 0 writes warpSums[0]");
  CHECK(en(85) == "lane 0 writes warpSums[5]");
  CHECK(en(88) == "warp 0 reads warpSums[0..7]");
  CHECK(en(91) == "final reduction over warpSums, round 2/5");
  CHECK(en(92) == "final reduction over warpSums, round 2/5");  // its watch
  CHECK(en(98) == "final reduction over warpSums, round 5/5");
  CHECK(en(99).empty());  // past the end
  CHECK(position_label(t, order, 91, Language::Chinese) == "对 warpSums 的最终归约，第 2/5 轮");
  // The per-warp order says the same of the same step.
  const PlayOrder per_warp(t, PlayOrderKind::PerWarp);
  CHECK(position_label(t, per_warp, per_warp.position_of(order.step_at(91)), Language::English) == en(91));

  // reduce_int (ints, 4 blocks of 8 warps): the same words.
  const Trace ri = run("reduce_int");
  const PlayOrder ri_order(ri, PlayOrderKind::Causal);
  CHECK(position_label(ri, ri_order, 7, Language::English) == "first reduction, round 1/5");
  CHECK(position_label(ri, ri_order, 87, Language::English) == "lane 0 writes warpSums[7]");

  // Other traces: a reduction's round, else the step as the timeline numbers it.
  const Trace sum = run("warp_sum");
  CHECK(position_label(sum, PlayOrder(sum, PlayOrderKind::Causal), 1, Language::English) == "round 1/5");  // its watch
  CHECK(position_label(sum, PlayOrder(sum, PlayOrderKind::Causal), 2, Language::English) == "round 2/5");
  const Trace transpose = run("transpose");
  const PlayOrder tp(transpose, PlayOrderKind::Causal);
  REQUIRE(tp.size() > 2);
  CHECK(position_label(transpose, tp, 1, Language::English) == "step 2/" + std::to_string(tp.size()));
}

TEST_CASE("block view fills in as the steps play", "[block][playorder]") {
  // Prepare: one block of 8 warps of ones; the causal order.
  const Trace t = run("reduce_sum", {{"n", "256"}});
  const BlockView b = block_view(t, 0);
  REQUIRE(b.warps.size() == 8);
  const PlayOrder order(t, PlayOrderKind::Causal);
  auto at = [&](double position) {
    return block_progress(b, order, position, order.step_at(size_t(std::ceil(position))));
  };
  auto count = [](const std::vector<bool>& v) { return std::count(v.begin(), v.end(), true); };

  // Verify: at the start nothing is written; warp 0's first round is the one shown.
  BlockProgress p = at(0);
  CHECK(count(p.first_done) == 0);
  CHECK(count(p.slot_written) == 0);
  CHECK_FALSE(p.output_written);
  CHECK(p.current_warp == 0);
  // After round 5 of every warp (each round a shuffle and its watch): every lane 0 has its sum, no slot is written yet.
  p = at(79);
  CHECK(count(p.first_done) == 8);
  CHECK(count(p.slot_written) == 0);
  CHECK(p.current_warp == 7);
  // Three stores landed; the fourth is on its way, not written while it moves.
  p = at(82);
  CHECK(p.slot_written == std::vector<bool>{true, true, true, false, false, false, false, false});
  CHECK(p.current_slot == 2);
  p = at(82.5);
  CHECK(count(p.slot_written) == 3);
  CHECK(p.current_slot == 3);
  // Warp 0 reads the slots, then its final rounds; the output with the last.
  p = at(88);
  CHECK(count(p.slot_written) == 8);
  CHECK(p.current_load);
  CHECK(p.final_rounds_done == 0);
  p = at(92);
  CHECK(p.final_rounds_done == 2);
  CHECK(p.current_round == 1);
  CHECK_FALSE(p.output_written);
  p = at(double(order.size() - 1));
  CHECK(p.final_rounds_done == 5);
  CHECK(p.output_written);
  CHECK(p.current_output);
  CHECK(b.block_output == "256");

  // Per warp: warp 0's slot is written before warp 1 has started.
  const PlayOrder per_warp(t, PlayOrderKind::PerWarp);
  const size_t warp0_store = per_warp.position_of(b.warps[0].store_step);
  const BlockProgress pw = block_progress(b, per_warp, double(warp0_store), b.warps[0].store_step);
  CHECK(pw.slot_written[0]);
  CHECK_FALSE(pw.first_done[1]);
  CHECK_FALSE(pw.output_written);  // warp 0's final rounds wait for the other warps' slots

  // A trace recorded before the kernels recorded warpSums: a slot shows when
  // its warp's lane 0 has the sum.
  Trace old = t;
  old.steps.clear();
  for (const TraceStep& s : t.steps)
    if (!op_is_shared(s.op) && !op_is_watch(s.op)) old.steps.push_back(s);
  const BlockView ob = block_view(old, 0);
  REQUIRE(ob.warps.size() == 8);
  CHECK(ob.load_step == view::kNoStep);
  CHECK(ob.warps[2].store_step == ob.warps[2].last_step);
  CHECK(ob.warps[2].value == "32");
  REQUIRE(ob.final_round.size() == 5);
  const PlayOrder old_order(old, PlayOrderKind::Causal);
  const BlockProgress op = block_progress(ob, old_order, 39, old_order.step_at(39));
  CHECK(count(op.slot_written) == 8);
  CHECK_FALSE(op.output_written);
  // Its warp 0 reduces twice with nothing recorded between: two chains all the same.
  CHECK(old.steps[old_order.step_at(40)].warp == 0);
  CHECK(position_label(old, old_order, 40, Language::English) == "final reduction over warpSums, round 1/5");
  CHECK(position_label(old, old_order, 39, Language::English) == "first reduction, round 5/5");
}

// ---- round stops ----------------------------------------------------------------

TEST_CASE("round stops skip the watches that repeat their round in warp_sum", "[rounds][playorder]") {
  // Prepare: warp_sum is five shuffles, each followed by its watch of val.
  const Trace t = run("warp_sum");
  REQUIRE(t.steps.size() == 10);
  const PlayOrder order(t, PlayOrderKind::Causal);
  // Run
  const std::vector<bool> resting = watches_resting_with_round(t, order);
  // Verify: every watch rests with the shuffle before it, no shuffle does.
  REQUIRE(resting.size() == 10);
  for (size_t p = 0; p < 10; ++p) {
    INFO("position " << p);
    CHECK(resting[p] == op_is_watch(t.steps.op(order.step_at(p))));
    CHECK(resting[p] == (p % 2 == 1));
  }
  // Right: shuffle to shuffle; the last round has nothing after it but its own watch.
  CHECK(next_round_stop(t, order, 0) == 2);
  CHECK(next_round_stop(t, order, 1) == 2);
  CHECK(next_round_stop(t, order, 6) == 8);
  CHECK(next_round_stop(t, order, 8) == 8);
  CHECK(next_round_stop(t, order, 9) == 9);
  // Left: from a watch, past its own round's shuffle (the same picture) to the round before.
  CHECK(previous_round_stop(t, order, 9) == 6);
  CHECK(previous_round_stop(t, order, 8) == 6);
  CHECK(previous_round_stop(t, order, 3) == 0);
  CHECK(previous_round_stop(t, order, 2) == 0);
  CHECK(previous_round_stop(t, order, 0) == 0);
  CHECK(round_stop_of(t, order, 5) == 4);
  // From the timeline's position: a transition under way goes back to where it started.
  CHECK(round_step(t, order, 3.5, -1) == 2);
  CHECK(round_step(t, order, 4.0, -1) == 2);
  CHECK(round_step(t, order, 0.5, +1) == 2);
  CHECK(round_step(t, order, std::nan(""), +1) == 2);
  // Five rounds: the stops Right walks are five, as the export's five seconds.
  size_t stops = 1;
  for (size_t p = 0; next_round_stop(t, order, p) != p; p = next_round_stop(t, order, p)) ++stops;
  CHECK(stops == 5);
}

TEST_CASE("round stops of a block of warps and of a trace without watches", "[rounds][playorder]") {
  const Trace block = run("reduce_sum", {{"n", "256"}});
  for (PlayOrderKind kind : {PlayOrderKind::Causal, PlayOrderKind::PerWarp}) {
    const PlayOrder order(block, kind);
    INFO("order " << int(kind));
    for (size_t p = 0; p + 1 < order.size(); ++p) {
      const size_t next = next_round_stop(block, order, p);
      if (next == p) {  // nothing but resting watches is left
        for (size_t q = p + 1; q < order.size(); ++q) CHECK(rests_with_round(block, order, q));
        continue;
      }
      CHECK(next > p);
      CHECK_FALSE(rests_with_round(block, order, next));
      for (size_t q = p + 1; q < next; ++q) CHECK(rests_with_round(block, order, q));
      CHECK(previous_round_stop(block, order, next) == round_stop_of(block, order, p));
    }
  }
  // Without watches every position is a stop: the arrows move one step.
  const Trace plain = without_watches(run("warp_sum"));
  const PlayOrder order(plain, PlayOrderKind::Causal);
  for (size_t p = 0; p + 1 < order.size(); ++p) CHECK(next_round_stop(plain, order, p) == p + 1);
  CHECK(previous_round_stop(plain, order, 3) == 2);
  CHECK(next_round_stop(Trace{}, PlayOrder(0), 0) == 0);
}

TEST_CASE("the timeline's place words never repeat its step counter", "[playorder][strings]") {
  const Trace sum = run("warp_sum");
  const PlayOrder order(sum, PlayOrderKind::Causal);
  CHECK(place_words(sum, order, 0, Language::English) == "round 1/5");
  CHECK(place_words(sum, order, 9, Language::English) == "round 5/5");  // the last watch: its round
  // A step that is no round: the counter ("step 2 of N") says all, the words nothing.
  const Trace transpose = run("transpose");
  const PlayOrder tp(transpose, PlayOrderKind::Causal);
  CHECK(place_words(transpose, tp, 1, Language::English).empty());
  CHECK(position_label(transpose, tp, 1, Language::English) == "step 2/" + std::to_string(tp.size()));
  CHECK(place_words(sum, order, 99, Language::English).empty());
}

TEST_CASE("history headers are words: the variable or op over its round or step", "[history][strings]") {
  const Trace sum = run("warp_sum");
  const PlayOrder order(sum, PlayOrderKind::Causal);
  CHECK(history_header(sum, order, 1, Language::English) == "val\nround 1/5");  // the watch of round 1
  CHECK(history_header(sum, order, 8, Language::English) == std::string(op_name(sum.steps.op(8))) + "\nround 5/5");
  CHECK(history_header(sum, order, 3, Language::Chinese) == "val\n第 2/5 轮");
  // A vote is a step, numbered as the timeline plays it.
  const Trace vote = run("vote");
  const PlayOrder vo(vote, PlayOrderKind::Causal);
  REQUIRE(vote.steps.size() >= 3);
  CHECK(history_header(vote, vo, 2, Language::English) ==
        std::string(op_name(vote.steps.op(2))) + "\nstep " + std::to_string(vo.position_of(2) + 1));
  CHECK(history_header(vote, vo, 999999, Language::English).empty());
}

// ---- strings --------------------------------------------------------------------

TEST_CASE("every UI word exists in English and Chinese", "[strings]") {
  for (int i = 0; i < int(Text::Count); ++i) {
    const Text text = Text(i);
    INFO("text " << i);
    const std::string en = tr(text, Language::English);
    const std::string zh = tr(text, Language::Chinese);
    CHECK_FALSE(en.empty());
    CHECK_FALSE(zh.empty());
    CHECK(en != zh);
    bool has_cjk = false;  // UTF-8 lead bytes of U+3000..U+9FFF are 0xE3..0xE9
    for (unsigned char c : zh) has_cjk = has_cjk || (c >= 0xe3 && c <= 0xe9);
    CHECK(has_cjk);
  }
  CHECK(std::string(tr(Text::Play, Language::Chinese)) == "播放");
  CHECK(std::string(tr(Text::Pause, Language::Chinese)) == "暂停");
  CHECK(std::string(tr(Text::StepForward, Language::Chinese)) == "单步前进");

  // Both forms of the seed message take the seed's value, then the hardware's.
  for (Language lang : {Language::English, Language::Chinese}) {
    const std::string s = tr(Text::SeedDiffers, lang);
    const size_t first = s.find("%s");
    REQUIRE(first != std::string::npos);
    CHECK(s.find("%s", first + 2) != std::string::npos);
    CHECK(s.find('%', s.find("%s", first + 2) + 2) == std::string::npos);
  }
  CHECK(tr(Text::Count, Language::English) != nullptr);
}

// ---- settings -------------------------------------------------------------------

TEST_CASE("settings round trip through a new directory", "[settings]") {
  TempDir dir;
  const std::string path = (dir.path / "nested" / "warpviz" / "settings.json").string();
  AppSettings s;
  s.window_w = 1920;
  s.window_h = 1080;
  s.imgui_layout = "[Window][Lanes]\nPos=0,0\nSize=800,400\n";
  s.scenario = "vote";
  s.language = "zh";
  s.speed = 3.5;
  s.play_order = "per_warp";
  s.hold_s = 1.25;
  s.pause_after_round = true;
  std::string error = "stale";
  REQUIRE(save_settings(s, path, &error));
  CHECK(error.empty());
  CHECK_FALSE(fs::exists(path + ".tmp"));

  std::string warning = "stale";
  const AppSettings r = load_settings(path, &warning);
  CHECK(warning.empty());
  CHECK(r.window_w == 1920);
  CHECK(r.window_h == 1080);
  CHECK(r.imgui_layout == s.imgui_layout);
  CHECK(r.scenario == "vote");
  CHECK(r.language == "zh");
  CHECK(r.speed == 3.5);
  CHECK(r.play_order == "per_warp");
  CHECK(r.hold_s == 1.25);
  CHECK(r.pause_after_round);

  // Saving again replaces the file whole.
  s.scenario = "match";
  REQUIRE(save_settings(s, path, nullptr));
  CHECK(load_settings(path, nullptr).scenario == "match");
}

TEST_CASE("settings: a missing file is the defaults, a corrupt one a warning", "[settings]") {
  TempDir dir;
  const AppSettings defaults;
  std::string warning = "stale";
  const AppSettings missing = load_settings((dir.path / "none.json").string(), &warning);
  CHECK(warning.empty());
  CHECK(missing.scenario == defaults.scenario);
  CHECK(missing.window_w == defaults.window_w);

  const std::string corrupt = (dir.path / "corrupt.json").string();
  std::ofstream(corrupt) << "{\"window_w\": 1920, \"scen";
  const AppSettings c = load_settings(corrupt, &warning);
  CHECK(c.window_w == defaults.window_w);
  CHECK(c.language == defaults.language);
  CHECK_THAT(warning, Catch::Contains(corrupt) && Catch::Contains("JSON"));

  const std::string array = (dir.path / "array.json").string();
  std::ofstream(array) << "[1, 2]";
  CHECK(load_settings(array, &warning).scenario == defaults.scenario);
  CHECK_THAT(warning, Catch::Contains(array) && Catch::Contains("object"));

  // One bad field keeps the default for it, the rest is read.
  const std::string bad_field = (dir.path / "bad_field.json").string();
  std::ofstream(bad_field) << R"({"window_w": "wide", "language": "fr", "scenario": "vote", "speed": 2})";
  const AppSettings b = load_settings(bad_field, &warning);
  CHECK(b.window_w == defaults.window_w);
  CHECK(b.language == defaults.language);
  CHECK(b.scenario == "vote");
  CHECK(b.speed == 2);
  CHECK_THAT(warning, Catch::Contains("window_w") && Catch::Contains("language"));

  // The timeline's fields: an unknown order, a hold beyond Playback's range, a
  // pause flag that is no bool keep their defaults.
  const std::string bad_timeline = (dir.path / "bad_timeline.json").string();
  std::ofstream(bad_timeline) << R"({"play_order": "sideways", "hold_s": 11, "pause_after_round": "yes"})";
  const AppSettings bt = load_settings(bad_timeline, &warning);
  CHECK(bt.play_order == defaults.play_order);
  CHECK(bt.hold_s == defaults.hold_s);
  CHECK(bt.pause_after_round == defaults.pause_after_round);
  CHECK_THAT(warning, Catch::Contains("play_order") && Catch::Contains("hold_s") &&
                          Catch::Contains("pause_after_round"));

  CHECK(load_settings(dir.path.string(), &warning).scenario == defaults.scenario);  // a directory
  CHECK_FALSE(warning.empty());
}

// Found by tests/fuzz/fuzz_settings: an integer field given a number beyond int
// (undefined behaviour in the conversion, or a wrap-around to a valid size).
TEST_CASE("settings: a window size beyond int is damage, not undefined behaviour", "[settings]") {
  TempDir dir;
  const AppSettings defaults;
  std::string warning;
  const std::string huge = (dir.path / "huge.json").string();
  std::ofstream(huge) << R"({"window_w": 1e300, "window_h": 4294968496, "speed": -0.0, "time_limit_s": 3600})";
  const AppSettings h = load_settings(huge, &warning);
  CHECK(h.window_w == defaults.window_w);
  CHECK(h.window_h == defaults.window_h);  // 4294968496 would wrap to 1200
  CHECK(h.time_limit_s == 3600);
  CHECK_THAT(warning, Catch::Contains("window_w") && Catch::Contains("window_h") && Catch::Contains("speed"));

  const std::string negative = (dir.path / "negative.json").string();
  std::ofstream(negative) << R"({"window_w": -1e300, "window_h": -9223372036854775808})";
  const AppSettings n = load_settings(negative, &warning);
  CHECK(n.window_w == defaults.window_w);
  CHECK(n.window_h == defaults.window_h);
  CHECK_THAT(warning, Catch::Contains("window_w") && Catch::Contains("window_h"));

  // A number beyond a double: nlohmann throws out_of_range, not parse_error.
  const std::string overflow = (dir.path / "overflow.json").string();
  std::ofstream(overflow) << R"({"window_w": 1920, "time_low_w": 1e3000})";
  const AppSettings o = load_settings(overflow, &warning);
  CHECK(o.window_w == defaults.window_w);
  CHECK_THAT(warning, Catch::Contains(overflow) && Catch::Contains("JSON"));

  const std::string fine = (dir.path / "fine.json").string();
  std::ofstream(fine) << R"({"window_w": 1920.0, "window_h": 1080})";
  const AppSettings f = load_settings(fine, &warning);
  CHECK(f.window_w == 1920);
  CHECK(f.window_h == 1080);
  CHECK(warning.empty());
}

TEST_CASE("settings: default path follows XDG_CONFIG_HOME, then HOME", "[settings]") {
  const char* old_xdg = std::getenv("XDG_CONFIG_HOME");
  const std::string saved_xdg = old_xdg ? old_xdg : "";
  ::setenv("XDG_CONFIG_HOME", "/tmp/xdg-test", 1);
  CHECK(default_settings_path() == "/tmp/xdg-test/warpviz/settings.json");
  ::unsetenv("XDG_CONFIG_HOME");
  if (const char* home = std::getenv("HOME"))
    CHECK(default_settings_path() == std::string(home) + "/.config/warpviz/settings.json");
  if (old_xdg) ::setenv("XDG_CONFIG_HOME", saved_xdg.c_str(), 1);
}

TEST_CASE("settings: saving where no directory can be made reports why", "[settings]") {
  TempDir dir;
  const fs::path blocker = dir.path / "file";
  std::ofstream(blocker) << "x";
  std::string error;
  CHECK_FALSE(save_settings(AppSettings{}, (blocker / "settings.json").string(), &error));
  CHECK_THAT(error, Catch::Contains("settings.json"));
}

TEST_CASE("settings: recent files and the time limit round trip, damage is refused", "[settings]") {
  // Prepare: eleven files opened, the second one twice.
  TempDir dir;
  const std::string path = (dir.path / "settings.json").string();
  AppSettings s;
  for (int i = 0; i < 11; ++i) remember_recent_file(s, (dir.path / ("k" + std::to_string(i) + ".cu")).string());
  remember_recent_file(s, (dir.path / "sub" / ".." / "k1.cu").string());  // the same file, spelled otherwise
  s.time_limit_s = 2.5;

  // Run: save and load.
  REQUIRE(save_settings(s, path, nullptr));
  std::string warning = "stale";
  const AppSettings r = load_settings(path, &warning);

  // Verify: the latest first, each once, absolute, at most kMaxRecentFiles.
  CHECK(warning.empty());
  REQUIRE(r.recent_files.size() == kMaxRecentFiles);
  CHECK(r.recent_files[0] == (dir.path / "k1.cu").string());
  CHECK(r.recent_files[1] == (dir.path / "k10.cu").string());
  CHECK(std::count(r.recent_files.begin(), r.recent_files.end(), r.recent_files[0]) == 1);
  CHECK(std::find(r.recent_files.begin(), r.recent_files.end(), (dir.path / "k0.cu").string()) ==
        r.recent_files.end());  // the oldest fell off
  CHECK(r.time_limit_s == 2.5);

  // A list that is not strings, an empty path, a limit of zero or NaN-like text: defaults, and a warning.
  const std::string bad = (dir.path / "bad.json").string();
  std::ofstream(bad) << R"({"recent_files": ["/a.cu", ""], "time_limit_s": 0, "scenario": "vote"})";
  const AppSettings b = load_settings(bad, &warning);
  CHECK(b.recent_files.empty());
  CHECK(b.time_limit_s == AppSettings{}.time_limit_s);
  CHECK(b.scenario == "vote");
  CHECK_THAT(warning, Catch::Contains("recent_files") && Catch::Contains("time_limit_s"));
  std::ofstream(bad, std::ios::trunc) << R"({"recent_files": [1, 2], "time_limit_s": "10"})";
  const AppSettings c = load_settings(bad, &warning);
  CHECK(c.recent_files.empty());
  CHECK(c.time_limit_s == AppSettings{}.time_limit_s);
  CHECK_THAT(warning, Catch::Contains("recent_files") && Catch::Contains("time_limit_s"));
}

TEST_CASE("settings: the memory limit round trips and a limit under 1M is refused", "[settings]") {
  // Prepare
  TempDir dir;
  const std::string path = (dir.path / "settings.json").string();
  CHECK(AppSettings{}.memory_limit_bytes == 0);  // the runner's default share
  AppSettings s;
  s.memory_limit_bytes = uint64_t(3) << 30;

  // Run
  REQUIRE(save_settings(s, path, nullptr));
  std::string warning = "stale";
  const AppSettings r = load_settings(path, &warning);

  // Verify: kept; another instance's change merges over the file.
  CHECK(warning.empty());
  CHECK(r.memory_limit_bytes == uint64_t(3) << 30);
  AppSettings mine = r;
  mine.memory_limit_bytes = uint64_t(512) << 20;
  CHECK(merge_settings(mine, r, AppSettings{}).memory_limit_bytes == uint64_t(512) << 20);
  const std::string bad = (dir.path / "bad.json").string();
  std::ofstream(bad) << R"({"memory_limit_bytes": 1000})";
  const AppSettings b = load_settings(bad, &warning);
  CHECK(b.memory_limit_bytes == 0);
  CHECK_THAT(warning, Catch::Contains("memory_limit_bytes"));
}

// --- Outputs table ---------------------------------------------------------------

namespace {
// A fixed-pitch face, 7 px a character, with a wider 'm' and '-' so the test
// does not pass only because every glyph is as wide as a digit.
float fake_measure(std::string_view text) {
  float w = 0;
  for (char c : text) w += (c == '-' || c == 'n') ? 8.0f : 7.0f;
  return w;
}
}  // namespace

TEST_CASE("outputs table: the issue's values are shown whole, decimal and hex", "[view][outputs]") {
  // Prepare: the vote scenario's ballot and a match mask as issue 10 saw them cut.
  const std::vector<uint64_t> bits = {0x4722d8adu, 1847137u * 1000u + 123u, 0x43f80000u};
  for (bool hex : {false, true}) {
    // Run
    const float widest = widest_cell_width(bits, DType::U32, hex, fake_measure);
    const OutputTableLayout layout = output_table_layout(widest, 380, 35, 4);
    // Verify: every cell's text fits its column, and the row fits the panel.
    for (uint64_t b : bits) CHECK(fake_measure(output_cell_text(DType::U32, b, hex)) <= layout.column_width);
    CHECK(layout.per_row >= 1);
    CHECK(35 + 8 + layout.per_row * (layout.column_width + 8) <= 380);
    CHECK(35 + 8 + (layout.per_row + 1) * (layout.column_width + 8) > 380);  // as many as fit
  }
  CHECK(output_cell_text(DType::U32, 0x4722d8adu, false) == "1193466029");
  CHECK(output_cell_text(DType::U32, 0x4722d8adu, true) == "0x4722d8ad");
}

TEST_CASE("outputs table: a value of the widest format fits the column of a long output", "[view][outputs]") {
  for (DType t : {DType::I32, DType::U32, DType::F32, DType::F64, DType::I64, DType::U64}) {
    for (bool hex : {false, true}) {
      // Prepare: an output too long to measure value by value, holding the extremes.
      std::vector<uint64_t> bits(kMeasuredOutputLimit + 1, 0);
      const std::vector<uint64_t> extremes = {
          0x80000000u, 0xffffffffu, uint64_t(1) << 63, ~uint64_t(0), 0x00800001u /* f32 near min normal */,
          0x80800001u, 0xff7fffffu /* -FLT_MAX */, 0x8010000000000001ull /* f64 near min normal */,
          0xffefffffffffffffull /* -DBL_MAX */, 0x7fc00001u /* f32 NaN */, 0xfff0000000000001ull /* f64 NaN */};
      std::copy(extremes.begin(), extremes.end(), bits.begin());
      // Run
      const float widest = widest_cell_width(bits, t, hex, fake_measure);
      const OutputTableLayout layout = output_table_layout(widest, 300, 35, 4);
      // Verify
      INFO(dtype_name(t) << (hex ? " hex" : " decimal"));
      for (uint64_t b : extremes) {
        const uint64_t value = mask_to_width(t, b);
        INFO(output_cell_text(t, value, hex));
        CHECK(fake_measure(output_cell_text(t, value, hex)) <= layout.column_width);
      }
    }
  }
}

TEST_CASE("outputs table: a narrow panel wraps to fewer values, never fewer than one", "[view][outputs]") {
  CHECK(output_table_layout(70, 10000, 35, 4).per_row == 8);  // wide: the usual eight
  CHECK(output_table_layout(70, 35 + 8 + 3 * 78, 35, 4).per_row == 3);
  CHECK(output_table_layout(70, 35 + 8 + 3 * 78 - 1, 35, 4).per_row == 2);
  const OutputTableLayout narrow = output_table_layout(70, 20, 35, 4);
  CHECK(narrow.per_row == 1);
  CHECK(narrow.column_width >= 70);  // cut never: the table scrolls sideways instead
}

// --- Step and round numbers ----------------------------------------------------

TEST_CASE("place labels: rounds only for a warp's consecutive shuffles, 1-based, in both languages", "[lanes]") {
  // Prepare: a reduction (warp_sum: five shfl.down) and scenarios without rounds.
  const Trace sum = run("warp_sum");
  const Trace vote = run("vote");
  const Trace match = run("match");
  // Run / Verify: warp_sum's shuffles are rounds 1..5; the watches of val
  // between them neither break the run nor count in it: each is the round of
  // the shuffle before it.
  for (size_t i = 0; i < sum.steps.size(); ++i) {
    const LaneFrame f = lane_frame(sum, i, false);
    INFO("step " << i);
    CHECK(f.is_round);
    CHECK(f.number == i / 2 + 1);
    CHECK(f.count == 5);
  }
  CHECK(place_label(lane_frame(sum, 2, false), Language::Chinese) == "第 2/5 轮");
  // A vote and a match are steps, numbered as the timeline ("step k of n", k from 1).
  for (const Trace* t : {&vote, &match}) {
    for (size_t i = 0; i < t->steps.size(); ++i) {
      const LaneFrame f = lane_frame(*t, i, false);
      INFO(op_name(t->steps[i].op) << " at " << i);
      CHECK_FALSE(f.is_round);
      CHECK(f.number == i + 1);
      CHECK(f.count == t->steps.size());
      const std::string english = place_label(f, Language::English);
      CHECK(english.rfind("step ", 0) == 0);
      CHECK(english.find("round") == std::string::npos);
    }
  }
  // test_shuffle's shfl.down then shfl.bfly are two different shuffles, not rounds.
  const Trace shuffle = run("test_shuffle");
  REQUIRE(shuffle.steps.size() == 2);
  CHECK(place_label(lane_frame(shuffle, 1, false), Language::English) == "step 2/2");
  // reduce_sum: each warp's five shfl.down are rounds, the second level's too.
  const Trace reduce = run("reduce_sum");
  const StepPlace first = step_place(reduce, 0);
  CHECK(first.is_round);
  CHECK(first.number == 1);
  CHECK(first.count == 5);
  for (size_t i = 0; i < reduce.steps.size(); ++i) {
    const StepPlace place = step_place(reduce, i);
    INFO("step " << i);
    if (place.is_round) CHECK(place.count == 5);  // warp 0's second level is a run of its own
  }
  CHECK_FALSE(step_place(reduce, reduce.steps.size()).is_round);  // past the end: nothing
  CHECK(place_label(lane_frame(match, 0, false), Language::Chinese) ==
        "第 1/" + std::to_string(match.steps.size()) + " 步");
}

TEST_CASE("the step and round words switch with the language", "[strings]") {
  for (Text t : {Text::Round, Text::RoundOf, Text::StepOf, Text::StepOfTotal, Text::StepNumber}) {
    const std::string english = tr(t, Language::English), chinese = tr(t, Language::Chinese);
    CHECK(!english.empty());
    CHECK(!chinese.empty());
    CHECK(english != chinese);
    // The formats take the same arguments in both languages.
    CHECK(std::count(english.begin(), english.end(), '%') == std::count(chinese.begin(), chinese.end(), '%'));
  }
}

TEST_CASE("L switches the scenarios' summaries and the seed claims' sources to Chinese", "[strings]") {
  // Every built-in scenario's declaration carries both languages (the app shows
  // the Chinese where the language is Chinese, scenario_panel.cpp).
  auto has_cjk = [](const std::string& s) {  // UTF-8 lead bytes of U+4E00..U+9FFF
    return std::any_of(s.begin(), s.end(), [](char c) { return uint8_t(c) >= 0xe4 && uint8_t(c) <= 0xe9; });
  };
  for (const ScenarioSpec& spec : scenario_specs()) {
    INFO(spec.name);
    CHECK(has_cjk(spec.summary_zh));
    CHECK_FALSE(has_cjk(spec.summary));
    for (const SeedClaim& claim : spec.seed_claims) {
      INFO(claim.source);
      CHECK(has_cjk(claim.source_zh));
    }
  }
}

// ---------------------------------------------------------------------------
// The paths view (divergence)
// ---------------------------------------------------------------------------

TEST_CASE("path view of the divergence scenario: lanes by path, masks, order, join", "[view][paths]") {
  const Trace t = run("divergence");
  const auto regions = divergent_regions(t.steps);
  REQUIRE(regions.size() == 2);
  // Step 2 (index 2): the odd lanes' shuffle, the emulator's second step of the parity branch.
  const auto v = path_view(t.steps, regions, 2);
  REQUIRE(v);
  CHECK(v->place == PathPlace::OnPath);
  REQUIRE(v->paths.size() == 2);
  CHECK(v->paths[0].lanes == 0x55555555u);  // A: lane 0's path
  CHECK(v->paths[1].lanes == 0xaaaaaaaau);
  CHECK(v->current_path == 1);
  for (int lane = 0; lane < 32; ++lane) CHECK(v->lane_path[lane] == (lane & 1));
  CHECK(v->paths[0].first_line == t.steps[1].line);
  CHECK(v->paths[0].steps == 2);
  CHECK(v->paths[0].ran_as == 0);  // the emulator starts lane 0's group
  CHECK(v->paths[1].ran_as == 1);
  REQUIRE(v->sequence.size() == 4);
  std::vector<int> order;
  for (const PathSequenceRow& row : v->sequence) order.push_back(row.path);
  CHECK(order == std::vector<int>{0, 1, 0, 1});
  CHECK(v->sequence[1].current);
  CHECK(v->sequence[1].op == Op::ShflDown);
  CHECK(v->interleaved);
  CHECK_FALSE(v->same_code);
  CHECK(v->fork_step == 0);
  CHECK(v->fork_line == t.steps[0].line);
  CHECK(v->join_step == 5);
  CHECK(v->join_line == t.steps[5].line);

  // The vote between the branches is the first one's join; the first step its fork.
  CHECK(path_view(t.steps, regions, 5)->place == PathPlace::Join);
  CHECK(path_view(t.steps, regions, 5)->paths[0].lanes == 0x55555555u);
  CHECK(path_view(t.steps, regions, 0)->place == PathPlace::Fork);
  const auto last = path_view(t.steps, regions, t.steps.size() - 1);
  REQUIRE(last);
  CHECK(last->place == PathPlace::Join);
  CHECK(last->paths[0].lanes == regions[1].paths[0].lanes);
  CHECK(last->current_path == -1);
}

TEST_CASE("path view: one path run to its end first, and the same code in two groups", "[view][paths]") {
  Trace gpu = test::parity_branch_trace("BBAA", "cuda");
  auto regions = divergent_regions(gpu.steps);
  auto v = path_view(gpu.steps, regions, 1);
  REQUIRE(v);
  CHECK_FALSE(v->interleaved);
  CHECK(v->paths[1].ran_as == 0);  // B started first
  CHECK(v->paths[0].ran_as == 1);
  CHECK(v->current_path == 1);
  CHECK(v->join_line == test::kJoinLine);
  CHECK_FALSE(v->same_code);
  // Both paths at the same lines: a function each path calls, or a group's tiles.
  for (size_t i = 0; i < gpu.steps.size(); ++i)
    gpu.steps.modify(i, [](TraceStep& s) {
      if (s.line == test::kOddLine || s.line == test::kOddLine + 1) s.line -= test::kOddLine - test::kEvenLine;
    });
  regions = divergent_regions(gpu.steps);
  CHECK(path_view(gpu.steps, regions, 1)->same_code);
}

TEST_CASE("path view: a converged trace has none, a path without join says so", "[view][paths]") {
  const Trace sum = run("warp_sum");
  const auto none = divergent_regions(sum.steps);
  CHECK(none.empty());
  for (size_t i = 0; i < sum.steps.size(); ++i) CHECK_FALSE(path_view(sum.steps, none, i));

  Trace open = test::parity_branch_trace("ABAB", "cpu");
  open.steps.truncate(open.steps.size() - 1);  // no join recorded
  const auto regions = divergent_regions(open.steps);
  const auto v = path_view(open.steps, regions, 4);
  REQUIRE(v);
  CHECK(v->join_step == warpviz::kNoStep);
  CHECK(v->join_line == 0);
}

// ---- settings: damage kept, crafted files, two instances -------------------------
TEST_CASE("settings: a damaged file is kept as settings.json.bad and the warning says so", "[settings]") {
  TempDir dir;
  const std::string path = (dir.path / "settings.json").string();
  const std::string damaged = "{\"window_w\": 1920, \"scen";
  std::ofstream(path) << damaged;
  std::string warning;
  load_settings(path, &warning);
  CHECK_THAT(warning, Catch::Contains(path + ".bad"));
  std::ifstream kept(damaged_settings_path(path));
  std::string text((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>());
  CHECK(text == damaged);

  // A field of the wrong kind is damage too: the next save would lose it.
  std::ofstream(path, std::ios::trunc) << R"({"window_w": "wide"})";
  load_settings(path, &warning);
  CHECK_THAT(warning, Catch::Contains("window_w") && Catch::Contains(".bad"));

  // A good file leaves no copy behind.
  const std::string good = (dir.path / "good.json").string();
  REQUIRE(save_settings(AppSettings{}, good, nullptr));
  load_settings(good, &warning);
  CHECK(warning.empty());
  CHECK_FALSE(fs::exists(damaged_settings_path(good)));
}

// The crafted file is also a seed of tests/fuzz/corpus/settings: a field nested
// 200 000 arrays deep overflowed the stack printing the warning (json::dump).
TEST_CASE("settings: a deeply nested field is a warning, not a stack overflow", "[settings]") {
  TempDir dir;
  const std::string path = (dir.path / "settings.json").string();
  fs::copy_file(fs::path(WARPVIZ_FUZZ_CORPUS) / "settings" / "deep_nesting.json", path);
  std::string warning;
  const AppSettings s = load_settings(path, &warning);
  CHECK(s.panels.empty());
  CHECK_THAT(warning, Catch::Contains("\"panels\" has an invalid value (an array)"));
  CHECK(warning.size() < 1000);
}

TEST_CASE("settings: two instances merge what each changed", "[settings]") {
  TempDir dir;
  const std::string path = (dir.path / "settings.json").string();
  AppSettings start;
  remember_recent_file(start, "/old/a.cu");
  remember_recent_file(start, "/old/b.cu");
  REQUIRE(save_settings(start, path, nullptr));

  // Both start from the same file.
  const AppSettings loaded_1 = load_settings(path, nullptr), loaded_2 = load_settings(path, nullptr);
  AppSettings one = loaded_1, two = loaded_2;
  one.zoom = 1.5;                          // the first zooms and opens x.cu
  remember_recent_file(one, "/new/x.cu");
  two.language = "zh";                     // the second switches language, opens y.cu, and drops a.cu
  remember_recent_file(two, "/new/y.cu");
  two.recent_files.erase(std::find(two.recent_files.begin(), two.recent_files.end(), "/old/a.cu"));

  REQUIRE(save_settings_merged(two, loaded_2, path, nullptr));
  REQUIRE(save_settings_merged(one, loaded_1, path, nullptr));  // the last to close

  std::string warning;
  const AppSettings merged = load_settings(path, &warning);
  CHECK(warning.empty());
  CHECK(merged.zoom == 1.5);
  CHECK(merged.language == "zh");  // the first did not change it: the second's stays
  CHECK(merged.recent_files == std::vector<std::string>{"/new/x.cu", "/new/y.cu", "/old/b.cu"});

  // Clearing the list in one instance clears it.
  AppSettings three = merged;
  three.recent_files.clear();
  REQUIRE(save_settings_merged(three, merged, path, nullptr));
  CHECK(load_settings(path, nullptr).recent_files.empty());
}
