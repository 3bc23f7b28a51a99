// A kernel that calls __trap(): the GPU stops it, here the run ends with a kernel error.
#include <cstdio>
__global__ void stops(int* out) {
  if (threadIdx.x == 3) __trap();
  out[threadIdx.x] = 1;
}
int main() {
  int* out;
  cudaMalloc(&out, 32 * sizeof(int));
  stops<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  printf("after\n");
  return 0;
}
