// Playback: the timeline position in steps. The integer part is the shown step,
// the fractional part how far the values have travelled toward the next one.
#include "warpviz/view/playback.h"

#include <algorithm>
#include <cmath>

namespace warpviz::view {

namespace {

constexpr double kMinSpeed = 0.1;
constexpr double kMaxSpeed = 20.0;
// Accumulated frame times drift (0.1 * 10 != 1.0); positions this close to a
// step are that step, so a paused view never shows a sliver of a transition.
constexpr double kSnap = 1e-9;

double snap(double position) {
  const double nearest = std::round(position);
  return std::abs(position - nearest) < kSnap ? nearest : position;
}

}  // namespace

Playback::Playback(size_t step_count) : count_(step_count) {}

void Playback::set_step_count(size_t count) {
  count_ = count;
  const double last = count_ == 0 ? 0.0 : double(count_ - 1);
  if (position_ > last) position_ = last;
  if (count_ <= 1) playing_ = false;
}

size_t Playback::step_count() const { return count_; }

size_t Playback::step() const { return size_t(std::floor(position_)); }

float Playback::transition() const { return float(position_ - std::floor(position_)); }

float Playback::eased_transition() const {
  const float t = transition();
  return t * t * (3.0f - 2.0f * t);
}

bool Playback::playing() const { return playing_; }

void Playback::play() {
  if (count_ <= 1) return;  // nothing to animate
  // Play from the last step starts over: what a lecturer replaying a round expects.
  if (position_ >= double(count_ - 1)) position_ = 0;
  playing_ = true;
}

void Playback::pause() { playing_ = false; }

void Playback::toggle() {
  if (playing_) pause();
  else play();
}

void Playback::step_forward() {
  playing_ = false;
  seek(step() + 1);
}

void Playback::step_back() {
  playing_ = false;
  const size_t shown = step();
  seek(shown == 0 ? 0 : shown - 1);
}

void Playback::jump_to_start() { seek(0); }

void Playback::jump_to_end() { seek(count_ == 0 ? 0 : count_ - 1); }

void Playback::seek(size_t step) {
  const size_t last = count_ == 0 ? 0 : count_ - 1;
  position_ = double(std::min(step, last));
}

void Playback::scrub(double position) {
  if (std::isnan(position)) return;
  const double last = count_ == 0 ? 0.0 : double(count_ - 1);
  position_ = snap(std::clamp(position, 0.0, last));
}

double Playback::position() const { return position_; }

void Playback::set_speed(double steps_per_second) {
  if (std::isnan(steps_per_second)) return;
  speed_ = std::clamp(steps_per_second, kMinSpeed, kMaxSpeed);
}

double Playback::speed() const { return speed_; }

bool Playback::advance(double dt_seconds) {
  if (!playing_) return false;
  const double last = count_ == 0 ? 0.0 : double(count_ - 1);
  if (position_ >= last) {
    playing_ = false;
    return true;
  }
  if (!(dt_seconds > 0)) return false;  // also rejects NaN
  position_ = snap(position_ + speed_ * dt_seconds);
  if (position_ >= last) {
    position_ = last;
    playing_ = false;
  }
  return true;
}

size_t Playback::shown_step() const {
  if (transition() > 0.0f && step() + 1 < step_count()) return step() + 1;
  return step();
}

}  // namespace warpviz::view
