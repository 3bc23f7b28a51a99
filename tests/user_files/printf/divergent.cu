// A divergent branch, a printf on each side, then the warp converged again.
#include <cstdio>

__global__ void branches() {
  const int lane = threadIdx.x;
  if (lane < 16)
    printf("low %d\n", lane);
  else
    printf("high %d\n", lane);
  __syncwarp();
  printf("joined %d\n", lane);
}

int main() {
  branches<<<1, 32>>>();
  cudaDeviceSynchronize();
  return 0;
}
