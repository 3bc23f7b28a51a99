// Lessons in the app: --lesson FILE (or NAME: --lesson article, the built-in),
// each slide a scenario, a .cu file or a trace shown from its start step, its
// caption under the headline, and the file reloaded when it is saved (as a
// .cu file is). A save that does not load leaves the last good lesson on
// screen with the error above its caption. A lesson that would compile .cu
// files asks first (consent_dialog.cpp); without a yes its .cu slides show
// their source only.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include "app_view.h"
#include "layout_report.h"
#include "warpviz/view/run_consent.h"
#include "warpviz/view/user_file_session.h"

namespace warpviz::app {

namespace fs = std::filesystem;

bool AppView::open_lesson(const std::string& path, size_t slide) {
  try {
    view::LessonFile file;
    file.open(path);
    if (slide >= file.lesson().slides.size()) {
      error_message = path + ": slide " + std::to_string(slide + 1) + ": the lesson has " +
                      std::to_string(file.lesson().slides.size()) + " slides";
      return false;
    }
    lesson = LessonPlayer{std::move(file)};
    fonts_stale = true;  // its captions' glyphs
    if (!ask_before_lesson_runs(slide)) show_slide(slide);
    return true;
  } catch (const std::exception& e) {
    error_message = e.what();
    return false;
  }
}

bool AppView::ask_before_lesson_runs(size_t slide) {
  const view::Lesson& shown = lesson.file.lesson();
  std::vector<std::string> files = view::runs_needing_consent(shown, lesson.file.text(), settings);
  lesson.runs_allowed = files.empty() || trust_lessons;
  if (lesson.runs_allowed) return false;
  run_consent = RunConsent{};
  run_consent.kind = RunConsent::Kind::Lesson;
  run_consent.files = std::move(files);
  run_consent.path = shown.path;
  run_consent.slide = slide;
  run_consent.hash = view::lesson_run_hash(shown, lesson.file.text());
  return true;
}

void AppView::show_slide(size_t index) {
  if (!lesson.file.loaded() || index >= lesson.file.lesson().slides.size()) return;
  lesson.slide = index;
  lesson.stop_armed = true;
  const view::LessonSlide& slide = lesson.file.lesson().slides[index];
  const size_t start = slide.start_step - 1;  // 1-based in the file, as --step
  switch (slide.source) {
    case view::SlideSource::Scenario:
      close_user_file();
      if (run_scenario(slide.scenario, backend)) {
        playback.pause();
        playback.seek_position(start);  // clamps to the trace's last step
      }
      break;
    case view::SlideSource::CudaFile: {
      if (!lesson.runs_allowed) {
        show_source_only(slide.file.path);
        break;
      }
      user::FileRequest request = slide.file;
      request.time_limit_s = settings.time_limit_s;
      request.memory_limit_bytes = settings.memory_limit_bytes;
      view::FilePlace place;
      place.step = start;  // applied when the run is done
      open_user_file(std::move(request), place);
      playback.pause();
      break;
    }
    case view::SlideSource::TraceFile:
      if (!lesson.runs_allowed && view::is_cuda_source(slide.trace_path)) {
        show_source_only(slide.trace_path);  // trace = "x.cu" would compile it
        break;
      }
      if (open_file(slide.trace_path)) {
        playback.pause();
        playback.seek_position(start);
      }
      break;
  }
}

void AppView::turn_slide(int direction) {
  // Said in the menu bar for a few seconds: a key that does nothing must say why.
  const auto say = [&](const std::string& why) {
    rerun_note = std::string(direction > 0 ? "PageDown" : "PageUp") + ": " + why;
    rerun_note_until = ImGui::GetTime() + 4.0;
  };
  if (!lesson.file.loaded()) {
    say(tr("slides of a lesson; open one with --lesson (the built-in: --lesson article)",
           "翻动课程的幻灯片；用 --lesson 打开课程（内置课程：--lesson article）"));
    return;
  }
  const view::Lesson& open = lesson.file.lesson();
  // From the slide on screen; after a detour to another scenario, from that
  // scenario's slide. A .cu or trace file of one's own is no slide: it stays.
  size_t from = lesson.slide;
  if (!shown_slide())
    from = !user_file && trace_origin == "scenario" ? view::find_scenario_slide(open, last_request.scenario)
                                                    : open.slides.size();
  if (from >= open.slides.size()) {
    say(tr("what is on screen is not a slide of the lesson", "当前显示的不是课程中的幻灯片"));
    return;
  }
  const std::optional<size_t> to = view::adjacent_slide(open, from, direction);
  if (!to) {
    say(direction > 0 ? tr("the lesson's last slide", "已是课程的最后一张") : tr("the lesson's first slide", "已是课程的第一张"));
    return;
  }
  show_slide(*to);
}

bool AppView::poll_lesson() {
  if (!lesson.file.loaded()) return false;
  bool changed = false;
  // A slide's stop: playing pauses there once; Space plays on past it.
  const view::LessonSlide* slide = shown_slide();
  if (slide && slide->stop_step > 0 && lesson.stop_armed && playback.playing() &&
      playback.shown_position() + 1 >= slide->stop_step) {
    playback.pause();
    playback.seek_position(slide->stop_step - 1);
    lesson.stop_armed = false;
    changed = true;
  }

  // A save: edited captions show in place; a slide that runs something else
  // runs it.
  const double now = ImGui::GetTime();
  if (!lesson.file.due(now)) return changed;
  const bool shown = shown_slide() != nullptr;
  const view::LessonSlide old = lesson.file.lesson().slides[lesson.slide];
  switch (lesson.file.poll(now)) {
    case view::LessonFile::Poll::Unchanged: return changed;
    case view::LessonFile::Poll::Failed: return true;  // the error shows above the caption
    case view::LessonFile::Poll::Reloaded: break;
  }
  fonts_stale = true;
  const view::SlideAfterReload after = view::slide_after_reload(old, lesson.slide, lesson.file.lesson());
  // An edit may name new .cu files or change the ones it runs: a lesson the
  // user let run asks again for its new content (one shown only stays so).
  const bool was_allowed = lesson.runs_allowed;
  const bool asks = was_allowed && ask_before_lesson_runs(after.index);
  if (shown && after.rerun && !asks) show_slide(after.index);
  lesson.slide = after.index;
  return true;
}

const view::LessonSlide* AppView::shown_slide() const {
  if (!lesson.file.loaded() || lesson.slide >= lesson.file.lesson().slides.size()) return nullptr;
  const view::LessonSlide& slide = lesson.file.lesson().slides[lesson.slide];
  switch (slide.source) {
    case view::SlideSource::Scenario:
      return !user_file && trace_origin == "scenario" && last_request.scenario == slide.scenario.scenario ? &slide
                                                                                                          : nullptr;
    case view::SlideSource::CudaFile:
      if (!user_file)  // shown without running (show_source_only)
        return fs::path(trace_origin).lexically_normal() == fs::path(slide.file.path).lexically_normal() ? &slide
                                                                                                       : nullptr;
      return fs::path(user_file->path()).lexically_normal() == fs::path(slide.file.path) ? &slide : nullptr;
    case view::SlideSource::TraceFile:
      return !user_file && trace_origin == slide.trace_path ? &slide : nullptr;
  }
  return nullptr;
}

view::SlidePanel AppView::presentation_panel() const {
  const view::LessonSlide* slide = shown_slide();
  return slide ? slide->panel : view::SlidePanel::Auto;
}

void AppView::draw_lesson_caption(float size, bool presentation_colours) {
  const view::LessonSlide* slide = shown_slide();
  if (!slide && lesson.file.reload_error().empty()) return;
  ImFont* font = fonts.large ? fonts.large : ImGui::GetFont();
  const float width = std::max(1.0f, ImGui::GetContentRegionAvail().x);
  // The caption's area: the window's width, and at most 40% of the height
  // left under it (two lines at least), so the view below keeps its place.
  // A longer text (a caption may hold 4096 bytes) is clipped there: glyphs
  // past the area are never emitted, not merely hidden.
  const float max_h = std::max(size * 2.5f, ImGui::GetContentRegionAvail().y * 0.4f);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const auto wrapped = [&](const std::string& text, ImU32 colour, float px, const char* role) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const ImVec2 box = font->CalcTextSizeA(px, FLT_MAX, width, text.c_str());
    const float shown_h = std::min(box.y, std::max(1.0f, std::floor(max_h / px)) * px);  // whole lines
    const ImVec2 window_max = draw->GetClipRectMax();
    const ImVec4 area(at.x, at.y, std::min(at.x + width, window_max.x), std::min(at.y + shown_h, window_max.y));
    draw->AddText(font, px, at, colour, text.c_str(), nullptr, width, &area);
    layout_report().role(role, text, at, ImVec2(std::min(at.x + box.x, area.z), area.w), px);
    ImGui::Dummy(ImVec2(box.x, shown_h + px * 0.25f));
  };
  if (!lesson.file.reload_error().empty())
    wrapped(tr("Lesson not reloaded: ", "课程未重新加载：") + lesson.file.reload_error(), IM_COL32(255, 110, 110, 255),
            size * 0.7f, "lesson_error");
  if (!slide) return;
  const std::string counter = std::to_string(lesson.slide + 1) + "/" + std::to_string(lesson.file.lesson().slides.size());
  const ImU32 colour = presentation_colours ? IM_COL32(255, 255, 255, 255) : IM_COL32(150, 210, 255, 255);
  wrapped(counter + "  " + slide->caption_in(language), colour, size, "lesson_caption");
}

std::string AppView::font_text() const {
  // The open lesson's captions: PageDown turns only its slides.
  return trace.meta.source_text + lesson.file.text();
}

}  // namespace warpviz::app
