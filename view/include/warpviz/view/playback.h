// Timeline state of the app: which step is shown, and how far the animation
// between it and the next one has run. Pure logic: the app feeds it frame
// times, the tests feed it numbers.
//
// The timeline runs over play positions; a PlayOrder maps each to the trace
// step it shows (the causal order plays a block's warps round by round).
// step(), shown_step() and seek() speak of trace steps, so a panel that
// reads or jumps to a step needs no order; position() and scrub() are the
// timeline's own.
#pragma once

#include <cstddef>

#include "warpviz/view/play_order.h"

namespace warpviz::view {

class Playback {
 public:
  explicit Playback(size_t step_count = 0);

  // The stored order of `count` steps; keeps the position when it still fits.
  void set_step_count(size_t count);
  // Plays in `order`; keeps the shown step (wherever the new order plays it)
  // when it still fits, and stops any transition and hold.
  void set_order(PlayOrder order);
  const PlayOrder& order() const;
  size_t step_count() const;

  // The trace step landed at the position; while animating, values travel
  // from it toward the next position's step.
  size_t step() const;
  // The trace step the views show: while a transition runs, values travel
  // toward the next position's step, so that step's op is the one executing.
  size_t shown_step() const;
  // The play position of shown_step(), from 0 (the timeline's "step k of n").
  size_t shown_position() const;
  // 0..1: progress of the current transition (0 when paused on a step).
  float transition() const;
  // Smoothed transition for drawing (ease in-out).
  float eased_transition() const;

  bool playing() const;
  void play();           // from the last step, starts over; needs two steps or more
  void pause();
  void toggle();
  void step_forward();   // ends any transition and moves one step (stops at the last)
  void step_back();      // both pause: a lecturer stepping wants the frame to stay
  void jump_to_start();
  void jump_to_end();
  // To trace step `step` (clamped), wherever the order plays it; keeps
  // playing or paused as it was.
  void seek(size_t step);
  void seek_position(size_t position);  // clamps; keeps playing or paused
  // Scrubbing: a position in steps, fractional part is the transition.
  void scrub(double position);
  double position() const;  // step() + transition()

  // Steps per second; clamped to [0.1, 20].
  void set_speed(double steps_per_second);
  double speed() const;

  // While playing, each step that lands stays on screen this long before the
  // next one starts moving, so a result can be read. Clamped to [0, 10] s.
  void set_hold(double seconds);
  double hold() const;
  bool holding() const;  // playing and waiting on a landed step
  // While playing, stop when a round of the order ends (the last warp's part
  // of the round, causal; a warp's round, per warp).
  void set_pause_after_round(bool pause);
  bool pause_after_round() const;

  // Advances by dt seconds of wall time; returns true when anything changed
  // (so the app redraws only then). Stops playing at the last step.
  bool advance(double dt_seconds);

 private:
  void land(size_t position);  // a step landed while playing: stop, hold or go on

  PlayOrder order_;
  double position_ = 0;  // in play positions
  double speed_ = 1.0;
  bool playing_ = false;
  double hold_ = 0;       // seconds each landed step stays
  double hold_left_ = 0;  // of the current hold
  bool pause_after_round_ = false;
};

}  // namespace warpviz::view
