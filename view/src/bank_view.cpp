// The bank view's numbers: the tile grid, the hits of one shared-memory step,
// their boxes stacked by bank and phase, the padding animation's motion and
// the measured figures beside the model.
//
// [SECTION] Tile grid
// [SECTION] Frame: hits, boxes, phases
// [SECTION] Labels and colours
// [SECTION] Padding animation
// [SECTION] Measured figures
#include "warpviz/view/bank_view.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <exception>
#include <map>
#include <set>

#include "warpviz/scenario.h"
#include "warpviz/view/strings.h"

namespace warpviz::view {

namespace {

// A tile taller than this is drawn up to here; hits beyond count as outside.
constexpr int kMaxRows = 1024;

bool has_tile_params(const Trace& trace) { return scenario_traits(trace.meta.scenario).shows_tile; }

// An integer parameter in 1..max, or `fallback` when absent, not a number or
// out of range (a hand-edited file must not ask for a million-column tile).
int int_param(const Trace& trace, const char* name, int fallback, int max) {
  const auto it = trace.meta.params.find(name);
  if (it == trace.meta.params.end()) return fallback;
  try {
    size_t used = 0;
    const int v = std::stoi(it->second, &used);
    return used == it->second.size() && v > 0 && v <= max ? v : fallback;
  } catch (const std::exception&) {
    return fallback;
  }
}

int step_bytes(const TraceStep& step) {
  for (const LaneRecord& r : step.lanes)
    if (r.active() && r.bytes) return r.bytes;
  return 4;
}

// The words a lane's access touches: 1 for widths up to 4 bytes (within one
// word: accesses are aligned, the bank model refuses others), 2 or 4 for 64-
// and 128-bit.
int words_touched(int bytes) { return bytes <= 4 ? 1 : bytes / 4; }

}  // namespace

// ============================================================================
// [SECTION] Tile grid
// ============================================================================

TileGrid tile_grid(const Trace& trace, const TraceStep& step) {
  TileGrid g;
  const bool tile = has_tile_params(trace);
  const int bytes = step_bytes(step);
  g.elem = tile ? int_param(trace, "elem", bytes, 16) : bytes;
  if (!valid_shared_width(g.elem)) g.elem = 4;
  g.tile_cols = tile ? int_param(trace, "cols", 32, 64) : 32;
  g.cell_bytes = uint32_t(std::min(g.elem, 4));
  g.row_bytes = uint32_t(g.tile_cols) * uint32_t(g.elem);
  g.cols = int(g.row_bytes / g.cell_bytes);

  // Enough rows for every hit: a custom pattern may reach past the tile.
  uint64_t end = 0;
  for (const LaneRecord& r : step.lanes)
    if (r.active()) end = std::max<uint64_t>(end, uint64_t(r.addr) + std::max<uint8_t>(r.bytes, 1));
  const int needed = int(std::min<uint64_t>((end + g.row_bytes - 1) / g.row_bytes, kMaxRows));
  g.rows = std::max(tile ? 32 : 1, needed);
  return g;
}

// ============================================================================
// [SECTION] Frame: hits, boxes, phases
// ============================================================================

std::optional<BankFrame> bank_frame(const Trace& trace, size_t index) {
  if (index >= trace.steps.size()) return std::nullopt;
  const TraceStep& step = trace.steps[index];
  if (!op_is_shared(step.op)) return std::nullopt;
  BankFrame f;
  f.step_index = index;
  f.store = step.op == Op::StoreShared;
  f.bytes = step_bytes(step);
  if (!valid_shared_width(f.bytes)) return std::nullopt;
  try {
    f.analysis = analyze_shared_access(shared_access_of(step));
  } catch (const std::exception&) {
    return std::nullopt;  // widths the model rejects: not a drawable access
  }
  f.grid = tile_grid(trace, step);
  f.cells.assign(size_t(f.grid.rows) * f.grid.cols, TileCell{});
  for (int lane = 0; lane < kWarpSize; ++lane)
    if (step.lanes[lane].active()) f.active |= 1u << lane;

  f.lane_phase.fill(-1);
  for (size_t p = 0; p < f.analysis.phases.size(); ++p) {
    f.phase_lanes.push_back(f.analysis.phases[p].lanes);
    for (int lane = 0; lane < kWarpSize; ++lane)
      if ((f.analysis.phases[p].lanes >> lane & 1u) && (f.active >> lane & 1u)) f.lane_phase[lane] = int8_t(p);
  }

  // The words of each phase, by bank: one box per distinct word (PG 20.4.3:
  // lanes on the same word are served together).
  const size_t phases = f.phase_lanes.size();
  std::vector<std::map<uint32_t, uint32_t>> phase_words(phases);  // word -> lanes
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const int p = f.lane_phase[lane];
    if (p < 0) continue;
    const uint32_t first = step.lanes[lane].addr >> 2;
    for (int k = 0; k < words_touched(f.bytes); ++k) phase_words[p][first + k] |= 1u << lane;
  }
  int base = 0;
  std::map<std::pair<int, uint32_t>, int> level_of;  // (phase, word) -> level
  for (size_t p = 0; p < phases; ++p) {
    f.phase_base.push_back(base);
    std::array<int, kSharedBanks> count{};
    for (const auto& [word, lanes] : phase_words[p]) {  // ascending words: lower addresses at the bottom
      const int bank = int(word & 31u);
      const int level = base + count[bank]++;
      f.boxes.push_back({bank, level, int(p), word, lanes});
      level_of[{int(p), word}] = level;
    }
    int tallest = 0;
    for (int b = 0; b < kSharedBanks; ++b) {
      tallest = std::max(tallest, count[b]);
      f.stack[b] += count[b];
    }
    // The model's phase cost is the truth; the boxes are its picture.
    base += std::max<int>(tallest, int(f.analysis.phases[p].wavefronts));
  }
  f.height = base;
  std::sort(f.boxes.begin(), f.boxes.end(),
            [](const BankBox& a, const BankBox& b) { return a.bank != b.bank ? a.bank < b.bank : a.level < b.level; });

