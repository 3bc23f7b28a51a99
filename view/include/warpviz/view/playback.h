// Timeline state of the app: which step is shown, and how far the animation
// between it and the next one has run. Pure logic: the app feeds it frame
// times, the tests feed it numbers.
#pragma once

#include <cstddef>

namespace warpviz::view {

class Playback {
 public:
  explicit Playback(size_t step_count = 0);

  void set_step_count(size_t count);  // keeps the position when it still fits
  size_t step_count() const;

  // The shown step; while animating, values travel from step() toward step() + 1.
  size_t step() const;
  // The step the views show: while a transition runs, values travel toward
  // step() + 1, so that step's op is the one executing.
  size_t shown_step() const;
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
  void seek(size_t step);  // clamps; keeps playing or paused as it was
  // Scrubbing: a position in steps, fractional part is the transition.
  void scrub(double position);
  double position() const;  // step() + transition()

  // Steps per second; clamped to [0.1, 20].
  void set_speed(double steps_per_second);
  double speed() const;

  // Advances by dt seconds of wall time; returns true when anything changed
  // (so the app redraws only then). Stops playing at the last step.
  bool advance(double dt_seconds);

 private:
  size_t count_ = 0;
  double position_ = 0;  // in steps
  double speed_ = 1.0;
  bool playing_ = false;
};

}  // namespace warpviz::view
