// CUDA graphs and stream capture for a user's file on the CPU backend
// (user_runtime.h includes it; cuda_graphs_cpu.cpp runs them).
#pragma once

#include <cstddef>
#include <functional>
#include <utility>

#include "warpviz/user_runtime.h"  // the runtime's types; it includes this file at its end

// A graph's nodes run in an order that keeps every dependency, each kernel
// node as a recorded launch of its own; a stream that is capturing records its
// work into a graph instead of doing it. The types and values are CUDA 13's
// (driver_types.h, cuda_runtime_api.h).

#define CUDART_CB

struct cudaPos {
  size_t x, y, z;
};
struct cudaPitchedPtr {
  void* ptr;
  size_t pitch, xsize, ysize;
};
struct cudaExtent {
  size_t width, height, depth;
};
inline cudaPos make_cudaPos(size_t x, size_t y, size_t z) { return cudaPos{x, y, z}; }
inline cudaPitchedPtr make_cudaPitchedPtr(void* ptr, size_t pitch, size_t xsize, size_t ysize) {
  return cudaPitchedPtr{ptr, pitch, xsize, ysize};
}
inline cudaExtent make_cudaExtent(size_t width, size_t height, size_t depth) {
  return cudaExtent{width, height, depth};
}
struct cudaArray;
using cudaArray_t = cudaArray*;
// Copies between CUDA arrays (textures) are not emulated: pitched pointers only.
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  cudaPos srcPos;
  cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  cudaPos dstPos;
  cudaPitchedPtr dstPtr;
  cudaExtent extent;
  cudaMemcpyKind kind;
};
struct cudaMemsetParams {
  void* dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;  // 1, 2 or 4 bytes
  size_t width;              // in elements
  size_t height;
};
using cudaHostFn_t = void (*)(void* userData);
struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void* userData;
};
// gridDim and blockDim are macros in a user's file (user_prelude.h): the
// members are named as those macros spell them there.
struct cudaKernelNodeParams {
  void* func;
  warpviz::Dim3 warpviz_launch_grid_dim;   // gridDim
  warpviz::Dim3 warpviz_launch_block_dim;  // blockDim
  unsigned int sharedMemBytes;
  void** kernelParams;
  void** extra;
};

struct CUgraph_st;
using cudaGraph_t = CUgraph_st*;
struct CUgraphNode_st;
using cudaGraphNode_t = CUgraphNode_st*;
struct CUgraphExec_st;
using cudaGraphExec_t = CUgraphExec_st*;

enum cudaGraphNodeType {
  cudaGraphNodeTypeKernel = 0x00,
  cudaGraphNodeTypeMemcpy = 0x01,
  cudaGraphNodeTypeMemset = 0x02,
  cudaGraphNodeTypeHost = 0x03,
  cudaGraphNodeTypeGraph = 0x04,
  cudaGraphNodeTypeEmpty = 0x05,
  cudaGraphNodeTypeWaitEvent = 0x06,
  cudaGraphNodeTypeEventRecord = 0x07,
  cudaGraphNodeTypeExtSemaphoreSignal = 0x08,
  cudaGraphNodeTypeExtSemaphoreWait = 0x09,
  cudaGraphNodeTypeMemAlloc = 0x0a,
  cudaGraphNodeTypeMemFree = 0x0b,
  cudaGraphNodeTypeConditional = 0x0d,
  cudaGraphNodeTypeCount,
};
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2,
};
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2,
};
enum cudaGraphInstantiateFlags {
  cudaGraphInstantiateFlagAutoFreeOnLaunch = 1,
  cudaGraphInstantiateFlagUpload = 2,
  cudaGraphInstantiateFlagDeviceLaunch = 4,
  cudaGraphInstantiateFlagUseNodePriority = 8,
};
enum cudaGraphInstantiateResult {
  cudaGraphInstantiateSuccess = 0,
  cudaGraphInstantiateError = 1,
  cudaGraphInstantiateInvalidStructure = 2,
  cudaGraphInstantiateNodeOperationNotSupported = 3,
  cudaGraphInstantiateMultipleDevicesNotSupported = 4,
  cudaGraphInstantiateConditionalHandleUnused = 5,
};
struct cudaGraphInstantiateParams {
  unsigned long long flags;
  cudaStream_t uploadStream;
  cudaGraphNode_t errNode_out;
  cudaGraphInstantiateResult result_out;
};
// CUDA 12.3's edge data: only the default (all zero) edge is emulated.
struct cudaGraphEdgeData {
  unsigned char from_port;
  unsigned char to_port;
  unsigned char type;
  unsigned char reserved[5];
};

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data);
// CUDA 13's form: the capture's status, id, graph and the stream's current
// dependencies (edge data: none, the default edges).
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status,
                                     unsigned long long* id = nullptr, cudaGraph_t* graph = nullptr,
                                     const cudaGraphNode_t** deps = nullptr, const cudaGraphEdgeData** edges = nullptr,
                                     size_t* dep_count = nullptr);
