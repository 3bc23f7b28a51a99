// The sm_90 shared-memory wavefront model: docs/warp-rules.md#wavefronts, rule by rule.
//
// Sections:
//   words           which 32-bit words one lane's access touches
//   phases          rule 1 (fixed lane groups) and rule 3 (load pairing)
//   cost            rule 2 (distinct words per bank), rule 4 (sums, conflicts)
//   trace steps     shared_access_of, shared_totals
#include "warpviz/bank_model.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace warpviz {

namespace {

constexpr uint32_t lane_bit(int lane) { return uint32_t{1} << lane; }

// ---- words --------------------------------------------------------------------
// A lane touches the words from the one holding its first byte to the one holding
// its last (accesses are aligned): 1 for 8/16/32-bit accesses (an 8- or 16-bit
// access uses part of one word, docs/warp-rules.md#wavefronts rule 5), 2 or 4 consecutive words for
// 64/128-bit (rule 2). Word
// numbers are 64-bit so that an address near 4 GiB does not wrap onto word 0.
struct LaneWords {
  uint64_t first = 0;
  int count = 0;
};

LaneWords words_of(uint32_t addr, int bytes) {
  const uint64_t first = uint64_t(addr) >> 2;
  const uint64_t last = (uint64_t(addr) + uint64_t(bytes) - 1) >> 2;
  return {first, int(last - first + 1)};
}

int bank_of_word(uint64_t word) { return int(word & (kSharedBanks - 1)); }

bool lanes_share_a_word(const LaneWords& a, const LaneWords& b) {
  return a.first < b.first + uint64_t(b.count) && b.first < a.first + uint64_t(a.count);
}

// ---- phases -------------------------------------------------------------------
// Rule 1 is shared_phase_lanes, below (public: the emulator orders stores by it).

// Rule 3: for every active lane n, addr[n] == addr[n ^ partner_xor].
//
// docs/warp-rules.md#wavefronts leaves open what happens when lane n is active and n ^ partner_xor is not.
// We read it conservatively: an inactive partner breaks the pairing. Pairing can
// only lower the cost (a merged phase costs at most the sum of its halves), so
// this reading never predicts fewer wavefronts than the hardware could deliver.
bool lanes_pair(const SharedAccess& a, int partner_xor) {
  if (a.active == 0) return false;
  for (int n = 0; n < kWarpSize; ++n) {
    if (!(a.active & lane_bit(n))) continue;
    const int partner = n ^ partner_xor;
    if (!(a.active & lane_bit(partner))) return false;
    if (a.addr[n] != a.addr[partner]) return false;
  }
  return true;
}

// Loads only: STS.128 to one address still costs 4 (docs/warp-rules.md#wavefronts rule 3, [HW]).
bool load_pairs(const SharedAccess& a) {
  if (a.store || a.bytes < 8) return false;
  return lanes_pair(a, 1) || lanes_pair(a, 2);
}

// ---- cost ---------------------------------------------------------------------

// Rule 2 for one phase; also marks the phase's broadcast lanes.
BankPhase cost_phase(const SharedAccess& a, int first_lane, int lanes,
                     uint32_t* broadcast_lanes) {
  BankPhase phase;
  phase.lanes = (lanes == kWarpSize ? ~uint32_t{0} : ((uint32_t{1} << lanes) - 1)) << first_lane;

  // Aligned (analyze_shared_access checks): at most 16 lanes x 4 words (paired
  // LDS.128) or 32 lanes x 2 words (LDS.64); sized for 32 x 5 all the same.
  uint64_t words[kWarpSize * 5];
  int word_count = 0;
  LaneWords seen[kWarpSize];
  int seen_count = 0;
  for (int lane = first_lane; lane < first_lane + lanes; ++lane) {
    if (!(a.active & lane_bit(lane))) continue;  // inactive lanes count for nothing
    const LaneWords w = words_of(a.addr[lane], a.bytes);
    // A word a lower lane of the phase already asked for is served with it:
    // reads are multicast, and one of the writes lands (PG 20.4.3).
    for (int i = 0; i < seen_count; ++i)
      if (lanes_share_a_word(w, seen[i])) {
        *broadcast_lanes |= lane_bit(lane);
        break;
      }
    seen[seen_count++] = w;
    for (int k = 0; k < w.count; ++k) words[word_count++] = w.first + uint64_t(k);
  }
  std::sort(words, words + word_count);
  const int distinct = int(std::unique(words, words + word_count) - words);
  for (int i = 0; i < distinct; ++i) ++phase.words_per_bank[bank_of_word(words[i])];
  for (uint8_t n : phase.words_per_bank) phase.wavefronts = std::max<uint32_t>(phase.wavefronts, n);
  return phase;
}

}  // namespace

