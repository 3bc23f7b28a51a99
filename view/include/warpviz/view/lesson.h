// A lesson: slides a lecturer writes by hand in a TOML file, each a built-in
// scenario, a user's .cu file or a trace file, where to start (and stop), the
// panel presentation mode shows, and a caption in English and Chinese.
// PageDown / PageUp walk them; the app reloads the file when it is saved.
//
//   title = "Warp-level CUDA"          # optional; title_zh too
//   [[slide]]
//   scenario = "warp_sum"              # or cu = "kernels/my.cu", or trace = "run.wvt"
//   set = { dtype = "i32" }            # scenario parameters (--set)
//   input = "iota"                     # a .cu file: a string, or { name = "spec" }
//   start = 1                          # the step shown first (1-based, as --step)
//   stop = 5                           # optional: playing pauses there
//   panel = "lanes"                    # auto, lanes, votes, block, bank
//   caption = "..."                    # required
//   caption_zh = "..."                 # optional: L switches to it
//
// TOML because a lecturer edits it by hand: comments, multi-line strings for
// long captions, [[slide]] arrays in file order, and errors with line numbers
// (toml11, Debian's libtoml11-dev). Pure: no ImGui, tested headless and fuzzed.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "warpviz/scenario.h"
#include "warpviz/user_file.h"
#include "warpviz/view/strings.h"

namespace warpviz::view {

// What a broken lesson says: "FILE:LINE: slide 3: panel: ..." (the file, the
// line and the field, where known).
class LessonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class SlideSource { Scenario, CudaFile, TraceFile };
// The view presentation mode puts under the headline; Auto: the op's own
// (the ballot for a vote, the block flow for a reduction, the banks for a
// shared-memory access, else the lanes).
enum class SlidePanel { Auto, Lanes, Votes, Block, Bank };

struct LessonSlide {
  int line = 0;  // where the slide's source key is, for messages
  SlideSource source = SlideSource::Scenario;
  ScenarioRequest scenario;  // SlideSource::Scenario
  user::FileRequest file;    // SlideSource::CudaFile; file.path resolved against the lesson's folder
  std::string trace_path;    // SlideSource::TraceFile; resolved likewise
  size_t start_step = 1;     // 1-based, as --step and the timeline number steps
  size_t stop_step = 0;      // 1-based; 0: play to the end
  SlidePanel panel = SlidePanel::Auto;
  std::string caption, caption_zh;

  // The caption in `language`; Chinese falls back to English when not given.
  const std::string& caption_in(Language language) const;
  // "warp_sum", "my_sum.cu", "run.wvt": what the slide shows, for the UI.
  std::string source_label() const;
};

struct Lesson {
  std::string path;  // the file it was read from ("" for text parsed in memory)
  std::string title, title_zh;
  std::vector<LessonSlide> slides;  // never empty once parsed
};

// Bounds a lesson is held to before and while it parses: its size, how deep
// arrays, inline tables and dotted keys nest (toml11 recurses on them), how
// many keys one table holds, and
// a caption's length (the presentation draws it whole, every frame).
constexpr size_t kMaxLessonBytes = size_t(1) << 20;
constexpr int kMaxLessonDepth = 32;
constexpr size_t kMaxLessonTableKeys = 1024;  // in one table: toml11 is quadratic in them
constexpr size_t kMaxCaptionBytes = 4096;

// What `path` is when it is not a regular file: "a directory", "a FIFO",
// "a device", "a socket", "missing"; "" for a regular file (or a link to
// one). Nothing is opened, so a FIFO never blocks.
std::string not_a_file(const std::string& path);

// Parses a lesson's text; `path` names it in errors and anchors the slides'
// relative paths (its folder). Throws LessonError for a syntax error, a
// missing or unknown field, a value of the wrong type or out of range.
Lesson parse_lesson(std::string_view text, const std::string& path);
// Reads and parses a file; LessonError when it cannot be read or parsed.
Lesson load_lesson(const std::string& path);

// What the parser cannot know: each scenario slide's name, parameters and
// input against the registered scenarios (resolve_scenario), and that each
// file a slide names exists. Empty when every slide can run; else one
// "FILE:LINE: slide N: ..." message per problem.
std::vector<std::string> lesson_problems(const Lesson& lesson);

// The slide `direction` (+1, -1) from `index`; nullopt past the first or
// the last (PageDown at the end stays there: a wrap to slide 1 mid-lecture
// would throw away the slide being talked over), or for an index out of range.
std::optional<size_t> adjacent_slide(const Lesson& lesson, size_t index, int direction);
// The first slide showing scenario `name`, or slides.size() when none does.
size_t find_scenario_slide(const Lesson& lesson, std::string_view name);

const char* slide_panel_name(SlidePanel panel);  // "auto", "lanes", ...

}  // namespace warpviz::view
