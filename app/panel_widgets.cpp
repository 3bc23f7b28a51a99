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

}  // namespace warpviz::app
