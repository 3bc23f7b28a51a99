// Which play positions are worth a stop of their own. A watch that repeats
// its round's picture (`val += __shfl_down_sync(...); WARPVIZ_WATCH(val);`:
// the lane view shows the round's "val after +=" row on the shuffle already,
// lane_frame's `landed`) rests with its round: the export gives it no second
// of its own, and Right / Left step over it, so warp_sum's 10 steps are 5
// rounds either way.
#pragma once

#include <cstddef>
#include <vector>

#include "warpviz/trace.h"
#include "warpviz/view/play_order.h"

namespace warpviz::view {

// The step at play position `position` of `order` is such a watch.
bool rests_with_round(const Trace& trace, const PlayOrder& order, size_t position);
// The same for every play position (what the export plans its frames with).
std::vector<bool> watches_resting_with_round(const Trace& trace, const PlayOrder& order);

// The round stop `position` belongs to: itself, or for a resting watch the
// stop before it (its round's shuffle). Position 0 is always a stop.
size_t round_stop_of(const Trace& trace, const PlayOrder& order, size_t position);
// Right: the first stop after `position`; `position` itself when none is
// left (the positions after it all repeat the picture on screen).
size_t next_round_stop(const Trace& trace, const PlayOrder& order, size_t position);
// Left: the stop before the one `position` belongs to; 0 at the start.
size_t previous_round_stop(const Trace& trace, const PlayOrder& order, size_t position);
// Where Right (+1) or Left (-1) goes from the timeline's `position`; a
// fractional one is a transition under way from floor(position), and Left
// goes back to the stop it started from.
size_t round_step(const Trace& trace, const PlayOrder& order, double position, int direction);

}  // namespace warpviz::view
