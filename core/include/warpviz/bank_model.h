// The sm_90 shared-memory wavefront model (docs/warp-rules.md#wavefronts), fitted to
// 47 Nsight Compute measurements on an H200: how many wavefronts one LDS/STS
// instruction of a warp costs, given each lane's byte address and the access
// width. Pure arithmetic on a trace step; no GPU needed.
#pragma once

#include <cstdint>
#include <vector>

#include "warpviz/trace.h"

namespace warpviz {

constexpr int kSharedBanks = 32;
constexpr int kBankWordBytes = 4;

// bank = (byte_addr >> 2) & 31 (PG 20.4.3).
inline int bank_of(uint32_t byte_addr) { return int((byte_addr >> 2) & 31u); }

// The widths one LDS/STS can have: 1, 2, 4, 8 or 16 bytes.
bool valid_shared_width(int bytes);

// Lanes per phase of an access `bytes` wide (docs/warp-rules.md#wavefronts rule 1): 32 up to 32-bit,
// 16 (half-warps) for 64-bit, 8 (quarter-warps) for 128-bit; load pairing
// aside, the hardware serves the phases one after another.
int shared_phase_lanes(int bytes);

// One warp's single shared-memory instruction.
struct SharedAccess {
  bool store = false;          // STS (no load pairing) or LDS
  int bytes = 4;               // access width per lane: 1, 2, 4, 8 or 16
  uint32_t active = 0;         // lanes that executed it
  uint32_t addr[kWarpSize] = {};  // byte address per lane (inactive lanes ignored)
};

// A lane group served together (docs/warp-rules.md#wavefronts rule 1, widened by rule 3 for loads).
struct BankPhase {
  uint32_t lanes = 0;      // the phase's lanes (active or not)
  uint32_t wavefronts = 0; // max over banks of distinct words touched; 0 when no lane is active
  // Distinct 32-bit words each bank serves in this phase.
  uint8_t words_per_bank[kSharedBanks] = {};
};

struct BankAnalysis {
  std::vector<BankPhase> phases;  // in lane order
  uint32_t wavefronts = 0;        // sum over phases
  uint32_t ideal = 0;             // non-empty phases
  uint32_t conflicts = 0;         // wavefronts - ideal
  // Active lanes that share a 32-bit word with a lower active lane of the same
  // phase: served by the same word (reads are multicast, one write survives).
  uint32_t broadcast_lanes = 0;
  uint32_t broadcasts = 0;        // popcount of broadcast_lanes
  // The load pairing rule (rule 3) widened the phases. An active lane whose
  // partner (n^1 or n^2) is inactive prevents it (docs/warp-rules.md#wavefronts: unconfirmed; the
  // conservative reading, see bank_model.cpp).
  bool paired = false;
  int8_t bank[kWarpSize] = {};    // bank of each active lane's first word; -1 inactive
};

// Validates what the model needs: bytes must be 1, 2, 4, 8 or 16, and every
// active lane's address a multiple of it, as the hardware requires
// (std::invalid_argument otherwise).
BankAnalysis analyze_shared_access(const SharedAccess& access);

// The access a recorded ld.shared / st.shared step made (lane addr, bytes,
// active flags); std::invalid_argument for steps of other ops and for steps
// whose active lanes disagree on the width. A step without active lanes gives
// active 0 (cost 0).
SharedAccess shared_access_of(const TraceStep& step);

// Sums over every shared-memory step of a trace, by op; std::invalid_argument
// (from the two functions above) for a step the model cannot cost. Traces read
// from files never hold one: the readers refuse such steps.
struct SharedTotals {
  uint64_t load_steps = 0, store_steps = 0;
  uint64_t load_wavefronts = 0, load_conflicts = 0;
  uint64_t store_wavefronts = 0, store_conflicts = 0;
};
SharedTotals shared_totals(const Trace& trace);

}  // namespace warpviz
