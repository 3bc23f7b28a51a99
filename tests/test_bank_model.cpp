// The shared-memory wavefront model against docs/warp-rules.md#wavefronts.
//
// Sections:
//   fixtures        an access from a per-lane address formula
//   wavefront table  every measured row of docs/warp-rules.md#wavefronts, written from the row's pattern
//   cases            34 and 35 of docs/warp-rules.md#cases: (no cross-half pairing), 35 (LDS.128 / STS.128 at one address)
//   own patterns    8/16-bit, tiles, strides, swizzle, masks, pairing, errors
//   trace steps     shared_access_of, shared_totals
#include <catch2/catch.hpp>

#include <functional>
#include <numeric>
#include <stdexcept>

#include "warpviz/bank_model.h"

using namespace warpviz;

namespace {

// ---- fixtures -------------------------------------------------------------------

constexpr uint32_t kFullWarp = 0xffffffffu;

SharedAccess access(int bytes, const std::function<uint32_t(uint32_t)>& addr,
                    uint32_t active = kFullWarp, bool store = false) {
  SharedAccess a;
  a.store = store;
  a.bytes = bytes;
  a.active = active;
  for (uint32_t l = 0; l < kWarpSize; ++l) a.addr[l] = addr(l);
  return a;
}

SharedAccess load(int bytes, const std::function<uint32_t(uint32_t)>& addr,
                  uint32_t active = kFullWarp) {
  return access(bytes, addr, active, false);
}
SharedAccess store(int bytes, const std::function<uint32_t(uint32_t)>& addr,
                   uint32_t active = kFullWarp) {
  return access(bytes, addr, active, true);
}

struct Cost {
  uint32_t wavefronts, conflicts;
  bool operator==(const Cost& o) const { return wavefronts == o.wavefronts && conflicts == o.conflicts; }
};

std::ostream& operator<<(std::ostream& os, const Cost& c) {
  return os << c.wavefronts << " wf / " << c.conflicts << " conf";
}

Cost cost(const SharedAccess& a) {
  const BankAnalysis b = analyze_shared_access(a);
  return {b.wavefronts, b.conflicts};
}

// The two LDS.64 half-warp discriminator of case 34 of docs/warp-rules.md#cases: the 8-lane blocks
// [0,16,8,24][l>>3] (in 8-byte units) put lanes 0-7 and 8-15 on banks 0-15 and
// lanes 16-31 on banks 16-31. Regrouped as {0-7,16-23} and {8-15,24-31} it would
// be conflict-free.
uint32_t half_warp_discriminator(uint32_t l) {
  static const uint32_t block[4] = {0, 16, 8, 24};
  return 8 * (block[l >> 3] + (l & 7));
}

// The LDS.128 analogue for quarter-warps (the table names it without a formula;
// this is our reconstruction of the same idea): 4-lane groups g = l>>2 of 64
// bytes each, chunk [0,2,1,3,4,6,5,7][g], so both groups of each quarter-warp
// fall on the same 16 banks, while the regrouping {g0,g2}, {g1,g3}, ... would be
// conflict-free.
uint32_t quarter_warp_discriminator(uint32_t l) {
  static const uint32_t chunk[8] = {0, 2, 1, 3, 4, 6, 5, 7};
  return 16 * (4 * chunk[l >> 2] + (l & 3));
}

}  // namespace

// ---- wavefront table (docs/warp-rules.md#wavefronts) ---------------------------------------------------

TEST_CASE("wavefront table, LDS.32: strides, broadcast, two words of one bank", "[bank][table]") {
  CHECK(cost(load(4, [](uint32_t l) { return 4 * l; })) == Cost{1, 0});
  CHECK(cost(load(4, [](uint32_t l) { return 8 * l; })) == Cost{2, 1});
  CHECK(cost(load(4, [](uint32_t l) { return 12 * l; })) == Cost{1, 0});
  CHECK(cost(load(4, [](uint32_t l) { return 128 * l; })) == Cost{32, 31});
  CHECK(cost(load(4, [](uint32_t) { return 0u; })) == Cost{1, 0});
  CHECK(cost(load(4, [](uint32_t l) { return (l & 1) * 128; })) == Cost{2, 1});
}

TEST_CASE("wavefront table, LDS.32 with partial masks: only active lanes count", "[bank][table]") {
  // 128l with 8 lanes: 8 distinct words of bank 0.
  CHECK(cost(load(4, [](uint32_t l) { return 128 * l; }, 0x000000ffu)) == Cost{8, 7});
  // 8l with 16 lanes: words 0, 2, ..., 30 lie in 16 different banks.
  CHECK(cost(load(4, [](uint32_t l) { return 8 * l; }, 0x0000ffffu)) == Cost{1, 0});
}

