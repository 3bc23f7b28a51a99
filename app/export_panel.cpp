// File > Export…: a small window (not a modal: the frames that go into the
// video are drawn without it, and a modal would close) with the file, the
// steps, the frame rate and the look; while a video export runs, its progress
// and Cancel. main's loop does the rendering and the piping (video_export.h);
// an SVG is written here at once, for the step on screen.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <chrono>
#include <ctime>
#include <filesystem>

#include "app_view.h"
#include "video_export.h"
#include "warpviz/view/svg_export.h"

namespace warpviz::app {

std::string AppView::png_path() const {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char name[64];
  std::strftime(name, sizeof name, "warpviz-%Y%m%d-%H%M%S.png", &local);
  // Beside the trace's file when one is open, else in the working directory.
  std::error_code ec;
  const std::filesystem::path origin(user_file ? user_file->request().path : trace_origin);
  if (!origin.empty() && std::filesystem::is_regular_file(origin, ec)) return (origin.parent_path() / name).string();
  return name;
}

void AppView::draw_export_dialog() {
  ExportState& e = export_state;
  if (e.open_request) {
    e.open_request = false;
    e.dialog_open = true;
    e.error.clear();
    if (e.path.empty()) e.path = (trace.meta.scenario.empty() ? std::string("warpviz") : trace.meta.scenario) + ".mp4";
    ImGui::SetNextWindowFocus();
  }
  if (!e.dialog_open && !e.running) return;

  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x + viewport->Size.x / 2, viewport->Pos.y + viewport->Size.y / 2),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(520 * dpi_scale, 0), ImGuiCond_Appearing);
  const std::string title = std::string(tr("Export", "导出")) + "###export";
  bool open = true;
  if (!ImGui::Begin(title.c_str(), e.running ? nullptr : &open, ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return;
  }
  if (!open) e.dialog_open = false;

  if (e.running) {
    // A progress bar over the frames; Cancel stops ffmpeg and removes its
    // unfinished file (an existing file of that name stays as it was).
    ImGui::TextUnformatted(e.path.c_str());
    const float done = e.frame_count ? float(e.frames_done) / float(e.frame_count) : 0.0f;
    const std::string overlay = std::to_string(e.frames_done) + " / " + std::to_string(e.frame_count);
    ImGui::ProgressBar(done, ImVec2(-1, 0), overlay.c_str());
    if (ImGui::Button(tr("Cancel", "取消"))) e.cancel_request = true;
    ImGui::End();
    return;
  }

  ImGui::TextUnformatted(tr("File (.mp4, .webm, .gif or .svg)", "文件（.mp4、.webm、.gif 或 .svg）"));
  ImGui::SetNextItemWidth(-1);
  ImGui::InputText("##export_path", &e.path);
  const ExportFormat format = export_format(e.path);
  if (is_video(format)) {
    ImGui::TextUnformatted(tr("Steps (A:B, empty for all)", "步（A:B，留空为全部）"));
    ImGui::SetNextItemWidth(160 * dpi_scale);
    ImGui::InputTextWithHint("##export_steps", ("1:" + std::to_string(playback.step_count())).c_str(), &e.steps);
    ImGui::SetNextItemWidth(160 * dpi_scale);
    ImGui::SliderInt(tr("frames per second", "每秒帧数"), &e.fps, 1, 60);
    ImGui::Checkbox(tr("presentation look", "演示模式外观"), &e.presentation);
    int w = 0, h = 0;
    const ImVec2 size = ImGui::GetIO().DisplaySize;
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    w = int(size.x * scale.x), h = int(size.y * scale.y);
    ImGui::TextDisabled(tr("%dx%d: the window's size; each step is one second (a watch rests with its round)",
                            "%dx%d：窗口大小；每步一秒（watch 与其所在轮合并）"), w, h);
  } else if (format == ExportFormat::Svg) {
    ImGui::TextDisabled("%s", tr("the step on screen, as vector graphics", "当前这一步，矢量图"));
  }
  if (!e.error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.55f, 0.4f, 1.0f), "%s", e.error.c_str());

  ImGui::Separator();
  if (ImGui::Button(tr("Export", "导出"))) {
    e.error.clear();
    size_t first = 0, last = 0;
    if (format == ExportFormat::Unknown) {
      e.error = tr("expected a file ending in .mp4, .webm, .gif or .svg", "文件名应以 .mp4、.webm、.gif 或 .svg 结尾");
    } else if (format == ExportFormat::Svg) {
      view::SvgOptions options;
      options.hex = hex;
      options.high_contrast = presentation;
      options.language = language;
      std::string error;
      if (write_step_svg(trace, playback.order(), playback.shown_position(), options, e.path, &error)) {
        rerun_note = tr("wrote ", "已写入 ") + e.path;
        rerun_note_until = ImGui::GetTime() + 6;
        e.dialog_open = false;
      } else {
        error_message = error;
      }
    } else if (!e.steps.empty() && !parse_step_range(e.steps, playback.step_count(), &first, &last, &e.error)) {
      // e.error says why
    } else {
      e.start_request = true;  // main starts ffmpeg before the next frame
    }
  }
  ImGui::SameLine();
  if (ImGui::Button(tr("Close", "关闭"))) e.dialog_open = false;
  ImGui::End();
}

}  // namespace warpviz::app