using cudaStreamCallback_t = void (*)(cudaStream_t stream, cudaError_t status, void* user_data);
// Not allowed in a capture, as in CUDA (cudaLaunchHostFunc is).
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* user_data,
                                  unsigned int flags);
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* params);
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* params, cudaStream_t stream = nullptr);

cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int flags);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                   size_t dep_count, const cudaKernelNodeParams* params);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                   size_t dep_count, const cudaMemcpy3DParms* params);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                     size_t dep_count, void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                   size_t dep_count, const cudaMemsetParams* params);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                 size_t dep_count, const cudaHostNodeParams* params);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                  size_t dep_count);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                       size_t dep_count, cudaGraph_t child);
cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                        size_t dep_count, cudaEvent_t event);
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                      size_t dep_count, cudaEvent_t event);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     size_t count);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     const cudaGraphEdgeData* edges, size_t count);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type);
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* deps, size_t* count);
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* params);
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* params);
cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original);
// CUDA 12's form, the CUDA 11 form the runtime header keeps, and the others.
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags = 0);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, cudaGraphNode_t* error_node,
                                 char* log, size_t log_bytes);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags = 0);
cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t* exec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams* params);
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
// The exec's copy of `node` (a node of the graph it was instantiated from) takes new parameters.
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* params);
cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                           const cudaHostNodeParams* params);
cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, cudaHostNodeParams* params);
cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const cudaHostNodeParams* params);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);

namespace warpviz::user {
// `(void *)kernel` in a kernel node: each non-template kernel of a user's file
// is registered by its address after its definition (the host rewrite), so
// that the node can call it with its `void** kernelParams` as its parameters.
using KernelBodyMaker = std::function<void()> (*)(const void* function, void** args);
bool register_kernel_address(const void* function, const char* name, KernelBodyMaker make_body);
template <class... Params, size_t... I>
std::function<void()> kernel_body_from_args(const void* function, void** args, std::index_sequence<I...>) {
  auto* kernel = reinterpret_cast<void (*)(Params...)>(const_cast<void*>(function));
  // The values are copied when the node is made, as CUDA copies them.
  if (sizeof...(Params) && !args) return {};  // the node's parameters are missing: cudaErrorInvalidValue
  std::tuple<std::decay_t<Params>...> values(*static_cast<std::decay_t<Params>*>(args[I])...);
  return [kernel, values] { std::apply(kernel, values); };
}
template <class... Params>
std::function<void()> make_kernel_body(const void* function, void** args) {
  return kernel_body_from_args<Params...>(function, args, std::index_sequence_for<Params...>{});
}
template <class... Params>
bool register_kernel(void (*kernel)(Params...), const char* name) {
  return register_kernel_address(reinterpret_cast<const void*>(kernel), name, &make_kernel_body<Params...>);
}
}  // namespace warpviz::user
#define WARPVIZ_REGISTER_KERNEL(kernel) \
  [[maybe_unused]] static const bool warpviz_registered_##kernel = ::warpviz::user::register_kernel(kernel, #kernel);
