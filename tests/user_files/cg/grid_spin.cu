// After the grid barrier block 2 waits forever for a flag nobody sets: the
// time limit's report names the block that runs, not one parked elsewhere.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void spin(volatile int* flag) {
  cg::this_grid().sync();
  if (blockIdx.x == 2) while (*flag == 0) {}
}

int main() {
  int* flag;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  void* args[] = {&flag};
  cudaLaunchCooperativeKernel((void*)spin, 4, 32, args);
  cudaDeviceSynchronize();
  return 0;
}
