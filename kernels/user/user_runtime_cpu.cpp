// The CUDA runtime of a user's program on the CPU backend (user_runtime.h):
// "device" memory with guard pages, and launches run in the emulator. What
// both backends share is in user_runtime_common.cpp.
//
// [SECTION] Device memory
// [SECTION] Launches
// [SECTION] The rest of the runtime API
#include "warpviz/user_runtime.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "user_runtime_internal.h"
#include "warpviz/cooperative_launch.h"

namespace warpviz::user {

namespace {

// ============================================================================
// [SECTION] Device memory
// ============================================================================
// Each allocation ends at a page the process may not touch, so a write past
// its end stops the program at once (and the crash report names the array)
// instead of corrupting its neighbour quietly as it might on a GPU.

size_t page_size() {
  static const size_t p = size_t(sysconf(_SC_PAGESIZE));
  return p;
}

void* guarded_alloc(size_t bytes) {
  const size_t page = page_size();
  // 16-byte granules keep float4/int4 loads aligned; the block ends at the guard.
  const size_t rounded = (std::max<size_t>(bytes, 1) + 15) & ~size_t(15);
  const size_t data_pages = (rounded + page - 1) / page;
  const size_t map_bytes = (data_pages + 1) * page;
  void* m = mmap(nullptr, map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return nullptr;
  auto* map = static_cast<unsigned char*>(m);
  mprotect(map + data_pages * page, page, PROT_NONE);
  unsigned char* base = map + data_pages * page - rounded;
  if (!register_allocation(base, bytes, map, map_bytes)) {
    munmap(map, map_bytes);
    return nullptr;
  }
  return base;
}

void guarded_free(void* ptr) {
  const TakenAllocation t = take_allocation(ptr);
  if (t.map) munmap(t.map, t.map_bytes);
}

// ============================================================================
// [SECTION] Launches
// ============================================================================

cudaError_t g_last_error = cudaSuccess;

// One fixed area, so a file-scope `extern __shared__` pointer, set once at
// start-up, stays right for every launch. The H200's largest opt-in block.
constexpr size_t kMaxDynamicShared = 227 * 1024;

size_t round_to_pages(size_t bytes) { return (bytes + page_size() - 1) / page_size() * page_size(); }

// Mapped on first use (a file-scope pointer may ask before main), with a
// guard page past the largest size.
unsigned char* dynamic_shared_area() {
  static unsigned char* const area = [] {
    const size_t bytes = round_to_pages(kMaxDynamicShared) + page_size();
    void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) fail("kernel-error", "cannot map the dynamic shared memory area", 3);
    mprotect(static_cast<unsigned char*>(m) + round_to_pages(kMaxDynamicShared), page_size(), PROT_NONE);
    return static_cast<unsigned char*>(m);
  }();
  return area;
}

// Only the launch's bytes are accessible, so an access past them faults as
// on a GPU. Pages are the granularity: exact for 0 and whole pages.
void size_dynamic_shared(size_t bytes) {
  unsigned char* area = dynamic_shared_area();
  const size_t open = round_to_pages(bytes), all = round_to_pages(kMaxDynamicShared);
  if (open) mprotect(area, open, PROT_READ | PROT_WRITE);
  if (open < all) mprotect(area + open, all - open, PROT_NONE);
  std::memset(area, 0, bytes);
  set_dynamic_shared_area(area, bytes, area + all + page_size());
}

}  // namespace

std::string launch_config_error(Dim3 grid, Dim3 block, size_t shared_bytes) {
  char dims[160];
  std::snprintf(dims, sizeof dims, "grid (%u,%u,%u), block (%u,%u,%u)", grid.x, grid.y, grid.z, block.x, block.y,
                block.z);
  const std::string config = "cudaErrorInvalidConfiguration: invalid configuration argument (";
  // Each dimension first: their product may not even fit 64 bits.
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
    return config + dims + ": a dimension is 0)";
  if (block.x > 1024 || block.y > 1024 || block.z > 64 || block.count() > 1024)
    return config + dims + ": sm_90 allows at most 1024 threads a block, 1024 x 1024 x 64)";
  if (grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535)
    return config + dims + ": sm_90 allows a grid of at most 2147483647 x 65535 x 65535 blocks)";
  if (shared_bytes > kMaxDynamicShared)
    return "cudaErrorInvalidValue: invalid argument (" + std::to_string(shared_bytes) +
           " bytes of dynamic shared memory; sm_90 allows at most " + std::to_string(kMaxDynamicShared) +
           " a block, with the opt-in)";
  return "";
}

namespace {
cudaError_t run_any_launch(const char* kernel_name, Dim3 grid, Dim3 block, size_t shared_bytes,
                           const std::function<void()>& thread_body, bool cooperative) {
  // A launch a GPU refuses runs nothing and leaves an error for cudaGetLastError.
  const std::string refused = launch_config_error(grid, block, shared_bytes);
  if (!refused.empty()) {
    g_last_error = refused.starts_with("cudaErrorInvalidValue") ? cudaErrorInvalidValue : cudaErrorInvalidConfiguration;
    std::fprintf(stderr, "warpviz: launch of %s did not run: %s\n", kernel_name, refused.c_str());
    return g_last_error;
  }
  if (cooperative) {
    const uint64_t resident = uint64_t(max_active_blocks_per_sm(int(block.count()), shared_bytes)) * kSmCount;
    if (grid.count() > resident) {
      std::fprintf(stderr,
                   "warpviz: cooperative launch of %s did not run: cudaErrorCooperativeLaunchTooLarge: %llu blocks, "
                   "an H200 holds at most %llu of %u threads at once\n",
                   kernel_name, (unsigned long long)grid.count(), (unsigned long long)resident, unsigned(block.count()));
      return g_last_error = cudaErrorCooperativeLaunchTooLarge;
    }
  }
  const int index = begin_launch();
  size_dynamic_shared(shared_bytes);
  Trace trace;
  set_running_kernel(kernel_name);
  try {
    // One OS thread: a user's kernel may share anything between blocks (its
    // atomics are plain read-modify-writes, extern __shared__ is one buffer,
    // a last-block-done counter depends on block order), and the crash and
    // hang reports name the one running thread.
    if (cooperative)
      run_cooperative_grid(grid, block, shared_bytes, thread_body, launch_filter(index), trace);
    else
      emu::launch_grid(grid, block, thread_body, launch_filter(index), trace, 1);
  } catch (const std::exception& e) {
    fail("kernel-error", std::string("kernel `") + kernel_name + "`: " + e.what(), 3);
  }
  set_running_kernel(nullptr);
  finish_launch(index, kernel_name, grid, block, shared_bytes, "cpu", "CPU emulator (sm_90 rules)", std::move(trace),
                [](void* host, const void* device, size_t bytes) { std::memcpy(host, device, bytes); });
  return cudaSuccess;
}
}  // namespace

void run_launch(const char* kernel_name, Dim3 grid, Dim3 block, size_t shared_bytes,
                const std::function<void()>& thread_body) {
  run_any_launch(kernel_name, grid, block, shared_bytes, thread_body, false);
}
cudaError_t run_cooperative_launch(const char* kernel_name, Dim3 grid, Dim3 block, size_t shared_bytes,
                                   const std::function<void()>& thread_body) {
  return run_any_launch(kernel_name, grid, block, shared_bytes, thread_body, true);
}

void* dynamic_shared_memory() { return dynamic_shared_area(); }

}  // namespace warpviz::user

