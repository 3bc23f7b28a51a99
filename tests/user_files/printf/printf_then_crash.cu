// Every lane prints, then lane 5 writes through a null pointer before the
// warp meets again: the lines printed so far still come out.
#include <cstdio>

__global__ void crash_in_lane_5(int* bad) {
  const int lane = threadIdx.x;
  printf("line %d\n", lane);
  if (lane == 5) *bad = 1;
}

int main() {
  printf("host before\n");
  crash_in_lane_5<<<1, 32>>>(nullptr);
  cudaDeviceSynchronize();
  printf("host after\n");
  return 0;
}
