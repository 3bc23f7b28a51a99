// A lesson file open in the app, and its reload on save. The file's time is
// looked at once a second (the caller's clock, so tests need no waiting); a
// new time reads it again, and a lesson that parses and whose slides can all
// run takes the old one's place. One that does not keeps the last good lesson
// and says why (reload_error), as a .cu file's failed save keeps its last
// trace. Which slide to show after a reload, and whether it must run again,
// is slide_after_reload's answer. No ImGui: tested headless.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "warpviz/view/lesson.h"

namespace warpviz::view {

class LessonFile {
 public:
  static constexpr double kPollInterval = 1.0;  // seconds between looks at the file's time

  // Reads, parses and checks `path` (lesson_problems). Throws LessonError
  // ("FILE:LINE: slide N: field: ...", every problem on a line of its own);
  // the lesson open before stays open then.
  void open(const std::string& path);

  enum class Poll {
    Unchanged,  // not time to look, the same file time, or the file gone for a moment (an editor's save)
    Reloaded,   // lesson() is the saved file's
    Failed,     // the saved file does not load: reload_error() says why, lesson() is the last good one
  };
  // Whether poll(now) would look at the file (a second since the last look).
  bool due(double now) const { return loaded_ && now >= next_poll_; }
  // `now`: seconds on any steady clock (the app's ImGui time).
  Poll poll(double now);

  bool loaded() const { return loaded_; }
  const Lesson& lesson() const { return lesson_; }
  const std::string& text() const { return text_; }  // the fonts bake its captions' glyphs
  const std::string& reload_error() const { return reload_error_; }

 private:
  bool loaded_ = false;
  Lesson lesson_;
  std::string text_;
  std::filesystem::file_time_type mtime_{};
  double next_poll_ = 0;
  std::string reload_error_;
};

// The slide to show after a reload, from slide `shown` of the old lesson
// (`old_slide`): the same index, or the new last slide when the lesson got
// shorter; `rerun` when that slide now runs something else (another scenario,
// parameters, input, file or start step). A save that only edits captions,
// the panel or the stop keeps the step on screen.
struct SlideAfterReload {
  size_t index = 0;
  bool rerun = false;
};
SlideAfterReload slide_after_reload(const LessonSlide& old_slide, size_t shown, const Lesson& reloaded);

}  // namespace warpviz::view
