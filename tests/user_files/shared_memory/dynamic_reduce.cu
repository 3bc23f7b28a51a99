// The classic block sum over `extern __shared__` memory, in two of its
// textbook versions, with no annotation: interleaved addressing (thread t
// adds at index 2*s*t: its lanes stride through the banks, 2-way conflicts
// and worse) and sequential addressing (conflict-free).
#include <cstdio>

__global__ void interleaved(const int* in, int* out) {
  extern __shared__ int sdata[];
  const unsigned t = threadIdx.x;
  sdata[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned index = 2 * s * t;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sdata[0];
}

__global__ void sequential(const int* in, int* out) {
  extern __shared__ int sdata[];
  const unsigned t = threadIdx.x;
  int* mine = sdata + t;
  *mine = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sdata[0];
}

int main() {
  const int blocks = 2, threads = 256;
  static int h[blocks * threads];
  for (int i = 0; i < blocks * threads; ++i) h[i] = i % 7;
  int *d_in, *d_out, r[blocks];
  cudaMalloc(&d_in, sizeof h);
  cudaMalloc(&d_out, sizeof r);
  cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
  interleaved<<<blocks, threads, threads * sizeof(int)>>>(d_in, d_out);
  cudaMemcpy(r, d_out, sizeof r, cudaMemcpyDeviceToHost);
  printf("interleaved: %d %d\n", r[0], r[1]);
  sequential<<<blocks, threads, threads * sizeof(int)>>>(d_in, d_out);
  cudaMemcpy(r, d_out, sizeof r, cudaMemcpyDeviceToHost);
  printf("sequential: %d %d\n", r[0], r[1]);
  return 0;
}