  // Each lane's words in the tile grid and the chart.
  const TileGrid& g = f.grid;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const int p = f.lane_phase[lane];
    if (p < 0) continue;
    const uint32_t addr = step.lanes[lane].addr;
    for (int k = 0; k < words_touched(f.bytes); ++k) {
      LaneHit h;
      h.lane = lane, h.part = k, h.phase = p;
      h.word = (addr >> 2) + k;
      h.bank = int(h.word & 31u);
      h.level = level_of[{p, h.word}];
      const uint64_t at = uint64_t(addr) + uint64_t(k) * 4;
      const uint64_t row = at / g.row_bytes;
      if (row < uint64_t(g.rows)) {
        h.row = int(row);
        h.col = int((at % g.row_bytes) / g.cell_bytes);
        f.cells[size_t(h.row) * g.cols + h.col].lanes |= 1u << lane;
      } else {
        ++f.outside;
      }
      f.hits.push_back(h);
    }
    // A 1- or 2-byte element is its own cell: mark the cells the access covers.
    if (f.bytes < 4 || g.cell_bytes < 4) {
      for (uint64_t at = addr; at < uint64_t(addr) + f.bytes; at += g.cell_bytes) {
        const uint64_t row = at / g.row_bytes;
        if (row < uint64_t(g.rows)) f.cells[size_t(row) * g.cols + (at % g.row_bytes) / g.cell_bytes].lanes |= 1u << lane;
      }
    }
  }
  return f;
}

size_t shared_step_near(const Trace& trace, size_t index) {
  if (trace.steps.empty()) return SIZE_MAX;
  index = std::min(index, trace.steps.size() - 1);
  for (size_t i = index + 1; i-- > 0;)
    if (op_is_shared(trace.steps.op(i))) return i;
  for (size_t i = index + 1; i < trace.steps.size(); ++i)
    if (op_is_shared(trace.steps.op(i))) return i;
  return SIZE_MAX;
}

