// Each block sums its own slice through static and dynamic shared memory and
// a warp shuffle, and writes only its own element: nothing lets one block see
// another, so the emulator may run the blocks on every core.
#include <cstdio>
#include <cstdlib>

__global__ void block_sums(const int* in, int* out, int per_block) {
  __shared__ int partial[4];
  extern __shared__ int staged[];
  const int t = threadIdx.x;
  const int* slice = in + blockIdx.x * per_block;
  int v = 0;
  for (int i = t; i < per_block; i += blockDim.x) v += slice[i];
  staged[t] = v;
  __syncthreads();
  v = staged[blockDim.x - 1 - t];  // another lane's value: the dynamic area is this block's
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (t % 32 == 0) partial[t / 32] = v;
  __syncthreads();
  if (t == 0) out[blockIdx.x] = partial[0] + partial[1] + partial[2] + partial[3];
}

int main() {
  const int blocks = 96, per_block = 1000, n = blocks * per_block;
  int* h_in = (int*)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) h_in[i] = (i * 7919) % 1013 - 500;
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, blocks * sizeof(int));
  cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice);
  block_sums<<<blocks, 128, 128 * sizeof(int)>>>(d_in, d_out, per_block);
  int h_out[96];
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  int wrong = 0;
  long long total = 0;
  for (int b = 0; b < blocks; ++b) {
    int expect = 0;
    for (int i = 0; i < per_block; ++i) expect += h_in[b * per_block + i];
    if (h_out[b] != expect) ++wrong;
    total += h_out[b];
  }
  printf("%d of %d block sums wrong, total %lld\n", wrong, blocks, total);
  free(h_in);  // the sanitized kit's LeakSanitizer fails a program that leaks
  cudaFree(d_in);
  cudaFree(d_out);
  return wrong ? 1 : 0;
}
