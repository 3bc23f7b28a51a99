// grid.sync() in a plain <<< >>> launch: no cooperative launch promised that
// every block is resident, so the grid cannot synchronise.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void plain(int* out) {
  cg::grid_group grid = cg::this_grid();
  out[grid.thread_rank()] = grid.is_valid();
  grid.sync();
}

int main() {
  int* out;
  cudaMalloc(&out, 2 * 32 * sizeof(int));
  plain<<<2, 32>>>(out);
  cudaDeviceSynchronize();
  return 0;
}
