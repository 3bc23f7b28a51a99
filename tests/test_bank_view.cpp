// The bank view's logic on hand-built shared-memory steps: where each lane's
// hit lands in the tile grid and in the bank chart, the stacks' heights, the
// phases of 64-bit accesses, broadcasts, inactive lanes, the padding
// animation and the measured figures. Expected banks and levels are counted
// by hand from the addresses (bank = word mod 32), never taken from the code.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <unistd.h>
#include <functional>
#include <set>
#include <string>

#include "warpviz/view/bank_view.h"
#include "warpviz/view/settings.h"
#include "warpviz/view/strings.h"

using namespace warpviz;
using namespace warpviz::view;

namespace {

// A trace of the bank scenario with one shared step: lane l at addr(l), `bytes` wide.
Trace bank_trace(int cols, int elem, const std::function<uint32_t(int)>& addr, uint32_t active = 0xffffffffu,
                 Op op = Op::LoadShared, const std::string& scenario = "bank") {
  Trace t;
  t.meta.scenario = scenario;
  if (scenario == "bank") {
    t.meta.params["cols"] = std::to_string(cols);
    t.meta.params["elem"] = std::to_string(elem);
    t.meta.params["pattern"] = "custom";
  }
  TraceStep s;
  s.op = op;
  s.mask = active;
  s.dtype = elem >= 8 ? DType::U64 : DType::F32;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!(active >> lane & 1u)) continue;
    s.lanes[lane].flags = kLaneActive;
    s.lanes[lane].addr = addr(lane);
    s.lanes[lane].bytes = uint8_t(elem);
  }
  t.steps.push_back(s);
  return t;
}

BankFrame frame_of(const Trace& t, size_t index = 0) {
  auto f = bank_frame(t, index);
  REQUIRE(f.has_value());
  return *f;
}

const LaneHit& hit_of(const BankFrame& f, int lane, int part = 0) {
  for (const LaneHit& h : f.hits)
    if (h.lane == lane && h.part == part) return h;
  FAIL("no hit of lane " << lane << " part " << part);
  return f.hits.front();
}

}  // namespace

TEST_CASE("bank view: a column read of tile[32][32] stacks 32 hits in bank 0", "[bank]") {
  // tile[l][0] of a float tile[32][32]: byte 128 l, word 32 l, bank 0 for every lane.
  const BankFrame f = frame_of(bank_trace(32, 4, [](int l) { return uint32_t(128 * l); }));
  CHECK(f.grid.rows == 32);
  CHECK(f.grid.cols == 32);
  CHECK(f.stack[0] == 32);
  for (int b = 1; b < kSharedBanks; ++b) CHECK(f.stack[b] == 0);
  CHECK(f.height == 32);
  CHECK(f.boxes.size() == 32);
  CHECK(f.analysis.wavefronts == 32);
  CHECK(f.analysis.conflicts == 31);

  std::set<int> levels;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneHit& h = hit_of(f, lane);
    CHECK(h.bank == 0);
    CHECK(h.row == lane);
    CHECK(h.col == 0);
    levels.insert(h.level);
    CHECK(f.cell(lane, 0).lanes == 1u << lane);
    CHECK(f.cell(lane, 1).lanes == 0);
  }
  CHECK(levels.size() == 32);  // one box each: every level 0..31 once
  CHECK(*levels.rbegin() == 31);
  // Column j of the unpadded tile is bank j in every row.
  CHECK(f.grid.bank(7, 5) == 5);
  CHECK(f.grid.bank(31, 31) == 31);
}

TEST_CASE("bank view: a column read of tile[32][33] puts one hit in each bank, on the diagonal", "[bank]") {
  // tile[l][0] of tile[32][33]: word 33 l, bank (33 l) mod 32 = l.
  const BankFrame f = frame_of(bank_trace(33, 4, [](int l) { return uint32_t(132 * l); }));
  CHECK(f.grid.cols == 33);
  CHECK(f.grid.row_bytes == 132);
  for (int b = 0; b < kSharedBanks; ++b) CHECK(f.stack[b] == 1);
  CHECK(f.height == 1);
  CHECK(f.analysis.wavefronts == 1);
  CHECK(f.analysis.conflicts == 0);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneHit& h = hit_of(f, lane);
    CHECK(h.bank == lane);
    CHECK(h.level == 0);
    CHECK(h.row == lane);
    CHECK(h.col == 0);
    CHECK(f.grid.bank(lane, 0) == lane);
  }
  // Padding shifts each row's banks by one: cell (r, c) is bank (r + c) mod 32.
  CHECK(f.grid.bank(3, 4) == 7);
  CHECK(f.grid.bank(31, 32) == (31 + 32) % 32);
}

