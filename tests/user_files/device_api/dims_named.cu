// Host variables named after the built-ins, as CUDA allows: the kernel still
// reads the launch's own gridDim and blockDim.
#include <cstdio>
__global__ void dims(unsigned* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = gridDim.x * 1000 + blockDim.x * 10 + gridDim.y;
}
int main() {
  dim3 gridDim(2, 3);
  dim3 blockDim(32);
  unsigned* out;
  cudaMalloc(&out, 64 * sizeof(unsigned));
  dims<<<gridDim, blockDim>>>(out);
  unsigned host[64];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("first %x\nlast %x\nhost_grid %x\n", host[0], host[63], gridDim.x * 10 + gridDim.y);
  return 0;
}
