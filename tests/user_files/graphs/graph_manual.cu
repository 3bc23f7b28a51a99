// A graph built by hand: the nodes are added in an order their dependencies
// reverse (times_two first, then add_one, then an edge add_one -> times_two),
// so a run in insertion order would give i * 2 + 1 and a run in dependency
// order (i + 1) * 2. A host node prints what the D2H copy brought back.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add_one(int* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] += 1;
}
__global__ void times_two(int* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] *= 2;
}

static int host_out[64];
static int calls = 0;
void CUDART_CB report(void* tag) {
  ++calls;
  printf("%s %d: %d %d %d %d\n", (const char*)tag, calls, host_out[0], host_out[1], host_out[33], host_out[63]);
}

int main() {
  const int n = 64;
  int host_in[64];
  for (int i = 0; i < n; ++i) host_in[i] = i;
  int* d;
  cudaMalloc(&d, n * sizeof(int));

  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  int count = n;
  void* args[] = {&d, &count};
  cudaKernelNodeParams k = {0};
  k.func = (void*)times_two;
  k.gridDim = dim3(2, 1, 1);
  k.blockDim = dim3(32, 1, 1);
  k.kernelParams = args;
  cudaGraphNode_t twice, once, in, out, host, join;
  cudaGraphAddKernelNode(&twice, graph, NULL, 0, &k);
  k.func = (void*)add_one;
  cudaGraphAddKernelNode(&once, graph, NULL, 0, &k);
  cudaGraphAddDependencies(graph, &once, &twice, 1);
  cudaGraphAddMemcpyNode1D(&in, graph, NULL, 0, d, host_in, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaGraphAddDependencies(graph, &in, &once, 1);
  cudaMemcpy3DParms back = {0};
  back.srcPtr = make_cudaPitchedPtr(d, n * sizeof(int), n, 1);
  back.dstPtr = make_cudaPitchedPtr(host_out, n * sizeof(int), n, 1);
  back.extent = make_cudaExtent(n * sizeof(int), 1, 1);
  back.kind = cudaMemcpyDeviceToHost;
  cudaGraphAddMemcpyNode(&out, graph, &twice, 1, &back);
  cudaGraphAddEmptyNode(&join, graph, &out, 1);
  cudaHostNodeParams h = {report, (void*)"graph"};
  cudaGraphAddHostNode(&host, graph, &join, 1, &h);

  size_t nodes = 0, roots = 0;
  cudaGraphGetNodes(graph, NULL, &nodes);
  cudaGraphGetRootNodes(graph, NULL, &roots);
  cudaGraphNodeType type;
  cudaGraphNodeGetType(once, &type);
  printf("nodes %zu roots %zu kernel type %d\n", nodes, roots, (int)type);

  cudaGraphExec_t exec;
  printf("instantiate %s\n", cudaGetErrorName(cudaGraphInstantiate(&exec, graph, NULL, NULL, 0)));
  // Nothing ran yet: a graph runs only when launched.
  printf("before launch %d\n", host_out[1]);
  cudaStream_t s;
  cudaStreamCreate(&s);
  printf("launch %s\n", cudaGetErrorName(cudaGraphLaunch(exec, s)));
  cudaStreamSynchronize(s);
  // The exec keeps its own copy: a node added to the graph now is not in it.
  cudaGraphNode_t late;
  cudaGraphAddHostNode(&late, graph, &host, 1, &h);
  cudaGraphLaunch(exec, s);

  // A child graph node runs the whole copy in its place: in (from host_in
  // again), add_one, times_two, out, and the host node.
  cudaGraph_t parent;
  cudaGraphCreate(&parent, 0);
  cudaGraphNode_t child;
  cudaGraphAddChildGraphNode(&child, parent, NULL, 0, graph);
  cudaGraphExec_t parent_exec;
  cudaGraphInstantiate(&parent_exec, parent, 0);
  host_in[63] = 1000;
  cudaGraphLaunch(parent_exec, s);

  // A cycle cannot be instantiated.
  cudaGraph_t loop;
  cudaGraphClone(&loop, graph);
  cudaGraphNode_t loop_nodes[8];
  size_t loop_count = 8;
  cudaGraphGetNodes(loop, loop_nodes, &loop_count);
  cudaGraphAddDependencies(loop, &loop_nodes[0], &loop_nodes[1], 1);  // twice -> once, and once -> twice
  cudaGraphExec_t loop_exec;
  printf("cycle %s, %zu nodes listed\n", cudaGetErrorName(cudaGraphInstantiate(&loop_exec, loop, 0)), loop_count);

  // The exec's times_two node becomes add_one (k.func is add_one now): the
  // graph's own node, and so the graph, stay as they were.
  printf("set params %s\n", cudaGetErrorName(cudaGraphExecKernelNodeSetParams(exec, twice, &k)));
  cudaGraphLaunch(exec, s);

  cudaGraphExecDestroy(exec);
  cudaGraphExecDestroy(parent_exec);
  cudaGraphDestroy(graph);
  cudaGraphDestroy(parent);
  cudaGraphDestroy(loop);
  cudaStreamDestroy(s);
  cudaFree(d);
  return 0;
}
