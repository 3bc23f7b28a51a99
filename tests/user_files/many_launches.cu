// Ten launches of a warp sum (five shuffles each), each adding to a total:
// for the program's trace budget.
#include <cstdio>

__global__ void add_warp_sum(int* total) {
  int v = threadIdx.x;
  for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
  if (threadIdx.x == 0) *total += v;
}

int main() {
  int* d_total;
  cudaMalloc(&d_total, sizeof(int));
  cudaMemset(d_total, 0, sizeof(int));
  for (int i = 0; i < 10; ++i) add_warp_sum<<<1, 32>>>(d_total);
  int total = 0;
  cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost);
  printf("total %d\n", total);
  return 0;
}
