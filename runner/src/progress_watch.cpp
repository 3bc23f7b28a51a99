#include "progress_watch.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace warpviz::user {

namespace {

// The user and system time of process `pid` (all its threads), from
// /proc/PID/stat's 14th and 15th fields; 0 when it cannot be read.
double process_cpu_s(int pid) {
  if (pid <= 0) return 0;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  std::getline(stat, text);
  const size_t paren = text.rfind(')');
  if (paren == std::string::npos) return 0;
  std::istringstream fields(text.substr(paren + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::strtoull(field.c_str(), nullptr, 10);
    if (i == 15) stime = std::strtoull(field.c_str(), nullptr, 10);
  }
  return double(utime + stime) / double(sysconf(_SC_CLK_TCK));
}

}  // namespace

ProgressWatch::ProgressWatch(const std::string& run_dir) {
  const std::string path = run_dir + "/" + RunProgress::kFileName;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  // The record as it starts: magic, version, every count 0.
  const RunProgress fresh;
  unsigned char bytes[sizeof(RunProgress)];
  std::memcpy(bytes, static_cast<const void*>(&fresh), sizeof bytes);
  void* map = MAP_FAILED;
  if (::write(fd, bytes, sizeof bytes) == ssize_t(sizeof bytes))
    map = mmap(nullptr, sizeof(RunProgress), PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map != MAP_FAILED) record_ = static_cast<const RunProgress*>(map);
  start();
}

ProgressWatch::~ProgressWatch() {
  if (record_) munmap(const_cast<RunProgress*>(record_), sizeof(RunProgress));
}

void ProgressWatch::start() {
  started_ = last_moved_ = last_finished_ = std::chrono::steady_clock::now();
  last_moved_cpu_s_ = 0;  // a new process
}

FileProgress ProgressWatch::read(int pid) {
  FileProgress p;
  const auto now = std::chrono::steady_clock::now();
  auto seconds = [](std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); };
  p.elapsed_s = seconds(now - started_);
  if (!record_) return p;
  const RunProgress& r = *record_;
  constexpr auto relaxed = std::memory_order_relaxed;
  p.launches_started = r.launches_started.load(relaxed);
  p.launches_finished = r.launches_finished.load(relaxed);
  p.known = p.launches_started > 0;
  p.in_launch = r.in_launch.load(relaxed) != 0;
  p.launch = p.launches_started ? p.launches_started - 1 : 0;
  p.blocks_done = r.blocks_done.load(relaxed);
  p.blocks_total = r.blocks_total.load(relaxed);
  p.threads_done = r.threads_done.load(relaxed);
  p.threads_total = r.threads_total.load(relaxed);
  // The seqlock: a name read while it changed is read again (a few tries;
  // a name is written once a launch).
  for (int tries = 0; tries < 8; ++tries) {
    const uint64_t before = r.kernel_writes.load(std::memory_order_acquire);
    char name[sizeof r.kernel];
    std::memcpy(name, r.kernel, sizeof name);
    std::atomic_thread_fence(std::memory_order_acquire);
    if ((before & 1) == 0 && r.kernel_writes.load(relaxed) == before) {
      name[sizeof name - 1] = 0;
      p.kernel = name;
      break;
    }
  }
  const uint64_t start_ns = r.launch_start_ns.load(relaxed);
  if (start_ns) {
    const auto now_ns = uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count());
    p.launch_elapsed_s = now_ns > start_ns ? double(now_ns - start_ns) * 1e-9 : 0;
  }
  if (p.in_launch && p.blocks_done > 0 && p.blocks_total > p.blocks_done)
    p.launch_left_s = p.launch_elapsed_s * double(p.blocks_total - p.blocks_done) / double(p.blocks_done);
  const uint64_t switches = r.switches.load(relaxed);
  const double cpu_s = process_cpu_s(pid);
  if (switches != last_switches_ || p.launches_started != last_launches_ || p.threads_done != last_threads_) {
    last_switches_ = switches;
    last_launches_ = p.launches_started;
    last_threads_ = p.threads_done;
    last_moved_ = now;
    last_moved_cpu_s_ = cpu_s;
  }
  p.still_s = seconds(now - last_moved_);
  const uint64_t finished =
      p.threads_done + p.launches_started + p.launches_finished + r.barriers_passed.load(relaxed);
  if (finished != last_finished_count_) {
    last_finished_count_ = finished;
    last_finished_ = now;
  }
  p.since_finish_s = seconds(now - last_finished_);
  p.cpu_s = cpu_s;
  p.still_cpu_s = cpu_s > last_moved_cpu_s_ ? cpu_s - last_moved_cpu_s_ : 0;
  return p;
}

}  // namespace warpviz::user
