// CUDA graphs and stream capture on the CPU emulator (user_runtime.h).
//
// A graph is a list of nodes, each with the nodes it depends on. Launching an
// instantiated graph runs its nodes one after another in an order that keeps
// every dependency (among nodes free at once, the one added first), which is
// one of the orders a GPU may take; each kernel node is a recorded launch, as
// a plain launch is. Work the GPU does asynchronously is done here by the time
// the call returns, so a graph launch is finished when cudaGraphLaunch returns.
//
// [SECTION] Graphs and nodes
// [SECTION] Running a graph
// [SECTION] Stream capture
// [SECTION] The graph API
#include "cuda_graphs_cpu.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "runtime_objects.h"

namespace warpviz::user {
struct Capture;
}

// ============================================================================
// [SECTION] Graphs and nodes
// ============================================================================

struct CUgraphNode_st {
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  std::vector<CUgraphNode_st*> deps;  // nodes of the same graph
  // A kernel node: the launch, and its body with the arguments copied in.
  std::string kernel_name;
  const void* function = nullptr;
  warpviz::Dim3 grid, block;
  size_t shared = 0;
  std::function<void()> body;
  cudaKernelNodeParams kernel_params{};  // as given, for cudaGraphKernelNodeGetParams
  cudaMemcpy3DParms copy{};
  cudaMemsetParams set{};
  cudaHostNodeParams host{};
  std::shared_ptr<CUgraph_st> child;  // a child graph node's own copy of the graph
  cudaEvent_t event = nullptr;
};

struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;  // in the order they were added
};

// An instantiated graph keeps its own copy: later changes to the graph do
// not reach it, as in CUDA.
struct CUgraphExec_st {
  std::unique_ptr<CUgraph_st> graph;
  std::vector<const CUgraphNode_st*> order;
  std::map<const CUgraphNode_st*, CUgraphNode_st*> copy_of;  // the graph's nodes to the exec's
};

struct CUstream_st {
  warpviz::user::Capture* capture = nullptr;
  std::vector<CUgraphNode_st*> frontier;  // what the stream's next captured node depends on
};

