// __syncthreads_count, __syncthreads_and and __syncthreads_or: barriers that
// reduce a predicate over the block, called back to back and with a plain
// __syncthreads between, in 40 blocks that may run on several cores. Each
// line is "name hex".
#include <cstdio>

__global__ void predicates(unsigned* out) {
  const unsigned t = threadIdx.x, b = blockIdx.x;
  const int multiples = __syncthreads_count(t % (b + 2) == 0);  // ceil(256 / (b + 2))
  const int all_small = __syncthreads_and(t < 256);              // 1
  const int any_big = __syncthreads_or(t == 255 && b % 2 == 0);  // even blocks
  __syncthreads();
  const int none = __syncthreads_or(0);
  const int again = __syncthreads_count(1);  // 256: each stretch's own tally
  if (t == 17) out[b] = unsigned(multiples) | unsigned(all_small) << 12 | unsigned(any_big) << 13 |
                         unsigned(none) << 14 | unsigned(again) << 16;
}

int main() {
  unsigned* d_out;
  cudaMalloc(&d_out, 40 * sizeof(unsigned));
  predicates<<<40, 256>>>(d_out);
  unsigned out[40];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  int right = 0;
  for (unsigned b = 0; b < 40; ++b) {
    const unsigned expected = (256 + b + 1) / (b + 2) | 1u << 12 | unsigned(b % 2 == 0) << 13 | 256u << 16;
    right += out[b] == expected;
  }
  printf("block0 %x\nblock1 %x\nblock39 %x\nblocks_right %x\n", out[0], out[1], out[39], unsigned(right));
  return 0;
}
