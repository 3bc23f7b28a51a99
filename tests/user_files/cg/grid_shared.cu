// Each block keeps its own dynamic shared memory across grid.sync(), though
// the blocks take turns on the emulator: a block's values written before the
// barrier are still its own after it. Also the launch of a kernel's own
// name (no cast) and a 2-D grid.
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void keeps_shared(int* out, int scale) {
  extern __shared__ int mine[];
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  mine[block.thread_rank()] = int(grid.block_rank()) * scale + int(block.thread_rank());
  grid.sync();
  out[grid.thread_rank()] = mine[(block.thread_rank() + 1) % block.size()];
}

int main() {
  int* out;
  cudaMallocManaged(&out, 6 * 16 * sizeof(int));
  int scale = 100;
  void* args[] = {&out, &scale};
  const cudaError_t e = cudaLaunchCooperativeKernel(keeps_shared, dim3(3, 2), dim3(16), args, 16 * sizeof(int), 0);
  cudaDeviceSynchronize();
  printf("%s %d %d %d\n", cudaGetErrorName(e), out[0], out[15], out[5 * 16 + 3]);
  return 0;
}
