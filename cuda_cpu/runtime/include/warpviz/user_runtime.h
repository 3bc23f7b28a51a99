// The CUDA runtime a user's own .cu file sees on the CPU backend: allocation,
// copies, launches, errors, device properties and events, with every kernel
// launch run in the exact emulator and recorded as one trace
// (user_runtime_cpu.cpp). The GPU backend uses the real runtime instead
// (user_prelude_cuda.cuh); what both share is in user_launch.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <tuple>
#include <utility>

// ============================================================================
// Types and constants of the CUDA runtime API
// ============================================================================

// The guards CUDA's own headers define, which code such as cuda-samples'
// helper_cuda.h tests before using the runtime's types and functions; the
// version is the H200's (CUDA 13.0).
#define __DRIVER_TYPES_H__
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define CUDART_VERSION 13000

// The values of CUDA's driver_types.h (CUDA 10.1 and later).
enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorProfilerDisabled = 5,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidTexture = 18,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInsufficientDriver = 35,
  cudaErrorDevicesUnavailable = 46,
  cudaErrorMissingConfiguration = 52,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidKernelImage = 200,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorIllegalState = 401,
  cudaErrorSymbolNotFound = 500,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorPeerAccessAlreadyEnabled = 704,
  cudaErrorPeerAccessNotEnabled = 705,
  cudaErrorContextIsDestroyed = 709,
  cudaErrorAssert = 710,
  cudaErrorHardwareStackError = 714,
  cudaErrorIllegalInstruction = 715,
  cudaErrorMisalignedAddress = 716,
  cudaErrorInvalidAddressSpace = 717,
  cudaErrorInvalidPc = 718,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotPermitted = 800,
  cudaErrorNotSupported = 801,
  cudaErrorStreamCaptureUnsupported = 900,
  cudaErrorStreamCaptureInvalidated = 901,
  cudaErrorStreamCaptureUnmatched = 903,
  cudaErrorStreamCaptureUnjoined = 904,
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

enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2,
                     cudaFuncCachePreferEqual = 3 };
constexpr unsigned cudaMemAttachGlobal = 1;
constexpr unsigned cudaMemAttachHost = 2;
constexpr unsigned cudaHostAllocDefault = 0;
constexpr unsigned cudaHostAllocPortable = 1;
constexpr unsigned cudaHostAllocMapped = 2;
constexpr unsigned cudaHostAllocWriteCombined = 4;
constexpr unsigned cudaEventDefault = 0;
constexpr unsigned cudaEventBlockingSync = 1;
constexpr unsigned cudaEventDisableTiming = 2;
constexpr unsigned cudaStreamDefault = 0;
constexpr unsigned cudaStreamNonBlocking = 1;

struct cudaUUID_t {
  char bytes[16];
};

// The emulated device as an H200 reports itself under CUDA 13, whose
// cudaDeviceProp no longer has clockRate, memoryClockRate, computeMode,
// deviceOverlap, kernelExecTimeoutEnabled, maxTexture1DLinear,
// cooperativeMultiDeviceLaunch and singleToDoublePrecisionPerfRatio (ask
// cudaDeviceGetAttribute for those): code using them fails to compile on the
// H200's nvcc 13 as it does here.
struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned int gpuPciDeviceID;
  unsigned int gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
};

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxPitch = 11,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrTextureAlignment = 14,
  cudaDevAttrGpuOverlap = 15,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrKernelExecTimeout = 17,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrCanMapHostMemory = 19,
  cudaDevAttrComputeMode = 20,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrEccEnabled = 32,
  cudaDevAttrPciBusId = 33,
  cudaDevAttrPciDeviceId = 34,
  cudaDevAttrTccDriver = 35,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrAsyncEngineCount = 40,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrPciDomainId = 50,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrStreamPrioritiesSupported = 78,
  cudaDevAttrGlobalL1CacheSupported = 79,
  cudaDevAttrLocalL1CacheSupported = 80,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrIsMultiGpuBoard = 84,
  cudaDevAttrConcurrentManagedAccess = 89,
  cudaDevAttrComputePreemptionSupported = 90,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrReservedSharedMemoryPerBlock = 111,
  cudaDevAttrClusterLaunch = 120,
};

enum cudaComputeMode {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3,
};

enum cudaLimit {
  cudaLimitStackSize = 0,
  cudaLimitPrintfFifoSize = 1,
  cudaLimitMallocHeapSize = 2,
  cudaLimitDevRuntimeSyncDepth = 3,
  cudaLimitDevRuntimePendingLaunchCount = 4,
  cudaLimitMaxL2FetchGranularity = 5,
  cudaLimitPersistingL2CacheSize = 6,
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeClusterDimMustBeSet = 10,
  cudaFuncAttributeRequiredClusterWidth = 11,
  cudaFuncAttributeRequiredClusterHeight = 12,
  cudaFuncAttributeRequiredClusterDepth = 13,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
  cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
};

struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
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
// Stream-ordered allocation: streams run in order here, so it is cudaMalloc's.
cudaError_t cudaMallocAsync(void** ptr, size_t bytes, cudaStream_t stream);
template <class T>
cudaError_t cudaMallocAsync(T** ptr, size_t bytes, cudaStream_t stream) {
  return cudaMallocAsync(reinterpret_cast<void**>(ptr), bytes, stream);
}
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaFreeHost(void* ptr);

enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3,
};
struct cudaPointerAttributes {
  cudaMemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
};
// Host for memory from cudaMallocHost/cudaHostAlloc, Device for the rest the
// runtime allocated (managed memory included: here it is all one memory),
// Unregistered for anything else, as CUDA 11 on answers for a plain pointer.
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr);
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
namespace warpviz::user {
void log_copy_back(const char* api, const void* host, size_t bytes);  // copy_back_log.h
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t bytes, size_t offset = 0,
                                 cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  if (offset + bytes > sizeof(T)) return cudaErrorInvalidValue;
  std::memcpy(dst, reinterpret_cast<const unsigned char*>(&symbol) + offset, bytes);
  warpviz::user::log_copy_back("cudaMemcpyFromSymbol", dst, bytes);
  return cudaSuccess;
}

// One device, and streams that finish at once: the Async forms are the plain ones.
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(T& symbol, const void* src, size_t bytes, size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t = nullptr) {
  return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t bytes, size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t = nullptr) {
  return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}
template <class T>
cudaError_t cudaGetSymbolAddress(void** address, const T& symbol) {
  if (!address) return cudaErrorInvalidValue;
  *address = const_cast<void*>(static_cast<const void*>(&symbol));
  return cudaSuccess;
}
template <class T>
cudaError_t cudaGetSymbolSize(size_t* bytes, const T&) {
  if (!bytes) return cudaErrorInvalidValue;
  *bytes = sizeof(T);
  return cudaSuccess;
}
// Peers: an H200 alone has none. Device 0 to device 0 is a plain copy, as
// CUDA allows; another device number is cudaErrorInvalidDevice.
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, size_t bytes);
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t bytes,
                                cudaStream_t stream = nullptr);
cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device);
cudaError_t cudaDeviceEnablePeerAccess(int peer_device, unsigned flags);
cudaError_t cudaDeviceDisablePeerAccess(int peer_device);
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* wanted);

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
cudaError_t cudaEventQuery(cudaEvent_t event);
// Pitched memory: rows of `width` bytes, `pitch` bytes apart.
cudaError_t cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height);
template <class T>
cudaError_t cudaMallocPitch(T** ptr, size_t* pitch, size_t width, size_t height) {
  return cudaMallocPitch(reinterpret_cast<void**>(ptr), pitch, width, height);
}
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind kind, cudaStream_t stream = nullptr);
cudaError_t cudaMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height);
// Managed and registered memory are plain host memory here: hints do nothing.
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1,
  cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5,
  cudaMemAdviseUnsetAccessedBy = 6,
};
constexpr int cudaCpuDeviceId = -1;
constexpr unsigned cudaHostRegisterDefault = 0;
cudaError_t cudaMemPrefetchAsync(const void* ptr, size_t bytes, int device, cudaStream_t stream = nullptr);
cudaError_t cudaMemAdvise(const void* ptr, size_t bytes, cudaMemoryAdvise advice, int device);
cudaError_t cudaHostRegister(void* ptr, size_t bytes, unsigned flags);
cudaError_t cudaHostUnregister(void* ptr);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned flags, int priority);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags = 0);
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit);
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaSetDeviceFlags(unsigned flags);
cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned flags);

// Kernels are host functions here: a function's attributes are kept by its
// address. Registers and static shared memory are not known to the emulator,
// so cudaFuncGetAttributes reports 0 for them and the occupancy queries
// count threads, blocks and dynamic shared memory only.
namespace warpviz::user {
cudaError_t set_function_attribute(const void* function, cudaFuncAttribute attr, int value);
cudaError_t function_attributes(cudaFuncAttributes* attr, const void* function);
cudaError_t max_active_blocks(int* blocks, int block_size, size_t dynamic_shared);
cudaError_t max_potential_block_size(int* min_grid_size, int* block_size, size_t dynamic_shared, int limit);
template <class T>
const void* function_key(T* function) {
  return reinterpret_cast<const void*>(function);
}
}  // namespace warpviz::user

