// Stream capture: work on a capturing stream is recorded, not done; a second
// stream forked through an event and joined back through another adds its
// nodes in parallel; the graph then runs it all in dependency order. Both
// launch forms are captured: <<< >>> and cudaLaunchKernel.
#include <cstdio>
#include <cooperative_groups.h>  // cudaLaunchKernel: warpviz's CPU kit declares it there
#include <cuda_runtime.h>

__global__ void fill(int* d, int value) { d[threadIdx.x] = value + int(threadIdx.x); }
__global__ void combine(const int* a, const int* b, int* out) {
  out[threadIdx.x] = a[threadIdx.x] * 100 + b[threadIdx.x];
}
__global__ void add_to(int* d, int v) { d[threadIdx.x] += v; }
template <class T>
__global__ void scale(T* d, T by) {
  d[threadIdx.x] *= by;
}

static int result[32];
void CUDART_CB done(void* tag) { printf("%s: %d %d %d\n", (const char*)tag, result[0], result[1], result[31]); }

int main() {
  int *a, *b, *out;
  cudaMalloc(&a, 32 * sizeof(int));
  cudaMalloc(&b, 32 * sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMemset(out, 0, 32 * sizeof(int));
  cudaStream_t main_stream, side;
  cudaStreamCreate(&main_stream);
  cudaStreamCreate(&side);
  cudaEvent_t fork, joined;
  cudaEventCreate(&fork);
  cudaEventCreate(&joined);

  cudaGraph_t graph;
  cudaStreamBeginCapture(main_stream, cudaStreamCaptureModeGlobal);
  cudaStreamCaptureStatus status;
  cudaStreamIsCapturing(main_stream, &status);
  printf("capturing %d\n", (int)status);
  cudaEventRecord(fork, main_stream);
  cudaStreamWaitEvent(side, fork, 0);
  fill<<<1, 32, 0, main_stream>>>(a, 1);
  fill<<<1, 32, 0, side>>>(b, 5);
  scale<<<1, 32, 0, side>>>(b, 2);  // a template kernel, deduced from its arguments
  cudaEventRecord(joined, side);
  cudaStreamWaitEvent(main_stream, joined, 0);
  combine<<<1, 32, 0, main_stream>>>(a, b, out);
  int seven = 7;
  void* args[] = {&out, &seven};
  cudaLaunchKernel((void*)add_to, dim3(1), dim3(32), args, 0, main_stream);
  cudaMemcpyAsync(result, out, sizeof(result), cudaMemcpyDeviceToHost, main_stream);
  cudaLaunchHostFunc(main_stream, done, (void*)"host node");
  printf("end capture %s\n", cudaGetErrorName(cudaStreamEndCapture(main_stream, &graph)));
  cudaStreamIsCapturing(main_stream, &status);
  printf("capturing %d\n", (int)status);

  // Nothing of it ran while it was captured.
  int out_now = -1;
  cudaMemcpy(&out_now, out, sizeof(int), cudaMemcpyDeviceToHost);
  size_t nodes = 0, roots = 0;
  cudaGraphGetNodes(graph, NULL, &nodes);
  cudaGraphGetRootNodes(graph, NULL, &roots);
  printf("before launch out[0] %d result[0] %d, nodes %zu roots %zu\n", out_now, result[0], nodes, roots);

  cudaGraphExec_t exec;
  cudaGraphInstantiateWithFlags(&exec, graph, 0);
  cudaGraphLaunch(exec, main_stream);
  cudaStreamSynchronize(main_stream);

  // A fork never joined back: the capture ends with cudaErrorStreamCaptureUnjoined.
  cudaGraph_t broken = (cudaGraph_t)1;
  cudaStreamBeginCapture(main_stream, cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, main_stream);
  cudaStreamWaitEvent(side, fork, 0);
  fill<<<1, 32, 0, side>>>(b, 7);
  const cudaError_t e = cudaStreamEndCapture(main_stream, &broken);
  printf("unjoined %s graph %s\n", cudaGetErrorName(e), broken ? "set" : "null");
  // The side stream left the capture with it: its launch runs at once.
  fill<<<1, 32, 0, side>>>(b, 9);
  int b0 = 0;
  cudaMemcpy(&b0, b, sizeof(int), cudaMemcpyDeviceToHost);
  printf("side after %d\n", b0);
  return 0;
}
