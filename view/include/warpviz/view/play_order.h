// The order the timeline plays a trace's steps in. Steps are stored warp by
// warp (block, warp, seq), but the warps of a block run side by side: in
// reduce_sum every warp does its first reduction's round 1 before any lane 0
// writes warpSums, and warp 0's final reduction reads slots the other warps
// wrote. The causal order plays what the data needs first first: round 1 of
// every warp, then round 2 of every warp, ..., then the warpSums writes, then
// warp 0's reads and final rounds. The per-warp order is the stored one.
//
// Pure: computed from the trace, never from known step numbers, so a kernel
// that records more (a watched variable after each round) plays sensibly too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warpviz/trace.h"
#include "warpviz/view/strings.h"

namespace warpviz::view {

enum class PlayOrderKind {
  Causal,   // round by round, the warps of a block side by side (the default)
  PerWarp,  // as stored: each warp's steps from its first to its last
};
const char* play_order_id(PlayOrderKind kind);  // "causal", "per_warp": the settings file's words
bool parse_play_order(const std::string& id, PlayOrderKind* out);

// What a phase of a warp's work is made of.
enum class PhaseKind : uint8_t {
  Shuffle,     // a chain of shuffles: a reduction's rounds
  Shared,      // consecutive ld.shared / st.shared
  Collective,  // votes, match, redux, syncwarp, activemask
};

// Where a step stands in its warp's work. A phase is a run of the warp's steps
// of one kind, each warp-wide op one round of it (a shuffle chain also ends
// where its op changes or its offset turns back); a step of an op that is no
// warp-wide operation (an op this code does not know, such as a recorded
// variable) belongs to the round of the step before it in the same warp.
struct StepPhase {
  PhaseKind kind = PhaseKind::Shuffle;
  uint32_t phase = 0;   // the warp's phase number, from 0
  uint32_t round = 0;   // within the phase, from 0
  uint32_t rounds = 1;  // rounds of this phase in this warp
  uint32_t chain = 0;   // shuffle phases: which of the warp's shuffle chains, from 0
  // An ld.shared of this warp came before this phase: its data came through
  // shared memory (reduce_sum's final reduction over warpSums).
  bool after_shared_load = false;
};

// The phases of one warp's steps, trace.steps[first, end) (all of one block
// and warp, in seq order); one entry per step.
std::vector<StepPhase> warp_phases(const Trace& trace, size_t first, size_t end);
// Every step's phase, warp by warp.
std::vector<StepPhase> step_phases(const Trace& trace);

// Playback positions 0..size()-1 and the trace steps they show.
class PlayOrder {
 public:
  PlayOrder() = default;
  // The stored order of `count` steps, each step its own round (no trace to
  // read phases from).
  explicit PlayOrder(size_t count);
  // Causal: per block (blocks one after another, as stored), phase by phase,
  // round by round, each round's steps warp by warp. A single warp's steps
  // play as stored either way.
  PlayOrder(const Trace& trace, PlayOrderKind kind);

  size_t size() const { return count_; }
  PlayOrderKind kind() const { return kind_; }
  // The trace step at `position` (clamped to the last; 0 when empty).
  size_t step_at(size_t position) const;
  // Where trace step `step` plays (clamped to the last).
  size_t position_of(size_t step) const;
  // The step at `position` is the last of a round: causal, the last warp's
  // part of that round; per warp, one warp's round (a shuffle and the steps
  // that belong to it). The last position always ends one.
  bool ends_round(size_t position) const;
  // The phase of trace step `step`; nullptr without a trace or out of range.
  const StepPhase* phase(size_t step) const;

 private:
  PlayOrderKind kind_ = PlayOrderKind::PerWarp;
  size_t count_ = 0;
  std::vector<size_t> steps_;      // position -> step; empty: the identity
  std::vector<size_t> positions_;  // step -> position; empty: the identity
  std::vector<uint32_t> round_of_; // position -> a number that changes where a round ends; empty: every step
  std::vector<StepPhase> phases_;  // step -> its phase; empty without a trace
};

// What a student reads above the lanes and on the timeline for the step at
// `position`. A two-level block reduction (the scenario's block_reduction
// trait) says its phase in words: "first reduction, round 3/5", "lane 0
// writes warpSums[2]", "warp 0 reads warpSums[0..7]", "final reduction over
// warpSums, round 2/5". Any other trace: a reduction's "round 2/5" (as
// lane_frame places it), else "step 7/92", numbered as the timeline plays.
std::string position_label(const Trace& trace, const PlayOrder& order, size_t position, Language language);
// The same without the plain step count: the phase in words or "round 2/5";
// "" where position_label says "step 7/92", for the timeline, whose own
// counter ("step 7 of 92") says that already.
std::string place_words(const Trace& trace, const PlayOrder& order, size_t position, Language language);

// A step number, as --step, a lesson's `start` and the timeline's "step k of
// n" say it: step N (from 1) is play position N-1 of the order the timeline
// plays, counted over all the trace's warps, not the stored (block, warp,
// seq) index. The warp on screen is the warp of the trace step it plays.
struct NumberedStep {
  size_t position = 0;  // the play position, from 0
  size_t step = 0;      // the trace step it plays
  uint32_t block = 0, warp = 0;
};
// Step `number` of `trace` played in `order`; nullopt for 0 or past the end.
std::optional<NumberedStep> numbered_step(const Trace& trace, const PlayOrder& order, size_t number);
// "--step 9: the trace has 8 steps (1 to 8)": what a number past the end gets.
std::string step_number_error(const std::string& option, size_t number, size_t count);
// "block 0, warp 1": the warp trace step `step` belongs to ("" out of range).
std::string warp_label(const Trace& trace, size_t step, Language language);

}  // namespace warpviz::view
