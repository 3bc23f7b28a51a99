// grid.sync() in a cooperative launch: every block writes its rank, the grid
// waits, then each block reads the rank its neighbour wrote. Without the grid
// barrier block b would read block b+1's slot before that block ran.
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void neighbours(int* slots, int* seen, unsigned long long* sizes) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) slots[grid.block_rank()] = int(grid.block_rank()) * 10;
  grid.sync();
  if (block.thread_rank() == 0) {
    const unsigned next = (grid.block_rank() + 1) % grid.num_blocks();
    seen[grid.block_rank()] = slots[next];
    sizes[grid.block_rank()] = grid.thread_rank() * 1000 + grid.size();
  }
  grid.sync();
  if (grid.thread_rank() == 0) seen[grid.num_blocks()] = grid.is_valid() ? 1 : 0;
}

int main() {
  const int blocks = 8, threads = 64;
  int *slots, *seen;
  unsigned long long* sizes;
  cudaMallocManaged(&slots, blocks * sizeof(int));
  cudaMallocManaged(&seen, (blocks + 1) * sizeof(int));
  cudaMallocManaged(&sizes, blocks * sizeof(unsigned long long));
  void* args[] = {&slots, &seen, &sizes};
  cudaError_t e = cudaLaunchCooperativeKernel((void*)neighbours, blocks, threads, args, 0, nullptr);
  cudaDeviceSynchronize();
  printf("launch: %s\n", cudaGetErrorName(e));
  for (int b = 0; b < blocks; ++b) printf("block %d saw %d, %llu\n", b, seen[b], sizes[b]);
  printf("valid %d\n", seen[blocks]);
  // 2049 blocks of 1024 threads: an H200 holds 2 a SM, 264 in all.
  e = cudaLaunchCooperativeKernel((void*)neighbours, 265, 1024, args, 0, nullptr);
  printf("too large: %s (%s), last %s\n", cudaGetErrorName(e), cudaGetErrorString(e),
         cudaGetErrorName(cudaGetLastError()));
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, neighbours, 1024, 0);
  printf("per sm %d\n", per_sm);
  int min_grid = 0, best_block = 0;
  cudaOccupancyMaxPotentialBlockSize(&min_grid, &best_block, neighbours, 0, 0);
  printf("potential: block %d, grid %d\n", best_block, min_grid);
  cudaOccupancyMaxPotentialBlockSize(&min_grid, &best_block, neighbours, 0, 200);
  printf("potential under 200: block %d, grid %d\n", best_block, min_grid);
  return 0;
}
