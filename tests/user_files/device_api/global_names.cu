// Names CUDA's headers put in the global namespace that real programs use
// unqualified: umin/umax/llmin, isfinite/isnan, and the 16-bit float types
// that arrive with cublas_v2.h (llm.c's common.h names __nv_bfloat16 so).
#include <cstdio>
#include <cuda_runtime.h>
#include <cublas_v2.h>

__global__ void names(unsigned* out) {
  out[0] = umin(7u, 3u);
  out[1] = umax(7u, 3u);
  out[2] = unsigned(llmin(-5ll, 2ll));
  out[3] = isfinite(1.0f / 0.0f) ? 1 : 0;
  out[4] = isnan(0.0f / 0.0f) ? 1 : 0;
}

int main() {
  unsigned* d = nullptr;
  cudaMalloc(&d, 5 * sizeof(unsigned));
  names<<<1, 1>>>(d);
  unsigned h[5];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  const __nv_bfloat16 b = __float2bfloat16(1.5f);
  const __half half_value = __float2half(1.5f);
  std::printf("umin %x\numax %x\nllmin %x\nisfinite_inf %x\nisnan_nan %x\n", h[0], h[1], h[2], h[3], h[4]);
  std::printf("bf16_bits %x\nhalf_bits %x\n", unsigned(__bfloat16_as_ushort(b)), unsigned(__half_as_ushort(half_value)));
  std::printf("host_isfinite %x\n", isfinite(2.0) ? 1u : 0u);
  cudaFree(d);
  return 0;
}