namespace warpviz::user {

// One stream capture: the graph it fills, the stream it began on and the
// streams that joined it through events.
struct Capture {
  cudaGraph_t graph = nullptr;
  cudaStream_t origin = nullptr;
  std::vector<cudaStream_t> members;
};

namespace {

cudaError_t g_graph_error = cudaSuccess;  // for the calls' results only; cudaGetLastError is the runtime's

[[noreturn]] void unsupported(const std::string& what) {
  fail("request", what + " is not supported by warpviz on the CPU backend", 2);
}

std::unique_ptr<CUgraph_st> clone_graph(const CUgraph_st& original,
                                        std::map<const CUgraphNode_st*, CUgraphNode_st*>* copy_of = nullptr) {
  auto copy = std::make_unique<CUgraph_st>();
  std::map<const CUgraphNode_st*, CUgraphNode_st*> to_copy;
  for (const auto& node : original.nodes) {
    auto n = std::make_unique<CUgraphNode_st>(*node);
    if (node->child) n->child = std::shared_ptr<CUgraph_st>(clone_graph(*node->child));
    to_copy[node.get()] = n.get();
    copy->nodes.push_back(std::move(n));
  }
  for (auto& n : copy->nodes)
    for (CUgraphNode_st*& d : n->deps) d = to_copy[d];
  if (copy_of) *copy_of = std::move(to_copy);
  return copy;
}

bool owns_node(const CUgraph_st* graph, const CUgraphNode_st* node) {
  for (const auto& n : graph->nodes)
    if (n.get() == node) return true;
  return false;
}

// A new node of `graph` after `deps`; null (and the error) when a dependency
// is no node of the graph.
CUgraphNode_st* add_node(cudaGraph_t graph, cudaGraphNodeType type, const cudaGraphNode_t* deps, size_t count,
                         cudaError_t& error) {
  error = cudaSuccess;
  if (!graph || (count && !deps)) {
    error = cudaErrorInvalidValue;
    return nullptr;
  }
  auto node = std::make_unique<CUgraphNode_st>();
  node->type = type;
  for (size_t i = 0; i < count; ++i) {
    if (!owns_node(graph, deps[i])) {
      error = cudaErrorInvalidValue;
      return nullptr;
    }
    if (std::find(node->deps.begin(), node->deps.end(), deps[i]) == node->deps.end()) node->deps.push_back(deps[i]);
  }
  graph->nodes.push_back(std::move(node));
  return graph->nodes.back().get();
}

// Nodes in an order that keeps every dependency: of those whose dependencies
// are done, the one added first. False when the dependencies form a cycle.
bool dependency_order(const CUgraph_st& graph, std::vector<const CUgraphNode_st*>& order) {
  const size_t n = graph.nodes.size();
  std::map<const CUgraphNode_st*, size_t> index;
  for (size_t i = 0; i < n; ++i) index[graph.nodes[i].get()] = i;
  std::vector<bool> done(n, false);
  order.clear();
  while (order.size() < n) {
    size_t next = n;
    for (size_t i = 0; i < n && next == n; ++i) {
      if (done[i]) continue;
      bool ready = true;
      for (const CUgraphNode_st* d : graph.nodes[i]->deps) ready = ready && done[index[d]];
      if (ready) next = i;
    }
    if (next == n) return false;
    done[next] = true;
    order.push_back(graph.nodes[next].get());
  }
  return true;
}

// ============================================================================
// [SECTION] Running a graph
// ============================================================================

// cudaMemcpy3D between pitched pointers: `extent.width` bytes a row.
cudaError_t copy_3d(const cudaMemcpy3DParms& p) {
  if (p.srcArray || p.dstArray) unsupported("a copy to or from a CUDA array (cudaMemcpy3DParms::srcArray/dstArray)");
  if (int(p.kind) < 0 || int(p.kind) > 4) return cudaErrorInvalidMemcpyDirection;
  const cudaExtent& e = p.extent;
  if (!e.width || !e.height || !e.depth) return cudaSuccess;
  if (!p.srcPtr.ptr || !p.dstPtr.ptr) return cudaErrorInvalidValue;
  if (p.srcPos.x + e.width > p.srcPtr.pitch || p.dstPos.x + e.width > p.dstPtr.pitch) return cudaErrorInvalidPitchValue;
  for (size_t z = 0; z < e.depth; ++z)
    for (size_t y = 0; y < e.height; ++y) {
      const size_t src_row = (p.srcPos.z + z) * p.srcPtr.ysize + p.srcPos.y + y;
      const size_t dst_row = (p.dstPos.z + z) * p.dstPtr.ysize + p.dstPos.y + y;
      std::memmove(static_cast<unsigned char*>(p.dstPtr.ptr) + dst_row * p.dstPtr.pitch + p.dstPos.x,
                   static_cast<const unsigned char*>(p.srcPtr.ptr) + src_row * p.srcPtr.pitch + p.srcPos.x, e.width);
    }
  return cudaSuccess;
}

// A memset node: `width` elements of 1, 2 or 4 bytes a row, `pitch` bytes apart.
void set_2d(const cudaMemsetParams& p) {
  for (size_t row = 0; row < p.height; ++row) {
    unsigned char* at = static_cast<unsigned char*>(p.dst) + row * p.pitch;
    for (size_t i = 0; i < p.width; ++i, at += p.elementSize) {
      const uint32_t v = p.value;
      std::memcpy(at, &v, p.elementSize);  // the low bytes: x86 and the GPU are both little-endian
    }
  }
}

void run_order(const std::vector<const CUgraphNode_st*>& order);

void run_node(const CUgraphNode_st& node) {
  switch (node.type) {
    case cudaGraphNodeTypeKernel:
      run_launch(node.kernel_name.c_str(), node.grid, node.block, node.shared, node.body, node.function);
      break;
    case cudaGraphNodeTypeMemcpy: {
      const cudaError_t e = copy_3d(node.copy);
      if (e != cudaSuccess) g_graph_error = e;
      break;
    }
    case cudaGraphNodeTypeMemset: set_2d(node.set); break;
    case cudaGraphNodeTypeHost: node.host.fn(node.host.userData); break;
    case cudaGraphNodeTypeGraph: {
      std::vector<const CUgraphNode_st*> order;
      dependency_order(*node.child, order);  // checked when it was added
      run_order(order);
      break;
    }
    case cudaGraphNodeTypeEventRecord: cudaEventRecord(node.event, nullptr); break;
    default: break;  // empty and event-wait nodes: only their edges matter here
  }
}

void run_order(const std::vector<const CUgraphNode_st*>& order) {
  for (const CUgraphNode_st* node : order) run_node(*node);
}

// ============================================================================
// [SECTION] Stream capture
// ============================================================================

struct CapturedEvent {
  Capture* capture;
  std::vector<CUgraphNode_st*> frontier;
};
// Never destroyed: an event may be destroyed from an exit handler.
std::map<cudaEvent_t, CapturedEvent>& captured_events() {
  static auto* events = new std::map<cudaEvent_t, CapturedEvent>;
  return *events;
}

// The next node of a capturing stream, after the stream's captured work.
CUgraphNode_st* capture_node(cudaStream_t stream, cudaGraphNodeType type) {
  cudaError_t error;
  CUgraphNode_st* node =
      add_node(stream->capture->graph, type, stream->frontier.data(), stream->frontier.size(), error);
  stream->frontier = {node};
  return node;
}

cudaMemcpy3DParms linear_copy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(const_cast<void*>(src), bytes, bytes, 1);
  p.dstPtr = make_cudaPitchedPtr(dst, bytes, bytes, 1);
  p.extent = make_cudaExtent(bytes, 1, 1);
  p.kind = kind;
  return p;
}

// Every node a stream's frontier holds, and all they depend on.
void add_ancestors(const CUgraphNode_st* node, std::set<const CUgraphNode_st*>& seen) {
  if (!seen.insert(node).second) return;
  for (const CUgraphNode_st* d : node->deps) add_ancestors(d, seen);
}

}  // namespace

