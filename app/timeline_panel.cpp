// The timeline: start, step back, play/pause, step forward, end, and the play
// order (a block's warps round by round, or warp by warp); a scrub slider
// over the steps (fractional positions show a transition half done), the
// speed, how long each landed step holds, and whether play stops after each
// round. Steps are counted from 1 here, in play order, as a student counts rounds.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "app_view.h"
#include "layout_report.h"
#include "panel_widgets.h"
#include "warpviz/view/play_order.h"
#include "warpviz/view/round_stops.h"

namespace warpviz::app {

namespace {

// The play order as a combo: the words a lecturer would use.
void order_combo(AppView& app) {
  const view::PlayOrderKind kind = app.play_order_kind();
  const char* by_round = app.tr("All warps, round by round", "所有 warp，逐轮");
  const char* per_warp = app.tr("Warp by warp", "逐个 warp");
  ImGui::SetNextItemWidth(ImGui::CalcTextSize(by_round).x + ImGui::GetFrameHeight() * 2);
  if (ImGui::BeginCombo("##order", kind == view::PlayOrderKind::Causal ? by_round : per_warp)) {
    if (ImGui::Selectable(by_round, kind == view::PlayOrderKind::Causal)) app.set_play_order(view::PlayOrderKind::Causal);
    if (ImGui::Selectable(per_warp, kind == view::PlayOrderKind::PerWarp)) app.set_play_order(view::PlayOrderKind::PerWarp);
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", app.tr("The order steps play in: the warps of a block side by side, as the data "
                                   "flows, or each warp from start to end, as recorded",
                                   "步骤的播放顺序：一个线程块的各 warp 并排推进（按数据流动的顺序），"
                                   "或每个 warp 从头到尾依次播放（按记录的顺序）"));
}

}  // namespace

void AppView::draw_timeline_panel() {
  const size_t count = playback.step_count();
  if (count == 0) {
    centred_message(tr(view::Text::NothingToShow));
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
  // As Right steps: by rounds, so it ends on the last round, maybe before the last step.
  const bool round_ahead = double(view::round_step(trace, playback.order(), playback.position(), +1)) > playback.position();
  if (button(tr(view::Text::Start), "start", !at_start, "Home")) playback.jump_to_start();
  if (button(tr(view::Text::StepBack), "back", !at_start, "Left")) step_by_round(-1);
  if (button(tr(playback.playing() ? view::Text::Pause : view::Text::Play), "play", count > 1, tr("Space", "空格键")))
    playback.toggle();
  if (button(tr(view::Text::StepForward), "forward", round_ahead, "Right")) step_by_round(+1);
  if (button(tr(view::Text::End), "end", !at_end, "End")) playback.jump_to_end();
  order_combo(*this);

  // "step k of n" in play order, the step's phase in words (a round, once:
  // never the step again), and what the step is.
  const size_t shown_position = playback.shown_position();
  const size_t shown = playback.shown_step();
  ImGui::SameLine(0.0f, ImGui::GetStyle().ItemSpacing.x * 3);
  ImGui::AlignTextToFramePadding();
  char counter[64];
  std::snprintf(counter, sizeof counter, tr(view::Text::StepOfTotal), shown_position + 1, count);
  ImGui::TextUnformatted(counter);
  const std::string words = view::place_words(trace, playback.order(), shown_position, language);
  layout_report().role("timeline_step", words.empty() ? counter : std::string(counter) + "  " + words,
                       ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), ImGui::GetFontSize());
  if (shown < trace.steps.size()) {
    const TraceSteps& steps = trace.steps;
    if (!words.empty()) {
      ImGui::SameLine();
      text_fitted(words);
    }
    ImGui::SameLine();
    char where[160];
    std::snprintf(where, sizeof where, "%s  ·  %s %u  ·  block %u  warp %u", op_name(steps.op(shown)),
                  tr("line", "行"), steps.line(shown), steps.block(shown), steps.warp(shown));
    text_fitted(where, true);
  }

  // Scrub slider (1-based like the label) beside the speed, the hold and the round stop.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float speed_w = 170 * dpi_scale, hold_w = 110 * dpi_scale;
  const char* hold_label = tr("Hold", "停留");
  const char* round_label = tr("Pause after each round", "每轮结束后暂停");
  const float label_w = ImGui::CalcTextSize(tr(view::Text::Speed)).x + ImGui::CalcTextSize(hold_label).x +
                        ImGui::CalcTextSize(round_label).x + ImGui::GetFrameHeight() + style.ItemInnerSpacing.x +
                        style.ItemSpacing.x * 3;
  ImGui::SetNextItemWidth(std::max(60 * dpi_scale, ImGui::GetContentRegionAvail().x - speed_w - hold_w - label_w -
                                                       style.ItemSpacing.x * 4));
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

  // How long a landed result stays while playing, and the stop at each round's end.
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(hold_label);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(hold_w);
  float hold = float(playback.hold());
  if (ImGui::SliderFloat("##hold", &hold, 0.0f, 5.0f, tr("%.1f s", "%.1f 秒"), ImGuiSliderFlags_AlwaysClamp)) {
    playback.set_hold(hold);
    settings.hold_s = playback.hold();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", tr("While playing, each result stays this long after it lands",
                               "播放时，每个结果落定后停留这么久"));
  ImGui::SameLine();
  bool pause_after_round = playback.pause_after_round();
  if (ImGui::Checkbox(round_label, &pause_after_round)) {
    playback.set_pause_after_round(pause_after_round);
    settings.pause_after_round = pause_after_round;
  }
}

}  // namespace warpviz::app
