// Blocks that never see each other; block 5 writes far past its array. The
// report must name the kernel's line from the worker that ran it; the
// program meets the GPU's error at its synchronize.
#include <cstdio>

__global__ void write_past_end(int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 5) i += 1 << 28;
  out[i] = i;  // line 9
}

int main() {
  int* d_out;
  cudaMalloc(&d_out, 16 * 64 * sizeof(int));
  write_past_end<<<16, 64>>>(d_out);
  const cudaError_t e = cudaDeviceSynchronize();
  printf("synchronize: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
