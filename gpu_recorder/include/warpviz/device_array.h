// A typed device allocation (nvcc only), filled from the host and read back.
// Free of the recording layer, so benchmarks whose kernels call the real warp
// intrinsics can use it.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "warpviz/cuda_recording.h"  // cuda_check

namespace warpviz {
// The CUDA backend's namespace (cuda_session.h), so the CPU's DeviceArray
// (host_session.h) and this one never collide.
inline namespace cuda_backend {

template <class T>
class DeviceArray {
 public:
  DeviceArray(size_t count, T fill) : count_(count) {
    cuda_check(cudaMalloc(&ptr_, std::max<size_t>(count, 1) * sizeof(T)), "cudaMalloc");
    const std::vector<T> host(count, fill);
    upload(host);
  }
  explicit DeviceArray(const std::vector<T>& host) : count_(host.size()) {
    cuda_check(cudaMalloc(&ptr_, std::max<size_t>(count_, 1) * sizeof(T)), "cudaMalloc");
    upload(host);
  }
  ~DeviceArray() { cudaFree(ptr_); }
  DeviceArray(DeviceArray&& other) noexcept : ptr_(other.ptr_), count_(other.count_) { other.ptr_ = nullptr; }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  T* ptr() { return ptr_; }
  const T* ptr() const { return ptr_; }
  size_t size() const { return count_; }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    if (count_) cuda_check(cudaMemcpy(host.data(), ptr_, count_ * sizeof(T), cudaMemcpyDeviceToHost), "download");
    return host;
  }

 private:
  void upload(const std::vector<T>& host) {
    if (count_) cuda_check(cudaMemcpy(ptr_, host.data(), count_ * sizeof(T), cudaMemcpyHostToDevice), "upload");
  }
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

}  // namespace cuda_backend
}  // namespace warpviz
