// AppView: the data the panels show (trace, playback, scenario request) and
// the frame around them: the first-use layout, the menu bar, the file and
// error popups.
//
// [SECTION] Construction and data
// [SECTION] Per frame
// [SECTION] Layout
// [SECTION] Menu bar
// [SECTION] Popups

#include "app_view.h"
#include "data_dirs.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <exception>
#include <filesystem>
#include <sstream>
#include <utility>

#include "lane_renderer.h"
#include "warpviz/trace_io.h"

namespace warpviz::app {

// ============================================================================
// [SECTION] Construction and data
// ============================================================================

// Blocks recorded when a scenario runs: enough for the block view, and a
// million-element reduce_sum stays thousands of steps, not millions. Every
// block's output is kept either way.
constexpr uint32_t kRecordedBlocks = 8;

std::vector<std::pair<const char*, bool*>> PanelVisibility::by_id() {
  return {{"lanes", &lanes},     {"timeline", &timeline}, {"source", &source},     {"history", &history},
          {"votes", &votes},     {"block", &block},       {"scenario", &scenario}, {"bank", &bank},
  // A block reduction's few warpSums accesses need no big bank panel: its
  // lower row keeps the block view wide, the banks beside the votes.
  const bool reduction = scenario_traits(trace.meta.scenario).block_reduction;
  const bool shared = trace_has_shared && !reduction;
  // A small window still gives the lanes room for readable values (two rows of cells).
  const float lanes_h = std::round(std::max((avail_h - timeline_h) * (shared ? 0.27f : 0.52f),
                                            std::min(190 * s, (avail_h - timeline_h) * 0.45f)));
  const float bottom_y = top + lanes_h + timeline_h;
  const float bottom_h = avail_h - lanes_h - timeline_h;
  const float scenario_h = std::round(avail_h * 0.54f);

  std::ostringstream ini;
  auto place = [&](const char* id, float x, float y, float w, float h) {
    ini << "[Window][###" << id << "]\nPos=" << int(x) << ',' << int(y) << "\nSize=" << int(w) << ',' << int(h)
        << "\nCollapsed=0\n\n";
  };
  place("lanes", 0, top, left_w, lanes_h);
  place("timeline", 0, top + lanes_h, left_w, timeline_h);
  if (shared) {
    const float bank_w = std::round(left_w * 0.78f);
    const float side_w = left_w - bank_w, third = std::round(bottom_h / 3);
    place("bank", 0, bottom_y, bank_w, bottom_h);
    place("history", bank_w, bottom_y, side_w, bottom_h - 2 * third);
    place("votes", bank_w, bottom_y + bottom_h - 2 * third, side_w, third);
    place("block", bank_w, bottom_y + bottom_h - third, side_w, third);
    place("paths", bank_w, bottom_y + bottom_h - third, side_w, third);
  } else if (reduction) {
    const float history_w = std::round(left_w * 0.30f), middle_w = std::round(left_w * 0.28f);
    const float votes_h = std::round(bottom_h / 3);
    place("history", 0, bottom_y, history_w, bottom_h);
    place("votes", history_w, bottom_y, middle_w, votes_h);
    place("bank", history_w, bottom_y + votes_h, middle_w, bottom_h - votes_h);
    place("block", history_w + middle_w, bottom_y, left_w - history_w - middle_w, bottom_h);
  } else {
    // A trace with divergent branches gives the paths panel the block's place, wider.
    const bool paths = !divergent_regions.empty();
    const float history_w = std::round(left_w * (paths ? 0.30f : 0.40f));
    const float votes_w = std::round((left_w - history_w) * (paths ? 0.43f : 0.5f));
    place("history", 0, bottom_y, history_w, bottom_h);
    place("votes", history_w, bottom_y, votes_w, bottom_h);
    place("block", history_w + votes_w, bottom_y, left_w - history_w - votes_w, bottom_h);
    place("paths", history_w + votes_w, bottom_y, left_w - history_w - votes_w, bottom_h);
    // Shown once a trace with shared-memory steps is: over the lower row, where it fits.
    place("bank", 0, bottom_y, left_w, bottom_h);
  }
  place("scenario", left_w, top, right_w, scenario_h);
  place("source", left_w, top + scenario_h, right_w, avail_h - scenario_h);
  return ini.str();
}

// ============================================================================
// [SECTION] Menu bar
// ============================================================================

void AppView::draw_menu_bar() {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu(tr(view::Text::MenuFile))) {
    if (ImGui::MenuItem(tr(view::Text::MenuOpen), "Ctrl+O")) file_dialog_request = FileDialog::Open;
    if (ImGui::BeginMenu(tr("Open Recent", "最近打开"), !settings.recent_files.empty())) {
      std::string chosen;  // opening changes the list being drawn
      for (const std::string& file : settings.recent_files) {
        if (ImGui::MenuItem(std::filesystem::path(file).filename().string().c_str())) chosen = file;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", file.c_str());
      }
      ImGui::Separator();
      if (ImGui::MenuItem(tr("Clear the list", "清空列表"))) settings.recent_files.clear();
      ImGui::EndMenu();
      if (!chosen.empty()) open_file(chosen);
    }
    if (ImGui::MenuItem(tr(view::Text::MenuSave), "Ctrl+S", false, !trace.meta.scenario.empty()))
      file_dialog_request = FileDialog::Save;
    ImGui::Separator();
    if (ImGui::MenuItem(tr("Quit", "退出"), "Ctrl+Q")) quit_requested = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(tr(view::Text::MenuView))) {
    ImGui::MenuItem(tr(view::Text::PanelLanes), nullptr, &panels.lanes);
    ImGui::MenuItem(tr(view::Text::PanelTimeline), nullptr, &panels.timeline);
    ImGui::MenuItem(tr(view::Text::PanelSource), nullptr, &panels.source);
    ImGui::MenuItem(tr(view::Text::PanelHistory), nullptr, &panels.history);
    ImGui::MenuItem(tr(view::Text::PanelVotes), nullptr, &panels.votes);
    ImGui::MenuItem(tr("Cost", "开销"), nullptr, &panels.cost);
    ImGui::MenuItem(tr(view::Text::PanelBlock), nullptr, &panels.block);
    // Only traces with shared-memory steps have a bank view (bank, transpose).
    ImGui::MenuItem(tr(view::Text::PanelBank), nullptr, &panels.bank, trace_has_shared);
    ImGui::MenuItem(tr(view::Text::PanelPaths), nullptr, &panels.paths, !divergent_regions.empty());
    ImGui::MenuItem(tr(view::Text::PanelScenario), nullptr, &panels.scenario);
    ImGui::Separator();
    ImGui::MenuItem(tr(view::Text::Hex), "H", &hex);
    ImGui::MenuItem(tr(view::Text::Presentation), "F11", &presentation);
    draw_zoom_menu_items();
    if (ImGui::BeginMenu(tr(view::Text::MenuLanguage))) {
      if (ImGui::MenuItem("English", "L", language == view::Language::English)) language = view::Language::English;
      if (ImGui::MenuItem("中文", "L", language == view::Language::Chinese)) language = view::Language::Chinese;
      ImGui::EndMenu();
    }
    ImGui::EndMenu();
  }

  // Right-aligned: what is shown and where it came from.
  // A .cu file's name is in the badge already.
  std::string what = user_file ? std::string() : trace.meta.scenario;
  const std::string badge = badge_text();
  if (!badge.empty()) what += (what.empty() ? "" : "  ·  ") + badge;
  if (user_file && !user_file->status_text().empty()) what += "  ·  " + user_file->status_text();
  if (!rerun_note.empty() && ImGui::GetTime() < rerun_note_until) what = rerun_note + "  ·  " + what;
  const float w = ImGui::CalcTextSize(what.c_str()).x;
  const float x = ImGui::GetWindowWidth() - w - ImGui::GetStyle().ItemSpacing.x * 2;
  if (x > ImGui::GetCursorPosX()) {
    ImGui::SetCursorPosX(x);
    ImGui::TextDisabled("%s", what.c_str());
  }
  ImGui::EndMainMenuBar();
}

// ============================================================================
// [SECTION] Popups
// ============================================================================

namespace {

bool is_trace_file(const std::filesystem::path& p) { return p.extension() == ".wvt" || p.extension() == ".json"; }

// The .cu files in the folder of the file shown (else the working folder):
// where a student's own kernels usually are.
std::vector<std::string> cuda_files_near(const std::string& shown) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path folder = shown.empty() || shown == "scenario" ? fs::current_path(ec) : fs::path(shown).parent_path();
  if (folder.empty()) folder = ".";
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    if (files.size() >= 200) break;  // a huge folder: the path field still takes any file
    if (entry.is_regular_file(ec) && view::is_cuda_source(entry.path().string())) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The traces recorded on an H200 that ship with warpviz: a student's first files.
std::vector<std::string> shipped_traces() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(::warpviz::app::asset_dir() + "/traces", ec))
    if (entry.is_regular_file() && is_trace_file(entry.path())) files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// No native file dialog (GLFW has none): a path field, and for Open the shipped
// traces to pick from. Errors land in error_message and the Error popup.
void draw_file_dialog(AppView& app) {
  using FileDialog = AppView::FileDialog;
  static std::vector<std::string> shipped, cuda_files;
  // While the error popup is up the request waits: a second modal opened in
  // the same frame would replace it (a bad file from the command line asks for both).
  if (app.file_dialog_request != FileDialog::None && app.error_message.empty()) {
    app.file_dialog = app.file_dialog_request;
    app.file_dialog_request = FileDialog::None;
    const bool from_file = !app.trace_origin.empty() && app.trace_origin != "scenario";
    if (app.file_dialog == FileDialog::Open && !app.file_dialog_start_path.empty())
      app.file_dialog_path = std::exchange(app.file_dialog_start_path, std::string());
    else if (from_file)
      app.file_dialog_path = app.trace_origin;
    else if (app.file_dialog == FileDialog::Save)
      app.file_dialog_path = (app.trace.meta.scenario.empty() ? std::string("trace") : app.trace.meta.scenario) + ".wvt";
    else
      app.file_dialog_path.clear();
    if (app.file_dialog == FileDialog::Open) {
      shipped = shipped_traces();
      cuda_files = cuda_files_near(app.trace_origin);
    }
    ImGui::OpenPopup("###file_dialog");
  }
  if (app.file_dialog == FileDialog::None) return;

  const bool opening = app.file_dialog == FileDialog::Open;
  const std::string title = std::string(app.tr(opening ? view::Text::MenuOpen : view::Text::MenuSave)) + "###file_dialog";
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(620 * app.dpi_scale, 0), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(title.c_str(), nullptr, ImGuiWindowFlags_NoSavedSettings)) {
    app.file_dialog = FileDialog::None;
    return;
  }
  if (opening)
    ImGui::TextUnformatted(app.tr("Path of a trace file (.wvt, .json) or of your own kernel (.cu)",
                                  "trace 文件（.wvt、.json）或你自己的 kernel（.cu）的路径"));
  else
    ImGui::TextUnformatted(app.tr("Path of a trace file (.wvt, or .json for the JSON form)",
                                  "trace 文件路径（.wvt，或 .json 表示 JSON 格式）"));
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  ImGui::SetNextItemWidth(-FLT_MIN);
  bool confirm = ImGui::InputText("##path", &app.file_dialog_path, ImGuiInputTextFlags_EnterReturnsTrue);

