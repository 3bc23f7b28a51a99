// Lane 0 prints, then loops forever: its line comes out before the time limit stops the run.
#include <cstdio>

__global__ void hang(volatile int* never) {
  printf("lane %d is here\n", threadIdx.x);
  while (*never == 0) {
  }
}

int main() {
  int* flag = nullptr;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  hang<<<1, 1>>>(flag);
  cudaDeviceSynchronize();
  return 0;
}
