// __isShared, __isGlobal, __isLocal and __isConstant on a pointer of each
// kind, from inside a kernel; the symbol API (cudaGetSymbolAddress,
// cudaGetSymbolSize, the Async copies to and from a symbol); and the peer
// API on a machine of one GPU. Each line is "name hex".
#include <cstdio>

__device__ int table[8];

__global__ void classify(const int* global_array, unsigned* out) {
  __shared__ int tile[32];
  extern __shared__ float dynamic_tile[];
  int local = threadIdx.x;
  tile[threadIdx.x] = local;
  const void* pointers[5] = {global_array, tile, dynamic_tile, &local, table};
  if (threadIdx.x == 0)
    for (int i = 0; i < 5; ++i)
      out[i] = __isShared(pointers[i]) | (__isGlobal(pointers[i]) << 1) | (__isLocal(pointers[i]) << 2) |
               (__isConstant(pointers[i]) << 3);
  if (threadIdx.x < 8) table[threadIdx.x] += 4;
}

int main() {
  int* d_array;
  unsigned* d_out;
  cudaMalloc(&d_array, 32 * sizeof(int));
  cudaMalloc(&d_out, 5 * sizeof(unsigned));
  const int start[8] = {10, 11, 12, 13, 14, 15, 16, 17};
  const cudaError_t to_symbol = cudaMemcpyToSymbolAsync(table, start, sizeof start, 0, cudaMemcpyHostToDevice, 0);
  classify<<<1, 32, 64 * sizeof(float)>>>(d_array, d_out);
  unsigned kinds[5];
  cudaMemcpy(kinds, d_out, sizeof kinds, cudaMemcpyDeviceToHost);
  int back[8];
  const cudaError_t from_symbol = cudaMemcpyFromSymbolAsync(back, table, sizeof back, 0, cudaMemcpyDeviceToHost, 0);
  cudaDeviceSynchronize();
  void* table_address = nullptr;
  size_t table_bytes = 0;
  const cudaError_t address = cudaGetSymbolAddress(&table_address, table);
  cudaGetSymbolSize(&table_bytes, table);
  int via_address[8];
  cudaMemcpy(via_address, table_address, sizeof via_address, cudaMemcpyDeviceToHost);
  int* d_copy;
  cudaMalloc(&d_copy, 8 * sizeof(int));
  const cudaError_t peer_copy = cudaMemcpyPeer(d_copy, 0, table_address, 0, 8 * sizeof(int));
  int peer_back[8];
  cudaMemcpy(peer_back, d_copy, sizeof peer_back, cudaMemcpyDeviceToHost);
  int can_access = -1;
  const cudaError_t can = cudaDeviceCanAccessPeer(&can_access, 0, 0);
  const cudaError_t enable_self = cudaDeviceEnablePeerAccess(0, 0);
  cudaGetLastError();
  int count = 0;
  cudaGetDeviceCount(&count);
  const cudaError_t other_device = cudaMemcpyPeer(d_copy, count, table_address, 0, 8 * sizeof(int));
  cudaGetLastError();
  printf("global_array %x\nstatic_shared %x\ndynamic_shared %x\nlocal %x\ndevice_variable %x\n", kinds[0], kinds[1],
         kinds[2], kinds[3], kinds[4]);
  printf("to_symbol %x\nfrom_symbol %x\nsymbol_first %x\nsymbol_last %x\n", unsigned(to_symbol), unsigned(from_symbol),
         unsigned(back[0]), unsigned(back[7]));
  printf("symbol_address %x\nsymbol_bytes %x\nvia_address_last %x\n", unsigned(address), unsigned(table_bytes),
         unsigned(via_address[7]));
  printf("peer_copy %x\npeer_copy_last %x\ncan_access_self %x\ncan_access_result %x\nenable_self %x\nother_device %x\n",
         unsigned(peer_copy), unsigned(peer_back[7]), unsigned(can), unsigned(can_access), unsigned(enable_self),
         unsigned(other_device));
  return 0;
}
