// Host code alone, calling the runtime as a .cpp file built by nvcc may: a
// round trip through device memory, and no kernel.
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  int values[4] = {3, 1, 4, 1}, back[4] = {};
  int* device = nullptr;
  cudaMalloc(&device, sizeof values);
  cudaMemcpy(device, values, sizeof values, cudaMemcpyHostToDevice);
  cudaMemcpy(back, device, sizeof back, cudaMemcpyDeviceToHost);
  cudaFree(device);
  std::printf("back %d %d %d %d\n", back[0], back[1], back[2], back[3]);
  return 0;
}
