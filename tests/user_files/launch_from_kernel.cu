// Dynamic parallelism: a kernel launches another (nvcc -rdc=true). The CPU
// emulator runs launches from host code only, and says so.
#include <cstdio>

__global__ void child(int* out, int base) { out[base + threadIdx.x] = base + threadIdx.x; }

__global__ void parent(int* out) {
  if (threadIdx.x == 0) child<<<1, 4>>>(out, blockIdx.x * 4);
}

int main() {
  int* d;
  cudaMalloc(&d, 16 * sizeof(int));
  parent<<<4, 32>>>(d);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
