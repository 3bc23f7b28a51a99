#include "video_export.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "warpviz/file_write.h"
#include "warpviz/view/svg_export.h"

namespace warpviz::app {

ExportFormat export_format(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (ext == ".mp4") return ExportFormat::Mp4;
  if (ext == ".webm") return ExportFormat::Webm;
  if (ext == ".gif") return ExportFormat::Gif;
  if (ext == ".svg") return ExportFormat::Svg;
  return ExportFormat::Unknown;
}

std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return {};
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0 && std::filesystem::is_regular_file(candidate)) return candidate;
  }
  return {};
}

std::string ffmpeg_missing_message(const std::string& path) {
  return "--export " + path + " needs ffmpeg (apt install ffmpeg)";
}

std::vector<double> export_frame_positions(size_t first, size_t last, int fps,
                                           const std::vector<bool>& rests_with_round) {
  std::vector<double> positions;
  if (fps < 1 || last < first) return positions;
  // The positions that get a second: the first, and every one that is not a
  // watch resting with its round.
  std::vector<size_t> shown;
  for (size_t p = first; p <= last; ++p)
    if (p == first || p >= rests_with_round.size() || !rests_with_round[p]) shown.push_back(p);
  const int moving = fps / 2, resting = fps - moving;
  for (size_t i = 0; i < shown.size(); ++i) {
    if (i + 1 == shown.size()) {
      // The last second rests on the last position, a watch or not: the same
      // picture, and the timeline's counter reaches the end.
      for (int f = 0; f < fps; ++f) positions.push_back(double(last));
      break;
    }
    for (int f = 0; f < resting; ++f) positions.push_back(double(shown[i]));
    // The transition into the next shown step, from the position just before
    // it (a resting watch shows its round as it is): its frames end just
    // before the step lands; its own resting frames show it landed.
    const double from = double(shown[i + 1] - 1);
    for (int f = 0; f < moving; ++f) positions.push_back(from + double(f + 1) / double(moving + 1));
  }
  return positions;
}

bool parse_step_range(const std::string& text, size_t step_count, size_t* first, size_t* last, std::string* error) {
  const size_t colon = text.find(':');
  auto number = [](std::string_view s, size_t* out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
    return ec == std::errc() && end == s.data() + s.size() && *out >= 1;
  };
  size_t a = 1, b = step_count;
  const std::string_view view(text);
  const bool ok = colon == std::string::npos
                      ? number(view, &a) && (b = a, true)
                      : (colon == 0 || number(view.substr(0, colon), &a)) &&
                            (colon + 1 == text.size() || number(view.substr(colon + 1), &b));
  if (!ok) {
    *error = "--steps " + text + ": expected A:B, step numbers from 1 (e.g. 2:5, 3: or :4)";
    return false;
  }
  if (a > b || b > step_count) {
    *error = "--steps " + text + ": the trace has steps 1 to " + std::to_string(step_count);
    return false;
  }
  *first = a - 1;
  *last = b - 1;
  return true;
}

