// PlayOrder: phases and rounds read off each warp's steps, and the causal
// order that plays the warps of a block round by round side by side.
//
// [SECTION] Phases
// [SECTION] Play order
// [SECTION] Labels
#include "warpviz/view/play_order.h"

#include <algorithm>
#include <cstdio>

#include "warpviz/scenario.h"
#include "warpviz/view/lane_view.h"

namespace warpviz::view {

namespace {

// What a step does to its warp's phases: start or continue one of a kind, or
// join the round of the step before it.
enum class OpRole { Shuffle, Shared, Collective, Joins };

OpRole op_role(Op op) {
  if (op_is_shuffle(op)) return OpRole::Shuffle;
  if (op_is_shared(op)) return OpRole::Shared;
  switch (op) {
    case Op::Ballot:
    case Op::Any:
    case Op::All:
    case Op::ActiveMask:
    case Op::MatchAny:
    case Op::MatchAll:
    case Op::ReduxAdd:
    case Op::ReduxMin:
    case Op::ReduxMax:
    case Op::ReduxAnd:
    case Op::ReduxOr:
    case Op::ReduxXor:
    case Op::SyncWarp: return OpRole::Collective;
    // Anything else records a value rather than doing warp-wide work (the
    // watch of a variable after a shuffle): it belongs with the round before.
    default: return OpRole::Joins;
  }
}

PhaseKind phase_kind(OpRole role) {
  switch (role) {
    case OpRole::Shuffle: return PhaseKind::Shuffle;
    case OpRole::Shared: return PhaseKind::Shared;
    default: return PhaseKind::Collective;
  }
}

// Whether steps a and b are of one warp, from their headers.
bool same_warp(const TraceSteps& steps, size_t a, size_t b) {
  return steps.block(a) == steps.block(b) && steps.warp(a) == steps.warp(b);
}

// The end of the run of steps of one block and warp that starts at `first`.
size_t warp_run_end(const Trace& trace, size_t first) {
  size_t end = first + 1;
  while (end < trace.steps.size() && same_warp(trace.steps, end, first)) ++end;
  return end;
}

}  // namespace

// ============================================================================
// [SECTION] Phases
// ============================================================================

const char* play_order_id(PlayOrderKind kind) { return kind == PlayOrderKind::Causal ? "causal" : "per_warp"; }

bool parse_play_order(const std::string& id, PlayOrderKind* out) {
  if (id == "causal") *out = PlayOrderKind::Causal;
  else if (id == "per_warp") *out = PlayOrderKind::PerWarp;
  else return false;
  return true;
}

std::vector<StepPhase> warp_phases(const Trace& trace, size_t first, size_t end) {
  end = std::min(end, trace.steps.size());
  std::vector<StepPhase> phases(end > first ? end - first : 0);
  StepPhase current;
  bool started = false, loaded = false;
  uint32_t chains = 0;     // shuffle chains begun
  size_t phase_start = 0;  // index into `phases` of the current phase's first step
  auto finish_phase = [&](size_t phase_end) {
    for (size_t k = phase_start; k < phase_end; ++k) phases[k].rounds = current.round + 1;
  };
  // A chain of shuffles is one op whose offset moves one way (warp_sum's
  // shfl.down 16, 8, 4, 2, 1; the butterfly's xor 1 ... 16), as lane_frame
  // counts rounds: reduce_sum's warp 0 starts a second chain at its second
  // level's 16 even where nothing was recorded between the two.
  const TraceSteps& steps = trace.steps;
  size_t last_shuffle = SIZE_MAX;  // SIZE_MAX: none
  int direction = 0;  // of the chain's offsets: +1, -1, or 0 before its second shuffle
  auto continues_chain = [&](size_t i) {
    if (last_shuffle == SIZE_MAX || steps.op(i) != steps.op(last_shuffle)) return false;
    const int64_t b = steps.args(i).b, last_b = steps.args(last_shuffle).b;
    if (b == last_b) return false;
    const int d = b > last_b ? 1 : -1;
    if (direction != 0 && d != direction) return false;
    direction = d;
    return true;
  };
  for (size_t i = first; i < end; ++i) {
    const Op op = trace.steps.op(i);
    const OpRole role = op_role(op);
    if (role == OpRole::Joins && started) {
      phases[i - first] = current;  // the round of the step before
      continue;
    }
    const PhaseKind kind = phase_kind(role);
    bool new_phase = !started || kind != current.kind;
    if (role == OpRole::Shuffle) {
      if (new_phase || !continues_chain(i)) {
        new_phase = true;
        direction = 0;
      }
      last_shuffle = i;
    } else {
      last_shuffle = SIZE_MAX;
    }
    if (new_phase) {
      if (started) finish_phase(i - first);
      if (kind == PhaseKind::Shuffle) current.chain = chains++;
      current.phase = started ? current.phase + 1 : 0;
      current.kind = kind;
      current.round = 0;
      current.after_shared_load = loaded;
      phase_start = i - first;
      started = true;
    } else {
      ++current.round;
    }
    phases[i - first] = current;
    if (op == Op::LoadShared) loaded = true;  // counts for the phases after this one
  }
  if (started) finish_phase(phases.size());
  return phases;
}

std::vector<StepPhase> step_phases(const Trace& trace) {
  std::vector<StepPhase> phases;
  phases.reserve(trace.steps.size());
  for (size_t first = 0; first < trace.steps.size();) {
    const size_t end = warp_run_end(trace, first);
    const std::vector<StepPhase> warp = warp_phases(trace, first, end);
    phases.insert(phases.end(), warp.begin(), warp.end());
    first = end;
  }
  return phases;
}

// ============================================================================
// [SECTION] Play order
// ============================================================================

PlayOrder::PlayOrder(size_t count) : count_(count) {}

PlayOrder::PlayOrder(const Trace& trace, PlayOrderKind kind) : kind_(kind), count_(trace.steps.size()) {
  phases_ = step_phases(trace);
  const size_t n = trace.steps.size();
  round_of_.reserve(n);
  if (kind == PlayOrderKind::PerWarp) {
    // As stored; a round is one warp's (warps follow each other).
    uint32_t round = 0;
    for (size_t i = 0; i < n; ++i) {
      if (i > 0 && (!same_warp(trace.steps, i, i - 1) || phases_[i].phase != phases_[i - 1].phase ||
                    phases_[i].round != phases_[i - 1].round))
        ++round;
      round_of_.push_back(round);
    }
    return;
  }

  steps_.reserve(n);
  uint32_t round = 0;
  for (size_t block_first = 0; block_first < n;) {
    // The block's warps: runs of one warp each, in the stored (warp) order.
    std::vector<std::pair<size_t, size_t>> warps;  // [first, end) of each warp's run
    size_t block_end = block_first;
    while (block_end < n && trace.steps.block(block_end) == trace.steps.block(block_first)) {
      const size_t end = warp_run_end(trace, block_end);
      warps.emplace_back(block_end, end);
      block_end = end;
    }
    // How many rounds each phase has in its longest warp.
    std::vector<uint32_t> rounds_of_phase;
    for (size_t i = block_first; i < block_end; ++i) {
      const StepPhase& p = phases_[i];
      if (p.phase >= rounds_of_phase.size()) rounds_of_phase.resize(p.phase + 1, 0);
      rounds_of_phase[p.phase] = std::max(rounds_of_phase[p.phase], p.rounds);
    }
    // Phase by phase, round by round; within a round warp by warp, each
    // warp's steps of that round together. Each warp's steps come in seq
    // order, since its phases and rounds only grow along it.
    std::vector<size_t> cursor;
    for (const auto& run : warps) cursor.push_back(run.first);
    for (uint32_t phase = 0; phase < rounds_of_phase.size(); ++phase) {
      for (uint32_t r = 0; r < rounds_of_phase[phase]; ++r) {
        bool any = false;
        for (size_t w = 0; w < warps.size(); ++w) {
          size_t& at = cursor[w];
          while (at < warps[w].second && phases_[at].phase == phase && phases_[at].round == r) {
            steps_.push_back(at++);
            round_of_.push_back(round);
            any = true;
          }
        }
        if (any) ++round;
      }
    }
    block_first = block_end;
  }
  if (steps_.size() != n) {  // steps out of (block, warp, seq) order: play them as stored
    steps_.clear();
    round_of_.assign(n, 0);
    for (size_t i = 0; i < n; ++i) round_of_[i] = uint32_t(i);
    return;
  }
  positions_.assign(n, 0);
  for (size_t position = 0; position < n; ++position) positions_[steps_[position]] = position;
}

size_t PlayOrder::step_at(size_t position) const {
  if (count_ == 0) return 0;
  position = std::min(position, count_ - 1);
  return steps_.empty() ? position : steps_[position];
}

size_t PlayOrder::position_of(size_t step) const {
  if (count_ == 0) return 0;
  step = std::min(step, count_ - 1);
  return positions_.empty() ? step : positions_[step];
}

bool PlayOrder::ends_round(size_t position) const {
  if (position + 1 >= count_) return true;
  return round_of_.empty() || round_of_[position] != round_of_[position + 1];
}

const StepPhase* PlayOrder::phase(size_t step) const { return step < phases_.size() ? &phases_[step] : nullptr; }

// ============================================================================
// [SECTION] Labels
// ============================================================================

namespace {

// The block reduction's words for `step`, or "" where it has none.
std::string reduction_words(const Trace& trace, const StepPhase& phase, size_t step, Language language) {
  // A step that joined a round is told by the op that leads the round.
  size_t lead = step;
  while (lead > 0 && op_role(trace.steps.op(lead)) == OpRole::Joins &&
         same_warp(trace.steps, lead - 1, step))
    --lead;
  const TraceStep& s = trace.steps[lead];
  char text[128] = "";
  if (phase.kind == PhaseKind::Shuffle) {
    std::snprintf(text, sizeof text,
                  // The second chain (after the load of the slots, where that was recorded).
                  tr(phase.after_shared_load || phase.chain > 0 ? Text::FinalReductionRound
                                                                : Text::FirstReductionRound,
                     language),
                  size_t(phase.round + 1), size_t(phase.rounds));
  } else if (op_is_shared(s.op)) {
    // The slots from the lanes' byte addresses (warpSums holds one element per warp).
    int lo = -1, hi = -1;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (!s.lanes[lane].active()) continue;
      if (lo < 0) lo = lane;
      hi = lane;
    }
    if (lo < 0) return "";
    auto slot = [&](int lane) {
      const LaneRecord& r = s.lanes[lane];
      return size_t(r.bytes ? r.addr / r.bytes : r.addr);
    };
    if (s.op == Op::StoreShared)
      std::snprintf(text, sizeof text, tr(Text::WarpSumsWrite, language), size_t(lo), slot(lo));
    else
      std::snprintf(text, sizeof text, tr(Text::WarpSumsRead, language), size_t(s.warp), slot(lo), slot(hi));
  }
  return text;
}

}  // namespace

