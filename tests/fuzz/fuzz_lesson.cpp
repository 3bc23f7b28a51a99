// libFuzzer target: lesson files (view/lesson.h). parse_lesson either gives a
// lesson whose every slide names something to show, a caption and a sane
// step range, or throws LessonError naming the file; nothing else escapes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <typeinfo>

#include "fuzz_common.h"
#include "warpviz/view/lesson.h"

using namespace warpviz;
using namespace warpviz::view;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string path = "/fuzz/lesson.toml";
  Lesson lesson;
  try {
    lesson = parse_lesson(text, path);
  } catch (const LessonError& e) {
    if (std::string_view(e.what()).rfind(path, 0) != 0)
      fuzz::finding(std::string("a LessonError that does not name the file: ") + e.what());
    return 0;
  } catch (const std::exception& e) {
    fuzz::finding(std::string("parse_lesson threw ") + typeid(e).name() + ": " + e.what());
  }
  if (lesson.slides.empty()) fuzz::finding("a lesson without slides parsed");
  for (const LessonSlide& slide : lesson.slides) {
    if (slide.start_step < 1) fuzz::finding("start step 0");
    if (slide.stop_step != 0 && slide.stop_step < slide.start_step) fuzz::finding("stop before start");
    const bool named = slide.source == SlideSource::Scenario   ? !slide.scenario.scenario.empty()
                       : slide.source == SlideSource::CudaFile ? !slide.file.path.empty()
                                                               : !slide.trace_path.empty();
    if (!named) fuzz::finding("a slide that names nothing parsed");
    if (slide.file.grid.count() == 0 || slide.file.block.count() == 0) fuzz::finding("a zero grid or block");
  }
  return 0;
}