  // A list of files to pick from; a double-click opens one.
  auto file_list = [&](const char* id, const char* heading, const std::vector<std::string>& files) {
    if (!opening || files.empty()) return;
    ImGui::Spacing();
    ImGui::TextDisabled("%s", heading);
    const float list_h = std::min(float(files.size()), 8.0f) * ImGui::GetTextLineHeightWithSpacing();
    if (ImGui::BeginListBox(id, ImVec2(-FLT_MIN, list_h + ImGui::GetStyle().FramePadding.y * 2))) {
      for (const std::string& file : files) {
        const std::string name = std::filesystem::path(file).filename().string();
        if (ImGui::Selectable(name.c_str(), app.file_dialog_path == file, ImGuiSelectableFlags_AllowDoubleClick)) {
          app.file_dialog_path = file;
          if (ImGui::IsMouseDoubleClicked(0)) confirm = true;
        }
      }
      ImGui::EndListBox();
    }
  };
  file_list("##cuda", app.tr("CUDA files here (double-click opens):", "这里的 CUDA 文件（双击打开）："), cuda_files);
  file_list("##shipped", app.tr("Recorded on an H200 (double-click opens):", "H200 上录制的 trace（双击打开）："), shipped);

  ImGui::Spacing();
  const bool has_path = !app.file_dialog_path.empty();
  ImGui::BeginDisabled(!has_path);
  if (ImGui::Button(app.tr(opening ? "Open" : "Save", opening ? "打开" : "保存"))) confirm = true;
  ImGui::EndDisabled();
  ImGui::SameLine();
  bool cancel = ImGui::Button(app.tr("Cancel", "取消")) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
  // Enter confirms wherever the focus is: after a click in a list the path
  // field no longer has it. Not on the first frame: the Enter that closed an
  // error popup must not also open a file.
  if (!ImGui::IsWindowAppearing() && (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) ||
                                      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter))))
    confirm = true;

  if (confirm && has_path) {
    const std::string path = app.file_dialog_path;
    ImGui::CloseCurrentPopup();
    app.file_dialog = FileDialog::None;
    if (opening) app.open_file(path);
    else app.save_file(path);
  } else if (cancel) {
    ImGui::CloseCurrentPopup();
    app.file_dialog = FileDialog::None;
  }
  ImGui::EndPopup();
}

void draw_error_popup(AppView& app) {
  if (!app.error_message.empty() && !ImGui::IsPopupOpen("###error")) ImGui::OpenPopup("###error");
  const std::string title = std::string(app.tr("Error", "错误")) + "###error";
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(title.c_str(), nullptr,
                              ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings))
    return;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 560 * app.dpi_scale);
  ImGui::TextUnformatted(app.error_message.c_str());
  ImGui::PopTextWrapPos();
  ImGui::Spacing();
  // Keys count from the next frame: the Enter that confirmed a file dialog
  // (and caused this error) must not also dismiss it.
  const bool key_ok = !ImGui::IsWindowAppearing() && (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) ||
                                                      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)));
  if (ImGui::Button("OK", ImVec2(120 * app.dpi_scale, 0)) || key_ok) {
    app.error_message.clear();
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace

}  // namespace warpviz::app
