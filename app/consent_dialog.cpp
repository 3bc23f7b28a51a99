// The consent dialog: a lesson, File > Open Recent or a dropped file would
// compile and run .cu files, which run as the user. It names each file (its
// resolved path: a lesson may point outside its folder) and waits for Run,
// Show trace only (the source shows, nothing compiles) or Cancel. Run is
// remembered for this content (view/run_consent.h); no key answers Run, so
// the Enter that opened the file cannot also run it.
#include <imgui.h>

#include <utility>

#include "app_view.h"
#include "layout_report.h"
#include "warpviz/view/run_consent.h"

namespace warpviz::app {

void AppView::answer_run_consent(ConsentAnswer answer) {
  RunConsent asked = std::exchange(run_consent, RunConsent{});
  if (asked.kind == RunConsent::Kind::Lesson) {
    if (!lesson.file.loaded()) return;
    if (answer == ConsentAnswer::Cancel) {
      lesson = LessonPlayer{};  // closed: nothing of it shows
      return;
    }
    lesson.runs_allowed = answer == ConsentAnswer::Run;
    if (lesson.runs_allowed) view::trust_run(settings, asked.hash, asked.path);
    show_slide(asked.slide);
  } else if (asked.kind == RunConsent::Kind::File) {
    if (answer == ConsentAnswer::Run) open_file(asked.path);  // open_user_file remembers its bytes
    else if (answer == ConsentAnswer::ShowOnly) show_source_only(asked.path);
  }
}

void AppView::draw_consent_dialog() {
  if (run_consent.kind == RunConsent::Kind::None) return;
  // One modal at a time: the error popup and the file dialog go first.
  if (!ImGui::IsPopupOpen("###run_consent") && error_message.empty() && file_dialog.open == FileDialog::None)
    ImGui::OpenPopup("###run_consent");
  const std::string title = std::string(tr("Run code?", "运行代码？")) + "###run_consent";
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(760 * dpi_scale, ImGui::GetMainViewport()->Size.y * 0.8f));
  if (!ImGui::BeginPopupModal(title.c_str(), nullptr,
                              ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings))
    return;
  const bool from_lesson = run_consent.kind == RunConsent::Kind::Lesson;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 720 * dpi_scale);
  if (from_lesson)
    ImGui::TextUnformatted((run_consent.path + tr(" compiles and runs these programs on this computer, as you:",
                                                  " 会以你的身份在这台电脑上编译并运行这些程序："))
                               .c_str());
  else
    ImGui::TextUnformatted(tr("This file compiles and runs a program on this computer, as you:",
                              "这个文件会以你的身份在这台电脑上编译并运行一个程序："));
  ImGui::PopTextWrapPos();
  ImGui::Spacing();
  for (const std::string& file : run_consent.files) {
    ImGui::BulletText("%s", file.c_str());
    layout_report().role("consent_file", file, ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), ImGui::GetFontSize());
  }
  ImGui::Spacing();
  ImGui::TextDisabled("%s", tr("Run only code you trust. Show trace only shows the source without compiling it.",
                               "只运行你信任的代码。“仅显示”只显示源代码，不编译。"));
  ImGui::Spacing();
  ConsentAnswer answer = ConsentAnswer::Run;
  bool answered = false;
  if (ImGui::Button(tr("Run", "运行"))) answered = true, answer = ConsentAnswer::Run;
  ImGui::SameLine();
  if (ImGui::Button(tr("Show trace only", "仅显示"))) answered = true, answer = ConsentAnswer::ShowOnly;
  ImGui::SameLine();
  if (ImGui::Button(tr("Cancel", "取消")) ||
      (!ImGui::IsWindowAppearing() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))))
    answered = true, answer = ConsentAnswer::Cancel;
  if (answered) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
  if (answered) answer_run_consent(answer);  // after EndPopup: it may open an error popup
}

}  // namespace warpviz::app
