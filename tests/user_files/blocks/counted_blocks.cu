// Blocks that count themselves with atomicAdd: the count is shared between
// blocks, so the emulator runs them one after another.
#include <cstdio>

__global__ void count_blocks(int* count) {
  if (threadIdx.x == 0) atomicAdd(count, 1);
}

int main() {
  int* d_count;
  cudaMalloc(&d_count, sizeof(int));
  cudaMemset(d_count, 0, sizeof(int));
  count_blocks<<<40, 64>>>(d_count);
  int count = 0;
  cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost);
  printf("%d blocks counted\n", count);
  return count == 40 ? 0 : 1;
}
