// cuda::barrier in shared memory, as the CUDA Programming Guide's
// arrive/wait examples use it. Warp 0 arrives first; warp 1 passes two warp
// shuffles (where the emulator switches to other threads) before it writes its
// value and arrives, so warp 0's wait must hold it until then. Then thread 63
// drops out: its drop is its arrival in the second phase, and the third
// completes with the other 63. A completion function counts the phases.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cstdio>

struct CountPhase {
  int* phases;
  __device__ void operator()() noexcept { ++*phases; }
};

__global__ void phases(int* out, int* after_drop, int* phase_count) {
  __shared__ int value[64], second[64];
  __shared__ int phases_done;
  __shared__ cuda::barrier<cuda::thread_scope_block, CountPhase> bar;
  const int t = threadIdx.x;
  if (t == 0) {
    phases_done = 0;
    init(&bar, blockDim.x, CountPhase{&phases_done});
  }
  __syncthreads();
  int v = t * t;
  if (t >= 32) {  // warp 1 is late
    v += __shfl_xor_sync(0xffffffffu, 0, 1);
    v += __shfl_xor_sync(0xffffffffu, 0, 2);
  }
  value[t] = v;
  auto token = bar.arrive();
  bar.wait(std::move(token));
  out[t] = value[(t + 32) % 64];  // the other warp's value, written before its arrival
  if (t == 63) {
    bar.arrive_and_drop();
    return;
  }
  second[t] = -t;  // not value[]: the other warp may still be reading it
  bar.arrive_and_wait();
  after_drop[t] = second[62 - t];
  bar.arrive_and_wait();  // 63 arrivals complete the third phase
  if (t == 0) *phase_count = phases_done;
}

int main() {
  int *out, *after_drop, *phase_count;
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMalloc(&after_drop, 64 * sizeof(int));
  cudaMalloc(&phase_count, sizeof(int));
  cudaMemset(after_drop, 0x7f, 64 * sizeof(int));
  phases<<<2, 64>>>(out, after_drop, phase_count);
  int count = 0;
  cudaMemcpy(&count, phase_count, sizeof(int), cudaMemcpyDeviceToHost);
  printf("phases %d, %s\n", count, cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
