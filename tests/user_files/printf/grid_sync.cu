// Two blocks of a cooperative launch print before and after grid.sync().
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void around_grid_sync() {
  printf("before b%d l%d\n", blockIdx.x, threadIdx.x);
  cg::this_grid().sync();
  printf("after b%d l%d\n", blockIdx.x, threadIdx.x);
}

int main() {
  void* args[] = {nullptr};
  cudaLaunchCooperativeKernel((void*)around_grid_sync, dim3(2), dim3(32), args, 0, 0);
  cudaDeviceSynchronize();
  return 0;
}
