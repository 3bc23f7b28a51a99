// The lesson open in the app (--lesson FILE, or the built-in one PageDown
// walks): which slide is shown, and the file's time, polled once a second so
// a save reloads it. AppView's lesson methods live in lesson_player.cpp.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "warpviz/view/lesson.h"

namespace warpviz::app {

struct LessonPlayer {
  bool loaded = false;          // `lesson` holds a good lesson
  view::Lesson lesson;          // the last one that parsed and whose slides can run
  std::string text;             // its file's text: the fonts bake its captions' glyphs
  size_t slide = 0;             // the slide last shown
  bool stop_armed = false;      // playing pauses once at the slide's stop step
  std::filesystem::file_time_type mtime{};
  double next_poll = 0;         // ImGui time of the next look at the file
  std::string reload_error;     // a save that did not load; the last good lesson stays
};

}  // namespace warpviz::app
