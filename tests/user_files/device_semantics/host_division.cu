// A kernel divides by zero (the GPU's value), then the host does (x86: SIGFPE,
// as the real program dies on the H200's host). The divisor is read through a
// volatile so that the compiler cannot see it.
#include <cstdio>

__global__ void divide(int* out, int d) { out[threadIdx.x] = 100 / d; }

volatile int host_divisor = 0;

int main() {
  int* d_out;
  cudaMalloc(&d_out, sizeof(int));
  divide<<<1, 1>>>(d_out, 0);
  int out = 0;
  cudaMemcpy(&out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  std::printf("device %x\n", static_cast<unsigned>(out));
  std::fflush(stdout);
  const int host_dividend = 100;
  std::printf("host %d\n", host_dividend / host_divisor);
  return 0;
}
