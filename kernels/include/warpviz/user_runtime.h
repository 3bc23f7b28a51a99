// The CUDA runtime a user's own .cu file sees on the CPU backend: allocation,
// copies, launches, errors, device properties and events, with every kernel
// launch run in the exact emulator and recorded as one trace.
//
// `kernel<<<grid, block, shared>>>(args)` is rewritten by warpviz (see
// user_source.cpp) into `kernel ->* ::warpviz::user::launch_config("kernel",
// grid, block, shared)(args)`, on the same lines, so every line number of the
// user's file stays its own.
//
// The child process that runs a user's file is told where to write by the
// environment (WARPVIZ_USER_OUT): one `launch-N.wvt` per launch and a
// `launches.jsonl` index line for each, written as the launch ends, so a later
// crash keeps the launches before it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "warpviz/trace.h"
#include "warpviz/value_bits.h"
#include "warpviz/warp_scheduler.h"

// ============================================================================
// Types and constants of the CUDA runtime API
// ============================================================================

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorLaunchFailure = 4,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorNoDevice = 100,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchTimeout = 702,
  cudaErrorUnknown = 999,
};
using cudaError = cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

struct CUstream_st;
using cudaStream_t = CUstream_st*;
struct CUevent_st;
using cudaEvent_t = CUevent_st*;

enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2 };
constexpr unsigned cudaMemAttachGlobal = 1;
constexpr unsigned cudaHostAllocDefault = 0;
constexpr unsigned cudaEventDefault = 0;

// The emulated device: an sm_90 part with the H200's figures.
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  size_t sharedMemPerBlockOptin;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int regsPerMultiprocessor;
  int concurrentKernels;
  int integrated;
  int canMapHostMemory;
  int managedMemory;
};

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
};

cudaError_t cudaMalloc(void** ptr, size_t bytes);
template <class T>
cudaError_t cudaMalloc(T** ptr, size_t bytes) {
  return cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
}
cudaError_t cudaMallocManaged(void** ptr, size_t bytes, unsigned flags = cudaMemAttachGlobal);
template <class T>
cudaError_t cudaMallocManaged(T** ptr, size_t bytes, unsigned flags = cudaMemAttachGlobal) {
  return cudaMallocManaged(reinterpret_cast<void**>(ptr), bytes, flags);
}
cudaError_t cudaMallocHost(void** ptr, size_t bytes);
template <class T>
cudaError_t cudaMallocHost(T** ptr, size_t bytes) {
  return cudaMallocHost(reinterpret_cast<void**>(ptr), bytes);
}
cudaError_t cudaHostAlloc(void** ptr, size_t bytes, unsigned flags);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* dst, int value, size_t bytes);
cudaError_t cudaMemsetAsync(void* dst, int value, size_t bytes, cudaStream_t stream = nullptr);

// __device__ / __constant__ variables are ordinary globals here.
template <class T>
cudaError_t cudaMemcpyToSymbol(T& symbol, const void* src, size_t bytes, size_t offset = 0,
                               cudaMemcpyKind = cudaMemcpyHostToDevice) {
  if (offset + bytes > sizeof(T)) return cudaErrorInvalidValue;
  std::memcpy(reinterpret_cast<unsigned char*>(&symbol) + offset, src, bytes);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t bytes, size_t offset = 0,
                                 cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  if (offset + bytes > sizeof(T)) return cudaErrorInvalidValue;
  std::memcpy(dst, reinterpret_cast<const unsigned char*>(&symbol) + offset, bytes);
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaThreadSynchronize();
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

namespace warpviz::user {

// ============================================================================
// Launches
// ============================================================================

// A launch's grid or block: a dim3 or a plain integer, as in <<<4, 256>>>.
struct LaunchDim {
  Dim3 dim;
  LaunchDim(Dim3 d) : dim(d) {}  // NOLINT: implicit, as CUDA's dim3
  template <class I, class = std::enable_if_t<std::is_integral_v<I>>>
  LaunchDim(I n) : dim{uint32_t(n), 1, 1} {}  // NOLINT
};

// Runs one launch in the emulator and records it (user_runtime.cpp).
void run_launch(const char* kernel_name, Dim3 grid, Dim3 block, size_t shared_bytes,
                const std::function<void()>& thread_body);

template <class... Args>
struct PendingLaunch {
  const char* name;
  Dim3 grid, block;
  size_t shared;
  std::tuple<Args...> args;
};

struct LaunchConfig {
  const char* name;
  Dim3 grid, block;
  size_t shared;
  template <class... Args>
  PendingLaunch<std::decay_t<Args>...> operator()(Args&&... args) const {
    return {name, grid, block, shared, std::tuple<std::decay_t<Args>...>(std::forward<Args>(args)...)};
  }
};

inline LaunchConfig launch_config(const char* name, LaunchDim grid, LaunchDim block, size_t shared = 0,
                                  cudaStream_t = nullptr) {
  return LaunchConfig{name, grid.dim, block.dim, shared};
}

// `kernel ->* launch_config(...)(args...)`: the arguments convert to the
// kernel's parameter types, as a real launch converts them.
template <class... Params, class... Args>
void operator->*(void (*kernel)(Params...), const PendingLaunch<Args...>& launch) {
  static_assert(sizeof...(Params) == sizeof...(Args), "a kernel launch passes one argument per parameter");
  const std::tuple<Params...> converted = std::apply(
      [](const auto&... a) { return std::tuple<Params...>(a...); }, launch.args);
  run_launch(launch.name, launch.grid, launch.block, launch.shared,
             [&] { std::apply(kernel, converted); });
}

// `extern __shared__ T name[];` becomes `T* const name = dynamic_shared<T>();`:
// the launch's third <<< >>> argument, one buffer per launch, 128-byte aligned.
void* dynamic_shared_memory();
template <class T>
T* dynamic_shared() {
  return static_cast<T*>(dynamic_shared_memory());
}

// Names an allocation for crash messages ("4 bytes past the end of `out`").
void name_allocation(const void* ptr, const std::string& name);
// dtype: a DType, or -1 when the element type is not one a trace holds.
void name_allocation_from_call(const void* ptr, const char* expression, int line, int dtype);

template <class T, class = void>
struct TraceDType {
  static constexpr int value = -1;
};
template <class T>
struct TraceDType<T, std::void_t<decltype(ValueBits<T>::dtype)>> {
  static constexpr int value = int(ValueBits<T>::dtype);
};

// cudaMalloc(&d_out, n) in a user's program (the prelude's macro): the array
// is recorded after each launch under the variable's name, with its type.
template <class T>
cudaError_t malloc_named(const char* expression, int line, T** ptr, size_t bytes, unsigned = 0) {
  const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
  if (e == cudaSuccess) name_allocation_from_call(*ptr, expression, line, TraceDType<std::remove_cv_t<T>>::value);
  return e;
}

}  // namespace warpviz::user
