#include "warpviz/view/lesson.h"

#include <toml.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace warpviz::view {

namespace fs = std::filesystem;

namespace {

// Where the parser stands, for messages: the file, the slide (1-based, 0:
// the top level) and a value's line.
struct Where {
  const std::string& path;
  size_t slide = 0;

  [[noreturn]] void fail(const toml::value* at, const std::string& field, const std::string& what) const {
    std::string text = path.empty() ? std::string("lesson") : path;
    if (at && at->location().line() > 0) text += ":" + std::to_string(at->location().line());
    text += ": ";
    if (slide > 0) text += "slide " + std::to_string(slide) + ": ";
    if (!field.empty()) text += field + ": ";
    throw LessonError(text + what);
  }
};

const char* type_name(const toml::value& v) {
  switch (v.type()) {
    case toml::value_t::boolean: return "a boolean";
    case toml::value_t::integer: return "an integer";
    case toml::value_t::floating: return "a number";
    case toml::value_t::string: return "a string";
    case toml::value_t::array: return "an array";
    case toml::value_t::table: return "a table";
    case toml::value_t::empty: return "nothing";
    default: return "a date or time";
  }
}

std::string string_of(const Where& w, const toml::value& v, const std::string& field) {
  if (!v.is_string()) w.fail(&v, field, std::string("expected a string, got ") + type_name(v));
  return v.as_string().str;
}

// A caption: a string of at most kMaxCaptionBytes (a 10 MB one took 2.6 GB to draw).
std::string caption_of(const Where& w, const toml::value& v, const std::string& field) {
  std::string text = string_of(w, v, field);
  if (text.size() > kMaxCaptionBytes)
    w.fail(&v, field, std::to_string(text.size()) + " bytes; a caption is at most " + std::to_string(kMaxCaptionBytes));
  return text;
}

// A step number: an integer from 1 (the timeline's numbering).
size_t step_of(const Where& w, const toml::value& v, const std::string& field) {
  if (!v.is_integer()) w.fail(&v, field, std::string("expected a step number (1, 2, ...), got ") + type_name(v));
  const toml::integer n = v.as_integer();
  if (n < 1) w.fail(&v, field, "expected a step number (1, 2, ...), got " + std::to_string(n));
  return size_t(n);
}

// A parameter's value as --set / --arg would give it: strings as they are,
// numbers and booleans as TOML wrote them.
std::string setting_of(const Where& w, const toml::value& v, const std::string& field) {
  switch (v.type()) {
    case toml::value_t::string: return v.as_string().str;
    case toml::value_t::integer: return std::to_string(v.as_integer());
    case toml::value_t::boolean: return v.as_boolean() ? "true" : "false";
    case toml::value_t::floating: {
      std::ostringstream out;
      out << v.as_floating();
      return out.str();
    }
    default: w.fail(&v, field, std::string("expected a string or a number, got ") + type_name(v));
  }
}

// { name = value, ... } in name order (a TOML table has none; the order
// only changes how a request reads, not what it runs).
std::vector<std::pair<std::string, std::string>> settings_of(const Where& w, const toml::value& v,
                                                             const std::string& field) {
  if (!v.is_table()) w.fail(&v, field, std::string("expected a table such as { name = value }, got ") + type_name(v));
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, value] : v.as_table()) out.emplace_back(name, setting_of(w, value, field + "." + name));
  std::sort(out.begin(), out.end());
  return out;
}

// A grid or block: 256, or [x, y] / [x, y, z]; each 1 .. 2^31-1.
Dim3 dims_of(const Where& w, const toml::value& v, const std::string& field) {
  std::vector<const toml::value*> parts;
  if (v.is_integer()) {
    parts.push_back(&v);
  } else if (v.is_array() && !v.as_array().empty() && v.as_array().size() <= 3) {
    for (const toml::value& part : v.as_array()) parts.push_back(&part);
  } else {
    w.fail(&v, field, std::string("expected a size such as 256 or [4, 2], got ") + type_name(v));
  }
  uint32_t xyz[3] = {1, 1, 1};
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!parts[i]->is_integer() || parts[i]->as_integer() < 1 ||
        parts[i]->as_integer() > std::numeric_limits<int32_t>::max())
      w.fail(parts[i], field, "expected sizes from 1 to 2147483647");
    xyz[i] = uint32_t(parts[i]->as_integer());
  }
  return Dim3(xyz[0], xyz[1], xyz[2]);
}

// A path as written, or beside the lesson when relative.
std::string resolve_path(const std::string& lesson_path, const std::string& written) {
  const fs::path p(written);
  if (p.is_absolute() || lesson_path.empty()) return p.lexically_normal().string();
  return (fs::path(lesson_path).parent_path() / p).lexically_normal().string();
}

