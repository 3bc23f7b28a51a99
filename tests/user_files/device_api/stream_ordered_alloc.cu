// Stream-ordered allocation (cudaMallocAsync, cudaFreeAsync): memory a kernel
// on the stream writes and a copy back reads, freed on the stream after.
#include <cstdio>

__global__ void fill(unsigned* out) { out[threadIdx.x] = 3u * threadIdx.x; }

int main() {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  unsigned* d_out = nullptr;
  const cudaError_t allocated = cudaMallocAsync(&d_out, 32 * sizeof(unsigned), stream);
  fill<<<1, 32, 0, stream>>>(d_out);
  unsigned out[32] = {};
  cudaMemcpyAsync(out, d_out, sizeof out, cudaMemcpyDeviceToHost, stream);
  const cudaError_t freed = cudaFreeAsync(d_out, stream);
  cudaStreamSynchronize(stream);
  printf("malloc_async %x\nfree_async %x\nlast %x\n", unsigned(allocated), unsigned(freed), out[31]);
  return 0;
}
