// Blocks that count themselves with atomics whose order nobody can see: a
// global atomicAdd and atomicMax whose results are thrown away, and a
// __shared__ tally whose result each thread uses. The emulator runs these
// blocks on every core, where each update must still be atomic: a lost one
// shows in the counts.
#include <cstdio>

__global__ void count_blocks(int* count, int* highest, int* tallies) {
  __shared__ int tally;
  if (threadIdx.x == 0) tally = 0;
  __syncthreads();
  const int mine = atomicAdd(&tally, 1);  // the block's own: any order is this block's
  atomicAdd(count, 1);
  atomicMax(highest, int(blockIdx.x));
  __syncthreads();
  if (mine == 0) tallies[blockIdx.x] = tally;
}

int main() {
  const int blocks = 2000, threads = 128;
  int *d_count, *d_highest, *d_tallies;
  cudaMalloc(&d_count, sizeof(int));
  cudaMalloc(&d_highest, sizeof(int));
  cudaMalloc(&d_tallies, blocks * sizeof(int));
  cudaMemset(d_count, 0, sizeof(int));
  cudaMemset(d_highest, 0, sizeof(int));
  count_blocks<<<blocks, threads>>>(d_count, d_highest, d_tallies);
  int count = 0, highest = 0;
  static int tallies[blocks];
  cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost);
  cudaMemcpy(&highest, d_highest, sizeof highest, cudaMemcpyDeviceToHost);
  cudaMemcpy(tallies, d_tallies, sizeof tallies, cudaMemcpyDeviceToHost);
  int full = 0;
  for (int b = 0; b < blocks; ++b) full += tallies[b] == threads;
  printf("%d threads counted, highest block %d, %d blocks tallied all their threads\n", count, highest, full);
  return count == blocks * threads && highest == blocks - 1 && full == blocks ? 0 : 1;
}