TEST_CASE("bank view: 64-bit accesses are served by half-warps, two words per lane", "[bank]") {
  SECTION("row read of double tile[32][32]: two phases of one wavefront") {
    const BankFrame f = frame_of(bank_trace(32, 8, [](int l) { return uint32_t(8 * l); }));
    CHECK(f.grid.cols == 64);  // 32 doubles = 64 words a row
    REQUIRE(f.phase_lanes.size() == 2);
    CHECK(f.phase_lanes[0] == 0x0000ffffu);
    CHECK(f.phase_lanes[1] == 0xffff0000u);
    CHECK(f.lane_phase[15] == 0);
    CHECK(f.lane_phase[16] == 1);
    CHECK(f.hits.size() == 64);
    CHECK(f.boxes.size() == 64);
    CHECK(f.height == 2);
    for (int b = 0; b < kSharedBanks; ++b) CHECK(f.stack[b] == 2);
    // Lane 0: words 0 and 1 (banks 0, 1) in phase 0; lane 16: words 32, 33, same banks, a level up.
    CHECK(hit_of(f, 0, 0).bank == 0);
    CHECK(hit_of(f, 0, 1).bank == 1);
    CHECK(hit_of(f, 0, 1).col == 1);
    CHECK(hit_of(f, 0, 0).level == 0);
    CHECK(hit_of(f, 16, 0).bank == 0);
    CHECK(hit_of(f, 16, 1).bank == 1);
    CHECK(hit_of(f, 16, 0).level == 1);
    CHECK(hit_of(f, 16, 0).phase == 1);
  }
  SECTION("column read of double tile[32][32]: 16 words on banks 0 and 1 in each half-warp") {
    const BankFrame f = frame_of(bank_trace(32, 8, [](int l) { return uint32_t(256 * l); }));
    REQUIRE(f.phase_base.size() == 2);
    CHECK(f.phase_base[0] == 0);
    CHECK(f.phase_base[1] == 16);
    CHECK(f.height == 32);
    CHECK(f.stack[0] == 32);
    CHECK(f.stack[1] == 32);
    CHECK(f.stack[2] == 0);
    CHECK(hit_of(f, 15, 0).level == 15);
    CHECK(hit_of(f, 16, 0).level == 16);
    CHECK(hit_of(f, 31, 1).level == 31);
    CHECK(hit_of(f, 3, 1).row == 3);
    CHECK(hit_of(f, 3, 1).col == 1);
  }
}

TEST_CASE("bank view: a broadcast is one box holding every lane", "[bank]") {
  const BankFrame f = frame_of(bank_trace(32, 4, [](int) { return 0u; }));
  REQUIRE(f.boxes.size() == 1);
  CHECK(f.boxes[0].bank == 0);
  CHECK(f.boxes[0].lanes == 0xffffffffu);
  CHECK(f.height == 1);
  CHECK(f.cell(0, 0).lanes == 0xffffffffu);
  CHECK(f.analysis.broadcasts == 31);  // every lane but the lowest shares lane 0's word
  CHECK(lanes_label(f.boxes[0].lanes) == "0-31");
}

TEST_CASE("bank view: inactive lanes leave no hits", "[bank]") {
  SECTION("even lanes of a column read: a stack of 16") {
    const BankFrame f = frame_of(bank_trace(32, 4, [](int l) { return uint32_t(128 * l); }, 0x55555555u));
    CHECK(f.active == 0x55555555u);
    CHECK(f.stack[0] == 16);
    CHECK(f.height == 16);
    CHECK(f.hits.size() == 16);
    CHECK(f.lane_phase[1] == -1);
    CHECK(f.cell(1, 0).lanes == 0);
    CHECK(f.cell(2, 0).lanes == 1u << 2);
  }
  SECTION("no lane active: an empty chart") {
    const BankFrame f = frame_of(bank_trace(32, 4, [](int l) { return uint32_t(128 * l); }, 0u));
    CHECK(f.boxes.empty());
    CHECK(f.hits.empty());
    CHECK(f.height == 0);
  }
}

