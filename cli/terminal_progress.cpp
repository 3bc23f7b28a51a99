#include "terminal_progress.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

namespace warpviz::cli {

namespace {

void write_all(int fd, const char* data, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w <= 0) return;
    data += w;
    n -= size_t(w);
  }
}

size_t terminal_width() {
  winsize ws{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

// 75 s, 12 min, 3.1 h: a guess needs no more.
std::string rough_time(double s) {
  char text[32];
  if (s < 100) std::snprintf(text, sizeof text, "%.0f s", s);
  else if (s < 6000) std::snprintf(text, sizeof text, "%.0f min", s / 60);
  else std::snprintf(text, sizeof text, "%.1f h", s / 3600);
  return text;
}

}  // namespace

TerminalProgress::TerminalProgress(int output_fd) : output_fd_(output_fd) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return;
  pipe_read_ = fds[0];
  pipe_write_ = fds[1];
  copier_ = std::thread([this] { copy_output(); });
}

TerminalProgress::~TerminalProgress() { finish(); }

std::string TerminalProgress::line_for(const user::FileProgress& p, size_t width) {
  char text[64];
  std::string line = "warpviz: ";
  if (!p.in_launch) {
    line += "host code, " + std::to_string(p.launches_finished) + " launch" + (p.launches_finished == 1 ? "" : "es") +
            " done";
  } else {
    line += "launch " + std::to_string(p.launch) + " " + p.kernel + ": " + std::to_string(p.blocks_done) + "/" +
            std::to_string(p.blocks_total) + " blocks";
    std::snprintf(text, sizeof text, ", %.1f s", p.launch_elapsed_s);
    line += text;
    if (p.launch_left_s >= 0) line += ", ~" + rough_time(p.launch_left_s) + " left";
  }
  std::snprintf(text, sizeof text, " (%.0f s in all)", p.elapsed_s);
  line += text;
  if (width > 1 && line.size() >= width) line = line.substr(0, width - 2) + "~";
  return line;
}

void TerminalProgress::show(const user::FileProgress& progress) {
  // A run that ends at once shows nothing.
  if (progress.elapsed_s < 0.5) return;
  const std::string line = "\r\033[K" + line_for(progress, terminal_width()) + "\r";
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return;
  write_all(STDERR_FILENO, line.data(), line.size());
  shown_ = true;
}

void TerminalProgress::wipe_locked() {
  if (!shown_) return;
  write_all(STDERR_FILENO, "\r\033[K", 4);
  shown_ = false;
}

// Until the pipe ends, or once the run is over, until it has been quiet for
// 50 ms (a process that left the program's group may hold it open for ever).
void TerminalProgress::copy_output() {
  char buf[8192];
  for (;;) {
    pollfd p{pipe_read_, POLLIN, 0};
    const int ready = poll(&p, 1, 50);
    if (ready == 0) {
      if (stop_.load()) return;
      continue;
    }
    if (ready < 0 && errno == EINTR) continue;
    const ssize_t n = ready < 0 ? -1 : ::read(pipe_read_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    wipe_locked();
    write_all(output_fd_, buf, size_t(n));
  }
}

void TerminalProgress::finish() {
  if (pipe_write_ >= 0) {
    ::close(pipe_write_);
    pipe_write_ = -1;
  }
  stop_ = true;
  if (copier_.joinable()) copier_.join();
  if (pipe_read_ >= 0) ::close(pipe_read_), pipe_read_ = -1;
  std::lock_guard<std::mutex> lock(mutex_);
  wipe_locked();
  finished_ = true;
}

}  // namespace warpviz::cli
