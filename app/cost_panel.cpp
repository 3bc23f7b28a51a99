// The Cost panel: what the current step's op costs on a real GPU. The figures
// come from a measurements file: the shipped H200 ones
// (assets/measurements/h200.json), or this machine's GPU measured from here.
// Shared steps show the bank model's wavefronts times the measured cost of
// one; the reduction scenarios show each reduction's bandwidth against CUB,
// with the device's copy bandwidth and HBM peak as lines.
//
// [SECTION] Measuring this GPU (builds with CUDA)
// [SECTION] Drawing: op table, wavefronts, reduction bars
// [SECTION] Panel
#include <imgui.h>
#include <imgui_internal.h>  // FindWindowByName: the source panel's place

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <streambuf>
#include <string>

#include "app_view.h"
#include "data_dirs.h"
#include "panel_widgets.h"
#include "warpviz/view/cost_view.h"
#ifdef WARPVIZ_HAVE_CUDA
#include "warpviz/cuda_backend.h"
#include "warpviz/latency_benchmark.h"
#endif

namespace warpviz::app {

namespace {

constexpr ImU32 kBarColour = IM_COL32(86, 180, 233, 255);
constexpr ImU32 kCubColour = IM_COL32(230, 159, 0, 255);
constexpr ImU32 kCopyLine = IM_COL32(0, 158, 115, 255);
constexpr ImU32 kPeakLine = IM_COL32(213, 94, 0, 255);
constexpr ImU32 kBarText = IM_COL32(20, 20, 20, 255);

// ---------------------------------------------------------------------------
// [SECTION] Measuring this GPU
// ---------------------------------------------------------------------------

// The benchmark writes one line per op it has measured: counting them is the
// progress bar.
class LineCounter : public std::streambuf {
 public:
  explicit LineCounter(std::atomic<int>* lines) : lines_(lines) {}

 protected:
  int overflow(int c) override {
    if (c == '\n') lines_->fetch_add(1);
    return c;
  }

 private:
  std::atomic<int>* lines_;
};

// Lines bench latency writes: its heading and one per op (14 ops).
constexpr int kLatencyLogLines = 15;

bool gpu_present() {
#ifdef WARPVIZ_HAVE_CUDA
  CudaDeviceInfo info;
  std::string why;
  return cuda_device_present(&info, &why);
#else
  return false;
#endif
}

void load_shipped(CostState& state) {
  state.loaded = true;
  const std::string path = asset_dir() + "/measurements/h200.json";
  try {
    state.figures = read_measurements(path);
  } catch (const MeasurementsError& e) {
    state.load_error = e.what();
  }
  state.gpu_here = gpu_present();
}

// ---------------------------------------------------------------------------
// [SECTION] Drawing
// ---------------------------------------------------------------------------

void draw_rows(const view::CostView& v, const AppView& app) {
  if (v.rows.empty()) return;
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("costs", 3, flags)) return;
  ImGui::TableSetupColumn(app.tr("op", "指令"));
  ImGui::TableSetupColumn(app.tr("latency (cycles)", "延迟 (cycle)"));
  ImGui::TableSetupColumn(app.tr("warp-ops / SM / cycle", "每 SM 每 cycle warp 指令数"));
  ImGui::TableHeadersRow();
  for (const view::CostRow& row : v.rows) {
    ImGui::TableNextRow();
    if (row.current)
      ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, ImGui::GetColorU32(ImGuiCol_TextSelectedBg));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.label.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%.1f", row.latency_cycles);
    ImGui::TableNextColumn();
    ImGui::Text("%.3f", row.ops_per_sm_per_cycle);
  }
  ImGui::EndTable();
}

void draw_wavefronts(const view::CostView& v, const AppView& app) {
  if (!v.shared) return;
  ImGui::Spacing();
  ImGui::TextWrapped(app.tr("%u wavefront(s): %.1f cycles conflict-free + %u x %.1f cycles per extra wavefront = "
                            "about %.0f cycles",
                            "%u 个 wavefront：无冲突 %.1f cycle + %u x 每多一个 wavefront %.1f cycle = 约 %.0f cycle"),
                     v.wavefronts, v.conflict_free_cycles, v.wavefronts > 0 ? v.wavefronts - 1 : 0,
                     v.cycles_per_extra_wavefront, v.estimated_cycles);
}