TEST_CASE("wavefront table, LDS.64: half-warp phases and pairing", "[bank][table]") {
  CHECK(cost(load(8, [](uint32_t l) { return 8 * l; })) == Cost{2, 0});
  CHECK(cost(load(8, [](uint32_t l) { return 16 * l; })) == Cost{4, 2});
  CHECK(cost(load(8, half_warp_discriminator)) == Cost{4, 2});
  CHECK(cost(load(8, [](uint32_t) { return 0u; })) == Cost{1, 0});
  // Lane i == lane i+16 is not a pair (n^1 / n^2), so the halves stay apart.
  CHECK(cost(load(8, [](uint32_t l) { return (l & 15) * 8; })) == Cost{2, 0});
}

TEST_CASE("wavefront table, LDS.128: quarter-warp phases and pairing", "[bank][table]") {
  CHECK(cost(load(16, [](uint32_t l) { return 16 * l; })) == Cost{4, 0});
  CHECK(cost(load(16, [](uint32_t l) { return 32 * l; })) == Cost{8, 4});
  CHECK(cost(load(16, quarter_warp_discriminator)) == Cost{8, 4});
  CHECK(cost(load(16, [](uint32_t) { return 0u; })) == Cost{2, 0});
  CHECK(cost(load(16, [](uint32_t l) { return (l >> 1) * 16; })) == Cost{2, 0});
  // Lane i == lane i+8 is not a pair: four conflict-free quarters.
  CHECK(cost(load(16, [](uint32_t l) { return (l & 7) * 16; })) == Cost{4, 0});
}

TEST_CASE("wavefront table, STS.32 and STS.128: stores cost like loads but never pair", "[bank][table]") {
  CHECK(cost(store(4, [](uint32_t l) { return 4 * l; })) == Cost{1, 0});
  CHECK(cost(store(4, [](uint32_t l) { return 8 * l; })) == Cost{2, 1});
  CHECK(cost(store(4, [](uint32_t l) { return 128 * l; })) == Cost{32, 31});
  CHECK(cost(store(4, [](uint32_t) { return 0u; })) == Cost{1, 0});
  CHECK(cost(store(16, [](uint32_t l) { return 16 * l; })) == Cost{4, 0});
  CHECK(cost(store(16, [](uint32_t) { return 0u; })) == Cost{4, 0});
}

// ---- cases ---------------------------------------------------------------------

TEST_CASE("case 34: LDS.64 half-warp discriminator, no cross-half pairing", "[bank][cases]") {
  const BankAnalysis b = analyze_shared_access(load(8, half_warp_discriminator));
  CHECK(b.wavefronts == 4);
  CHECK(b.conflicts == 2);
  CHECK_FALSE(b.paired);
  REQUIRE(b.phases.size() == 2);
  CHECK(b.phases[0].lanes == 0x0000ffffu);
  CHECK(b.phases[1].lanes == 0xffff0000u);
  // Lanes 0-7 and 8-15 both use banks 0-15, two distinct words each.
  CHECK(b.phases[0].words_per_bank[0] == 2);
  CHECK(b.phases[0].words_per_bank[16] == 0);
  CHECK(b.phases[1].words_per_bank[16] == 2);
}

TEST_CASE("case 35: LDS.128 at one address pairs (2 wf), STS.128 does not (4 wf)", "[bank][cases]") {
  const BankAnalysis ld = analyze_shared_access(load(16, [](uint32_t) { return 0u; }));
  CHECK(ld.wavefronts == 2);
  CHECK(ld.conflicts == 0);
  CHECK(ld.paired);
  REQUIRE(ld.phases.size() == 2);  // half-warps
  CHECK(ld.phases[0].lanes == 0x0000ffffu);

  const BankAnalysis st = analyze_shared_access(store(16, [](uint32_t) { return 0u; }));
  CHECK(st.wavefronts == 4);
  CHECK(st.conflicts == 0);
  CHECK_FALSE(st.paired);
  CHECK(st.phases.size() == 4);  // quarter-warps
}

// ---- own patterns -----------------------------------------------------------------

TEST_CASE("8-bit: 32 consecutive bytes are 8 words in 8 banks, cost 1, 24 lanes broadcast",
          "[bank][narrow]") {
  const BankAnalysis b = analyze_shared_access(load(1, [](uint32_t l) { return l; }));
  CHECK(b.wavefronts == 1);
  CHECK(b.conflicts == 0);
  // Lanes 4w+1..4w+3 share word w with lane 4w.
  CHECK(b.broadcasts == 24);
  CHECK(b.broadcast_lanes == 0xeeeeeeeeu);
  CHECK(b.bank[7] == 1);
}

