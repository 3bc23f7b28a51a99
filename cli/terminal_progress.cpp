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

TerminalProgress::Stream TerminalProgress::open_stream(int target) {
  Stream s;
  s.target = target;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) == 0) s.read = fds[0], s.write = fds[1];
  return s;
}

TerminalProgress::TerminalProgress(int output_fd, int error_fd)
    : output_(open_stream(output_fd)), errors_(open_stream(error_fd)) {
  if (output_.read >= 0 || errors_.read >= 0) copier_ = std::thread([this] { copy_output(); });
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

// Until both pipes end, or once the run is over, until they have been quiet
// for 50 ms (a process that left the program's group may hold one open).
void TerminalProgress::copy_output() {
  char buf[8192];
  Stream* streams[2] = {&output_, &errors_};
  bool open[2] = {output_.read >= 0, errors_.read >= 0};
  while (open[0] || open[1]) {
    pollfd p[2] = {{open[0] ? output_.read : -1, POLLIN, 0}, {open[1] ? errors_.read : -1, POLLIN, 0}};
    const int ready = poll(p, 2, 50);
    if (ready == 0) {
      if (stop_.load()) return;
      continue;
    }
    if (ready < 0) {
      if (errno == EINTR) continue;
      return;
    }
    for (int i = 0; i < 2; ++i) {
      if (!open[i] || !(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(streams[i]->read, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        open[i] = false;
        continue;
      }
      std::lock_guard<std::mutex> lock(mutex_);
      wipe_locked();
      write_all(streams[i]->target, buf, size_t(n));
    }
  }
}

void TerminalProgress::finish() {
  for (Stream* s : {&output_, &errors_})
    if (s->write >= 0) ::close(s->write), s->write = -1;
  stop_ = true;
  if (copier_.joinable()) copier_.join();
  for (Stream* s : {&output_, &errors_})
    if (s->read >= 0) ::close(s->read), s->read = -1;
  std::lock_guard<std::mutex> lock(mutex_);
  wipe_locked();
  finished_ = true;
}

}  // namespace warpviz::cli
