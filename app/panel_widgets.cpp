#include "panel_widgets.h"

#include <imgui.h>

#include <algorithm>

namespace warpviz::app {

void centred_message(const char* text) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 size = ImGui::CalcTextSize(text, nullptr, false, avail.x);
  const ImVec2 cursor = ImGui::GetCursorPos();
  ImGui::SetCursorPos(ImVec2(cursor.x + std::max(0.0f, (avail.x - size.x) / 2),
                             cursor.y + std::max(0.0f, (avail.y - size.y) / 2)));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + avail.x);
  ImGui::TextDisabled("%s", text);
  ImGui::PopTextWrapPos();
}

std::string text_fitting(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  // Drop words from the end until the rest and the ellipsis fit.
  const std::string ellipsis = "\u2026";
  std::string shown;
  size_t end = text.size();
  do {
    end = text.find_last_of(' ', end == 0 ? 0 : end - 1);
    if (end == std::string::npos) end = 0;
    while (end > 0 && text[end - 1] == ' ') --end;
    shown = text.substr(0, end) + ellipsis;
  } while (end > 0 && ImGui::CalcTextSize(shown.c_str()).x > width);
  return ImGui::CalcTextSize(shown.c_str()).x > width ? std::string() : shown;
}

void text_fitted(const std::string& text, bool disabled) {
  const std::string shown = text_fitting(text, ImGui::GetContentRegionAvail().x);
  if (shown.empty() && !text.empty()) {  // not even the ellipsis fits: an empty item
    ImGui::Dummy(ImVec2(0, ImGui::GetTextLineHeight()));
    return;
  }
  if (disabled) ImGui::TextDisabled("%s", shown.c_str());
  else ImGui::TextUnformatted(shown.c_str());
  if (shown != text && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
}

void same_line_if_fits(float width, float spacing) {
  const float gap = spacing < 0 ? ImGui::GetStyle().ItemSpacing.x : spacing;
  const float line_end = ImGui::GetItemRectMax().x + gap + width;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (line_end <= right) ImGui::SameLine(0, gap);
}

float radio_button_width(const char* label) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float box = ImGui::GetFrameHeight();
  return box + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

}  // namespace warpviz::app
