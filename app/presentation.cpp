// Presentation mode: for a projector. The whole window, black, large type:
// the round or step and the op as a headline, the step counter and the
// current source line under it, then the op's own view: the ballot's bits
// with popc and ffs for a vote, the slots for a compaction, the groups for a
// match, the block view beside the lanes for a reduction, the banks for a
// shared-memory access, the lanes for everything else. Type grows with the
// window (view::window_scale), and every line shrinks to fit its width,
// so a 1024x600 projector cuts nothing off. A lesson's slide adds its caption
// under the headline and may name the view instead.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>

#include "app_view.h"
#include "lane_renderer.h"
#include "layout_report.h"
#include "panel_widgets.h"
#include "warpviz/scenario.h"
#include "warpviz/view/lane_view.h"
#include "warpviz/view/play_order.h"
#include "warpviz/view/vote_view.h"

namespace warpviz::app {

namespace {

ImU32 to_imgui(Rgba c) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, c.a)); }

ImFont* or_default(ImFont* font) { return font ? font : ImGui::GetFont(); }

struct Piece {
  std::string text;
  ImU32 colour;
};

// One line of coloured pieces at `size`, or smaller when the window is too
// narrow for it; reported under `role`. Advances the cursor past it.
void fitted_line(ImFont* font, float size, std::initializer_list<Piece> pieces, const char* role) {
  const float gap = size * 0.6f;
  float width = 0;
  for (const Piece& p : pieces)
    if (!p.text.empty()) width += font->CalcTextSizeA(size, FLT_MAX, 0, p.text.c_str()).x + gap;
  width -= gap;
  const float avail = ImGui::GetContentRegionAvail().x;
  if (width > avail && width > 0) size *= avail / width;
  const ImVec2 lo = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  float x = lo.x;
  std::string all;
  for (const Piece& p : pieces) {
    if (p.text.empty()) continue;
    draw->AddText(font, size, ImVec2(x, lo.y), p.colour, p.text.c_str());
    x += font->CalcTextSizeA(size, FLT_MAX, 0, p.text.c_str()).x + size * 0.6f;
    all += (all.empty() ? "" : "  ") + p.text;
  }
  const float line_h = size * 1.15f;
  layout_report().role(role, all, lo, ImVec2(std::min(x - size * 0.6f, lo.x + avail), lo.y + line_h), size);
  ImGui::Dummy(ImVec2(std::min(width, avail), line_h));
}

// Line `number` (1-based) of the kernel source, tabs as spaces, trimmed.
std::string source_line(const std::string& source, uint32_t number) {
  size_t start = 0;
  for (uint32_t line = 1; line < number && start != std::string::npos; ++line) {
    start = source.find('\n', start);
    if (start != std::string::npos) ++start;
  }
  if (number == 0 || start == std::string::npos || start >= source.size()) return {};
  std::string text = source.substr(start, source.find('\n', start) - start);
  for (char& c : text)
    if (c == '\t' || c == '\r') c = ' ';
  const size_t first = text.find_first_not_of(' '), last = text.find_last_not_of(' ');
  return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
}

}  // namespace