// ============================================================================
// [SECTION] The rest of the runtime API
// ============================================================================

using warpviz::user::g_last_error;

namespace {
cudaError_t set_error(cudaError_t e) {
  if (e != cudaSuccess) g_last_error = e;
  return e;
}
}  // namespace

cudaError_t cudaMalloc(void** ptr, size_t bytes) {
  if (!ptr) return set_error(cudaErrorInvalidValue);
  *ptr = warpviz::user::guarded_alloc(bytes);
  return *ptr ? cudaSuccess : set_error(cudaErrorMemoryAllocation);
}
cudaError_t cudaMallocManaged(void** ptr, size_t bytes, unsigned) { return cudaMalloc(ptr, bytes); }
cudaError_t cudaMallocHost(void** ptr, size_t bytes) { return cudaMalloc(ptr, bytes); }
cudaError_t cudaHostAlloc(void** ptr, size_t bytes, unsigned) { return cudaMalloc(ptr, bytes); }
cudaError_t cudaFree(void* ptr) {
  if (ptr) warpviz::user::guarded_free(ptr);
  return cudaSuccess;
}
cudaError_t cudaFreeHost(void* ptr) { return cudaFree(ptr); }
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  if (int(kind) < 0 || int(kind) > 4) return set_error(cudaErrorInvalidMemcpyDirection);
  if (bytes && (!dst || !src)) return set_error(cudaErrorInvalidValue);
  if (bytes) std::memmove(dst, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy(dst, src, bytes, kind);
}
cudaError_t cudaMemset(void* dst, int value, size_t bytes) {
  if (bytes && !dst) return set_error(cudaErrorInvalidValue);
  if (bytes) std::memset(dst, value, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* dst, int value, size_t bytes, cudaStream_t) { return cudaMemset(dst, value, bytes); }
cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
cudaError_t cudaDeviceReset() { return cudaSuccess; }
cudaError_t cudaThreadSynchronize() { return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  if (stream) *stream = nullptr;
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaGetLastError() {
  const cudaError_t e = g_last_error;
  g_last_error = cudaSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError() { return g_last_error; }

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
    case cudaErrorCooperativeLaunchTooLarge: return "cudaErrorCooperativeLaunchTooLarge";
    default: return "cudaErrorUnknown";
  }
}
// The CUDA runtime's own wording.
const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
    default: return "unknown error";
  }
}

