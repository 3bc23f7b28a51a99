// A kernel writes one int past its dynamic shared memory (256 bytes, two
// 128-byte units: the next byte is past what the GPU gave the block). On an
// sm_90 GPU that ends the launch with an illegal address, found by the next
// call that waits for the device; later launches never run.
#include <cstdio>

__global__ void one_past_shared(int* out, int n) {
  extern __shared__ int tile[];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) tile[n] = 1;  // line 11
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}

__global__ void fill(int* out, int v) { out[threadIdx.x] = v; }

int main() {
  int* d = nullptr;
  cudaMalloc(&d, 64 * sizeof(int));
  one_past_shared<<<2, 64, 64 * sizeof(int)>>>(d, 64);
  printf("after the launch: %s\n", cudaGetErrorString(cudaGetLastError()));
  int h[64] = {};
  printf("memcpy: %s\n", cudaGetErrorName(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost)));
  printf("then: %s\n", cudaGetErrorName(cudaGetLastError()));
  fill<<<1, 64>>>(d, 7);
  printf("a launch after it: %s\n", cudaGetErrorName(cudaGetLastError()));
  printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
