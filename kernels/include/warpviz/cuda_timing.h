// Timing device work from the host (nvcc only): CUDA events around stream-0
// work time the device, not the host's launch path; medians of repeated runs.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "warpviz/cuda_recording.h"  // cuda_check

namespace warpviz {

class EventTimer {
 public:
  EventTimer() {
    cuda_check(cudaEventCreate(&start_), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~EventTimer() {
    if (start_) cudaEventDestroy(start_);
    if (stop_) cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start() { cuda_check(cudaEventRecord(start_, 0), "cudaEventRecord"); }
  // Waits for the work since start(); a kernel's failure surfaces here.
  float stop_ms() {
    cuda_check(cudaEventRecord(stop_, 0), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(stop_), "the timed work");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms;
  }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

template <class T>
double median_of(std::vector<T> values) {
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  return values.size() % 2 ? double(values[mid]) : 0.5 * (double(values[mid - 1]) + double(values[mid]));
}

}  // namespace warpviz
