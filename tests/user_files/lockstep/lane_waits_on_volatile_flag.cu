// Lane 0 spins on a volatile flag that lane 31 of the same warp sets. Since
// Volta each lane makes progress on its own, so the loop ends on the GPU;
// the emulator must not let the spinning lane starve the other.
#include <cstdio>

__global__ void wait_for_neighbour(int* out) {
  __shared__ volatile int flag;
  const int t = threadIdx.x;
  if (t == 0) flag = 0;
  __syncthreads();
  if (t == 0) {
    int spins = 0;
    while (flag == 0) ++spins;
    out[0] = spins > 0 ? 1 : 2;
  } else if (t == 31) {
    flag = 1;
  }
}

int main() {
  int* d_out;
  int out = 0;
  cudaMalloc(&d_out, sizeof out);
  wait_for_neighbour<<<1, 32>>>(d_out);
  cudaMemcpy(&out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  printf("lane 0 saw the flag: %s\n", out ? "yes" : "no");
  return 0;
}