TEST_CASE("8-bit at stride 128 B: one byte of 32 different words of bank 0, 32 wf", "[bank][narrow]") {
  CHECK(cost(load(1, [](uint32_t l) { return 128 * l; })) == Cost{32, 31});
}

TEST_CASE("16-bit at stride 64 B: words 16l alternate banks 0 and 16, 16 words each: 16 wf",
          "[bank][narrow]") {
  CHECK(cost(load(2, [](uint32_t l) { return 64 * l; })) == Cost{16, 15});
  // 16-bit consecutive: 64 bytes = 16 words in 16 banks, two lanes per word.
  CHECK(cost(load(2, [](uint32_t l) { return 2 * l; })) == Cost{1, 0});
}

TEST_CASE("float tile[32][32] column read: every lane's row starts in bank 0, 32 wf",
          "[bank][tile]") {
  // Lane l reads tile[l][0] at byte 4 * (32 l + 0).
  const BankAnalysis b = analyze_shared_access(load(4, [](uint32_t l) { return 4 * (32 * l); }));
  CHECK(b.wavefronts == 32);
  CHECK(b.conflicts == 31);
  CHECK(b.phases.at(0).words_per_bank[0] == 32);
  for (int l = 0; l < kWarpSize; ++l) CHECK(b.bank[l] == 0);
}

TEST_CASE("float tile[32][33] column read: the padding puts row l in bank l, 1 wf", "[bank][tile]") {
  // Lane l reads tile[l][0] at byte 4 * (33 l + 0).
  const BankAnalysis b = analyze_shared_access(load(4, [](uint32_t l) { return 4 * (33 * l); }));
  CHECK(b.wavefronts == 1);
  CHECK(b.conflicts == 0);
  for (int l = 0; l < kWarpSize; ++l) CHECK(b.bank[l] == l);
}

TEST_CASE("32-bit stride s words costs gcd(s, 32): odd strides free, stride 32 fully serial",
          "[bank][stride]") {
  // Lanes l and l + 32/g share a bank (g = gcd(s, 32)), so each used bank gets g
  // distinct words.
  for (uint32_t s = 1; s <= 64; ++s) {
    INFO("stride " << s);
    const uint32_t g = std::gcd(s, 32u);
    CHECK(cost(load(4, [s](uint32_t l) { return 4 * s * l; })) == Cost{g, g - 1});
  }
}

TEST_CASE("xor swizzle: tile[l][c ^ l] puts every column read in 32 banks", "[bank][swizzle]") {
  for (uint32_t c = 0; c < 32; ++c) {
    INFO("column " << c);
    CHECK(cost(load(4, [c](uint32_t l) { return 4 * (32 * l + (c ^ l)); })) == Cost{1, 0});
  }
}

TEST_CASE("partial masks: inactive lanes count for nothing, an empty warp costs 0", "[bank][mask]") {
  // Odd lanes of a stride-32 column read: 16 words of bank 0.
  CHECK(cost(load(4, [](uint32_t l) { return 128 * l; }, 0xaaaaaaaau)) == Cost{16, 15});
  // A lone lane is one wavefront.
  CHECK(cost(load(4, [](uint32_t l) { return 128 * l; }, 0x80000000u)) == Cost{1, 0});

  const BankAnalysis none = analyze_shared_access(load(16, [](uint32_t l) { return 128 * l; }, 0));
  CHECK(none.wavefronts == 0);
  CHECK(none.ideal == 0);
  CHECK(none.conflicts == 0);
  CHECK(none.phases.size() == 4);
  for (int l = 0; l < kWarpSize; ++l) CHECK(none.bank[l] == -1);

  // LDS.64 on the first half only: the second phase is empty and not ideal.
  const BankAnalysis half = analyze_shared_access(load(8, [](uint32_t l) { return 8 * l; }, 0xffffu));
  CHECK(half.wavefronts == 1);
  CHECK(half.ideal == 1);
  CHECK(half.phases.at(1).wavefronts == 0);
  CHECK(half.bank[1] == 2);
  CHECK(half.bank[16] == -1);
}

