#include "warpviz/lane_output_buffer.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace warpviz::emu {

LaneOutputBuffer::LaneOutputBuffer(Sink sink) : sink_(std::move(sink)) {}

void LaneOutputBuffer::reset(uint32_t warps) {
  // Nothing printed since the last reset (most blocks): nothing to clear.
  if (!appended_since_reset_ && warps_.size() == warps) return;
  appended_since_reset_ = false;
  // Kept, not freed: a launch resets it once a block.
  for (WarpHeld& held : warps_) {
    held.pieces.clear();
    std::fill(std::begin(held.next_round), std::end(held.next_round), 0u);
    held.bytes = 0;
  }
  warps_.resize(warps);
}

void LaneOutputBuffer::append(uint32_t warp, uint32_t lane, std::string_view text) {
  if (warp >= warps_.size()) warps_.resize(warp + 1);
  WarpHeld& held = warps_[warp];
  appended_since_reset_ = true;
  held.pieces.push_back(Piece{held.next_round[lane & 31]++, lane & 31, std::string(text)});
  held.bytes += text.size();
  if (held.bytes > kMaxHeldBytes) flush(warp, 0xffffffffu);
}

size_t LaneOutputBuffer::order_front(WarpHeld& held, uint32_t lanes) noexcept {
  auto chosen = [lanes](const Piece& p) { return (lanes >> p.lane) & 1u; };
  const auto end = std::partition(held.pieces.begin(), held.pieces.end(), chosen);
  // A lane's rounds are distinct, so (round, lane) orders the pieces wholly:
  // std::sort (in place, no allocation) gives the one order there is.
  std::sort(held.pieces.begin(), end, [](const Piece& a, const Piece& b) {
    return a.round != b.round ? a.round < b.round : a.lane < b.lane;
  });
  return size_t(end - held.pieces.begin());
}

void LaneOutputBuffer::forget_front(WarpHeld& held, size_t count, uint32_t lanes) {
  for (size_t i = 0; i < count; ++i) held.bytes -= held.pieces[i].text.size();
  held.pieces.erase(held.pieces.begin(), held.pieces.begin() + std::ptrdiff_t(count));
  for (uint32_t lane = 0; lane < 32; ++lane)
    if ((lanes >> lane) & 1u) held.next_round[lane] = 0;
}

void LaneOutputBuffer::flush(uint32_t warp, uint32_t lanes) {
  if (warp >= warps_.size()) return;
  WarpHeld& held = warps_[warp];
  // No piece held: every lane's round is 0 already (a round grows only with a piece).
  if (held.pieces.empty()) return;
  const size_t count = order_front(held, lanes);
  std::string text;
  for (size_t i = 0; i < count; ++i) text += held.pieces[i].text;
  forget_front(held, count, lanes);
  if (!text.empty()) write(text);
}

void LaneOutputBuffer::flush_all() {
  if (!appended_since_reset_) return;
  for (uint32_t w = 0; w < warps_.size(); ++w) flush(w, 0xffffffffu);
}

void LaneOutputBuffer::flush_all_to_fd(int fd) noexcept {
  for (WarpHeld& held : warps_) {
    const size_t count = order_front(held, 0xffffffffu);
    for (size_t i = 0; i < count; ++i) {
      const std::string& t = held.pieces[i].text;
      for (size_t at = 0; at < t.size();) {
        const ssize_t n = ::write(fd, t.data() + at, t.size() - at);
        if (n <= 0) break;
        at += size_t(n);
      }
      held.bytes -= t.size();
    }
    // Emptied, not erased (erasing may allocate): a second call writes nothing twice.
    for (size_t i = 0; i < count; ++i) held.pieces[i].text.resize(0);
  }
}

bool LaneOutputBuffer::empty() const {
  for (const WarpHeld& held : warps_)
    if (!held.pieces.empty()) return false;
  return true;
}

void LaneOutputBuffer::write(std::string_view text) const {
  if (sink_) {
    sink_(text);
    return;
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
}

}  // namespace warpviz::emu
