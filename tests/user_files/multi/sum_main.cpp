// A program of three files, as cuda-samples builds theirs: this host file
// (main), square.cu (the kernels and the host function that launches them)
// and sum_gold.cpp (the CPU reference). It prints its own name first.
#include <cstdio>
#include <cuda_runtime.h>

void square_then_add_one(int* device_values, int n);  // square.cu
int gold_total(const int* values, int n);              // sum_gold.cpp

int main(int argc, char** argv) {
  std::printf("program %s, %d argument(s)\n", argv[0], argc - 1);
  const int n = 32;
  int host[n];
  for (int i = 0; i < n; ++i) host[i] = i;
  int* device = nullptr;
  cudaMalloc(&device, n * sizeof(int));
  cudaMemcpy(device, host, n * sizeof(int), cudaMemcpyHostToDevice);
  square_then_add_one(device, n);
  cudaMemcpy(host, device, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(device);
  std::printf("total %d, gold %d\n", gold_total(host, n), gold_total(nullptr, n));
  return 0;
}