TEST_CASE("bank view: 1-byte elements are cells of their own, four to a bank's word", "[bank]") {
  // uint8_t tile[32][32], row read: lane l at byte l, words 0..7, four lanes each.
  const BankFrame f = frame_of(bank_trace(32, 1, [](int l) { return uint32_t(l); }));
  CHECK(f.grid.cell_bytes == 1);
  CHECK(f.grid.cols == 32);
  CHECK(f.grid.bank(0, 5) == 1);  // byte 5 is in word 1
  REQUIRE(f.boxes.size() == 8);
  CHECK(f.boxes[0].bank == 0);
  CHECK(f.boxes[0].lanes == 0xfu);
  CHECK(f.boxes[7].bank == 7);
  CHECK(f.boxes[7].lanes == 0xf0000000u);
  CHECK(f.height == 1);
  CHECK(f.cell(0, 9).lanes == 1u << 9);
}

TEST_CASE("bank view: stores, other scenarios and steps that are not shared", "[bank]") {
  const Trace store = bank_trace(32, 4, [](int l) { return uint32_t(4 * l); }, 0xffffffffu, Op::StoreShared);
  CHECK(frame_of(store).store);

  // A trace of another kernel: 32 columns of the access width, as many rows as the hits need.
  const Trace other = bank_trace(0, 4, [](int l) { return uint32_t(4 * l + 256); }, 0xffffffffu, Op::LoadShared,
                                 "reduce_sum");
  const BankFrame f = frame_of(other);
  CHECK(f.grid.cols == 32);
  CHECK(f.grid.rows == 3);  // bytes 256..383: rows 2
  CHECK(hit_of(f, 0).row == 2);
  CHECK(f.outside == 0);

  Trace mixed = store;
  TraceStep shuffle;
  shuffle.op = Op::ShflXor;
  mixed.steps.push_back(shuffle);
  mixed.steps.push_back(shuffle);
  CHECK_FALSE(bank_frame(mixed, 1).has_value());
  CHECK_FALSE(bank_frame(mixed, 7).has_value());
  CHECK(shared_step_near(mixed, 2) == 0);  // the last shared step before
  Trace late = mixed;
  const TraceStep first = late.steps[0];
  late.steps.set(0, late.steps[2]);  // shuffle, shuffle, store
  late.steps.set(2, first);
  CHECK(shared_step_near(late, 0) == 2);    // else the first after
  Trace none;
  none.steps.push_back(shuffle);
  CHECK(shared_step_near(none, 0) == SIZE_MAX);
}

TEST_CASE("bank view: a step that is no shared access says so instead of showing another step", "[bank]") {
  // Prepare: a store, then two shuffles (the mixed trace above).
  Trace mixed = bank_trace(32, 4, [](int l) { return uint32_t(4 * l); }, 0xffffffffu, Op::StoreShared);
  TraceStep shuffle;
  shuffle.op = Op::ShflXor;
  mixed.steps.push_back(shuffle);
  mixed.steps.push_back(shuffle);
  const PlayOrder order(mixed.steps.size());
  // Run / Verify: the store has its banks; each shuffle names itself, 1-based as the timeline.
  CHECK(no_shared_access_at(mixed, order, 0, Language::English).empty());
  const std::string at_shuffle = no_shared_access_at(mixed, order, 2, Language::English);
  CHECK_THAT(at_shuffle, Catch::StartsWith("Step 3 (" + std::string(op_name(Op::ShflXor)) + ")"));
  CHECK_THAT(at_shuffle, Catch::Contains("does not access shared memory"));
  CHECK_THAT(no_shared_access_at(mixed, order, 1, Language::Chinese), Catch::StartsWith("第 2 步"));
  CHECK(no_shared_access_at(mixed, order, 3, Language::English).empty());  // past the end: nothing to say
  CHECK(no_shared_access_at(Trace{}, PlayOrder(0), 0, Language::English).empty());
}

TEST_CASE("bank view: lane labels", "[bank]") {
  CHECK(lanes_label(0) == "");
  CHECK(lanes_label(1u << 7) == "7");
  CHECK(lanes_label(0xf0u) == "4-7");
  CHECK(lanes_label((1u << 3) | (1u << 9)) == "3,9");
  CHECK(lanes_label(0x15u) == "3x");
}

TEST_CASE("bank view: 32 distinct colours, neighbours apart in lightness", "[bank]") {
  std::set<uint32_t> colours;
  auto contrast = [](float a, float b) { return (std::max(a, b) + 0.05f) / (std::min(a, b) + 0.05f); };
  const float panel = 0.0056f;  // luminance of ImGui's dark window grey (15, 15, 15)
  for (int b = 0; b < kSharedBanks; ++b) {
    colours.insert(bank_colour(b));
    CHECK((bank_colour(b) >> 24) == 0xffu);
    // Banks side by side (the padded diagonal) must differ without hue.
    CHECK(contrast(bank_luminance(b), bank_luminance((b + 1) % kSharedBanks)) >= 1.3f);
    CHECK(contrast(bank_luminance(b), panel) >= 2.0f);
  }
  CHECK(colours.size() == 32);
  CHECK(bank_colour(32) == bank_colour(0));
}

