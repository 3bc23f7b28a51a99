#include "child_process.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

namespace warpviz::user {

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

uint64_t process_group_rss(int pgid) {
  static const uint64_t page = uint64_t(sysconf(_SC_PAGESIZE));
  uint64_t total = 0;
  DIR* proc = opendir("/proc");
  if (!proc) return 0;
  while (dirent* e = readdir(proc)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    char path[64], buf[512];
    std::snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    const ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) continue;
    buf[n] = 0;
    // After the command's ")": state ppid pgrp ... field 24 is rss in pages.
    const char* p = std::strrchr(buf, ')');
    if (!p) continue;
    char state;
    long ppid, pgrp;
    unsigned long long skip, rss;
    if (std::sscanf(p + 1, " %c %ld %ld", &state, &ppid, &pgrp) != 3 || pgrp != pgid) continue;
    // Fields 6..23 are skipped one by one: 18 of them, then rss.
    const char* q = p + 1;
    for (int field = 3; field < 24 && q; ++field) q = std::strchr(q + 1, ' ');
    if (q && std::sscanf(q, " %llu", &rss) == 1) total += rss * page;
    (void)skip;
  }
  closedir(proc);
  return total;
}

ChildResult run_child(const std::vector<std::string>& argv, const ChildOptions& options) {
  ChildResult r;
  const auto t0 = std::chrono::steady_clock::now();
  int pipe_fds[2] = {-1, -1};
  if (options.output_fd < 0 && pipe2(pipe_fds, O_CLOEXEC) != 0) {
    r.start_error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  // An exec failure reaches the parent through a close-on-exec pipe.
  int exec_fds[2];
  if (pipe2(exec_fds, O_CLOEXEC) != 0) {
    r.start_error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  const pid_t pid = fork();
  if (pid < 0) {
    r.start_error = std::string("fork: ") + std::strerror(errno);
    return r;
  }
  if (pid == 0) {
    // Its own process group: a time limit stops whatever it started too.
    setpgid(0, 0);
    const int out = options.output_fd >= 0 ? options.output_fd : pipe_fds[1];
    dup2(out, 1);
    dup2(options.output_fd >= 0 && options.error_fd >= 0 ? options.error_fd : out, 2);
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    for (const auto& [k, v] : options.env) setenv(k.c_str(), v.c_str(), 1);
    signal(SIGPIPE, SIG_DFL);
    if (options.executable.empty()) execvp(args[0], args.data());
    else execv(options.executable.c_str(), args.data());
    const int err = errno;
    ssize_t w = write(exec_fds[1], &err, sizeof err);
    (void)w;
    _exit(127);
  }
  setpgid(pid, pid);
  close(exec_fds[1]);
  int exec_errno = 0;
  if (read(exec_fds[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno) {
    close(exec_fds[0]);
    if (pipe_fds[0] >= 0) close(pipe_fds[0]), close(pipe_fds[1]);
    waitpid(pid, nullptr, 0);
    r.start_error = (options.executable.empty() ? argv[0] : options.executable) + ": " + std::strerror(exec_errno);
    return r;
  }
  close(exec_fds[0]);
  r.started = true;
  if (pipe_fds[1] >= 0) close(pipe_fds[1]);

  int status = 0;
  bool exited = false, pipe_open = pipe_fds[0] >= 0;
  bool warned = false;
  std::chrono::steady_clock::time_point warned_at, exited_at, last_sample = t0, last_tick = t0;
  char buf[8192];
  while (!exited || pipe_open) {
    if (pipe_open) {
      pollfd p{pipe_fds[0], POLLIN, 0};
      if (poll(&p, 1, 20) > 0) {
        const ssize_t n = read(pipe_fds[0], buf, sizeof buf);
        // No `continue` after a read: a program that writes without pause
        // still meets its limits below.
        if (n > 0) {
          if (r.output.size() < (size_t(16) << 20)) r.output.append(buf, size_t(n));
        } else if (n == 0 || (n < 0 && errno != EINTR)) {
          pipe_open = false;
        }
      }
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (!exited) {
      const pid_t w = waitpid(pid, &status, WNOHANG);
      if (w == pid) {
        exited = true;
        exited_at = std::chrono::steady_clock::now();
        // What it forked and left running (holding the output pipe open,
        // say) ends with it: no process of its group outlives the run.
        kill(-pid, SIGKILL);
      }
    }
    if (exited) {
      // A process that left the group still holding the pipe: its output is
      // not waited for.
      if (pipe_open && ms_since(exited_at) > options.grace_s * 1000.0 + 200) pipe_open = false;
      continue;
    }
    if (options.on_tick && !warned && ms_since(last_tick) >= options.tick_s * 1000.0) {
      last_tick = std::chrono::steady_clock::now();
      options.on_tick(pid);
    }
    const double elapsed = ms_since(t0);
    const bool cancel = options.cancel && options.cancel->load();
    const bool over = options.time_limit_s > 0 && elapsed > options.time_limit_s * 1000.0;
    // Sampled every 50 ms: a fast allocator can pass the limit by what it
    // touches in that time, which the message reports.
    if (options.memory_limit_bytes && !warned && ms_since(last_sample) >= 50) {
      last_sample = std::chrono::steady_clock::now();
      const uint64_t rss = process_group_rss(pid);
      r.peak_rss_bytes = std::max(r.peak_rss_bytes, rss);
      if (rss > options.memory_limit_bytes) {
        warned = true;
        warned_at = last_sample;
        r.over_memory = true;
        kill(-pid, SIGKILL);
        continue;
      }
    }
    if ((cancel || over) && !warned) {
      warned = true;
      warned_at = std::chrono::steady_clock::now();
      r.cancelled = cancel;
      r.timed_out = !cancel;
      if (over && options.on_tick) options.on_tick(pid);
      if (over && options.on_time_limit) options.on_time_limit(pid);
      else kill(-pid, SIGKILL);
    } else if (warned && ms_since(warned_at) > options.grace_s * 1000.0) {
      kill(-pid, SIGKILL);
    }
  }
  if (pipe_fds[0] >= 0) close(pipe_fds[0]);
  if (warned) kill(-pid, SIGKILL);  // anything the program left behind
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.wall_ms = ms_since(t0);
  return r;
}

}  // namespace warpviz::user