TEST_CASE("LDS.128 pairs widen quarter-warps to half-warps, the conflicts follow the wider phase",
          "[bank][pairing]") {
  // Pairs (l>>1) at a 32-byte stride: 8 addresses per half-warp, 0 and 128 share
  // banks 0-3, so each half costs 2 (4 wf, ideal 2). Unpaired, the quarters
  // would each be free (4 wf, ideal 4): same wavefronts, different conflicts.
  const BankAnalysis b = analyze_shared_access(load(16, [](uint32_t l) { return (l >> 1) * 32; }));
  CHECK(b.paired);
  CHECK(b.wavefronts == 4);
  CHECK(b.ideal == 2);
  CHECK(b.conflicts == 2);

  // The n^2 form: lanes 0 and 2, 1 and 3 agree.
  const BankAnalysis x2 =
      analyze_shared_access(load(16, [](uint32_t l) { return ((l >> 2) * 2 + (l & 1)) * 16; }));
  CHECK(x2.paired);
  CHECK(cost(load(16, [](uint32_t l) { return ((l >> 2) * 2 + (l & 1)) * 16; })) == Cost{2, 0});

  // The same pairs stored: quarter-warps, 4 wf.
  const BankAnalysis st = analyze_shared_access(store(16, [](uint32_t l) { return (l >> 1) * 16; }));
  CHECK_FALSE(st.paired);
  CHECK(st.wavefronts == 4);
  CHECK(st.conflicts == 0);

  // 32-bit loads never pair (rule 3 is for LDS.64/LDS.128): pairs of 128l stay 16 wf.
  const BankAnalysis narrow = analyze_shared_access(load(4, [](uint32_t l) { return (l >> 1) * 128; }));
  CHECK_FALSE(narrow.paired);
  CHECK(narrow.wavefronts == 16);
}

TEST_CASE("pairing with an inactive partner: read conservatively, no pairing", "[bank][pairing]") {
  // docs/warp-rules.md#wavefronts: unconfirmed. Lane 0 active and lane 1 not breaks both n^1 and n^2 forms.
  const BankAnalysis ld64 = analyze_shared_access(load(8, [](uint32_t) { return 0u; }, ~0x2u));
  CHECK_FALSE(ld64.paired);
  CHECK(ld64.wavefronts == 2);  // two half-warps instead of one warp
  CHECK(ld64.conflicts == 0);

  const BankAnalysis ld128 = analyze_shared_access(load(16, [](uint32_t) { return 0u; }, ~0x2u));
  CHECK_FALSE(ld128.paired);
  CHECK(ld128.wavefronts == 4);

  // A pair that is inactive as a whole does not matter: every active lane's
  // partner is active and agrees.
  const BankAnalysis both_out = analyze_shared_access(load(8, [](uint32_t) { return 0u; }, ~0x3u));
  CHECK(both_out.paired);
  CHECK(both_out.wavefronts == 1);
}

TEST_CASE("broadcasts: lanes served by a word a lower lane of the phase asked for", "[bank][broadcast]") {
  CHECK(analyze_shared_access(load(4, [](uint32_t) { return 0u; })).broadcasts == 31);
  // (l&1)*128: lanes 0 and 1 open the two words, the other 30 share them.
  const BankAnalysis two = analyze_shared_access(load(4, [](uint32_t l) { return (l & 1) * 128; }));
  CHECK(two.broadcasts == 30);
  CHECK(two.broadcast_lanes == 0xfffffffcu);
  CHECK(analyze_shared_access(load(4, [](uint32_t l) { return 4 * l; })).broadcasts == 0);
  // STS.128 to one address: quarter-warps, so lanes 0, 8, 16, 24 each open the word.
  CHECK(analyze_shared_access(store(16, [](uint32_t) { return 0u; })).broadcasts == 28);
}

TEST_CASE("64-bit and 128-bit lanes touch 2 and 4 consecutive words", "[bank][wide]") {
  // One active lane of LDS.128 at byte 16: words 4..7 in banks 4..7.
  const BankAnalysis b = analyze_shared_access(load(16, [](uint32_t) { return 16u; }, 0x1u));
  const BankPhase& p = b.phases.at(0);
  for (int bank = 0; bank < kSharedBanks; ++bank) CHECK(p.words_per_bank[bank] == (bank >= 4 && bank < 8));
  CHECK(b.bank[0] == 4);
  // High addresses do not wrap onto word 0: a 16-byte access at the last 16 bytes.
  const BankAnalysis top = analyze_shared_access(load(16, [](uint32_t) { return 0xfffffff0u; }, 0x1u));
  CHECK(top.phases.at(0).words_per_bank[28] == 1);
  CHECK(top.phases.at(0).words_per_bank[31] == 1);
  CHECK(top.phases.at(0).words_per_bank[0] == 0);
}

