// Each block takes a slot from a global counter and writes its index there:
// the atomicAdd's result is used, so which block gets which slot depends on
// the order blocks run in. The emulator runs them one after another, in
// block order, and says why.
#include <cstdio>

__global__ void take_slots(int* next, int* order) {
  if (threadIdx.x == 0) {
    const int slot = atomicAdd(next, 1);
    order[slot] = blockIdx.x;
  }
}

int main() {
  const int blocks = 300;
  int *d_next, *d_order;
  cudaMalloc(&d_next, sizeof(int));
  cudaMalloc(&d_order, blocks * sizeof(int));
  cudaMemset(d_next, 0, sizeof(int));
  take_slots<<<blocks, 32>>>(d_next, d_order);
  static int order[blocks];
  cudaMemcpy(order, d_order, sizeof order, cudaMemcpyDeviceToHost);
  int in_order = 0;
  for (int b = 0; b < blocks; ++b) in_order += order[b] == b;
  printf("%d of %d slots in block order\n", in_order, blocks);
  return 0;
}