cudaStream_t create_stream() { return make_runtime_object<CUstream_st>(); }
void destroy_stream(cudaStream_t stream) {
  if (stream && stream->capture) {
    auto& members = stream->capture->members;
    members.erase(std::remove(members.begin(), members.end(), stream), members.end());
  }
  destroy_runtime_object(stream);
}

bool stream_is_capturing(const void* stream) {
  return stream && static_cast<const CUstream_st*>(stream)->capture;
}

void capture_kernel(const void* stream, const char* kernel_name, Dim3 grid, Dim3 block, size_t shared_bytes,
                    std::function<void()> thread_body, const void* function) {
  CUgraphNode_st* node = capture_node(const_cast<cudaStream_t>(static_cast<const CUstream_st*>(stream)),
                                      cudaGraphNodeTypeKernel);
  node->kernel_name = kernel_name;
  node->function = function;
  node->grid = grid;
  node->block = block;
  node->shared = shared_bytes;
  node->body = std::move(thread_body);
  node->kernel_params.func = const_cast<void*>(function);
  node->kernel_params.warpviz_launch_grid_dim = grid;
  node->kernel_params.warpviz_launch_block_dim = block;
  node->kernel_params.sharedMemBytes = unsigned(shared_bytes);
}

cudaError_t capture_memcpy(cudaStream_t stream, void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  if (int(kind) < 0 || int(kind) > 4) return cudaErrorInvalidMemcpyDirection;
  if (bytes && (!dst || !src)) return cudaErrorInvalidValue;
  capture_node(stream, cudaGraphNodeTypeMemcpy)->copy = linear_copy(dst, src, bytes, kind);
  return cudaSuccess;
}

cudaError_t capture_memset(cudaStream_t stream, void* dst, int value, size_t bytes) {
  if (bytes && !dst) return cudaErrorInvalidValue;
  CUgraphNode_st* node = capture_node(stream, cudaGraphNodeTypeMemset);
  node->set = cudaMemsetParams{dst, bytes, unsigned(value) & 0xffu, 1, bytes, 1};
  return cudaSuccess;
}

