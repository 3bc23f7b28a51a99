// What a scenario's host code sees on the GPU backend: the same API as the
// CPU's host_session.h, over cudaMalloc'd arrays and real launches that a
// CudaRecording captures. nvcc only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "warpviz/cuda_recording.h"
#include "warpviz/device_array.h"
#include "warpviz/record_device.cuh"
#include "warpviz/scenario.h"
#include "warpviz/session_base.h"
#include "warpviz/trace_buffer_policy.h"

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
  // than its slots makes the launch run again with four times the room (the
  // scenarios' kernels compute their outputs from their inputs, so a rerun is
  // identical), up to the policy's largest buffer; a warp that overflows even
  // that leaves the trace marked `overflow`, its steps a prefix. A guarded
  // buffer (WARPVIZ_TRACE_BUFFER_STEPS) is checked after every try.
  template <class... KernelParams, class... Args>
  void launch(void (*kernel)(KernelParams...), dim3 grid, dim3 block, Args... args) {
    const Dim3 g{grid.x, grid.y, grid.z}, b{block.x, block.y, block.z};
    trace_.meta.grid = g;
    trace_.meta.block = b;
    const TraceBufferPolicy policy = trace_buffer_policy();
    for (uint32_t steps_per_warp = policy.first_steps_per_warp;;
         steps_per_warp = uint32_t(std::min<uint64_t>(uint64_t(steps_per_warp) * 4, policy.last_steps_per_warp))) {
      CudaRecording recording(g, b, filter_, steps_per_warp, 1, policy.guard);
      cuda_check(warpviz_attach_recorder(recording.recorder()), "attach the recorder");
      kernel<<<grid, block>>>(args...);
      cuda_check(cudaGetLastError(), "kernel launch");
      cuda_check(cudaDeviceSynchronize(), "kernel");
      cuda_check(warpviz_attach_recorder(DeviceRecorder{}), "detach the recorder");
      if (recording.guarded()) {
        const std::string damage = recording.guard_damage();
        if (!damage.empty()) throw CudaError("the recorder wrote outside its trace buffer: " + damage);
        count_trace_buffer_guard_check();
      }
      Trace attempt;
      if (recording.collect(attempt) || steps_per_warp >= policy.last_steps_per_warp) {
        trace_.steps.append(attempt.steps);
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
