// Timing device work from the host (nvcc only): CUDA events around stream-0
// work time the device, not the host's launch path; medians of repeated runs.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "warpviz/measurements.h"

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

// Uninitialised device memory: copy measurements, L2 flushes, scratch.
class DeviceBytes {
 public:
  explicit DeviceBytes(size_t bytes) { cuda_check(cudaMalloc(&ptr_, bytes), "cudaMalloc"); }
  ~DeviceBytes() { cudaFree(ptr_); }
  DeviceBytes(const DeviceBytes&) = delete;
  DeviceBytes& operator=(const DeviceBytes&) = delete;
  void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
};

constexpr size_t kCopyBytes = size_t(1) << 31;
constexpr int kCopyRepeats = 10;
// Larger than the L2 of any GPU we time (60 MB on an H200): writing it before
// a timed launch leaves that launch a cold cache, whatever ran before.
constexpr size_t kL2FlushBytes = size_t(256) << 20;

// Bytes read plus bytes written per second by a large device-to-device copy
// (median of kCopyRepeats): the most a memory-bound kernel can hope to move.
inline double measure_copy_bandwidth() {
  DeviceBytes src(kCopyBytes), dst(kCopyBytes);
  cuda_check(cudaMemset(src.get(), 0x5a, kCopyBytes), "cudaMemset");
  cuda_check(cudaMemset(dst.get(), 0, kCopyBytes), "cudaMemset");
  EventTimer timer;
  std::vector<float> times;
  for (int r = -2; r < kCopyRepeats; ++r) {
    timer.start();
    cuda_check(cudaMemcpyAsync(dst.get(), src.get(), kCopyBytes, cudaMemcpyDeviceToDevice, 0), "cudaMemcpyAsync");
    const float ms = timer.stop_ms();
    if (r >= 0) times.push_back(ms);
  }
  return 2.0 * double(kCopyBytes) / (median_of(times) * 1e-3);
}

// Device 0 as a measurements file names it. The driver is the kernel module's
// version (/proc/driver/nvidia/version), as nvidia-smi prints it.
inline MeasuredOn measured_on_this_gpu() {
  MeasuredOn on;
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  on.device = prop.name;
  on.sm_count = prop.multiProcessorCount;
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  on.cuda_runtime = std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
  // "NVRM version: NVIDIA UNIX [Open] Kernel Module [for x86_64]  580.95.05  Release Build ...":
  // the first word made of digits and dots.
  std::ifstream version("/proc/driver/nvidia/version");
  std::string word;
  while (on.driver.empty() && version >> word)
    if (word.find('.') != std::string::npos && word.find_first_not_of("0123456789.") == std::string::npos)
      on.driver = word;
  if (on.driver.empty()) {
    int driver = 0;
    cudaDriverGetVersion(&driver);
    on.driver = "CUDA driver API " + std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10);
  }
  return on;
}

}  // namespace warpviz