TEST_CASE("bad access widths are refused", "[bank][errors]") {
  for (int bytes : {0, 3, 5, 12, 32, -4}) {
    INFO("bytes " << bytes);
    CHECK_THROWS_AS(analyze_shared_access(load(bytes, [](uint32_t l) { return 4 * l; })),
                    std::invalid_argument);
  }
}

TEST_CASE("misaligned accesses are refused: the GPU faults on them", "[bank][errors]") {
  // One misaligned lane of eight-byte loads, and a whole warp of them at byte 1
  // (which would touch three words a lane): both refused, neither costed.
  SharedAccess one = load(8, [](uint32_t l) { return 8 * l; });
  one.addr[5] = 44;
  CHECK_THROWS_WITH(analyze_shared_access(one), Catch::Contains("lane 5") && Catch::Contains("multiple of its width 8"));
  CHECK_THROWS_AS(analyze_shared_access(load(8, [](uint32_t) { return 1u; })), std::invalid_argument);
  CHECK_THROWS_AS(analyze_shared_access(load(16, [](uint32_t l) { return 16 * l + 4; })), std::invalid_argument);
  // An inactive lane's address is not looked at.
  one.active &= ~(1u << 5);
  CHECK(analyze_shared_access(one).wavefronts == 2);
}

// ---- trace steps --------------------------------------------------------------------

namespace {

TraceStep shared_step(Op op, int bytes, uint32_t active, const std::function<uint32_t(uint32_t)>& addr) {
  TraceStep s;
  s.op = op;
  s.dtype = bytes == 8 || bytes == 16 ? DType::U64 : DType::F32;
  s.mask = active;
  for (uint32_t l = 0; l < kWarpSize; ++l) {
    LaneRecord& r = s.lanes[l];
    r.addr = addr(l);
    r.bytes = uint8_t(bytes);
    r.flags = (active >> l) & 1 ? kLaneActive : 0;
  }
  return s;
}

}  // namespace

TEST_CASE("shared_access_of reads a recorded step: width, active flags, addresses", "[bank][trace]") {
  const TraceStep s = shared_step(Op::StoreShared, 8, 0x0000ff0fu, [](uint32_t l) { return 8 * l + 4096; });
  const SharedAccess a = shared_access_of(s);
  CHECK(a.store);
  CHECK(a.bytes == 8);
  CHECK(a.active == 0x0000ff0fu);
  CHECK(a.addr[9] == 8 * 9 + 4096);
  CHECK_FALSE(shared_access_of(shared_step(Op::LoadShared, 4, 1, [](uint32_t) { return 0u; })).store);
}

TEST_CASE("shared_access_of refuses other ops and mixed widths", "[bank][trace][errors]") {
  TraceStep shfl = shared_step(Op::LoadShared, 4, kFullWarp, [](uint32_t l) { return 4 * l; });
  shfl.op = Op::ShflXor;
  CHECK_THROWS_AS(shared_access_of(shfl), std::invalid_argument);

  TraceStep mixed = shared_step(Op::LoadShared, 4, kFullWarp, [](uint32_t l) { return 4 * l; });
  mixed.lanes[5].bytes = 8;
  CHECK_THROWS_AS(shared_access_of(mixed), std::invalid_argument);
  // An inactive lane's width is not part of the access.
  mixed.lanes[5].flags = 0;
  CHECK(shared_access_of(mixed).bytes == 4);
}

TEST_CASE("shared_totals sums load and store steps apart and skips other ops", "[bank][trace]") {
  Trace t;
  // Column write of tile[32][33] (1 wf), column read of tile[32][32] (32 wf),
  // a shuffle, and a stride-2 read (2 wf, 1 conflict).
  t.steps.push_back(shared_step(Op::StoreShared, 4, kFullWarp, [](uint32_t l) { return 4 * 33 * l; }));
  t.steps.push_back(shared_step(Op::LoadShared, 4, kFullWarp, [](uint32_t l) { return 4 * 32 * l; }));
  TraceStep shfl;
  shfl.op = Op::ShflDown;
  t.steps.push_back(shfl);
  t.steps.push_back(shared_step(Op::LoadShared, 4, kFullWarp, [](uint32_t l) { return 8 * l; }));

  const SharedTotals totals = shared_totals(t);
  CHECK(totals.load_steps == 2);
  CHECK(totals.store_steps == 1);
  CHECK(totals.load_wavefronts == 32 + 2);
  CHECK(totals.load_conflicts == 31 + 1);
  CHECK(totals.store_wavefronts == 1);
  CHECK(totals.store_conflicts == 0);
}