SlidePanel panel_of(const Where& w, const toml::value& v) {
  const std::string name = string_of(w, v, "panel");
  for (SlidePanel p : {SlidePanel::Auto, SlidePanel::Lanes, SlidePanel::Votes, SlidePanel::Block, SlidePanel::Bank})
    if (name == slide_panel_name(p)) return p;
  w.fail(&v, "panel", "'" + name + "' is not a panel (auto, lanes, votes, block, bank)");
}

const std::set<std::string>& scenario_fields() {
  static const std::set<std::string> f{"scenario", "set", "input", "start", "stop", "panel", "caption", "caption_zh"};
  return f;
}
const std::set<std::string>& cuda_fields() {
  static const std::set<std::string> f{"cu",    "kernel", "grid",  "block",   "shared",    "input", "args",
                                       "lens",  "start",  "stop",  "panel",   "caption",   "caption_zh"};
  return f;
}
const std::set<std::string>& trace_fields() {
  static const std::set<std::string> f{"trace", "start", "stop", "panel", "caption", "caption_zh"};
  return f;
}

LessonSlide parse_slide(const Where& w, const toml::value& table, const std::string& lesson_path) {
  if (!table.is_table()) w.fail(&table, "", std::string("expected a [[slide]] table, got ") + type_name(table));
  const toml::table& fields = table.as_table();
  LessonSlide slide;
  // Exactly one source.
  const toml::value* source = nullptr;
  std::string source_key;
  for (const char* key : {"scenario", "cu", "trace"}) {
    const auto it = fields.find(key);
    if (it == fields.end()) continue;
    if (source) w.fail(&it->second, key, "a slide shows one thing; it already has " + source_key);
    source = &it->second;
    source_key = key;
  }
  if (!source) w.fail(&table, "", "names nothing to show: give scenario = \"NAME\", cu = \"FILE.cu\" or trace = \"FILE\"");
  slide.line = int(source->location().line());
  const std::string written = string_of(w, *source, source_key);
  if (written.empty()) w.fail(source, source_key, "is empty");
  const std::set<std::string>* allowed = &scenario_fields();
  if (source_key == "scenario") {
    slide.source = SlideSource::Scenario;
    slide.scenario.scenario = written;
  } else if (source_key == "cu") {
    slide.source = SlideSource::CudaFile;
    slide.file.path = resolve_path(lesson_path, written);
    allowed = &cuda_fields();
  } else {
    slide.source = SlideSource::TraceFile;
    slide.trace_path = resolve_path(lesson_path, written);
    allowed = &trace_fields();
  }
  for (const auto& [key, value] : fields) {
    if (allowed->count(key)) continue;
    const bool elsewhere = scenario_fields().count(key) || cuda_fields().count(key);
    w.fail(&value, key, elsewhere ? "not a field of a " + source_key + " slide"
                                  : "unknown field (scenario, cu, trace, set, input, kernel, grid, block, shared, "
                                    "args, lens, start, stop, panel, caption, caption_zh)");
  }

  const auto field = [&](const char* key) -> const toml::value* {
    const auto it = fields.find(key);
    return it == fields.end() ? nullptr : &it->second;
  };
  if (const toml::value* v = field("set")) slide.scenario.sets = settings_of(w, *v, "set");
  if (const toml::value* v = field("input")) {
    if (slide.source == SlideSource::Scenario) {
      slide.scenario.input = string_of(w, *v, "input");
    } else if (v->is_string()) {
      slide.file.inputs.emplace_back("", v->as_string().str);  // every input array
    } else if (v->is_table()) {
      slide.file.inputs = settings_of(w, *v, "input");
    } else {
      w.fail(v, "input", std::string("expected a spec (\"iota\") or a table { name = \"spec\" }, got ") + type_name(*v));
    }
  }
  if (const toml::value* v = field("kernel")) slide.file.kernel = string_of(w, *v, "kernel");
  if (const toml::value* v = field("grid")) slide.file.grid = dims_of(w, *v, "grid");
  if (const toml::value* v = field("block")) slide.file.block = dims_of(w, *v, "block");
  if (const toml::value* v = field("shared")) {
    if (!v->is_integer() || v->as_integer() < 0)
      w.fail(v, "shared", std::string("expected a number of bytes, got ") + type_name(*v));
    slide.file.shared = size_t(v->as_integer());
  }
  if (const toml::value* v = field("args")) slide.file.args = settings_of(w, *v, "args");
  if (const toml::value* v = field("lens")) slide.file.lens = settings_of(w, *v, "lens");
  if (const toml::value* v = field("start")) slide.start_step = step_of(w, *v, "start");
  if (const toml::value* v = field("stop")) {
    slide.stop_step = step_of(w, *v, "stop");
    if (slide.stop_step < slide.start_step)
      w.fail(v, "stop", "step " + std::to_string(slide.stop_step) + " comes before start (step " +
                            std::to_string(slide.start_step) + ")");
  }
  if (const toml::value* v = field("panel")) slide.panel = panel_of(w, *v);
  const toml::value* caption = field("caption");
  if (!caption) w.fail(source, "caption", "missing: every slide has a caption in English (caption = \"...\")");
  slide.caption = caption_of(w, *caption, "caption");
  if (const toml::value* v = field("caption_zh")) slide.caption_zh = caption_of(w, *v, "caption_zh");
  return slide;
}

