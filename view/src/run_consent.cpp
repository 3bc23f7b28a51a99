#include "warpviz/view/run_consent.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <xxhash.h>  // compiled in: CMake sets XXH_INLINE_ALL

#include "warpviz/view/user_file_session.h"

namespace warpviz::view {

namespace fs = std::filesystem;

namespace {

std::string absolute_path(const std::string& path) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  return ec ? path : absolute.lexically_normal().string();
}

// Reads `path` whole; false when it cannot (missing, a folder, unreadable).
// Not for a FIFO: the callers hash files a run would read anyway.
bool read_bytes(const std::string& path, std::string* bytes) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  *bytes = text.str();
  return true;
}

// Each part with its length first, so "ab" + "c" and "a" + "bc" differ.
void add_part(XXH3_state_t* state, const std::string& part) {
  const uint64_t size = part.size();
  XXH3_64bits_update(state, &size, sizeof size);
  XXH3_64bits_update(state, part.data(), part.size());
}

void add_file(XXH3_state_t* state, const std::string& path) {
  add_part(state, path);
  std::string bytes;
  add_part(state, read_bytes(path, &bytes) ? "file:" + bytes : std::string("missing"));
}

std::string hex_digest(const XXH3_state_t* state) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(XXH3_64bits_digest(state)));
  return text;
}

constexpr char kTraceMagic[8] = {'W', 'A', 'R', 'P', 'V', 'I', 'Z', 'T'};

}  // namespace

std::vector<std::string> lesson_cuda_files(const Lesson& lesson) {
  std::vector<std::string> files;
  for (const LessonSlide& slide : lesson.slides) {
    std::string path;
    if (slide.source == SlideSource::CudaFile) path = slide.file.path;
    // trace = "x.cu" opens it as File > Open would: it compiles and runs too.
    else if (slide.source == SlideSource::TraceFile && is_cuda_source(slide.trace_path)) path = slide.trace_path;
    if (path.empty()) continue;
    path = absolute_path(path);
    if (std::find(files.begin(), files.end(), path) == files.end()) files.push_back(path);
  }
  return files;
}

std::string lesson_run_hash(const Lesson& lesson, const std::string& lesson_text) {
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  add_part(&state, "lesson");
  add_part(&state, lesson_text);
  for (const std::string& path : lesson_cuda_files(lesson)) add_file(&state, path);
  return hex_digest(&state);
}

std::string file_run_hash(const std::string& path) {
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  add_part(&state, "cu");
  add_file(&state, absolute_path(path));
  return hex_digest(&state);
}

bool is_trusted(const AppSettings& settings, const std::string& hash) {
  return std::any_of(settings.trusted_runs.begin(), settings.trusted_runs.end(),
                     [&](const TrustedRun& run) { return run.hash == hash; });
}

void trust_run(AppSettings& settings, const std::string& hash, const std::string& what) {
  auto& runs = settings.trusted_runs;
  runs.erase(std::remove_if(runs.begin(), runs.end(), [&](const TrustedRun& run) { return run.hash == hash; }),
             runs.end());
  runs.insert(runs.begin(), TrustedRun{hash, what});
  if (runs.size() > kMaxTrustedRuns) runs.resize(kMaxTrustedRuns);
}

std::vector<std::string> runs_needing_consent(const Lesson& lesson, const std::string& lesson_text,
                                              const AppSettings& settings) {
  std::vector<std::string> files = lesson_cuda_files(lesson);
  if (files.empty() || is_trusted(settings, lesson_run_hash(lesson, lesson_text))) return {};
  return files;
}

bool file_needs_consent(const std::string& path, const AppSettings& settings) {
  return is_cuda_source(path) && !is_trusted(settings, file_run_hash(path));
}

std::string proposed_save_name(const std::string& open_path, const std::string& fallback) {
  if (open_path.empty() || open_path == "scenario") return (fallback.empty() ? std::string("trace") : fallback) + ".wvt";
  fs::path path(open_path);
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (ext == ".wvt" || ext == ".json") return open_path;
  return path.replace_extension(".wvt").string();
}

bool may_write_trace_over(const std::string& path) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(path, ec);
  if (status.type() == fs::file_type::not_found) return true;
  if (!fs::is_regular_file(path, ec)) return false;  // a folder, a FIFO, a device: never a trace
  std::ifstream in(path, std::ios::binary);
  char head[4096];
  in.read(head, sizeof head);
  const std::string text(head, size_t(in.gcount()));
  if (text.size() >= sizeof kTraceMagic && std::memcmp(text.data(), kTraceMagic, sizeof kTraceMagic) == 0) return true;
  // The JSON form: an object whose "format" (written first) names it.
  const size_t open = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (open == std::string::npos || text[open] != '{') return false;
  const size_t key = text.find("\"format\"");
  if (key == std::string::npos) return false;
  const size_t value = text.find_first_not_of(" \t\r\n:", key + 8);
  return value != std::string::npos && text.compare(value, 15, "\"warpviz-trace\"") == 0;
}

}  // namespace warpviz::view