template <class T>
cudaError_t cudaFuncSetAttribute(T* function, cudaFuncAttribute attr, int value) {
  return warpviz::user::set_function_attribute(warpviz::user::function_key(function), attr, value);
}
template <class T>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, T* function) {
  return warpviz::user::function_attributes(attr, warpviz::user::function_key(function));
}
template <class T>
cudaError_t cudaFuncSetCacheConfig(T*, cudaFuncCache) {
  return cudaSuccess;
}
template <class T>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, T*, int block_size, size_t dynamic_shared) {
  return warpviz::user::max_active_blocks(blocks, block_size, dynamic_shared);
}
template <class T>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, T, size_t dynamic_shared = 0,
                                               int block_size_limit = 0) {
  return warpviz::user::max_potential_block_size(min_grid_size, block_size, dynamic_shared, block_size_limit);
}

#include "warpviz/user_launch.h"

namespace warpviz::user {

// Runs one launch in the emulator and records it (user_runtime_cpu.cpp).
// `function` is the kernel's address, for the dynamic shared memory it was
// allowed (cudaFuncSetAttribute); nullptr skips that check. Returns this
// launch's own error (cudaLaunchKernel's result), not an earlier one.
cudaError_t run_launch(const char* kernel_name, Dim3 grid, Dim3 block, size_t shared_bytes,
                       const std::function<void()>& thread_body, const void* function = nullptr);
// Whether a launch on `stream` is captured into a graph instead of run, and
// the capture (cuda_graphs_cpu.cpp): `thread_body` owns copies of the arguments.
bool stream_is_capturing(const void* stream);
void capture_kernel(const void* stream, const char* kernel_name, Dim3 grid, Dim3 block, size_t shared_bytes,
                    std::function<void()> thread_body, const void* function);

// A kernels-only file's launch: --shared past 48 KiB is opted in, as a
// program would with cudaFuncSetAttribute.
template <class T>
void allow_dynamic_shared(T* kernel, size_t bytes) {
  if (bytes > 48 * 1024)
    set_function_attribute(function_key(kernel), cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
}

// `kernel ->* launch_config(...)(args...)`: the arguments convert to the
// kernel's parameter types, as a real launch converts them.
template <class... Params, class... Args>
void operator->*(void (*kernel)(Params...), const PendingLaunch<Args...>& launch) {
  static_assert(sizeof...(Params) == sizeof...(Args), "a kernel launch passes one argument per parameter");
  const std::tuple<Params...> converted = std::apply(
      [](const auto&... a) { return std::tuple<Params...>(a...); }, launch.args);
  if (stream_is_capturing(launch.stream))  // a kernel node, with the arguments copied (cuda_graphs_cpu.cpp)
    return capture_kernel(launch.stream, launch.name, launch.grid, launch.block, launch.shared,
                          [kernel, converted] { std::apply(kernel, converted); }, function_key(kernel));
  run_launch(launch.name, launch.grid, launch.block, launch.shared, [&] { std::apply(kernel, converted); },
             function_key(kernel));
}

// `k<<<...>>>(args)` on the CPU (user_source.h): k is called in each thread
// as nvcc's launch calls it, so a template kernel deduces its arguments from
// them and an overloaded kernel is picked by them.
template <class Call>
struct KernelCall {
  Call call;
};
template <class Call>
KernelCall<Call> kernel_call(Call call) {
  return {call};
}
template <class Call, class... Args>
void operator->*(const KernelCall<Call>& kernel, const PendingLaunch<Args...>& launch) {
  if (stream_is_capturing(launch.stream))
    return capture_kernel(launch.stream, launch.name, launch.grid, launch.block, launch.shared,
                          [call = kernel.call, args = launch.args] { std::apply(call, args); }, nullptr);
  run_launch(launch.name, launch.grid, launch.block, launch.shared, [&] { std::apply(kernel.call, launch.args); });
}

// `extern __shared__ T name[];` becomes `T* const name = dynamic_shared<T>();`:
// the launch's third <<< >>> argument, one fixed buffer, 128-byte aligned.
void* dynamic_shared_memory();
template <class T>
T* dynamic_shared() {
  return static_cast<T*>(dynamic_shared_memory());
}

// cudaMalloc(&d_out, n) in a user's program (the prelude's macro): the array
// is recorded after each launch under the variable's name, with its type.
template <class T>
cudaError_t malloc_named(const char* expression, int line, T** ptr, size_t bytes, unsigned = 0) {
  const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
  if (e == cudaSuccess) note_allocation(*ptr, bytes, expression, line, TraceDType<std::remove_cv_t<T>>::value);
  return e;
}

}  // namespace warpviz::user

#include "warpviz/cuda_graphs.h"
