// One 16x16x16 tile through mma.h: D = A * B + C with half inputs and float
// accumulators, A row-major, B column-major, then alpha/beta element-wise.
// Prints "d<i>_<j> bits" for a few elements, and "tf32 bits".
#include <mma.h>
#include <cstdio>
using namespace nvcuda;

__global__ void gemm(const half* a, const half* b, const float* c, float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, fc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  for (int i = 0; i < fc.num_elements; ++i) fc.x[i] = 2.0f * acc.x[i] + 0.5f * fc.x[i];
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_col_major);
}

int main() {
  half ha[256], hb[256];
  float hc[256], hd[256];
  // A(i,k) = i - k, B(k,j) = k + j (column-major: B[j*16 + k]), C(i,j) = i * j.
  for (int i = 0; i < 16; ++i)
    for (int k = 0; k < 16; ++k) ha[i * 16 + k] = __float2half(float(i - k));
  for (int k = 0; k < 16; ++k)
    for (int j = 0; j < 16; ++j) hb[j * 16 + k] = __float2half(float(k + j));
  for (int i = 0; i < 256; ++i) hc[i] = float((i / 16) * (i % 16));
  half *a, *b;
  float *c, *d;
  cudaMalloc(&a, sizeof ha);
  cudaMalloc(&b, sizeof hb);
  cudaMalloc(&c, sizeof hc);
  cudaMalloc(&d, sizeof hd);
  cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice);
  cudaMemcpy(c, hc, sizeof hc, cudaMemcpyHostToDevice);
  gemm<<<1, 32>>>(a, b, c, d);
  cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
  const int picks[][2] = {{0, 0}, {3, 5}, {15, 15}, {15, 0}, {7, 12}};
  for (const auto& p : picks)  // D is column-major: D(i,j) at j*16 + i
    printf("d%d_%d %x\n", p[0], p[1], __float_as_uint(hd[p[1] * 16 + p[0]]));
  printf("tf32 %x\n", __float_as_uint(__float_to_tf32(__uint_as_float(0x3f801000u))));
  printf("tf32_below %x\n", __float_as_uint(__float_to_tf32(__uint_as_float(0x3f800fffu))));
  return 0;
}
