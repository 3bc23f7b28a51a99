// What warpviz puts in front of a user's own .cu file on the GPU backend
// (nvcc -include): CUDA's own runtime, the recording layer (every warp
// operation of every launch written to a device trace buffer), and the
// launch that attaches a recorder, runs the kernel and writes its trace. The
// CPU backend's twin is user_prelude.h.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "warpviz/record.cuh"
#include "warpviz/user_launch.h"

namespace warpviz::user {

// The device's name and compute capability, for the trace.
inline void describe_device(Trace& trace) {
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) == cudaSuccess && cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
    trace.meta.device = prop.name;
    trace.meta.compute_capability = std::to_string(prop.major) + "." + std::to_string(prop.minor);
  }
}

// `kernel ->* launch_config(...)(args...)` on a GPU: a recorder sized for the
// launch, the real <<< >>>, then the steps collected. A launch the GPU refuses
// records nothing and leaves its error for cudaGetLastError, as without
// warpviz; a fault inside the kernel ends the program with the GPU's words.
template <class... Params, class... Args>
void operator->*(void (*kernel)(Params...), const PendingLaunch<Args...>& launch) {
  static_assert(sizeof...(Params) == sizeof...(Args), "a kernel launch passes one argument per parameter");
  const int index = begin_launch();
  const emu::RecordFilter filter = launch_filter(index);
  const uint64_t warps = launch.grid.count() * ((launch.block.count() + 31) / 32);
  // Every recorded step must fit: the filter's limit spread over the warps,
  // at least 32 and at most 4096 slots a warp.
  const uint64_t per_warp = filter.max_steps / std::max<uint64_t>(warps, 1);
  const uint32_t steps_per_warp = uint32_t(std::clamp<uint64_t>(per_warp, 32, 4096));
  CudaRecording recording(launch.grid, launch.block, filter, steps_per_warp);
  cuda_check(warpviz_attach_recorder(recording.recorder()), "attach the recorder");
  const dim3 grid(launch.grid.x, launch.grid.y, launch.grid.z), block(launch.block.x, launch.block.y, launch.block.z);
  set_running_kernel(launch.name);
  std::apply([&](const auto&... a) { kernel<<<grid, block, launch.shared>>>(Params(a)...); }, launch.args);
  if (cudaPeekAtLastError() != cudaSuccess) {
    set_running_kernel(nullptr);
    std::fprintf(stderr, "warpviz: the launch of %s did not run: %s\n", launch.name,
                 cudaGetErrorString(cudaPeekAtLastError()));
    return;
  }
  const cudaError_t done = cudaDeviceSynchronize();
  set_running_kernel(nullptr);
  if (done != cudaSuccess)
    fail("crash", std::string("kernel `") + launch.name + "` failed on the GPU: " + cudaGetErrorString(done) + " (" +
                      cudaGetErrorName(done) + ")",
         3);
  cuda_check(warpviz_attach_recorder(DeviceRecorder{}), "detach the recorder");
  Trace trace;
  recording.collect(trace);
  describe_device(trace);
  const std::string device = trace.meta.device;
  finish_launch(index, launch.name, launch.grid, launch.block, launch.shared, "cuda", device.c_str(), std::move(trace), [](void* host, const void* device, size_t bytes) {
                  cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost);
                });
}

// A kernels-only file's launch: --shared past 48 KiB is opted in, as a
// program would (the CPU runtime's twin is in user_runtime.h).
template <class T>
void allow_dynamic_shared(T* kernel, size_t bytes) {
  if (bytes > 48 * 1024)
    cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
               "allow the kernel its dynamic shared memory");
}

// cudaMalloc(&d_out, n) in a user's program (the macro below): the array is
// recorded after each launch under the variable's name, with its type.
template <class T>
cudaError_t malloc_named(const char* expression, int line, T** ptr, size_t bytes, unsigned = 0) {
  const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
  if (e == cudaSuccess) note_allocation(*ptr, bytes, expression, line, TraceDType<std::remove_cv_t<T>>::value);
  return e;
}
inline cudaError_t free_noted(void* ptr) {
  forget_allocation(ptr);
  return cudaFree(ptr);
}

}  // namespace warpviz::user

#define cudaMalloc(ptr, ...) ::warpviz::user::malloc_named(#ptr, __LINE__, ptr, __VA_ARGS__)
#define cudaFree(ptr) ::warpviz::user::free_noted(ptr)