cudaError_t cudaGetDeviceCount(int* count) {
  if (count) *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  if (device) *device = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : set_error(cudaErrorInvalidDevice); }

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (!prop) return set_error(cudaErrorInvalidValue);
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  *prop = cudaDeviceProp{};
  std::snprintf(prop->name, sizeof prop->name, "warpviz CPU emulator (sm_90 rules)");
  prop->totalGlobalMem = size_t(4) << 30;
  prop->sharedMemPerBlock = 48 * 1024;
  prop->sharedMemPerBlockOptin = 227 * 1024;
  prop->sharedMemPerMultiprocessor = 228 * 1024;
  prop->regsPerBlock = 65536;
  prop->regsPerMultiprocessor = 65536;
  prop->warpSize = 32;
  prop->memPitch = size_t(1) << 31;
  prop->maxThreadsPerBlock = 1024;
  prop->maxThreadsDim[0] = 1024, prop->maxThreadsDim[1] = 1024, prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 0x7fffffff, prop->maxGridSize[1] = 65535, prop->maxGridSize[2] = 65535;
  prop->clockRate = 1980000;
  prop->totalConstMem = 65536;
  prop->major = 9;
  prop->minor = 0;
  prop->multiProcessorCount = 132;
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->memoryClockRate = 3201000;
  prop->memoryBusWidth = 6144;
  prop->l2CacheSize = 60 * 1024 * 1024;
  prop->concurrentKernels = 1;
  prop->managedMemory = 1;
  prop->cooperativeLaunch = 1;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  cudaDeviceProp p;
  if (!value) return set_error(cudaErrorInvalidValue);
  if (const cudaError_t e = cudaGetDeviceProperties(&p, device); e != cudaSuccess) return e;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    default: return set_error(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }

// Events time the host's wall clock: the emulator's time, not a GPU's.
struct CUevent_st {
  std::chrono::steady_clock::time_point at;
};
cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (!event) return set_error(cudaErrorInvalidValue);
  *event = new CUevent_st{std::chrono::steady_clock::now()};
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned) { return cudaEventCreate(event); }
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  if (!event) return set_error(cudaErrorInvalidValue);
  event->at = std::chrono::steady_clock::now();
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms || !start || !end) return set_error(cudaErrorInvalidValue);
  *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}
