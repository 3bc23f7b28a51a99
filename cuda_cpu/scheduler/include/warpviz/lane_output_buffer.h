// Kernel printf output of one block, held per lane until the lanes sync.
//
// On a GPU a converged warp runs a printf for all its active lanes at once,
// so the lines come statement by statement and, within a statement, lane 0
// to 31. The emulator runs each lane alone up to its next warp operation, so
// lane 0 would print all its lines before lane 1 printed any. Held here, a
// lane's k-th printf since its last sync point is written in round k, lanes
// in ascending order: the GPU's order for converged code.
//
// Divergent lanes (different branches between two sync points) come out by
// the same rule, round by round, lane by lane; on a GPU one side of a branch
// prints before the other, so only the interleaving of the two sides may
// differ. A warp holding more than kMaxHeldBytes is written out early: a lane
// that prints in a long loop without syncing costs no unbounded memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace warpviz::emu {

class LaneOutputBuffer {
 public:
  using Sink = std::function<void(std::string_view text)>;
  static constexpr size_t kMaxHeldBytes = size_t(4) << 20;

  // Writes to `sink`; an empty one writes to stdout through stdio, so that it
  // interleaves with the host's printf in program order.
  explicit LaneOutputBuffer(Sink sink = {});

  // A new block of `warps` warps; whatever was held is dropped.
  void reset(uint32_t warps);
  void append(uint32_t warp, uint32_t lane, std::string_view text);
  // The held output of `lanes` (a bit per lane) of one warp, in (round, lane)
  // order; those lanes' rounds start again at 0.
  void flush(uint32_t warp, uint32_t lanes);
  void flush_all();
  // For a crash or a time limit, from a signal handler: writes every warp's
  // held output to the file descriptor with write(2), allocating nothing.
  void flush_all_to_fd(int fd) noexcept;
  // Whether the warp has output held (asked as every thread ends).
  bool holds(uint32_t warp) const {
    return appended_since_reset_ && warp < warps_.size() && !warps_[warp].pieces.empty();
  }
  bool empty() const;

 private:
  struct Piece {
    uint32_t round = 0;
    uint32_t lane = 0;
    std::string text;
  };
  struct WarpHeld {
    std::vector<Piece> pieces;
    uint32_t next_round[32] = {};
    size_t bytes = 0;
  };
  // Moves the lanes' pieces to the front, in (round, lane) order; returns how many.
  static size_t order_front(WarpHeld& held, uint32_t lanes) noexcept;
  static void forget_front(WarpHeld& held, size_t count, uint32_t lanes);
  void write(std::string_view text) const;

  Sink sink_;
  std::vector<WarpHeld> warps_;
  bool appended_since_reset_ = false;
};

}  // namespace warpviz::emu
