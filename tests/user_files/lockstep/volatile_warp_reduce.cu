// The unrolled last-warp reduction as courses wrote it before __syncwarp:
// volatile shared memory and no synchronisation inside the warp. A converged
// warp makes each access for all its lanes at once, so every lane reads its
// neighbour's word before any lane overwrites it. Prints s[0..31] after the
// reduction, one "lane value" line each, then "sum N".
#include <cstdio>

__device__ void warpReduce(volatile int* s, int t) {
  s[t] += s[t + 32];
  s[t] += s[t + 16];
  s[t] += s[t + 8];
  s[t] += s[t + 4];
  s[t] += s[t + 2];
  s[t] += s[t + 1];
}

__global__ void reduce64(const int* in, int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (t < 32) warpReduce(s, t);
  if (t < 32) out[t] = s[t];
}

int main() {
  int in[64], out[32];
  for (int i = 0; i < 64; ++i) in[i] = i + 1;
  int *d_in, *d_out;
  cudaMalloc(&d_in, sizeof in);
  cudaMalloc(&d_out, sizeof out);
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  reduce64<<<1, 64>>>(d_in, d_out);
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  for (int lane = 0; lane < 32; ++lane) printf("%d %d\n", lane, out[lane]);
  printf("sum %d\n", out[0]);
  return 0;
}
