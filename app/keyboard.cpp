// The keyboard: what a lecturer uses at the projector without the mouse.
//   Space play/pause · Left/Right step by rounds · Home/End · Up/Down speed · F5 re-run (the .cu file)
//   F11 presentation (Esc leaves it) · H hex · L language · P pad the tile (bank,
//   transpose) · PageDown/PageUp next/previous slide of a lesson · Ctrl+O/S/Q · Ctrl+Shift+S PNG · Ctrl+= Ctrl+- Ctrl+0 zoom
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "app_view.h"
#include "warpviz/view/round_stops.h"
#include "warpviz/view/ui_scale.h"

namespace warpviz::app {

void AppView::step_by_round(int direction) {
  const size_t to = view::round_step(trace, playback.order(), playback.position(), direction);
  playback.pause();  // a lecturer stepping wants the frame to stay
  playback.seek_position(to);
}

void AppView::handle_keys() {
  // Taken whatever happens: keys that were not ours must not fire later.
  std::vector<KeyPress> presses;
  presses.swap(key_presses);
  // Typing a parameter or a path must not also step the trace.
  if (ImGui::GetIO().WantTextInput) return;
  // An open popup (error, file dialog, menu) has the keys to itself.
  if (ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopup)) return;

  for (const KeyPress& press : presses) {
    if (press.mods & (GLFW_MOD_CONTROL | GLFW_MOD_SUPER)) {
      if (press.repeat) continue;
      if (press.key == GLFW_KEY_O) file_dialog_request = FileDialog::Open;
      if (press.key == GLFW_KEY_S && (press.mods & GLFW_MOD_SHIFT)) {
        png_request = true;  // Ctrl+Shift+S: a PNG of the window
        continue;
      }
      if (press.key == GLFW_KEY_S && !trace.meta.scenario.empty()) file_dialog_request = FileDialog::Save;
      if (press.key == GLFW_KEY_Q) quit_requested = true;
      // Zoom: Ctrl+= (Ctrl++ on most layouts), Ctrl+-, Ctrl+0; main rebuilds the fonts.
      if (press.key == GLFW_KEY_EQUAL || press.key == GLFW_KEY_KP_ADD) zoom = view::zoom_step(zoom, +1);
      if (press.key == GLFW_KEY_MINUS || press.key == GLFW_KEY_KP_SUBTRACT) zoom = view::zoom_step(zoom, -1);
      if (press.key == GLFW_KEY_0 || press.key == GLFW_KEY_KP_0) zoom = 1.0f;
      continue;
    }
    // Held arrows repeat; everything else acts once per press.
    switch (press.key) {
      // By rounds, as the export plays: a watch repeating its round's picture is no stop.
      case GLFW_KEY_LEFT: step_by_round(-1); break;
      case GLFW_KEY_RIGHT: step_by_round(+1); break;
      // Speed in doublings, within the timeline slider's 0.25..8 steps/s.
      case GLFW_KEY_UP: playback.set_speed(std::min(8.0, playback.speed() * 2)); break;
      case GLFW_KEY_DOWN: playback.set_speed(std::max(0.25, playback.speed() / 2)); break;
      default: break;
    }
    if (press.repeat) continue;
    switch (press.key) {
      case GLFW_KEY_SPACE: playback.toggle(); break;
      case GLFW_KEY_HOME: playback.jump_to_start(); break;
      case GLFW_KEY_END: playback.jump_to_end(); break;
      case GLFW_KEY_F5: {  // the open .cu file, else the scenario
        // Said in the menu bar for a few seconds: a re-run of the same input
        // redraws the same picture, and F5 would otherwise seem to do nothing.
        if (user_file) {
          user_file->run();
          rerun_note = tr("F5: re-running", "F5：重新运行");
        } else if (!last_request.scenario.empty()) {
          const auto start = std::chrono::steady_clock::now();
          const bool ran = run_scenario(last_request, backend);
          const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
          char text[96];
          std::snprintf(text, sizeof text, tr("F5: re-ran in %.1f ms", "F5：重新运行，用时 %.1f ms"), ms);
          rerun_note = ran ? text : "";
        }
        rerun_note_until = ImGui::GetTime() + 3.0;
        break;
      }
      case GLFW_KEY_F11: presentation = !presentation; break;
      case GLFW_KEY_ESCAPE: presentation = false; break;
      case GLFW_KEY_H: hex = !hex; break;
      case GLFW_KEY_P: toggle_bank_padding(); break;  // bank and transpose only
      // The next or previous slide of the lesson on screen; nothing else
      // (a .cu file or a scenario of one's own stays), and no wrap at its ends.
      case GLFW_KEY_PAGE_DOWN: turn_slide(1); break;
      case GLFW_KEY_PAGE_UP: turn_slide(-1); break;
      case GLFW_KEY_L:
        language = language == view::Language::English ? view::Language::Chinese : view::Language::English;
        break;
      default: break;
    }
  }
}

}  // namespace warpviz::app
