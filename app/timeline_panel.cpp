// The timeline: start, step back, play/pause, step forward, end; a scrub
// slider over the steps (fractional positions show a transition half done)
// and the speed. Steps are counted from 1 here, as a student counts rounds.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "app_view.h"
#include "panel_widgets.h"

namespace warpviz::app {

namespace {



}  // namespace

void AppView::draw_timeline_panel() {
  ImGui::SetNextWindowSize(ImVec2(1100 * dpi_scale, 88 * dpi_scale), ImGuiCond_FirstUseEver);
  // "###timeline" keeps the window's identity (and saved layout) across languages.
  const std::string title = std::string(tr(view::Text::PanelTimeline)) + "###timeline";
  if (!ImGui::Begin(title.c_str(), &panels.timeline)) {
    ImGui::End();
    return;
  }
  const size_t count = playback.step_count();
  if (count == 0) {
    centred_message(tr(view::Text::NothingToShow));
    ImGui::End();
    return;
  }

  // Labels change with the language and play/pause; "###id" keeps each button one widget.
  auto button = [&](const char* label, const char* id, bool enabled, const char* key) {
    ImGui::BeginDisabled(!enabled);
    const bool clicked = ImGui::Button((std::string(label) + "###" + id).c_str());
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", key);
    ImGui::SameLine();
    return clicked;
  };
  const bool at_start = playback.position() <= 0.0;
  const bool at_end = playback.position() >= double(count - 1);
  if (button(tr(view::Text::Start), "start", !at_start, "Home")) playback.jump_to_start();
  if (button(tr(view::Text::StepBack), "back", !at_start, "Left")) playback.step_back();
  if (button(tr(playback.playing() ? view::Text::Pause : view::Text::Play), "play", count > 1, tr("Space", "空格键")))
    playback.toggle();
  if (button(tr(view::Text::StepForward), "forward", !at_end, "Right")) playback.step_forward();
  if (button(tr(view::Text::End), "end", !at_end, "End")) playback.jump_to_end();

  // "step k of n" and what that step is.
  const size_t shown = playback.shown_step();
  ImGui::SameLine(0.0f, ImGui::GetStyle().ItemSpacing.x * 3);
  ImGui::AlignTextToFramePadding();
  ImGui::Text(tr(view::Text::StepOfTotal), shown + 1, count);
  if (shown < trace.steps.size()) {
    const TraceStep& step = trace.steps[shown];
    ImGui::SameLine();
    ImGui::TextDisabled("%s  ·  %s %u  ·  block %u  warp %u", op_name(step.op), tr("line", "行"), step.line, step.block,
                        step.warp);
  }

  // Scrub slider (1-based like the label) beside the speed.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float speed_w = 200 * dpi_scale;
  const float speed_label_w = ImGui::CalcTextSize(tr(view::Text::Speed)).x + style.ItemSpacing.x;
  ImGui::SetNextItemWidth(std::max(60 * dpi_scale, ImGui::GetContentRegionAvail().x - speed_w - speed_label_w -
                                                       style.ItemSpacing.x * 2));
  float position = float(playback.position()) + 1.0f;
  if (count > 1 && ImGui::SliderFloat("##scrub", &position, 1.0f, float(count), "%.2f", ImGuiSliderFlags_AlwaysClamp)) {
    playback.pause();  // dragging takes over from playing
    playback.scrub(double(position) - 1.0);
  } else if (count == 1) {
    ImGui::BeginDisabled();
    ImGui::SliderFloat("##scrub", &position, 1.0f, 1.0f, "%.2f");
    ImGui::EndDisabled();
  }
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(view::Text::Speed));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(speed_w);
  float speed = float(playback.speed());
  if (ImGui::SliderFloat("##speed", &speed, 0.25f, 8.0f, tr("%.2f steps/s", "%.2f 步/秒"),
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
    playback.set_speed(speed);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Up / Down");
  ImGui::End();
}

}  // namespace warpviz::app