cudaError_t capture_event_record(cudaEvent_t event, cudaStream_t stream) {
  if (!event) return cudaErrorInvalidResourceHandle;
  captured_events()[event] = CapturedEvent{stream->capture, stream->frontier};
  return cudaSuccess;
}

bool capture_event_wait(cudaStream_t stream, cudaEvent_t event) {
  const auto found = captured_events().find(event);
  if (found == captured_events().end()) return false;
  const CapturedEvent& e = found->second;
  if (!stream) unsupported("the legacy default stream (0) waiting on an event recorded in a stream capture");
  if (!stream->capture) {  // the fork: the stream joins the capture
    stream->capture = e.capture;
    stream->frontier = e.frontier;
    e.capture->members.push_back(stream);
    return true;
  }
  if (stream->capture != e.capture) unsupported("cudaStreamWaitEvent between two stream captures");
  for (CUgraphNode_st* n : e.frontier)
    if (std::find(stream->frontier.begin(), stream->frontier.end(), n) == stream->frontier.end())
      stream->frontier.push_back(n);
  return true;
}

}  // namespace warpviz::user

using namespace warpviz::user;

// ============================================================================
// [SECTION] The graph API
// ============================================================================

namespace {

// The kernels of the program that a kernel node may name (register_kernel).
struct RegisteredKernel {
  const void* function;
  const char* name;
  KernelBodyMaker make_body;
};
std::vector<RegisteredKernel>& registered_kernels() {
  static auto* kernels = new std::vector<RegisteredKernel>;
  return *kernels;
}

// A kernel node's launch from its parameters, the arguments copied now.
cudaError_t set_kernel_node(CUgraphNode_st* node, const cudaKernelNodeParams* params, const char* api) {
  if (!params || !params->func) return cudaErrorInvalidDeviceFunction;
  if (params->extra) unsupported(std::string(api) + " with cudaKernelNodeParams::extra (packed arguments)");
  const RegisteredKernel* kernel = nullptr;
  for (const RegisteredKernel& k : registered_kernels())
    if (k.function == params->func) kernel = &k;
  if (!kernel)
    unsupported(std::string(api) +
                " of a kernel warpviz cannot call from its address (a template or overloaded __global__ function, or "
                "one defined outside the program's .cu files); a kernel node takes a plain __global__ function of "
                "the program, as `(void *)kernel`, and");
  std::function<void()> body = kernel->make_body(params->func, params->kernelParams);
  if (!body) return cudaErrorInvalidValue;
  node->kernel_name = kernel->name;
  node->function = params->func;
  node->grid = params->warpviz_launch_grid_dim;
  node->block = params->warpviz_launch_block_dim;
  node->shared = params->sharedMemBytes;
  node->body = std::move(body);
  node->kernel_params = *params;
  return cudaSuccess;
}

cudaError_t instantiate(cudaGraphExec_t* exec, cudaGraph_t graph) {
  if (!exec || !graph) return cudaErrorInvalidValue;
  std::map<const CUgraphNode_st*, CUgraphNode_st*> copy_of;
  auto copy = clone_graph(*graph, &copy_of);
  std::vector<const CUgraphNode_st*> order;
  if (!dependency_order(*copy, order)) {
    std::fprintf(stderr, "warpviz: cudaGraphInstantiate: the graph's dependencies form a cycle\n");
    return cudaErrorInvalidValue;
  }
  *exec = make_runtime_object<CUgraphExec_st>(std::move(copy), std::move(order), std::move(copy_of));
  return cudaSuccess;
}

cudaError_t list_nodes(const std::vector<CUgraphNode_st*>& all, cudaGraphNode_t* nodes, size_t* count) {
  if (!count) return cudaErrorInvalidValue;
  if (!nodes) {
    *count = all.size();
    return cudaSuccess;
  }
  // More room than nodes: the rest is set to null and the count is the nodes'.
  for (size_t i = 0; i < *count; ++i) nodes[i] = i < all.size() ? all[i] : nullptr;
  *count = std::min(*count, all.size());
  return cudaSuccess;
}

}  // namespace

