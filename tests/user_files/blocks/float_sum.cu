// A float sum by atomicAdd: its bits depend on the order of the additions,
// so the emulator keeps the blocks in order and the sum is the same run
// after run.
#include <cstdio>

__global__ void sum(const float* x, float* total) { atomicAdd(total, x[blockIdx.x * blockDim.x + threadIdx.x]); }

int main() {
  const int n = 64 * 64;
  static float x[n];
  for (int i = 0; i < n; ++i) x[i] = 1.0f / float(i + 1);
  float *d_x, *d_total;
  cudaMalloc(&d_x, sizeof x);
  cudaMalloc(&d_total, sizeof(float));
  cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice);
  cudaMemset(d_total, 0, sizeof(float));
  sum<<<64, 64>>>(d_x, d_total);
  float total = 0;
  cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost);
  printf("sum %a\n", total);
  return 0;
}
