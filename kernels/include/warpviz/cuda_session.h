// What a scenario's host code sees on the GPU backend: the same API as the
// CPU's host_session.h, over cudaMalloc'd arrays and real launches that a
// CudaRecording captures. nvcc only.
#pragma once

#include <cuda_runtime.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "warpviz/cuda_recording.h"
#include "warpviz/device_array.h"
#include "warpviz/record_device.cuh"
#include "warpviz/scenario.h"
#include "warpviz/session_base.h"

namespace warpviz {
// A namespace of its own, so the CPU's Session and this one never collide.
inline namespace cuda_backend {

class Session : public SessionBase {
 public:
  using SessionBase::SessionBase;

  // The scenario's input, bit for bit.
  template <class T>
  DeviceArray<T> input() const {
    std::vector<T> host(scenario_.input_bits.size());
    for (size_t i = 0; i < host.size(); ++i) std::memcpy(&host[i], &scenario_.input_bits[i], sizeof(T));
    return DeviceArray<T>(host);
  }

  template <class T>
  DeviceArray<T> alloc(size_t count, T fill = T{}) const {
    return DeviceArray<T>(count, fill);
  }

  // A device array holding the host code's own values.
  template <class T>
  DeviceArray<T> upload(const std::vector<T>& values) const {
    return DeviceArray<T>(values);
  }

  // Runs the kernel with a recorder attached. A warp that records more steps
  // than its slots makes the launch run again with more room: the scenarios'
  // kernels compute their outputs from their inputs, so a rerun is identical.
  template <class... KernelParams, class... Args>
  void launch(void (*kernel)(KernelParams...), dim3 grid, dim3 block, Args... args) {
    const Dim3 g{grid.x, grid.y, grid.z}, b{block.x, block.y, block.z};
    trace_.meta.grid = g;
    trace_.meta.block = b;
    for (uint32_t steps_per_warp = 32;; steps_per_warp *= 4) {
      CudaRecording recording(g, b, filter_, steps_per_warp);
      cuda_check(warpviz_attach_recorder(recording.recorder()), "attach the recorder");
      kernel<<<grid, block>>>(args...);
      cuda_check(cudaGetLastError(), "kernel launch");
      cuda_check(cudaDeviceSynchronize(), "kernel");
      cuda_check(warpviz_attach_recorder(DeviceRecorder{}), "detach the recorder");
      Trace attempt;
      if (recording.collect(attempt) || steps_per_warp >= 2048) {  // 2048: the last, largest try
        trace_.steps.insert(trace_.steps.end(), attempt.steps.begin(), attempt.steps.end());
        trace_.overflow |= attempt.overflow;
        return;
      }
    }
  }

  template <class T>
  void output(const std::string& name, const DeviceArray<T>& a) {
    const std::vector<T> host = a.download();
    TraceOutput out;
    out.name = name;
    out.dtype = rec::DeviceBits<T>::dtype;
    out.bits.resize(host.size());
    for (size_t i = 0; i < host.size(); ++i) std::memcpy(&out.bits[i], &host[i], sizeof(T));
    trace_.outputs.push_back(std::move(out));
  }
};

}  // namespace cuda_backend
}  // namespace warpviz