bool warpviz::user::register_kernel_address(const void* function, const char* name, KernelBodyMaker make_body) {
  registered_kernels().push_back({function, name, make_body});
  return true;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode) {
  if (!stream) return cudaErrorStreamCaptureUnsupported;  // the legacy stream cannot capture
  if (stream->capture) return cudaErrorIllegalState;
  auto* capture = new Capture{make_runtime_object<CUgraph_st>(), stream, {stream}};
  stream->capture = capture;
  stream->frontier.clear();
  return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
  if (!stream || !graph) return cudaErrorInvalidValue;
  Capture* capture = stream->capture;
  if (!capture) return cudaErrorIllegalState;
  if (capture->origin != stream) return cudaErrorStreamCaptureUnmatched;
  // Every stream the capture forked into must have joined back: its work is
  // in what the origin's next node would depend on.
  std::set<const CUgraphNode_st*> joined;
  for (const CUgraphNode_st* n : stream->frontier) add_ancestors(n, joined);
  bool unjoined = false;
  for (cudaStream_t member : capture->members)
    for (const CUgraphNode_st* n : member->frontier) unjoined = unjoined || !joined.count(n);
  for (cudaStream_t member : capture->members) {
    member->capture = nullptr;
    member->frontier.clear();
  }
  for (auto it = captured_events().begin(); it != captured_events().end();)
    it = it->second.capture == capture ? captured_events().erase(it) : std::next(it);
  cudaGraph_t captured = capture->graph;
  delete capture;
  if (unjoined) {
    destroy_runtime_object(captured);
    *graph = nullptr;
    return cudaErrorStreamCaptureUnjoined;
  }
  *graph = captured;
  return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  if (!status) return cudaErrorInvalidValue;
  *status = stream && stream->capture ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data) {
  if (!fn) return cudaErrorInvalidValue;
  if (stream_is_capturing(stream)) {
    capture_node(stream, cudaGraphNodeTypeHost)->host = cudaHostNodeParams{fn, user_data};
    return cudaSuccess;
  }
  fn(user_data);  // the stream's earlier work is done already
  return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status, unsigned long long* id,
                                     cudaGraph_t* graph, const cudaGraphNode_t** deps,
                                     const cudaGraphEdgeData** edges, size_t* dep_count) {
  if (!status) return cudaErrorInvalidValue;
  const bool active = stream_is_capturing(stream);
  *status = active ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  if (!active) return cudaSuccess;
  if (id) *id = reinterpret_cast<uintptr_t>(stream->capture);
  if (graph) *graph = stream->capture->graph;
  if (deps) *deps = stream->frontier.data();
  if (edges) *edges = nullptr;  // all default edges
  if (dep_count) *dep_count = stream->frontier.size();
  return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* user_data,
                                  unsigned int flags) {
  if (!callback || flags) return cudaErrorInvalidValue;
  if (stream_is_capturing(stream)) return cudaErrorStreamCaptureUnsupported;
  callback(stream, cudaSuccess, user_data);  // the stream's earlier work is done already
  return cudaSuccess;
}

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* params) {
  if (!params) return cudaErrorInvalidValue;
  return copy_3d(*params);
}
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* params, cudaStream_t stream) {
  if (!params) return cudaErrorInvalidValue;
  if (stream_is_capturing(stream)) {
    capture_node(stream, cudaGraphNodeTypeMemcpy)->copy = *params;
    return cudaSuccess;
  }
  return copy_3d(*params);
}

cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int flags) {
  if (!graph || flags) return cudaErrorInvalidValue;
  *graph = make_runtime_object<CUgraph_st>();
  return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                   size_t dep_count, const cudaKernelNodeParams* params) {
  if (!node) return cudaErrorInvalidValue;
  CUgraphNode_st scratch;
  const cudaError_t set = set_kernel_node(&scratch, params, "cudaGraphAddKernelNode");
  if (set != cudaSuccess) return set;
  cudaError_t error;
  CUgraphNode_st* n = add_node(graph, cudaGraphNodeTypeKernel, deps, dep_count, error);
  if (!n) return error;
  scratch.type = cudaGraphNodeTypeKernel;
  scratch.deps = n->deps;
  *n = std::move(scratch);
  *node = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                   size_t dep_count, const cudaMemcpy3DParms* params) {
  if (!node || !params) return cudaErrorInvalidValue;
  if (params->srcArray || params->dstArray)
    unsupported("cudaGraphAddMemcpyNode with a CUDA array (cudaMemcpy3DParms::srcArray/dstArray)");
  if (int(params->kind) < 0 || int(params->kind) > 4) return cudaErrorInvalidMemcpyDirection;
  cudaError_t error;
  CUgraphNode_st* n = add_node(graph, cudaGraphNodeTypeMemcpy, deps, dep_count, error);
  if (!n) return error;
  n->copy = *params;
  *node = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                     size_t dep_count, void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  const cudaMemcpy3DParms p = linear_copy(dst, src, bytes, kind);
  return cudaGraphAddMemcpyNode(node, graph, deps, dep_count, &p);
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                   size_t dep_count, const cudaMemsetParams* params) {
  if (!node || !params || !params->dst) return cudaErrorInvalidValue;
  // CUDA's limits: elements of 1, 2 or 4 bytes; rows of `width` elements within the pitch.
  const unsigned size = params->elementSize;
  if (size != 1 && size != 2 && size != 4) return cudaErrorInvalidValue;
  if (params->height > 1 && params->pitch < params->width * size) return cudaErrorInvalidValue;
  cudaError_t error;
  CUgraphNode_st* n = add_node(graph, cudaGraphNodeTypeMemset, deps, dep_count, error);
  if (!n) return error;
  n->set = *params;
  *node = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                 size_t dep_count, const cudaHostNodeParams* params) {
  if (!node || !params || !params->fn) return cudaErrorInvalidValue;
  cudaError_t error;
  CUgraphNode_st* n = add_node(graph, cudaGraphNodeTypeHost, deps, dep_count, error);
  if (!n) return error;
  n->host = *params;
  *node = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                  size_t dep_count) {
  if (!node) return cudaErrorInvalidValue;
  cudaError_t error;
  CUgraphNode_st* n = add_node(graph, cudaGraphNodeTypeEmpty, deps, dep_count, error);
  if (!n) return error;
  *node = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                       size_t dep_count, cudaGraph_t child) {
  if (!node || !child || child == graph) return cudaErrorInvalidValue;
  std::vector<const CUgraphNode_st*> order;
  if (!dependency_order(*child, order)) return cudaErrorInvalidValue;
  cudaError_t error;
  CUgraphNode_st* n = add_node(graph, cudaGraphNodeTypeGraph, deps, dep_count, error);
  if (!n) return error;
  n->child = std::shared_ptr<CUgraph_st>(clone_graph(*child));  // CUDA copies the child graph
  *node = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                        size_t dep_count, cudaEvent_t event) {
  if (!node || !event) return cudaErrorInvalidValue;
  cudaError_t error;
  CUgraphNode_st* n = add_node(graph, cudaGraphNodeTypeEventRecord, deps, dep_count, error);
  if (!n) return error;
  n->event = event;
  *node = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                      size_t dep_count, cudaEvent_t event) {
  if (!node || !event) return cudaErrorInvalidValue;
  cudaError_t error;
  CUgraphNode_st* n = add_node(graph, cudaGraphNodeTypeWaitEvent, deps, dep_count, error);
  if (!n) return error;
  n->event = event;
  *node = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     size_t count) {
  if (!graph || (count && (!from || !to))) return cudaErrorInvalidValue;
  for (size_t i = 0; i < count; ++i) {
    if (!owns_node(graph, from[i]) || !owns_node(graph, to[i]) || from[i] == to[i]) return cudaErrorInvalidValue;
    std::vector<CUgraphNode_st*>& deps = to[i]->deps;
    if (std::find(deps.begin(), deps.end(), from[i]) != deps.end()) return cudaErrorInvalidValue;  // as CUDA: a duplicate
    deps.push_back(from[i]);
  }
  return cudaSuccess;
}
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     const cudaGraphEdgeData* edges, size_t count) {
  for (size_t i = 0; edges && i < count; ++i)
    if (edges[i].from_port || edges[i].to_port || edges[i].type)
      unsupported("cudaGraphAddDependencies with edge data other than the default");
  return cudaGraphAddDependencies(graph, from, to, count);
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count) {
  if (!graph) return cudaErrorInvalidValue;
  std::vector<CUgraphNode_st*> all;
  for (const auto& n : graph->nodes) all.push_back(n.get());
  return list_nodes(all, nodes, count);
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count) {
  if (!graph) return cudaErrorInvalidValue;
  std::vector<CUgraphNode_st*> roots;
  for (const auto& n : graph->nodes)
    if (n->deps.empty()) roots.push_back(n.get());
  return list_nodes(roots, nodes, count);
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type) {
  if (!node || !type) return cudaErrorInvalidValue;
  *type = node->type;
  return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* deps, size_t* count) {
  if (!node) return cudaErrorInvalidValue;
  return list_nodes(node->deps, deps, count);
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* params) {
  if (!node || !params || node->type != cudaGraphNodeTypeKernel) return cudaErrorInvalidValue;
  *params = node->kernel_params;
  return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* params) {
  if (!node || node->type != cudaGraphNodeTypeKernel) return cudaErrorInvalidValue;
  return set_kernel_node(node, params, "cudaGraphKernelNodeSetParams");
}

cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original) {
  if (!clone || !original) return cudaErrorInvalidValue;
  *clone = make_runtime_object<CUgraph_st>(std::move(clone_graph(*original)->nodes));
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
  if (flags & cudaGraphInstantiateFlagDeviceLaunch) unsupported("cudaGraphInstantiateFlagDeviceLaunch (device graph launch)");
  return instantiate(exec, graph);
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, cudaGraphNode_t* error_node, char* log,
                                 size_t log_bytes) {
  if (error_node) *error_node = nullptr;
  if (log && log_bytes) log[0] = '\0';
  return instantiate(exec, graph);
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
  return cudaGraphInstantiate(exec, graph, flags);
}
cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t* exec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams* params) {
  if (!params) return cudaErrorInvalidValue;
  const cudaError_t e = cudaGraphInstantiate(exec, graph, params->flags);
  params->errNode_out = nullptr;
  params->result_out = e == cudaSuccess ? cudaGraphInstantiateSuccess : cudaGraphInstantiateInvalidStructure;
  return e;
}

cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t) {
  return exec ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  if (!exec) return cudaErrorInvalidValue;
  if (stream_is_capturing(stream)) {  // a graph launched into a capture is a child graph node
    capture_node(stream, cudaGraphNodeTypeGraph)->child = std::shared_ptr<CUgraph_st>(clone_graph(*exec->graph));
    return cudaSuccess;
  }
  g_graph_error = cudaSuccess;
  run_order(exec->order);
  return g_graph_error;
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* params) {
  if (!exec || !exec->copy_of.count(node)) return cudaErrorInvalidValue;
  CUgraphNode_st* copy = exec->copy_of[node];
  if (copy->type != cudaGraphNodeTypeKernel) return cudaErrorInvalidValue;
  return set_kernel_node(copy, params, "cudaGraphExecKernelNodeSetParams");
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                           const cudaHostNodeParams* params) {
  if (!exec || !params || !params->fn || !exec->copy_of.count(node)) return cudaErrorInvalidValue;
  CUgraphNode_st* copy = exec->copy_of[node];
  if (copy->type != cudaGraphNodeTypeHost) return cudaErrorInvalidValue;
  copy->host = *params;
  return cudaSuccess;
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, cudaHostNodeParams* params) {
  if (!node || !params || node->type != cudaGraphNodeTypeHost) return cudaErrorInvalidValue;
  *params = node->host;
  return cudaSuccess;
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const cudaHostNodeParams* params) {
  if (!node || !params || !params->fn || node->type != cudaGraphNodeTypeHost) return cudaErrorInvalidValue;
  node->host = *params;
  return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  destroy_runtime_object(exec);
  return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  destroy_runtime_object(graph);
  return cudaSuccess;
}
