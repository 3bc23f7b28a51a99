// Small widgets every panel uses.
#pragma once

#include <imgui.h>

#include <string>

namespace warpviz::app {

// A dimmed message centred in the panel (wrapped to its width): what a panel
// shows when it has nothing to draw.
void centred_message(const char* text);

// `text` as it fits `width` on one line: whole, or words dropped from the end
// and "…" after the rest; empty when not even "…" does.
std::string text_fitting(const std::string& text, float width);

// One line of text that ends in "…" where the panel is too narrow for it
// (words dropped from the end), the whole text in a tooltip then. `disabled`
// draws it dimmed, as TextDisabled.
void text_fitted(const std::string& text, bool disabled = false);

// ImGui::SameLine(0, spacing) when an item `width` wide still fits on the
// line after the last one; otherwise the next item starts a new line, so a
// narrow panel wraps its row of controls rather than cutting the last.
// spacing < 0 means the style's item spacing.
void same_line_if_fits(float width, float spacing = -1.0f);

// The width ImGui gives a radio button or checkbox labelled `label`.
float radio_button_width(const char* label);

// A filled, rounded box behind whatever `body` draws: the draw list's channels
// put the box under the text, whose height is only known afterwards.
template <typename Body>
void boxed(ImU32 fill, ImU32 border, float pad, Body&& body) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->ChannelsSplit(2);
  draw->ChannelsSetCurrent(1);
  ImGui::SetCursorPos(ImVec2(ImGui::GetCursorPosX() + pad, ImGui::GetCursorPosY() + pad));
  ImGui::BeginGroup();
  body();
  ImGui::EndGroup();
  const ImVec2 min(ImGui::GetItemRectMin().x - pad, ImGui::GetItemRectMin().y - pad);
  const ImVec2 max(ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x, ImGui::GetItemRectMax().y + pad);
  draw->ChannelsSetCurrent(0);
  draw->AddRectFilled(min, max, fill, pad * 0.6f);
  draw->AddRect(min, max, border, pad * 0.6f);
  draw->ChannelsMerge();
  ImGui::Dummy(ImVec2(0, pad));
}

}  // namespace warpviz::app