// Rule 1: one phase carries at most 128 bytes of request, so 64-bit accesses go
// in fixed half-warps and 128-bit ones in fixed quarter-warps. The hardware never
// regroups lanes across these boundaries (the discriminator tests, case 34 of docs/warp-rules.md#cases).
bool valid_shared_width(int bytes) { return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16; }

int shared_phase_lanes(int bytes) { return bytes <= 4 ? kWarpSize : bytes == 8 ? 16 : 8; }

BankAnalysis analyze_shared_access(const SharedAccess& access) {
  if (!valid_shared_width(access.bytes))
    throw std::invalid_argument("shared-memory access width " + std::to_string(access.bytes) +
                                " bytes: expected 1, 2, 4, 8 or 16");
  // The GPU faults on a misaligned shared access, so no recording holds one;
  // a trace file that does is refused rather than costed.
  for (int lane = 0; lane < kWarpSize; ++lane)
    if ((access.active & lane_bit(lane)) && access.addr[lane] % uint32_t(access.bytes) != 0)
      throw std::invalid_argument("shared-memory access: lane " + std::to_string(lane) + "'s address " +
                                  std::to_string(access.addr[lane]) + " is not a multiple of its width " +
                                  std::to_string(access.bytes));
  BankAnalysis result;
  result.paired = load_pairs(access);
  int lanes = shared_phase_lanes(access.bytes);
  if (result.paired) lanes *= 2;  // LDS.64 -> the whole warp, LDS.128 -> half-warps

  for (int lane = 0; lane < kWarpSize; ++lane)
    result.bank[lane] = (access.active & lane_bit(lane)) ? int8_t(bank_of(access.addr[lane])) : -1;

  for (int first = 0; first < kWarpSize; first += lanes) {
    BankPhase phase = cost_phase(access, first, lanes, &result.broadcast_lanes);
    // Rule 4: the ideal is one wavefront per phase that has an active lane.
    result.wavefronts += phase.wavefronts;
    if (phase.lanes & access.active) ++result.ideal;
    result.phases.push_back(phase);
  }
  result.conflicts = result.wavefronts - result.ideal;
  result.broadcasts = uint32_t(std::popcount(result.broadcast_lanes));
  return result;
}

// ---- trace steps ----------------------------------------------------------------

SharedAccess shared_access_of(const TraceStep& step) {
  if (!op_is_shared(step.op))
    throw std::invalid_argument(std::string("not a shared-memory step: ") + op_name(step.op));
  SharedAccess a;
  a.store = step.op == Op::StoreShared;
  int width = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord& l = step.lanes[lane];
    if (!l.active()) continue;
    // One instruction has one width; a mixed step cannot come from a recorder.
    if (width != 0 && l.bytes != width)
      throw std::invalid_argument("shared-memory step with mixed access widths (" +
                                  std::to_string(width) + " and " + std::to_string(l.bytes) +
                                  " bytes)");
    width = l.bytes;
    a.active |= lane_bit(lane);
    a.addr[lane] = l.addr;
  }
  if (a.active != 0) a.bytes = width;  // else the default 4: an empty step costs 0 anyway
  return a;
}

SharedTotals shared_totals(const Trace& trace) {
  SharedTotals t;
  for (const TraceStep& s : trace.steps) {
    if (!op_is_shared(s.op)) continue;
    const BankAnalysis b = analyze_shared_access(shared_access_of(s));
    if (s.op == Op::StoreShared) {
      ++t.store_steps;
      t.store_wavefronts += b.wavefronts;
      t.store_conflicts += b.conflicts;
    } else {
      ++t.load_steps;
      t.load_wavefronts += b.wavefronts;
      t.load_conflicts += b.conflicts;
    }
  }
  return t;
}

}  // namespace warpviz
