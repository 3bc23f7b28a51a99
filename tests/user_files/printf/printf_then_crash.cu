// Every lane prints, then lane 5 writes far past the end of its array before
// the warp meets again: the lines printed so far still come out, and the
// host goes on to meet the GPU's error. (Past the
// array, not through a null pointer: under the sanitized kit UBSan would stop
// a null store first, as its own report.)
#include <cstdio>

__global__ void crash_in_lane_5(int* out) {
  const int lane = threadIdx.x;
  printf("line %d\n", lane);
  if (lane == 5) out[lane + 1024] = 1;
}

int main() {
  printf("host before\n");
  int* out = nullptr;
  cudaMalloc(&out, 32 * sizeof(int));
  crash_in_lane_5<<<1, 32>>>(out);
  printf("host after: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