// What toml11 would recurse on, bounded before it reads a byte: arrays and
// inline tables nested deeper than kMaxLessonDepth, and keys of more than
// kMaxLessonDepth dotted parts (a lesson nested 100 000 deep overflowed the
// stack in its parser). Strings and comments are skipped; "" when fine, else
// what is wrong and on which line.
std::string nesting_problem(std::string_view text, int* line_out) {
  int depth = 0, line = 1, dots = 0;
  // Keys a table holds so far: [0] the current [header]'s, then one per open
  // inline table (toml11 takes time quadratic in a table's keys: 40 000 took 76 s).
  std::vector<size_t> keys{0};
  bool line_start = true;
  size_t i = 0;
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line, dots = 0, ++i;
      line_start = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    const bool first = line_start;
    line_start = false;
    if (c == '[' && first && depth == 0 && keys.size() == 1) {
      keys[0] = 0;  // a [table] or [[slide]] header: a new table
      ++depth, ++i;
    } else if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      const std::string_view quote = c == '"' ? std::string_view("\"\"\"") : std::string_view("'''");
      const bool multi = text.substr(i, 3) == quote;
      i += multi ? 3 : 1;
      while (i < text.size()) {
        if (c == '"' && text[i] == '\\') {  // an escape: the next character is the string's
          i += 2;
          continue;
        }
        if (text[i] == '\n') {
          if (!multi) break;  // an unclosed string: toml11 says so
          ++line;
        }
        if (multi ? text.substr(i, 3) == quote : text[i] == c) {
          i += multi ? 3 : 1;
          break;
        }
        ++i;
      }
    } else {
      if (c == '[' || c == '{') {
        if (++depth > kMaxLessonDepth) {
          *line_out = line;
          return "nested more than " + std::to_string(kMaxLessonDepth) + " deep";
        }
        if (c == '{') keys.push_back(0);
      } else if (c == ']' || c == '}') {
        if (depth > 0) --depth;
        if (c == '}' && keys.size() > 1) keys.pop_back();
      } else if (c == '=') {
        if (++keys.back() > kMaxLessonTableKeys) {
          *line_out = line;
          return "a table of more than " + std::to_string(kMaxLessonTableKeys) + " keys";
        }
      } else if (c == '.' && !(i > 0 && digit(text[i - 1]) && i + 1 < text.size() && digit(text[i + 1]))) {
        if (++dots > kMaxLessonDepth) {
          *line_out = line;
          return "a key of more than " + std::to_string(kMaxLessonDepth) + " dotted parts";
        }
      }
      ++i;
    }
  }
  return "";
}

// toml11's message is several lines (an underlined excerpt); the first names
// the problem, the excerpt the line, which the location gives already.
std::string first_line_of(const std::string& message) {
  std::string line = message.substr(0, message.find('\n'));
  if (line.rfind("[error] ", 0) == 0) line.erase(0, 8);
  return line;
}

}  // namespace

const std::string& LessonSlide::caption_in(Language language) const {
  return language == Language::Chinese && !caption_zh.empty() ? caption_zh : caption;
}

std::string LessonSlide::source_label() const {
  switch (source) {
    case SlideSource::Scenario: return scenario.scenario;
    case SlideSource::CudaFile: return fs::path(file.path).filename().string();
    case SlideSource::TraceFile: return fs::path(trace_path).filename().string();
  }
  return {};
}

const char* slide_panel_name(SlidePanel panel) {
  switch (panel) {
    case SlidePanel::Auto: return "auto";
    case SlidePanel::Lanes: return "lanes";
    case SlidePanel::Votes: return "votes";
    case SlidePanel::Block: return "block";
    case SlidePanel::Bank: return "bank";
  }
  return "auto";
}