void draw_bars(const view::CostView& v, const AppView& app) {
  if (v.bars.empty()) return;
  const float s = app.dpi_scale;
  ImGui::Spacing();
  ImGui::Text(app.tr("Reductions of %s values (GB/s)", "%s 个值的归约 (GB/s)"), v.bars_title.c_str());
  double top = std::max(v.copy_gb_per_s, v.hbm_peak_gb_per_s);
  for (const view::ReductionBar& b : v.bars) top = std::max(top, b.gb_per_s);
  if (top <= 0) return;
  // Each bar's name in words before it; the column at most 45 % of the panel,
  // a longer name cut with "…" (whole in the tooltip with the description).
  const float avail_w = ImGui::GetContentRegionAvail().x;
  const float gap = 8 * s;
  float label_w = 0;
  for (const view::ReductionBar& b : v.bars) label_w = std::max(label_w, ImGui::CalcTextSize(b.label.c_str()).x);
  label_w = std::min(label_w + gap, avail_w * 0.45f);
  const float line_h = ImGui::GetTextLineHeightWithSpacing() * 1.2f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float chart_w = std::max(avail_w - label_w, 40 * s);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const auto x_of = [&](double gbps) { return origin.x + label_w + float(gbps / top) * chart_w; };
  for (size_t i = 0; i < v.bars.size(); ++i) {
    const view::ReductionBar& b = v.bars[i];
    const float y = origin.y + float(i) * line_h;
    draw->AddText(ImVec2(origin.x, y), ImGui::GetColorU32(ImGuiCol_Text),
                  text_fitting(b.label, label_w - gap).c_str());
    draw->AddRectFilled(ImVec2(origin.x + label_w, y + 1 * s), ImVec2(x_of(b.gb_per_s), y + line_h - 3 * s),
                        b.is_cub ? kCubColour : kBarColour, 2 * s);
    char text[64];
    std::snprintf(text, sizeof text, "%.0f  (%.2fx CUB)", b.gb_per_s, b.vs_cub);
    // Inside the bar when it fits, else just past its end in the panel's text colour.
    const float text_w = ImGui::CalcTextSize(text).x;
    if (x_of(b.gb_per_s) - (origin.x + label_w) >= text_w + 8 * s)
      draw->AddText(ImVec2(origin.x + label_w + 4 * s, y + 1 * s), kBarText, text);
    else
      draw->AddText(ImVec2(x_of(b.gb_per_s) + 4 * s, y + 1 * s), ImGui::GetColorU32(ImGuiCol_Text), text);
    // On hover: the variant's letter (the benchmark's name for it) and what the kernel is.
    ImGui::SetCursorScreenPos(ImVec2(origin.x, y));
    ImGui::InvisibleButton(("bar" + std::to_string(i)).c_str(), ImVec2(label_w + chart_w, line_h));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s (%s): %s", b.label.c_str(), b.variant.c_str(), b.description.c_str());
  }
  const float bottom = origin.y + float(v.bars.size()) * line_h;
  const auto line = [&](double gbps, ImU32 colour, const char* label, int row) {
    if (gbps <= 0) return;
    draw->AddLine(ImVec2(x_of(gbps), origin.y), ImVec2(x_of(gbps), bottom + 2 * s), colour, 2 * s);
    char text[80];
    std::snprintf(text, sizeof text, "%s %.0f", label, gbps);
    const float w = ImGui::CalcTextSize(text).x;
    draw->AddText(ImVec2(std::max(origin.x, x_of(gbps) - w), bottom + 4 * s + row * ImGui::GetTextLineHeight()),
                  colour, text);
  };
  line(v.copy_gb_per_s, kCopyLine, app.tr("copy", "拷贝"), 0);
  line(v.hbm_peak_gb_per_s, kPeakLine, app.tr("HBM peak", "HBM 峰值"), 1);
  ImGui::SetCursorScreenPos(ImVec2(origin.x, bottom + 4 * s + 2 * ImGui::GetTextLineHeight()));
  ImGui::Dummy(ImVec2(1, 1));
}

}  // namespace

// ---------------------------------------------------------------------------
// [SECTION] Panel
// ---------------------------------------------------------------------------

