// The cooperative groups of tests/user_files/cg/ on the H200, built with plain
// nvcc against CUDA's own <cooperative_groups.h>: every output array of the
// three kernels (tiles, run-time partitions, collectives) with in = iota, and
// a cooperative launch whose blocks read each other's values after
// grid.sync(). Its output, cooperative_groups.out beside it, is what the
// CPU emulator must print for the same program (test_cooperative_groups).
#include <cstdio>

#include "../user_files/cg/collectives.cu"
#include "../user_files/cg/partitions.cu"
#include "../user_files/cg/tile_methods.cu"

template <class T>
T* device_array(int n) {
  T* p = nullptr;
  cudaMalloc(&p, n * sizeof(T));
  cudaMemset(p, 0, n * sizeof(T));
  return p;
}

template <class T>
void print(const char* name, const T* device, int n) {
  T host[64];
  cudaMemcpy(host, device, n * sizeof(T), cudaMemcpyDeviceToHost);
  printf("%s:", name);
  for (int i = 0; i < n; ++i) {
    if constexpr (sizeof(T) == 4 && T(0.5) != T(0)) printf(" %a", double(host[i]));
    else printf(" %lld", (long long)host[i]);
  }
  printf("\n");
}

__global__ void neighbours(int* slots, int* seen) {
  cg::grid_group grid = cg::this_grid();
  if (cg::this_thread_block().thread_rank() == 0) slots[grid.block_rank()] = int(grid.block_rank()) * 10;
  grid.sync();
  if (cg::this_thread_block().thread_rank() == 0)
    seen[grid.block_rank()] = slots[(grid.block_rank() + 1) % grid.num_blocks()] + int(grid.thread_rank() % 1000);
}

int main() {
  int host_in[64];
  for (int i = 0; i < 64; ++i) host_in[i] = i;
  int* in = device_array<int>(64);
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);

  int *shfl = device_array<int>(64), *up = device_array<int>(64), *down = device_array<int>(64),
      *xr = device_array<int>(64), *votes = device_array<int>(64), *ranks = device_array<int>(64);
  unsigned *ballot = device_array<unsigned>(64), *match_any = device_array<unsigned>(64),
           *match_all = device_array<unsigned>(64);
  tile_methods<<<1, 64>>>(in, shfl, up, down, xr, votes, ballot, match_any, match_all, ranks);
  print("shfl", shfl, 64), print("up", up, 64), print("down", down, 64), print("xr", xr, 64);
  print("votes", votes, 64), print("ballot", ballot, 64), print("match_any", match_any, 64);
  print("match_all", match_all, 64), print("ranks", ranks, 64);

  int *tiled = device_array<int>(64), *coalesced = device_array<int>(64), *labeled = device_array<int>(64),
      *binary = device_array<int>(64), *erased = device_array<int>(64);
  unsigned* coalesced_ballot = device_array<unsigned>(64);
  partitions<<<1, 64>>>(in, tiled, coalesced, coalesced_ballot, labeled, binary, erased);
  print("tiled", tiled, 64), print("coalesced", coalesced, 64), print("coalesced_ballot", coalesced_ballot, 64);
  print("labeled", labeled, 64), print("binary", binary, 64), print("erased", erased, 64);

  int *sum = device_array<int>(32), *low = device_array<int>(32), *high = device_array<int>(32),
      *scans = device_array<int>(32), *odd = device_array<int>(32);
  unsigned* bits = device_array<unsigned>(32);
  float* fsum = device_array<float>(32);
  collectives<<<1, 32>>>(in, sum, low, high, bits, scans, fsum, odd);
  print("sum", sum, 32), print("low", low, 32), print("high", high, 32), print("bits", bits, 32);
  print("scans", scans, 32), print("fsum", fsum, 32), print("odd", odd, 32);

  int *slots = device_array<int>(16), *seen = device_array<int>(16);
  void* args[] = {&slots, &seen};
  const cudaError_t e = cudaLaunchCooperativeKernel((void*)neighbours, 16, 128, args, 0, nullptr);
  cudaDeviceSynchronize();
  printf("cooperative launch: %s\n", cudaGetErrorName(e));
  print("seen", seen, 16);
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, neighbours, 1024, 0);
  const cudaError_t big = cudaLaunchCooperativeKernel((void*)neighbours, 132 * per_sm + 1, 1024, args, 0, nullptr);
  printf("blocks of 1024 an SM: %d; one block more: %s\n", per_sm, cudaGetErrorName(big));
  cudaGetLastError();
  return 0;
}