Lesson parse_lesson(std::string_view text, const std::string& path) {
  const Where top{path};
  const std::string name = path.empty() ? std::string("lesson") : path;
  if (text.size() > kMaxLessonBytes)
    throw LessonError(name + ": " + std::to_string(text.size()) + " bytes; a lesson is at most " +
                      std::to_string(kMaxLessonBytes));
  int deep_line = 0;
  if (const std::string why = nesting_problem(text, &deep_line); !why.empty())
    throw LessonError(name + ":" + std::to_string(deep_line) + ": " + why);
  toml::value root;
  try {
    std::istringstream in{std::string(text)};
    root = toml::parse(in, path.empty() ? std::string("lesson") : path);
  } catch (const toml::exception& e) {
    std::string where = path.empty() ? std::string("lesson") : path;
    if (e.location().line() > 0) where += ":" + std::to_string(e.location().line());
    throw LessonError(where + ": not valid TOML: " + first_line_of(e.what()));
  } catch (const std::exception& e) {  // toml11 throws std::out_of_range and others on some inputs
    throw LessonError((path.empty() ? std::string("lesson") : path) + ": not valid TOML: " + first_line_of(e.what()));
  }

  Lesson lesson;
  lesson.path = path;
  const toml::table& fields = root.as_table();
  for (const auto& [key, value] : fields) {
    if (key == "title") {
      lesson.title = string_of(top, value, "title");
    } else if (key == "title_zh") {
      lesson.title_zh = string_of(top, value, "title_zh");
    } else if (key != "slide") {
      top.fail(&value, key, "unknown field (title, title_zh, and [[slide]] tables)");
    }
  }
  const auto slides = fields.find("slide");
  if (slides == fields.end())
    top.fail(nullptr, "", "no slides: each slide is a [[slide]] table with scenario, cu or trace and a caption");
  if (!slides->second.is_array())
    top.fail(&slides->second, "slide", std::string("expected [[slide]] tables, got ") + type_name(slides->second));
  const toml::array& list = slides->second.as_array();
  if (list.empty()) top.fail(&slides->second, "slide", "no slides");
  for (size_t i = 0; i < list.size(); ++i)
    lesson.slides.push_back(parse_slide(Where{path, i + 1}, list[i], path));
  return lesson;
}

std::string not_a_file(const std::string& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  switch (status.type()) {
    case fs::file_type::regular: return "";
    case fs::file_type::directory: return "a directory, not a file";
    case fs::file_type::fifo: return "a FIFO (named pipe), not a file";
    case fs::file_type::block:
    case fs::file_type::character: return "a device, not a file";
    case fs::file_type::socket: return "a socket, not a file";
    case fs::file_type::not_found: return "no such file";
    default: return ec ? "cannot look at it (" + ec.message() + ")" : "not a regular file";
  }
}

Lesson load_lesson(const std::string& path) {
  if (const std::string what = not_a_file(path); !what.empty())
    throw LessonError(path + ": " + (what == "no such file" ? std::string("cannot read the lesson file") : what));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LessonError(path + ": cannot read the lesson file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw LessonError(path + ": cannot read the lesson file");
  return parse_lesson(text.str(), path);
}

std::vector<std::string> lesson_problems(const Lesson& lesson) {
  std::vector<std::string> problems;
  for (size_t i = 0; i < lesson.slides.size(); ++i) {
    const LessonSlide& slide = lesson.slides[i];
    const std::string where = (lesson.path.empty() ? std::string("lesson") : lesson.path) + ":" +
                              std::to_string(slide.line) + ": slide " + std::to_string(i + 1) + ": ";
    switch (slide.source) {
      case SlideSource::Scenario:
        try {
          resolve_scenario(slide.scenario);
        } catch (const std::exception& e) {
          problems.push_back(where + e.what());
        }
        break;
      case SlideSource::CudaFile:
        if (const std::string what = not_a_file(slide.file.path); !what.empty())
          problems.push_back(where + "cu: " + slide.file.path + ": " + what);
        break;
      case SlideSource::TraceFile:
        if (const std::string what = not_a_file(slide.trace_path); !what.empty())
          problems.push_back(where + "trace: " + slide.trace_path + ": " + what);
        break;
    }
  }
  return problems;
}

std::optional<size_t> adjacent_slide(const Lesson& lesson, size_t index, int direction) {
  const size_t n = lesson.slides.size();
  if (index >= n) return std::nullopt;
  if (direction >= 0) return index + 1 < n ? std::optional<size_t>(index + 1) : std::nullopt;
  return index > 0 ? std::optional<size_t>(index - 1) : std::nullopt;
}

size_t find_scenario_slide(const Lesson& lesson, std::string_view name) {
  for (size_t i = 0; i < lesson.slides.size(); ++i)
    if (lesson.slides[i].source == SlideSource::Scenario && lesson.slides[i].scenario.scenario == name) return i;
  return lesson.slides.size();
}

}  // namespace warpviz::view
