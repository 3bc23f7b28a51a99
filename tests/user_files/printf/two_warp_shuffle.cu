// Two warps, one full-warp shuffle each: 2 warp operations of 32 lanes.
__global__ void rotate(int* out) {
  out[threadIdx.x] = __shfl_sync(0xffffffffu, int(threadIdx.x), int(threadIdx.x + 1) % 32);
}

int main() {
  int* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(int));
  rotate<<<1, 64>>>(out);
  cudaDeviceSynchronize();
  return 0;
}
