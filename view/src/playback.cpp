// Playback: the timeline position in steps. The integer part is the shown step,
// the fractional part how far the values have travelled toward the next one.
#include "warpviz/view/playback.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace warpviz::view {

namespace {

constexpr double kMinSpeed = 0.1;
constexpr double kMaxSpeed = 20.0;
constexpr double kMaxHold = 10.0;  // seconds; longer is a pause, which the round option gives
// Accumulated frame times drift (0.1 * 10 != 1.0); positions this close to a
// step are that step, so a paused view never shows a sliver of a transition.
constexpr double kSnap = 1e-9;

double snap(double position) {
  const double nearest = std::round(position);
  return std::abs(position - nearest) < kSnap ? nearest : position;
}

}  // namespace

Playback::Playback(size_t step_count) : order_(step_count) {}

void Playback::set_step_count(size_t count) {
  order_ = PlayOrder(count);
  const double last = count == 0 ? 0.0 : double(count - 1);
  if (position_ > last) position_ = last;
  if (count <= 1) playing_ = false;
  hold_left_ = 0;
}

void Playback::set_order(PlayOrder order) {
  const bool had_steps = order_.size() > 0;
  const size_t shown = step();
  order_ = std::move(order);
  position_ = had_steps && shown < order_.size() ? double(order_.position_of(shown)) : 0.0;
  if (order_.size() <= 1) playing_ = false;
  hold_left_ = 0;
}

const PlayOrder& Playback::order() const { return order_; }

size_t Playback::step_count() const { return order_.size(); }

size_t Playback::step() const { return order_.step_at(size_t(std::floor(position_))); }

float Playback::transition() const { return float(position_ - std::floor(position_)); }

float Playback::eased_transition() const {
  const float t = transition();
  return t * t * (3.0f - 2.0f * t);
}

bool Playback::playing() const { return playing_; }

void Playback::play() {
  if (order_.size() <= 1) return;  // nothing to animate
  // Play from the last step starts over: what a lecturer replaying a round expects.
  if (position_ >= double(order_.size() - 1)) position_ = 0;
  playing_ = true;
}

void Playback::pause() {
  playing_ = false;
  hold_left_ = 0;
}

void Playback::toggle() {
  if (playing_) pause();
  else play();
}

void Playback::step_forward() {
  pause();
  seek_position(size_t(std::floor(position_)) + 1);
}

void Playback::step_back() {
  pause();
  const size_t at = size_t(std::floor(position_));
  seek_position(at == 0 ? 0 : at - 1);
}

void Playback::jump_to_start() { seek_position(0); }

void Playback::jump_to_end() { seek_position(order_.size() == 0 ? 0 : order_.size() - 1); }

void Playback::seek(size_t step) { seek_position(order_.position_of(step)); }

void Playback::seek_position(size_t position) {
  const size_t last = order_.size() == 0 ? 0 : order_.size() - 1;
  position_ = double(std::min(position, last));
  hold_left_ = 0;
}

void Playback::scrub(double position) {
  if (std::isnan(position)) return;
  const double last = order_.size() == 0 ? 0.0 : double(order_.size() - 1);
  position_ = snap(std::clamp(position, 0.0, last));
  hold_left_ = 0;
}

double Playback::position() const { return position_; }

void Playback::set_speed(double steps_per_second) {
  if (std::isnan(steps_per_second)) return;
  speed_ = std::clamp(steps_per_second, kMinSpeed, kMaxSpeed);
}

double Playback::speed() const { return speed_; }

void Playback::set_hold(double seconds) {
  if (std::isnan(seconds)) return;
  hold_ = std::clamp(seconds, 0.0, kMaxHold);
  hold_left_ = std::min(hold_left_, hold_);
}

double Playback::hold() const { return hold_; }

bool Playback::holding() const { return playing_ && hold_left_ > 0; }

void Playback::set_pause_after_round(bool pause) { pause_after_round_ = pause; }

bool Playback::pause_after_round() const { return pause_after_round_; }

void Playback::land(size_t position) {
  if (position + 1 >= order_.size() || (pause_after_round_ && order_.ends_round(position))) {
    playing_ = false;  // the end, or the end of a round a lecturer wants to talk over
    return;
  }
  hold_left_ = hold_;
}

bool Playback::advance(double dt_seconds) {
  if (!playing_) return false;
  const double last = order_.size() == 0 ? 0.0 : double(order_.size() - 1);
  if (position_ >= last) {
    playing_ = false;
    return true;
  }
  if (!(dt_seconds > 0)) return false;  // also rejects NaN
  bool moved = false;
  // A frame may hold, move, land and hold again: spend its time in that order.
  double left = dt_seconds;
  while (playing_ && left > 0) {
    if (hold_left_ > 0) {
      const double spent = std::min(left, hold_left_);
      hold_left_ -= spent;
      left -= spent;
      continue;
    }
    const double next = std::floor(position_) + 1;  // the next step to land
    const double to_next = (next - position_) / speed_;
    if (left < to_next) {
      position_ = snap(position_ + speed_ * left);
      moved = true;
      if (position_ >= next) land(size_t(next));  // snapped onto it: landed all the same
      break;
    }
    position_ = next;
    left -= to_next;
    moved = true;
    land(size_t(next));
  }
  return moved;
}

size_t Playback::shown_step() const { return order_.step_at(shown_position()); }

size_t Playback::shown_position() const {
  const size_t at = size_t(std::floor(position_));
  if (transition() > 0.0f && at + 1 < order_.size()) return at + 1;
  return at;
}

}  // namespace warpviz::view
