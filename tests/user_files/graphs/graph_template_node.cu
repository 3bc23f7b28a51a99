// A kernel node of a template kernel: its address says nothing of its
// parameters' types, which warpviz needs to call it. Refused by name.
#include <cuda_runtime.h>

template <int N>
__global__ void add(int* d) { d[threadIdx.x] += N; }

int main() {
  int* d;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  void* args[] = {&d};
  cudaKernelNodeParams k = {0};
  k.func = (void*)add<3>;
  k.gridDim = dim3(1, 1, 1);
  k.blockDim = dim3(32, 1, 1);
  k.kernelParams = args;
  cudaGraphNode_t node;
  cudaGraphAddKernelNode(&node, graph, NULL, 0, &k);
  return 0;
}
