// The lesson open in the app (--lesson FILE or NAME), whose slides PageDown
// and PageUp walk: its file, watched for saves (view/lesson_file.h), and which slide
// is shown. AppView's lesson methods live in lesson_player.cpp.
#pragma once

#include <cstddef>

#include "warpviz/view/lesson_file.h"

namespace warpviz::app {

struct LessonPlayer {
  view::LessonFile file;    // the last lesson that loaded, and a failed save's error
  size_t slide = 0;         // the slide last shown
  bool stop_armed = false;  // playing pauses once at the slide's stop step
  // The user let its .cu files run (the consent dialog, a remembered answer,
  // --trust-lesson); else a .cu slide shows its source without running it.
  bool runs_allowed = false;
};

}  // namespace warpviz::app