std::string place_words(const Trace& trace, const PlayOrder& order, size_t position, Language language) {
  if (position >= order.size()) return "";
  const size_t step = order.step_at(position);
  if (step >= trace.steps.size()) return "";
  const StepPhase* phase = order.phase(step);
  if (phase && scenario_traits(trace.meta.scenario).block_reduction) {
    std::string words = reduction_words(trace, *phase, step, language);
    if (!words.empty()) return words;
  }
  const StepPlace place = step_place(trace, step);
  if (!place.is_round) return "";
  char text[64];
  std::snprintf(text, sizeof text, tr(Text::RoundOf, language), place.number, place.count);
  return text;
}

std::string position_label(const Trace& trace, const PlayOrder& order, size_t position, Language language) {
  if (position >= order.size() || order.step_at(position) >= trace.steps.size()) return "";
  std::string words = place_words(trace, order, position, language);
  if (!words.empty()) return words;
  char text[64];
  std::snprintf(text, sizeof text, tr(Text::StepOf, language), position + 1, order.size());
  return text;
}

std::optional<NumberedStep> numbered_step(const Trace& trace, const PlayOrder& order, size_t number) {
  if (number == 0 || number > order.size() || order.size() > trace.steps.size()) return std::nullopt;
  NumberedStep numbered;
  numbered.position = number - 1;
  numbered.step = order.step_at(numbered.position);
  numbered.block = trace.steps.block(numbered.step);
  numbered.warp = trace.steps.warp(numbered.step);
  return numbered;
}

std::string step_number_error(const std::string& option, size_t number, size_t count) {
  if (count == 0) return option + " " + std::to_string(number) + ": the trace has no steps";
  return option + " " + std::to_string(number) + ": the trace has " + std::to_string(count) + " step" +
         (count == 1 ? "" : "s") + " (1 to " + std::to_string(count) + ")";
}

std::string warp_label(const Trace& trace, size_t step, Language language) {
  if (step >= trace.steps.size()) return "";
  char text[64];
  std::snprintf(text, sizeof text, tr(Text::BlockWarp, language), unsigned(trace.steps.block(step)),
                unsigned(trace.steps.warp(step)));
  return text;
}

}  // namespace warpviz::view
