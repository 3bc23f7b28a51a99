// The runner's side of a run's progress record (run_progress.h): it makes the
// file in the run's folder before the program starts, maps it, and turns what
// the program counts into FileProgress, noting when the counts last moved.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "warpviz/run_progress.h"
#include "warpviz/user_file.h"

namespace warpviz::user {

class ProgressWatch {
 public:
  // Makes and maps `run_dir`/progress.bin; without it (no room, say) every
  // read says unknown and the run goes on without progress.
  explicit ProgressWatch(const std::string& run_dir);
  ~ProgressWatch();
  ProgressWatch(const ProgressWatch&) = delete;
  ProgressWatch& operator=(const ProgressWatch&) = delete;

  // Starts the clocks: the program starts now.
  void start();
  // What the record says now; `still_s` counts from the last read that saw
  // the switch count or the launch change, `still_cpu_s` the CPU time of
  // process `pid` (the program) since then.
  FileProgress read(int pid = 0);

 private:
  const RunProgress* record_ = nullptr;
  std::chrono::steady_clock::time_point started_, last_moved_;
  uint64_t last_switches_ = 0, last_launches_ = 0, last_threads_ = 0;
  double last_moved_cpu_s_ = 0;
  std::chrono::steady_clock::time_point last_finished_;
  uint64_t last_finished_count_ = 0;  // threads done and launches, as last seen
};

}  // namespace warpviz::user
