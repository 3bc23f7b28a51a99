#include "startup_timing.h"

#include <time.h>
#include <unistd.h>  // sysconf(_SC_CLK_TCK)

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace warpviz::app {

namespace {

double ms_since_exec_at_main() {
  std::FILE* stat = std::fopen("/proc/self/stat", "r");
  if (!stat) return 0;
  char buf[1024] = {};
  const size_t n = std::fread(buf, 1, sizeof buf - 1, stat);
  std::fclose(stat);
  // Field 22 is the start time in clock ticks since boot; the command name
  // (field 2) may hold spaces, so count fields after its ')'.
  const char* p = std::strrchr(buf, ')');
  if (!p || n == 0) return 0;
  int field = 2;
  while (*p && field < 22)
    if (*p++ == ' ') ++field;
  const double start_ticks = std::strtod(p, nullptr);
  timespec boot{};
  clock_gettime(CLOCK_BOOTTIME, &boot);
  const double now_ms = double(boot.tv_sec) * 1e3 + double(boot.tv_nsec) * 1e-6;
  return std::max(0.0, now_ms - start_ticks * 1e3 / double(sysconf(_SC_CLK_TCK)));
}

}  // namespace

void startup_phase(const char* what) {
  static const bool on = std::getenv("WARPVIZ_STARTUP_TIMES") != nullptr;
  static const double at_main = on ? ms_since_exec_at_main() : 0;
  static const auto main_time = std::chrono::steady_clock::now();
  if (on)
    std::fprintf(stderr, "startup: %7.1f ms  %s\n",
                 at_main + std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - main_time).count(),
                 what);
}

}  // namespace warpviz::app
