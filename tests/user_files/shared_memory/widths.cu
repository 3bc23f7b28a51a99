// Shared variables of every width a register holds, none annotated: a tree
// sum of doubles (8-byte loads and stores), a byte per thread, a 16-bit
// count, an int and a pointer that one thread stores and all read.
#include <cstdio>

__global__ void sum_rows(const double* in, double* out) {
  __shared__ double partial[128];
  __shared__ signed char sign[128];
  __shared__ unsigned short count;
  __shared__ int first;
  __shared__ double* target;
  const unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * 128 + t];
  sign[t] = (t % 3 == 0) ? -1 : 1;
  if (t == 0) {
    count = 0;
    first = -7;
    target = out;
  }
  __syncthreads();
  for (unsigned k = 64; k > 0; k >>= 1) {
    if (t < k) partial[t] += partial[t + k];
    __syncthreads();
  }
  if (t == 1) count = 128;
  __syncthreads();
  if (t == 0) target[blockIdx.x] = partial[0] * sign[3] + first + count;
}

int main() {
  static double h[256];
  double r[2];
  for (int i = 0; i < 256; ++i) h[i] = 0.25 * i;
  double *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h);
  cudaMalloc(&d_out, sizeof r);
  cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
  sum_rows<<<2, 128>>>(d_in, d_out);
  cudaMemcpy(r, d_out, sizeof r, cudaMemcpyDeviceToHost);
  printf("%.2f %.2f\n", r[0], r[1]);
  return 0;
}