namespace {

// ffmpeg's arguments after the raw input: the encoder and the container.
// GL's rows run bottom-up: vflip turns them. yuv420p (what players expect of
// MP4 and WebM) needs even sizes: an odd edge loses its last pixel row.
std::vector<std::string> output_arguments(ExportFormat format) {
  const std::string even = "vflip,crop=trunc(iw/2)*2:trunc(ih/2)*2";
  switch (format) {
    case ExportFormat::Mp4:
      return {"-vf", even, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "veryfast", "-crf", "18",
              "-movflags", "+faststart", "-f", "mp4"};
    case ExportFormat::Webm:
      return {"-vf", even, "-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-b:v", "0", "-crf", "32",
              "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1", "-f", "webm"};
    case ExportFormat::Gif:
      // One palette for the whole animation, built from its frames.
      return {"-vf", "vflip,split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse=dither=sierra2_4a",
              "-loop", "0", "-f", "gif"};
    default: return {};
  }
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

}  // namespace

VideoExport::~VideoExport() {
  if (running()) cancel();
}

bool VideoExport::start(const std::string& path, int width, int height, int fps, std::string* error) {
  const ExportFormat format = export_format(path);
  if (!is_video(format)) return *error = path + ": expected .mp4, .webm or .gif", false;
  const std::string ffmpeg = find_on_path("ffmpeg");
  if (ffmpeg.empty()) return *error = ffmpeg_missing_message(path), false;
  if (width < 2 || height < 2) return *error = "the window has no pixels to export", false;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return *error = "cannot write " + path + ": it is a directory", false;

  // The temporary file beside the target (same file system: the rename is
  // atomic), created exclusively so no existing file is touched.
  const std::filesystem::path target(path);
  const std::string ext = target.extension().string();
  std::string temp = (target.parent_path() / ("." + target.filename().string() + ".XXXXXX" + ext)).string();
  const int temp_fd = ::mkstemps(temp.data(), int(ext.size()));
  if (temp_fd < 0) return *error = "cannot write " + path + ": " + std::strerror(errno), false;
  struct stat existing {};
  mode_t mode = 0;
  if (::stat(path.c_str(), &existing) == 0) {
    mode = existing.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  ::fchmod(temp_fd, mode);
  ::close(temp_fd);
  std::string log = (std::filesystem::temp_directory_path() / "warpviz-ffmpeg-XXXXXX").string();
  const int log_fd = ::mkstemp(log.data());
  if (log_fd < 0) {
    ::unlink(temp.c_str());
    return *error = std::string("cannot create ffmpeg's log file: ") + std::strerror(errno), false;
  }

  // The argv, each path its own element: no shell sees a file name.
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  std::vector<std::string> args = {ffmpeg, "-hide_banner", "-loglevel", "error", "-y",
                                   "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", size,
                                   "-r", std::to_string(fps), "-i", "-"};
  for (std::string& a : output_arguments(format)) args.push_back(std::move(a));
  args.push_back(temp);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    ::close(log_fd);
    ::unlink(temp.c_str());
    ::unlink(log.c_str());
    return *error = std::string("cannot start ffmpeg: ") + std::strerror(errno), false;
  }
  const pid_t child = ::fork();
  if (child == 0) {
    ::dup2(fds[0], STDIN_FILENO);
    ::dup2(log_fd, STDOUT_FILENO);
    ::dup2(log_fd, STDERR_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(fds[0]);
  ::close(log_fd);
  if (child < 0) {
    ::close(fds[1]);
    ::unlink(temp.c_str());
    ::unlink(log.c_str());
    return *error = std::string("cannot start ffmpeg: ") + std::strerror(errno), false;
  }
  // ffmpeg dying mid-export must be an error here, not SIGPIPE killing the app.
  std::signal(SIGPIPE, SIG_IGN);
  path_ = path;
  temp_path_ = temp;
  log_path_ = log;
  width_ = width;
  height_ = height;
  pipe_fd_ = fds[1];
  child_ = child;
  pixels_.assign(size_t(width) * size_t(height) * 3, 0);
  return true;
}

bool VideoExport::add_frame(FrameTarget& target, std::string* error) {
  if (!running()) return *error = "the export is not running", false;
  const PixelSize size = target.framebuffer_size();
  if (size.w != width_ || size.h != height_)
    return *error = "the frame is " + std::to_string(size.w) + "x" + std::to_string(size.h) + ", the video " +
                    std::to_string(width_) + "x" + std::to_string(height_), false;
  if (!target.read_rgb(&pixels_, error)) return false;
  size_t sent = 0;
  while (sent < pixels_.size()) {
    const ssize_t n = ::write(pipe_fd_, pixels_.data() + sent, pixels_.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int status = 0;
      stop_child(false, &status);
      const std::string log = read_text_file(log_path_);
      ::unlink(temp_path_.c_str());
      ::unlink(log_path_.c_str());
      *error = "ffmpeg stopped while writing " + path_ + (log.empty() ? std::string() : ": " + log);
      return false;
    }
    sent += size_t(n);
  }
  return true;
}

void VideoExport::stop_child(bool kill_it, int* status) {
  if (pipe_fd_ >= 0) ::close(pipe_fd_);
  pipe_fd_ = -1;
  if (child_ > 0) {
    if (kill_it) ::kill(child_, SIGTERM);
    while (::waitpid(child_, status, 0) < 0 && errno == EINTR) {
    }
  }
  child_ = -1;
}

bool VideoExport::finish(std::string* error) {
  if (!running()) return *error = "the export is not running", false;
  int status = 0;
  stop_child(false, &status);
  const std::string log = read_text_file(log_path_);
  ::unlink(log_path_.c_str());
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    ::unlink(temp_path_.c_str());
    *error = "ffmpeg could not write " + path_ + (log.empty() ? std::string() : ": " + log);
    return false;
  }
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(temp_path_.c_str());
    *error = "cannot write " + path_ + ": " + why;
    return false;
  }
  return true;
}

void VideoExport::cancel() {
  if (!running()) return;
  int status = 0;
  stop_child(true, &status);
  ::unlink(temp_path_.c_str());
  ::unlink(log_path_.c_str());
}

bool write_step_svg(const Trace& trace, const view::PlayOrder& order, size_t position, const view::SvgOptions& options,
                    const std::string& path, std::string* error) {
  const std::string svg = view::step_svg(trace, order, position, options);
  try {
    write_file_replacing(path, svg.data(), svg.size());
  } catch (const FileWriteError& e) {
    *error = e.what();
    return false;
  }
  return true;
}

}  // namespace warpviz::app