void AppView::place_cost_panel() {
  // Opened from View > Cost: it takes the lower part of the source panel's
  // place, and the source keeps the upper part, so the source's highlighted
  // line (which it scrolls to) is never under it. The source gets its whole
  // place back when the Cost panel closes (arrange_empty_panels).
  // Split each time it opens (and again after a new window size lays the source out afresh).
  const bool split = panel_homes.count("###source") > 0;
  ImGuiWindow* source = ImGui::FindWindowByName("###source");
  const float s = dpi_scale;
  if (!split && source && (source->Active || source->WasActive) && panels.shown("source")) {
    const PanelRect home{source->Pos, ImVec2(source->Pos.x + source->Size.x, source->Pos.y + source->Size.y)};
    // The source keeps at least six lines of code; the Cost panel the rest, up to its own height.
    const float source_least = ImGui::GetFrameHeight() + 6 * ImGui::GetTextLineHeightWithSpacing() + 16 * s;
    const float cost_h = std::min(380 * s, std::max(home.max.y - home.min.y - source_least,
                                                   (home.max.y - home.min.y) * 0.5f));
    const float split = std::round(home.max.y - cost_h);
    panel_homes["###source"] = home;
    ImGui::SetWindowSize("###source", ImVec2(home.max.x - home.min.x, split - home.min.y), ImGuiCond_Always);
    ImGui::SetNextWindowPos(ImVec2(home.min.x, split), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(home.max.x - home.min.x, home.max.y - split), ImGuiCond_Always);
  } else {
    // No source panel to share: on the right, where it hides the least of the lanes.
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x + viewport->Size.x * 0.69f, viewport->Pos.y + viewport->Size.y * 0.5f),
                            ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(std::min(460 * s, viewport->Size.x * 0.31f), std::min(380 * s, viewport->Size.y * 0.48f)),
                             ImGuiCond_FirstUseEver);
  }
  if (!panel_state.cost.loaded) ImGui::SetNextWindowFocus();  // opened: in front of the panels it floats over
  ImGui::SetNextWindowBgAlpha(1.0f);  // floats over text: none of it shows through
}

void AppView::draw_cost_panel() {
  CostState& state = panel_state.cost;
  if (!state.loaded) load_shipped(state);

#ifdef WARPVIZ_HAVE_CUDA
  if (state.measuring && state.measure_thread.joinable() && state.measure_done.load()) {
    state.measure_thread.join();
    state.measuring = false;
    if (state.measure_error.empty()) {
      state.figures.latency = state.measured;
      state.measured_here = true;
    }
  }
  if (state.gpu_here) {
    if (state.measuring) {
      ImGui::ProgressBar(std::min(1.0f, float(state.measure_lines.load()) / kLatencyLogLines), ImVec2(-1, 0),
                         tr("measuring this GPU...", "正在测量本机 GPU..."));
    } else if (ImGui::Button(tr("Measure this GPU", "测量本机 GPU"))) {
      state.measuring = true;
      state.measure_done = false;
      state.measure_lines = 0;
      state.measure_error.clear();
      state.measure_thread = std::thread([&state] {
        LineCounter counter(&state.measure_lines);
        std::ostream log(&counter);
        try {
          LatencyBenchmark result;
          if (run_latency_benchmark(log, &result) != 0) state.measure_error = "no GPU to measure";
          else state.measured = result;
        } catch (const std::exception& e) {
          state.measure_error = e.what();
        }
        state.measure_done = true;
      });
    }
    if (!state.measure_error.empty()) ImGui::TextWrapped("%s", state.measure_error.c_str());
  }
#endif

  if (!state.load_error.empty() && !state.figures.latency && !state.figures.reduce) {
    centred_message(state.load_error.c_str());
    return;
  }
  const char* origin = state.measured_here ? tr("this GPU", "本机 GPU") : tr("shipped", "随附数据");
  const view::CostView v = view::cost_view(state.figures, origin, trace, playback.shown_step(), language);
  ImGui::TextDisabled("%s", v.source.c_str());
  if (!v.op.empty()) {
    ImGui::PushFont(fonts.large);
    ImGui::TextUnformatted(v.op.c_str());
    ImGui::PopFont();
  }
  if (!v.message.empty()) ImGui::TextWrapped("%s", v.message.c_str());
  draw_rows(v, *this);
  draw_wavefronts(v, *this);
  draw_bars(v, *this);
}

CostState::~CostState() {
  if (measure_thread.joinable()) measure_thread.join();
}

}  // namespace warpviz::app
