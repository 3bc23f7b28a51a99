// A warp sorts its 32 keys by radix through a ping-pong buffer in volatile
// shared memory, with no __syncwarp between the buffer's stores and the next
// round's loads: correct only when the warp's lanes store before any loads.
// Prints the keys in order, then "sorted" or "unsorted".
#include <cstdio>

__global__ void warp_radix_sort(unsigned* keys) {
  __shared__ volatile unsigned buffer[64];
  const unsigned lane = threadIdx.x;
  buffer[lane] = keys[lane];
  unsigned offset = 0;
  for (int bit = 0; bit < 16; ++bit) {
    const unsigned key = buffer[lane + offset];
    const unsigned is_one = (key >> bit) & 1u;
    const unsigned ones = __ballot_sync(0xffffffffu, is_one);
    const unsigned below = (1u << lane) - 1u;
    const unsigned zeros_total = __popc(~ones);
    const unsigned position = is_one ? zeros_total + __popc(ones & below) : __popc(~ones & below);
    offset ^= 32u;
    buffer[position + offset] = key;
  }
  keys[lane] = buffer[lane + offset];
}

int main() {
  unsigned keys[32];
  unsigned seed = 12345u;
  for (int i = 0; i < 32; ++i) {
    seed = seed * 1103515245u + 12345u;
    keys[i] = (seed >> 8) & 0xffffu;
  }
  unsigned* d_keys;
  cudaMalloc(&d_keys, sizeof keys);
  cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice);
  warp_radix_sort<<<1, 32>>>(d_keys);
  cudaMemcpy(keys, d_keys, sizeof keys, cudaMemcpyDeviceToHost);
  bool sorted = true;
  for (int i = 0; i < 32; ++i) {
    printf("%u\n", keys[i]);
    if (i > 0 && keys[i - 1] > keys[i]) sorted = false;
  }
  printf("%s\n", sorted ? "sorted" : "unsorted");
  return 0;
}
