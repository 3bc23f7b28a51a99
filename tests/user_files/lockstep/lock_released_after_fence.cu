// A warp takes a lock on a node of 32 words (lane 1 sets the lock bit of
// word 1 with atomicOr), reads the node, rewrites it, word 1 included with
// the bit still set, fences, and lane 1 clears the bit with atomicAnd: a
// B-tree's insertion (HeCBench's btree), done eight times. A converged warp makes every lane's store
// before any lane passes the fence, so the release comes last and each round
// finds the lock free. Run lane after lane, lane 1 would release before lane
// 30 wrote word 1 back, and the lock would stay taken.
#include <cstdio>

__device__ bool lock_was_taken(unsigned* node) {
  bool taken = true;
  if (threadIdx.x % 32 == 1) taken = (atomicOr(node + 1, 0x80000000u) & 0x80000000u) != 0;
  return __shfl_sync(0xffffffffu, taken, 1);
}

__global__ void update_under_lock(unsigned* node, int* rounds_with_lock) {
  const unsigned lane = threadIdx.x % 32;
  int got = 0;
  // The warp agrees to go on (a ballot, as a B-tree's work queue does) before
  // each round's attempt.
  for (int round = 0; __ballot_sync(0xffffffffu, round < 8) != 0; ++round) {
    if (lock_was_taken(node)) continue;
    ++got;
    const unsigned word = node[31 - lane];  // word 1 (lane 30's) has the lock bit set
    // The whole warp reads the node before it decides (word 0, lane 31's, the
    // count so far) and then writes it back.
    if (__shfl_sync(0xffffffffu, word, 31) < 8) node[31 - lane] = lane == 30 ? word : word + 1;
    __threadfence();
    if (lane == 1) atomicAnd(node + 1, 0x7fffffffu);
  }
  if (lane == 0) *rounds_with_lock = got;
}

int main() {
  unsigned* d_node;
  int* d_rounds;
  cudaMalloc(&d_node, 32 * sizeof(unsigned));
  cudaMalloc(&d_rounds, sizeof(int));
  cudaMemset(d_node, 0, 32 * sizeof(unsigned));
  update_under_lock<<<1, 32>>>(d_node, d_rounds);
  unsigned node[32];
  int rounds = 0;
  cudaMemcpy(node, d_node, sizeof node, cudaMemcpyDeviceToHost);
  cudaMemcpy(&rounds, d_rounds, sizeof rounds, cudaMemcpyDeviceToHost);
  printf("rounds that took the lock: %d of 8\n", rounds);
  printf("word 0: %u, word 1: 0x%08x\n", node[0], node[1]);
  return 0;
}
