// Block 1 returns before the grid barrier the others wait at: on a GPU the
// grid hangs; the emulator names the deadlock.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void leaves_early(int* out) {
  cg::grid_group grid = cg::this_grid();
  if (grid.block_rank() == 1) return;
  grid.sync();
  out[grid.thread_rank()] = 1;
}

int main() {
  int* out;
  cudaMalloc(&out, 4 * 32 * sizeof(int));
  void* args[] = {&out};
  cudaLaunchCooperativeKernel((void*)leaves_early, 4, 32, args);
  cudaDeviceSynchronize();
  return 0;
}
