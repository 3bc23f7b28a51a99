// Two warps of one block: a line each before and after __syncthreads().
#include <cstdio>

__global__ void around_barrier() {
  printf("before w%d l%d\n", threadIdx.x / 32, threadIdx.x % 32);
  __syncthreads();
  printf("after w%d l%d\n", threadIdx.x / 32, threadIdx.x % 32);
}

int main() {
  around_barrier<<<1, 64>>>();
  cudaDeviceSynchronize();
  return 0;
}