TEST_CASE("bank view: padding moves each lane's hit from the stack to its own bank", "[bank][animation]") {
  const BankFrame unpadded = frame_of(bank_trace(32, 4, [](int l) { return uint32_t(128 * l); }));
  const BankFrame padded = frame_of(bank_trace(33, 4, [](int l) { return uint32_t(132 * l); }));
  const auto motions = hit_motions(unpadded, padded);
  REQUIRE(motions.size() == 32);
  const HitMotion& m = motions[5];
  CHECK(m.lane == 5);
  CHECK(m.in_from);
  CHECK(m.in_to);

  const HitAt start = hit_at(m, 0.0f);
  CHECK(start.place.bank == 0);
  CHECK(start.place.level == 5);
  CHECK(start.place.row == 5);
  CHECK(start.alpha == 1);
  const HitAt end = hit_at(m, 1.0f);
  CHECK(end.place.bank == 5);
  CHECK(end.place.level == 0);
  const HitAt mid = hit_at(m, 0.5f);  // smoothstep(0.5) = 0.5: half way
  CHECK(mid.place.bank == Approx(2.5));
  CHECK(mid.place.level == Approx(2.5));
  const HitAt quarter = hit_at(m, 0.25f);  // smoothstep(0.25) = 0.15625
  CHECK(quarter.place.bank == Approx(5 * 0.15625));
  CHECK(hit_at(m, 2.0f).place.bank == 5);  // time is clamped

  // A lane active only after the change fades in where it lands.
  const BankFrame half = frame_of(bank_trace(32, 4, [](int l) { return uint32_t(128 * l); }, 0x0000ffffu));
  const auto fading = hit_motions(half, padded);
  REQUIRE(fading.size() == 32);
  CHECK_FALSE(fading[20].in_from);
  CHECK(hit_at(fading[20], 0.0f).alpha == 0);
  CHECK(hit_at(fading[20], 0.5f).alpha == Approx(0.5));
  CHECK(hit_at(fading[20], 0.5f).place.bank == 20);
}

TEST_CASE("bank view: the animation clock", "[bank][animation]") {
  BankAnimation a(1.2);
  CHECK_FALSE(a.running());
  CHECK_FALSE(a.advance(0.1));
  a.start();
  CHECK(a.time() == 0);
  CHECK(a.advance(0.6));
  CHECK(a.time() == Approx(0.5));
  CHECK(a.running());
  CHECK(a.advance(5.0));  // the last frame lands on 1 and still counts as a change
  CHECK(a.time() == 1);
  CHECK_FALSE(a.running());
  CHECK_FALSE(a.advance(0.1));
}

TEST_CASE("bank view: measured figures beside the model", "[bank]") {
  Trace t = bank_trace(32, 4, [](int l) { return uint32_t(128 * l); });
  CHECK(measured_rows(t).empty());
  t.meta.measurements["ncu.l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = 32;
  t.meta.measurements["ncu.l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] = 30;
  t.meta.measurements["latency_cycles"] = 95.5;
  const auto rows = measured_rows(t);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].figure == Figure::LoadWavefronts);
  CHECK(rows[0].model == 32);  // one 32-way column read
  CHECK(rows[0].agrees());
  CHECK(rows[1].figure == Figure::LoadConflicts);
  CHECK(rows[1].model == 31);
  CHECK_FALSE(rows[1].agrees());  // a counter that disagrees is shown as such
  CHECK(rows[2].figure == Figure::LatencyCycles);
  CHECK_FALSE(rows[2].has_model);
  CHECK(rows[2].measured == 95.5);
}

TEST_CASE("settings keep each panel's visibility, the bank panel's included", "[bank][settings]") {
  const std::string path = "/tmp/warpviz-test-bank-settings-" + std::to_string(::getpid()) + ".json";
  AppSettings saved;
  saved.panels = {{"bank", false}, {"lanes", true}};
  std::string error;
  REQUIRE(save_settings(saved, path, &error));
  std::string warning;
  const AppSettings loaded = load_settings(path, &warning);
  CHECK(warning.empty());
  CHECK(loaded.panels == saved.panels);
  std::remove(path.c_str());
  // An older file without "panels" leaves every panel at the app's default.
  CHECK(AppSettings{}.panels.empty());
}