size_t shared_step_near(const Trace& trace, const PlayOrder& order, size_t position) {
  const size_t n = std::min(order.size(), trace.steps.size());
  if (n == 0) return SIZE_MAX;
  position = std::min(position, n - 1);
  auto shared_at = [&](size_t p) { return op_is_shared(trace.steps.op(std::min(order.step_at(p), n - 1))); };
  for (size_t p = position + 1; p-- > 0;)
    if (shared_at(p)) return order.step_at(p);
  for (size_t p = position + 1; p < n; ++p)
    if (shared_at(p)) return order.step_at(p);
  return SIZE_MAX;
}

std::string no_shared_access_at(const Trace& trace, const PlayOrder& order, size_t position, Language language) {
  if (position >= order.size()) return "";
  const size_t step = order.step_at(position);
  if (step >= trace.steps.size() || op_is_shared(trace.steps.op(step))) return "";
  char text[256];
  std::snprintf(text, sizeof text, tr(Text::NoSharedAccessAtStep, language), position + 1, op_name(trace.steps.op(step)));
  return text;
}

// ============================================================================
// [SECTION] Labels and colours
// ============================================================================

std::string lanes_label(uint32_t lanes) {
  if (lanes == 0) return "";
  const int lo = std::countr_zero(lanes), hi = 31 - std::countl_zero(lanes), n = std::popcount(lanes);
  if (n == 1) return std::to_string(lo);
  if (n == hi - lo + 1) return std::to_string(lo) + "-" + std::to_string(hi);
  if (n == 2) return std::to_string(lo) + "," + std::to_string(hi);
  return std::to_string(n) + "x";
}

namespace {

struct Rgb {
  float r, g, b;
};

// Eight hues far apart (Okabe-Ito's, with a lavender for the black it has),
// each drawn at four lightness steps.
constexpr Rgb kHues[8] = {
    {0.90f, 0.62f, 0.00f},  // orange
    {0.34f, 0.71f, 0.91f},  // sky blue
    {0.00f, 0.62f, 0.45f},  // bluish green
    {0.94f, 0.89f, 0.26f},  // yellow
    {0.00f, 0.45f, 0.70f},  // blue
    {0.84f, 0.37f, 0.00f},  // vermilion
    {0.80f, 0.47f, 0.65f},  // reddish purple
    {0.55f, 0.55f, 0.95f},  // lavender
};
// Relative luminance of each step, light to dark: the same for every hue, so
// a step reads the same to every eye; even the darkest stands out (3:1) on the
// panels' dark grey, and neighbouring steps are 1.5:1 apart.
constexpr float kLuminance[4] = {0.62f, 0.38f, 0.22f, 0.12f};

float linear(float c) { return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f); }
float gamma(float c) { return c <= 0.0031308f ? c * 12.92f : 1.055f * std::pow(c, 1 / 2.4f) - 0.055f; }
float luminance(const Rgb& c) { return 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b; }  // linear channels

Rgb bank_rgb(int bank) {
  bank &= 31;
  // Lightness cycles every bank, hue every four: banks b and b+1 differ in
  // lightness, b and b+4 in hue, and no two of the 32 are the same.
  const Rgb h = kHues[bank / 4];
  const float target = kLuminance[bank % 4];
  Rgb c{linear(h.r), linear(h.g), linear(h.b)};
  // Scale to the step's luminance; where a channel saturates, mix in white
  // (luminance is linear in these channels, so the mix lands on the target).
  const float k = target / luminance(c);
  c = {std::min(1.0f, c.r * k), std::min(1.0f, c.g * k), std::min(1.0f, c.b * k)};
  const float y = luminance(c);
  if (y < target) {
    const float a = (target - y) / (1 - y);
    c = {c.r + (1 - c.r) * a, c.g + (1 - c.g) * a, c.b + (1 - c.b) * a};
  }
  return {gamma(c.r), gamma(c.g), gamma(c.b)};
}

}  // namespace

uint32_t bank_colour(int bank) {
  const Rgb c = bank_rgb(bank);
  auto byte = [](float v) { return uint32_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255)); };
  return byte(c.r) | byte(c.g) << 8 | byte(c.b) << 16 | 0xffu << 24;
}