void AppView::draw_presentation() {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->Pos);
  ImGui::SetNextWindowSize(viewport->Size);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(0, 0, 0, 255));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(24 * dpi_scale, 18 * dpi_scale));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("Presentation###presentation", nullptr, flags);
  const TraceStep* step = current_step();
  const LanePalette& palette = lane_palette(true);
  ImFont* huge = or_default(fonts.huge);
  ImFont* large = or_default(fonts.large);
  // The headline's size: a share of the window's height, as the baked font allows.
  const float headline = std::min(viewport->Size.y * 0.075f, 56 * dpi_scale);
  const float subline = std::min(viewport->Size.y * 0.042f, 28 * dpi_scale);
  // A lesson's slide may name the view (lesson_player.cpp); Auto: the op's own.
  const view::SlidePanel panel = presentation_panel();

  if (!step) {
    ImGui::PushFont(huge);
    // As the lane panel says it: a trace of per-lane work only ran, and has no step.
    centred_message(tr(trace.outputs.empty() ? view::Text::NothingToShow : view::Text::NoWarpSteps));
    ImGui::PopFont();
  } else if ((panel == view::SlidePanel::Bank || panel == view::SlidePanel::Auto) && op_is_shared(step->op)) {
    // Only at a shared access: at a shuffle a bank slide shows the lanes, not another step's banks.
    // The bank lesson is the tile and the banks, not 32 addresses; the
    // banks view has its own headline (the counts) in the huge face, so a
    // lesson's caption goes above it.
    draw_lesson_caption(subline, true);
    ImGui::PushFont(large);
    draw_bank_view();
    ImGui::PopFont();
  } else {
    const size_t index = playback.shown_step();
    const view::LaneFrame frame = view::lane_frame(trace, index, hex);
    fitted_line(huge, headline,
                {{view::position_label(trace, playback.order(), playback.shown_position(), language),
                  to_imgui(palette.travelling)},
                 {frame.op_label, to_imgui(palette.text)}},
                "presentation_header");
    char counter[64];
    // Play positions, as the timeline counts them (causal order may differ from the stored one).
    std::snprintf(counter, sizeof counter, tr(view::Text::StepOfTotal), playback.shown_position() + 1,
                  playback.step_count());
    const TraceStep& shown = trace.steps[std::min(index, trace.steps.size() - 1)];
    const std::string line = source_line(trace.meta.source_text, shown.line);
    // A round's headline counts rounds; the step counter counts the trace's steps.
    if (!view::step_place(trace, index).is_round) counter[0] = '\0';
    // Which warp is on screen: the timeline's steps interleave the warps.
    fitted_line(large, subline,
                {{counter, IM_COL32(200, 200, 200, 255)},
                 {view::warp_label(trace, index, language), to_imgui(palette.travelling)},
                 {line.empty() ? std::string() : std::to_string(shown.line) + ":  " + line, IM_COL32(255, 200, 90, 255)}},
                "presentation_source");
    draw_lesson_caption(subline, true);  // the slide's caption, under the headline
    ImGui::Spacing();

    // The op's own view (or the slide's), in the large face.
    const bool auto_panel = panel == view::SlidePanel::Auto;
    const bool vote = panel == view::SlidePanel::Votes ||
                      (auto_panel && (view::ballot_view(shown).has_value() || shown.op == Op::MatchAny ||
                                      shown.op == Op::MatchAll));
    const bool reduction =
        panel == view::SlidePanel::Block || (auto_panel && scenario_traits(trace.meta.scenario).block_reduction);
    if (vote) {
      ImGui::PushFont(large);
      ImGui::BeginChild("vote", ImVec2(0, 0), false, ImGuiWindowFlags_NoBackground);
      ImGui::SetWindowFontScale(std::min(1.0f, subline / large->FontSize));
      draw_vote_view();
      ImGui::EndChild();
      ImGui::PopFont();
    } else if (reduction) {
      // The lanes above, the block's flow below in the full width: where
      // this round's sums go. The flow's type shrinks until every warp fits.
      const ImVec2 avail = ImGui::GetContentRegionAvail();
      draw_lane_view(avail.x, std::round(avail.y * 0.45f), true, 1.4f);
      ImGui::PushFont(large);
      ImGui::BeginChild("block", ImVec2(0, 0), false, ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoScrollbar);
      ImGui::SetWindowFontScale(std::min(1.0f, subline / large->FontSize));
      draw_block_view(true);
      ImGui::EndChild();
      ImGui::PopFont();
    } else {
      draw_lane_view(ImGui::GetContentRegionAvail().x, ImGui::GetContentRegionAvail().y, true, 1.4f);
    }
  }
  ImGui::End();
  ImGui::PopStyleVar(3);
  ImGui::PopStyleColor();
}

}  // namespace warpviz::app
