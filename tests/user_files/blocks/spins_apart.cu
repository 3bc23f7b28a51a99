// Blocks that never see each other, one of which spins for ever: the time
// limit must still name the kernel's line, from whichever worker runs it.
#include <cstdio>

__global__ void spin_in_one_block(const int* never_set, int* out) {
  int x = 0;
  if (blockIdx.x == 3)
    while (never_set[0] == 0) ++x;  // line 8
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

int main() {
  int *d_never_set, *d_out;
  cudaMalloc(&d_never_set, sizeof(int));
  cudaMemset(d_never_set, 0, sizeof(int));
  cudaMalloc(&d_out, 8 * 32 * sizeof(int));
  spin_in_one_block<<<8, 32>>>(d_never_set, d_out);
  cudaDeviceSynchronize();
  printf("never\n");
  return 0;
}
