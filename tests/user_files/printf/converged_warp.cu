// One converged warp, two printf statements, the host printing around the launch.
#include <cstdio>

__global__ void two_lines(int* parsed) {
  const int lane = threadIdx.x;
  printf("first %d\n", lane);
  parsed[lane] = printf("second %d of %d\n", lane, 32);
}

int main() {
  int* parsed = nullptr;
  cudaMalloc(&parsed, 32 * sizeof(int));
  printf("host before\n");
  two_lines<<<1, 32>>>(parsed);
  cudaDeviceSynchronize();
  int host[32];
  cudaMemcpy(host, parsed, sizeof host, cudaMemcpyDeviceToHost);
  printf("host after: printf returned %d\n", host[0]);
  return 0;
}
