// CUDA's device umin in a kernel, beside a host file (own_umin.cpp) that
// defines a umin of its own, as cuda-samples' mergeSort does.
#include <cstdio>

unsigned host_smaller(unsigned a, unsigned b);

__global__ void smaller(unsigned* out) { out[threadIdx.x] = umin(7u, 3u + threadIdx.x); }

int main() {
  unsigned* d = nullptr;
  cudaMalloc(&d, 2 * sizeof(unsigned));
  smaller<<<1, 2>>>(d);
  unsigned h[2] = {0, 0};
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("host %u device %u %u\n", host_smaller(5, 9), h[0], h[1]);
  cudaFree(d);
  return 0;
}
