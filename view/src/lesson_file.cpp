#include "warpviz/view/lesson_file.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <tuple>

namespace warpviz::view {

namespace fs = std::filesystem;

namespace {

// The file's text, or "" when it cannot be read (the parser says why).
std::string read_text(const std::string& path) {
  if (!not_a_file(path).empty()) return "";  // a FIFO would block the app; load_lesson says what it is
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A lesson that parses and whose every slide can run; LessonError otherwise.
Lesson checked_lesson(const std::string& path, const std::string& text) {
  Lesson lesson = text.empty() && !not_a_file(path).empty() ? load_lesson(path)  // says why it cannot be read
                                                             : parse_lesson(text, path);
  const std::vector<std::string> problems = lesson_problems(lesson);
  if (!problems.empty()) {
    std::string all;
    for (const std::string& p : problems) all += (all.empty() ? "" : "\n") + p;
    throw LessonError(all);
  }
  return lesson;
}

// Whether two slides run the same thing from the same place.
bool same_run(const LessonSlide& a, const LessonSlide& b) {
  const auto file_key = [](const user::FileRequest& r) {
    return std::tie(r.path, r.kernel, r.grid.x, r.grid.y, r.grid.z, r.block.x, r.block.y, r.block.z, r.shared,
                    r.inputs, r.args, r.lens);
  };
  return a.source == b.source && a.start_step == b.start_step && a.scenario.scenario == b.scenario.scenario &&
         a.scenario.sets == b.scenario.sets && a.scenario.input == b.scenario.input && a.trace_path == b.trace_path &&
         file_key(a.file) == file_key(b.file);
}

}  // namespace

void LessonFile::open(const std::string& path) {
  std::string text = read_text(path);
  Lesson lesson = checked_lesson(path, text);
  std::error_code ec;
  mtime_ = fs::last_write_time(path, ec);
  lesson_ = std::move(lesson);
  text_ = std::move(text);
  reload_error_.clear();
  next_poll_ = 0;
  loaded_ = true;
}

LessonFile::Poll LessonFile::poll(double now) {
  if (!loaded_ || now < next_poll_) return Poll::Unchanged;
  next_poll_ = now + kPollInterval;
  const std::string& path = lesson_.path;
  std::error_code ec;
  const fs::file_time_type mtime = fs::last_write_time(path, ec);
  if (ec || mtime == mtime_) return Poll::Unchanged;
  mtime_ = mtime;
  std::string text = read_text(path);
  try {
    lesson_ = checked_lesson(path, text);
    text_ = std::move(text);
    reload_error_.clear();
    return Poll::Reloaded;
  } catch (const std::exception& e) {
    reload_error_ = e.what();
    return Poll::Failed;
  }
}

SlideAfterReload slide_after_reload(const LessonSlide& old_slide, size_t shown, const Lesson& reloaded) {
  SlideAfterReload after;
  after.index = std::min(shown, reloaded.slides.size() - 1);  // a parsed lesson has slides
  after.rerun = after.index != shown || !same_run(old_slide, reloaded.slides[after.index]);
  return after;
}

}  // namespace warpviz::view
