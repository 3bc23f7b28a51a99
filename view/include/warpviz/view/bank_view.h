// The bank view of one shared-memory step: the tile as a grid of cells
// coloured by bank, the cells the warp touches, and the 32 banks as columns
// with every hit stacked (one box per distinct word per phase), so the chart
// is exactly as tall as the step's wavefronts. Plus the padding animation's
// motion between two such frames and the measured figures beside the model.
// Pure logic over a trace; the app's bank panel draws it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warpviz/bank_model.h"
#include "warpviz/trace.h"
#include "warpviz/view/play_order.h"

namespace warpviz::view {

// The tile a bank scenario declares, T tile[32][cols] of elem-byte elements,
// drawn as cells: 4-byte words for elem >= 4 (a wide element spans 2 or 4
// cells), elements for elem < 4 (2 or 4 cells then share one word and bank).
struct TileGrid {
  int rows = 32;
  int cols = 32;              // cells per row
  int elem = 4;               // bytes per element, from the scenario (or the step)
  int tile_cols = 32;         // the scenario's `cols`: elements per row
  uint32_t cell_bytes = 4;    // 4, or elem when elem < 4
  uint32_t row_bytes = 128;   // tile_cols * elem
  uint32_t cell_offset(int row, int col) const { return uint32_t(row) * row_bytes + uint32_t(col) * cell_bytes; }
  int bank(int row, int col) const { return bank_of(cell_offset(row, col)); }
};

struct TileCell {
  uint32_t lanes = 0;  // lanes whose access touches the cell in this step
};

// One box of the bank chart: a distinct 32-bit word one phase reads or writes
// in a bank. level 0 is the bottom; a phase's boxes start above the previous
// phase's wavefronts, so level k is served in wavefront k + 1.
struct BankBox {
  int bank = 0;
  int level = 0;
  int phase = 0;
  uint32_t word = 0;   // byte offset / 4
  uint32_t lanes = 0;  // active lanes touching the word (several: a broadcast)
};

// One lane's touch of one word (a 64-bit access makes two, a 128-bit four):
// where it sits in the tile grid and in the bank chart. These are what the
// padding animation moves.
struct LaneHit {
  int lane = 0;
  int part = 0;        // which of the lane's words: 0..bytes/4-1
  uint32_t word = 0;
  int bank = 0;
  int row = -1, col = -1;  // tile cell; -1 outside the tile
  int level = 0;       // the box's level in the bank chart
  int phase = 0;
};

struct BankFrame {
  size_t step_index = 0;
  bool store = false;
  int bytes = 4;           // access width of the step's lanes
  uint32_t active = 0;
  TileGrid grid;
  std::vector<TileCell> cells;             // rows * cols, row-major
  std::vector<BankBox> boxes;              // by bank, then level
  std::vector<LaneHit> hits;               // by lane, then part
  std::array<int, kSharedBanks> stack{};   // boxes per bank
  int height = 0;                          // levels of the chart: max over banks, = wavefronts
  std::vector<uint32_t> phase_lanes;       // each phase's lanes (the model's, pairing included)
  std::vector<int> phase_base;             // first level of each phase
  std::array<int8_t, kWarpSize> lane_phase{};  // -1 for inactive lanes
  BankAnalysis analysis;                   // the bank model of the step
  int outside = 0;                         // hits beyond the drawn tile

  const TileCell& cell(int row, int col) const { return cells[size_t(row) * grid.cols + col]; }
};

// The grid of the tile a step accesses. Bank and transpose traces give `cols`
// and `elem` in their parameters; any other trace falls back to 32 columns of
// the step's access width. Rows grow (from 32, or from 1 for other traces)
// until every hit is inside.
TileGrid tile_grid(const Trace& trace, const TraceStep& step);

// The frame of trace step `index`; nullopt when it is not ld.shared/st.shared
// (or its widths are not 1, 2, 4, 8 or 16 bytes).
std::optional<BankFrame> bank_frame(const Trace& trace, size_t index);

// The shared-memory step to show for step `index`: itself when shared, else
// the last shared step before it, else the first after it; SIZE_MAX if none.
size_t shared_step_near(const Trace& trace, size_t index);
// The same in play order: the shared step at play position `position`, else
// the last one played before it, else the first after it; SIZE_MAX if none.
size_t shared_step_near(const Trace& trace, const PlayOrder& order, size_t position);

// What the bank panel says at play position `position` when its step is no
// shared-memory access (a shuffle, a vote, a watch): "Step 4 (shfl.down)
// does not access shared memory: ...", rather than another step's banks;
// "" at an ld.shared / st.shared step (or past the end).
std::string no_shared_access_at(const Trace& trace, const PlayOrder& order, size_t position, Language language);

// Lanes as a box's label: "7", "0-31", "3,9", or "5x" when neither fits.
std::string lanes_label(uint32_t lanes);

// 32 bank colours, 0xAABBGGRR as ImGui packs them: 8 hues, and 4 lightness
// steps cycling bank by bank, so neighbouring banks differ in lightness even
// to a colour-blind eye and in hue to everyone else.
uint32_t bank_colour(int bank);
// Relative luminance 0..1 of a bank colour: dark text goes on light ones.
float bank_luminance(int bank);

// ---- the padding animation ---------------------------------------------------

// Where a point sits in a frame: tile cell (col, row) and bank chart (bank, level),
// in cell units (the panel scales them to pixels of its own layout).
struct HitPlace {
  float col = 0, row = 0;
  float bank = 0, level = 0;
  bool in_tile = false;
};

// One lane part moving from the old layout to the new; a hit present only in
// one of them fades in or out.
struct HitMotion {
  int lane = 0, part = 0;
  HitPlace from, to;
  bool in_from = false, in_to = false;
};
std::vector<HitMotion> hit_motions(const BankFrame& from, const BankFrame& to);

// Ease in-out (smoothstep) of a 0..1 time, clamped.
float ease(float t);

struct HitAt {
  HitPlace place;
  float alpha = 1;  // 0..1
};
// The motion at raw time t (0..1, eased inside).
HitAt hit_at(const HitMotion& motion, float t);

// The animation's clock: start() begins a run of `seconds`; advance() moves it
// and reports whether anything changed (the app redraws only then).
class BankAnimation {
 public:
  explicit BankAnimation(double seconds = 1.2) : seconds_(seconds) {}
  void start() { t_ = 0, running_ = true; }
  void stop() { running_ = false, t_ = 1; }
  bool running() const { return running_; }
  float time() const { return float(t_); }  // raw 0..1
  bool advance(double dt_seconds);

 private:
  double seconds_;
  double t_ = 1;
  bool running_ = false;
};

// ---- measured figures --------------------------------------------------------

// A line of the model-versus-hardware table: what the model predicts for the
// whole trace and what ncu counted; `has_model` is false for timings.
enum class Figure { LoadWavefronts, LoadConflicts, StoreWavefronts, StoreConflicts, LatencyCycles, ThroughputCycles };
struct MeasuredRow {
  Figure figure = Figure::LoadWavefronts;
  std::string name;     // the measurement's key, e.g. "ncu.l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
  bool has_model = false;
  double model = 0;
  double measured = 0;
  bool agrees() const { return !has_model || model == measured; }
};
// The rows the trace's measurements hold, in a fixed order (ld, st counters,
// then latency and throughput); empty without measurements.
std::vector<MeasuredRow> measured_rows(const Trace& trace);

}  // namespace warpviz::view