float bank_luminance(int bank) {
  const uint32_t c = bank_colour(bank);
  auto channel = [&](int shift) { return linear(float((c >> shift) & 255u) / 255.0f); };
  return 0.2126f * channel(0) + 0.7152f * channel(8) + 0.0722f * channel(16);
}

// ============================================================================
// [SECTION] Padding animation
// ============================================================================

namespace {

HitPlace place_of(const LaneHit& h) {
  HitPlace p;
  p.in_tile = h.row >= 0;
  p.col = float(std::max(h.col, 0));
  p.row = float(std::max(h.row, 0));
  p.bank = float(h.bank);
  p.level = float(h.level);
  return p;
}

}  // namespace

std::vector<HitMotion> hit_motions(const BankFrame& from, const BankFrame& to) {
  // Matched by (lane, part): the same lane's same word before and after.
  std::map<std::pair<int, int>, HitMotion> motions;
  for (const LaneHit& h : from.hits) {
    HitMotion& m = motions[{h.lane, h.part}];
    m.lane = h.lane, m.part = h.part;
    m.from = place_of(h);
    m.in_from = true;
  }
  for (const LaneHit& h : to.hits) {
    HitMotion& m = motions[{h.lane, h.part}];
    m.lane = h.lane, m.part = h.part;
    m.to = place_of(h);
    m.in_to = true;
  }
  std::vector<HitMotion> out;
  out.reserve(motions.size());
  for (auto& [key, m] : motions) {
    // A hit in one layout only stays where it is and fades.
    if (!m.in_from) m.from = m.to;
    if (!m.in_to) m.to = m.from;
    out.push_back(m);
  }
  return out;
}

float ease(float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

HitAt hit_at(const HitMotion& m, float t) {
  const float e = ease(t);
  auto lerp = [e](float a, float b) { return a + (b - a) * e; };
  HitAt at;
  at.place.col = lerp(m.from.col, m.to.col);
  at.place.row = lerp(m.from.row, m.to.row);
  at.place.bank = lerp(m.from.bank, m.to.bank);
  at.place.level = lerp(m.from.level, m.to.level);
  at.place.in_tile = e < 0.5f ? m.from.in_tile : m.to.in_tile;
  at.alpha = m.in_from && m.in_to ? 1.0f : m.in_to ? e : 1.0f - e;
  return at;
}

bool BankAnimation::advance(double dt_seconds) {
  if (!running_) return false;
  t_ = seconds_ > 0 ? std::min(1.0, t_ + std::max(dt_seconds, 0.0) / seconds_) : 1.0;
  if (t_ >= 1.0) running_ = false;
  return true;  // the last frame, at t = 1, is a change too
}

// ============================================================================
// [SECTION] Measured figures
// ============================================================================

std::vector<MeasuredRow> measured_rows(const Trace& trace) {
  const auto& m = trace.meta.measurements;
  std::vector<MeasuredRow> rows;
  if (m.empty()) return rows;
  const SharedTotals totals = shared_totals(trace);
  struct Known {
    Figure figure;
    const char* name;
    bool has_model;
    uint64_t model;
  };
  const Known known[] = {
      {Figure::LoadWavefronts, "ncu.l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", true, totals.load_wavefronts},
      {Figure::LoadConflicts, "ncu.l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", true,
       totals.load_conflicts},
      {Figure::StoreWavefronts, "ncu.l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", true,
       totals.store_wavefronts},
      {Figure::StoreConflicts, "ncu.l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", true,
       totals.store_conflicts},
      {Figure::LatencyCycles, "latency_cycles", false, 0},
      {Figure::ThroughputCycles, "throughput_cycles", false, 0},
  };
  for (const Known& k : known) {
    const auto it = m.find(k.name);
    if (it == m.end()) continue;
    rows.push_back({k.figure, k.name, k.has_model, double(k.model), it->second});
  }
  return rows;
}

}  // namespace warpviz::view
