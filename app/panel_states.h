// What single panels keep between frames, one struct per panel, all owned by
// AppView::panel_state. What a panel works out from the trace (its tables,
// split lines) is kept with the trace generation it was worked out for
// (AppView::trace_generation) and redone when the generation moves on.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <imgui.h>

#include "warpviz/measurements.h"
#include "warpviz/view/bank_view.h"
#include "warpviz/view/block_view.h"
#include "warpviz/view/history.h"
#include "warpviz/view/play_order.h"

namespace warpviz::app {

// No generation is this one: a cache holding it is built on first use.
constexpr uint64_t kNoGeneration = UINT64_MAX;

// lane_panel.cpp
struct LanesState {
  bool renderer_failed = false;  // said once in the error popup; the values still show as text
};

// history_panel.cpp: the table is rebuilt only when the trace, the warp, the
// play order or the number format changes: history_table walks the whole
// trace, too slow to redo every frame for a million lane records.
struct HistoryState {
  struct Table {
    uint64_t generation = kNoGeneration;
    uint32_t block = 0, warp = 0;
    view::PlayOrderKind order = view::PlayOrderKind::Causal;  // the headers number steps in play order
    bool hex = false;
    view::HistoryColumns columns = view::HistoryColumns::All;
    view::Language language = view::Language::English;  // the headers' words
    view::HistoryTable table;
    std::vector<std::string> headers;  // two lines each: "val" over "round 2/5"
    std::vector<size_t> column_chars;  // widest text of each column, in characters
  } cache;
  // Watched values or op results: a trace with watches opens on the watched
  // values; the choice is kept until another trace is shown.
  uint64_t watches_generation = kNoGeneration;  // the trace has_watches was looked up for
  bool has_watches = false, show_watched = true;
  size_t scrolled_to = SIZE_MAX;  // follow the playback, but let the user scroll away
};

// source_panel.cpp: the source split into lines (tabs expanded: ImGui draws
// no tab stops), and which lines hold recorded ops; a recorded reduce_sum has
// thousands of steps to scan.
struct SourceState {
  uint64_t generation = kNoGeneration;
  std::vector<std::string> lines;
  std::vector<bool> has_op;
  // The step it last scrolled to, in which trace, at which height: a new
  // trace scrolls again, and so does a resize (the Cost panel taking its
  // lower part may hide the line).
  size_t followed_step = SIZE_MAX;
  uint64_t followed_generation = kNoGeneration;
  float followed_height = 0;
};

// block_panel.cpp: block_view walks the trace and formats every block's
// output; redone only when the trace or the block changes, so a 4096-block
// run costs nothing per frame.
struct BlockState {
  uint64_t generation = kNoGeneration;
  uint32_t block = 0;
  view::BlockView view;
  std::vector<double> block_values;  // all_block_outputs as numbers, for the bar
};

// bank_panel.cpp
struct BankState {
  // The padding toggle re-runs the scenario with the other `cols`; the old
  // trace's frame is where the animation to the new one starts. It belongs
  // to the trace the toggle showed (from_generation): any other shows as it is.
  std::optional<view::BankFrame> from;
  uint64_t from_generation = kNoGeneration;
  view::BankAnimation animation;
  // What the bank view shows, built when the shown step, the trace or the
  // play order changes, not every frame.
  struct View {
    uint64_t generation = kNoGeneration;
    view::PlayOrderKind order = view::PlayOrderKind::Causal;  // its shared step is the nearest in play order
    size_t shown_step = SIZE_MAX;  // the playback step it was built for
    size_t index = 0;              // the shared-memory step shown
    std::optional<view::BankFrame> frame;
    std::vector<view::MeasuredRow> measured;
    std::vector<view::HitMotion> motions;  // from -> frame, for the padding animation
  } cache;
};

// cost_panel.cpp: the shipped figures, loaded on the panel's first frame, or
// this GPU's, measured on a thread of their own.
struct CostState {
  bool loaded = false;
  Measurements figures;
  bool measured_here = false;  // the latencies were measured on this GPU, not shipped
  std::string load_error;  // why the shipped file did not load
  bool gpu_here = false;
  bool measuring = false;
  std::thread measure_thread;
  std::atomic<bool> measure_done{false};
  std::atomic<int> measure_lines{0};  // the benchmark's progress
  LatencyBenchmark measured;
  std::string measure_error;
  ~CostState();
};

// scenario_panel.cpp
struct ScenarioState {
  std::string error;  // why the edited request does not run, said under the form
};

// user_file_panel.cpp: the scenario panel's fields for a kernels-only .cu
// file, applied on Enter as the scenario's are.
struct UserFileFields {
  std::string grid, block, shared, inputs, args, lens, time_limit;
  std::string memory_limit;  // "" is the runner's default share of the machine
  std::string field_error;  // a field that does not parse, said inline
};

struct PanelStates {
  LanesState lanes;
  HistoryState history;
  SourceState source;
  BlockState block;
  BankState bank;
  CostState cost;
  ScenarioState scenario;
  UserFileFields user_file;
};

// app_view.cpp: the Open / Save dialog while it is up.
struct FileDialogState {
  enum class Kind { None, Open, Save };
  Kind open = Kind::None;
  std::string path;
  std::vector<std::string> shipped, cuda_files;  // listed when an Open dialog opens
};

// panel_layout.cpp: a panel's own place while it holds its empty neighbours'
// too, by window id ("###history").
struct PanelRect {
  ImVec2 min, max;
};
using PanelHomes = std::map<std::string, PanelRect>;

}  // namespace warpviz::app
