// Round stops: the play positions the export rests on and the arrows stop at.
// Walked lazily from the position asked about: a key press looks at a step
// or two, not the whole trace.
#include "warpviz/view/round_stops.h"

#include <algorithm>
#include <cmath>

#include "warpviz/view/lane_view.h"

namespace warpviz::view {

bool rests_with_round(const Trace& trace, const PlayOrder& order, size_t position) {
  if (position == 0 || position >= order.size()) return false;  // the first position always shows
  const size_t step = order.step_at(position);
  if (step >= trace.steps.size() || !op_is_watch(trace.steps.op(step))) return false;
  return lane_frame(trace, step, false).landed;
}

std::vector<bool> watches_resting_with_round(const Trace& trace, const PlayOrder& order) {
  std::vector<bool> resting(order.size(), false);
  for (size_t p = 0; p < order.size(); ++p) resting[p] = rests_with_round(trace, order, p);
  return resting;
}

size_t round_stop_of(const Trace& trace, const PlayOrder& order, size_t position) {
  if (order.size() == 0) return 0;
  position = std::min(position, order.size() - 1);
  while (position > 0 && rests_with_round(trace, order, position)) --position;
  return position;
}

size_t next_round_stop(const Trace& trace, const PlayOrder& order, size_t position) {
  for (size_t p = position + 1; p < order.size(); ++p)
    if (!rests_with_round(trace, order, p)) return p;
  return order.size() == 0 ? 0 : std::min(position, order.size() - 1);
}

size_t previous_round_stop(const Trace& trace, const PlayOrder& order, size_t position) {
  const size_t stop = round_stop_of(trace, order, position);
  return stop == 0 ? 0 : round_stop_of(trace, order, stop - 1);
}

size_t round_step(const Trace& trace, const PlayOrder& order, double position, int direction) {
  const double from = std::max(0.0, position);  // also NaN: the start
  const size_t at = size_t(std::floor(from));
  if (direction > 0) return next_round_stop(trace, order, at);
  const bool moving = from > double(at);
  return moving ? round_stop_of(trace, order, at) : previous_round_stop(trace, order, at);
}

}  // namespace warpviz::view
