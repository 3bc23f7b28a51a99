// A barrier that expects more arrivals than the block has: on a GPU the wait
// never ends; on the emulator it is a deadlock, reported.
#include <cuda/barrier>

__global__ void too_few(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x + 1);
  __syncthreads();
  bar.arrive_and_wait();
  out[threadIdx.x] = 1;
}

int main() {
  int* out;
  cudaMalloc(&out, 32 * sizeof(int));
  too_few<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  return 0;
}
