// A transpose through a shared tile, as every CUDA course writes it, with no
// annotation: launch 0 reads the tile down a column (tile[32][32]: every lane
// of a warp in one bank), launch 1 the same with one column of padding.
#include <cstdio>

#define TILE 32

template <int COLUMNS>
__global__ void transpose(const float* in, float* out, int n) {
  __shared__ float tile[TILE][COLUMNS];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

int main() {
  const int n = 64;
  static float h[n * n], r[n * n];
  for (int i = 0; i < n * n; ++i) h[i] = float(i);
  float *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h);
  cudaMalloc(&d_out, sizeof h);
  cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
  const dim3 grid(n / TILE, n / TILE), block(TILE, TILE);
  transpose<TILE><<<grid, block>>>(d_in, d_out, n);
  cudaMemcpy(r, d_out, sizeof r, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) wrong += r[j * n + i] != h[i * n + j];
  transpose<TILE + 1><<<grid, block>>>(d_in, d_out, n);
  cudaMemcpy(r, d_out, sizeof r, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) wrong += r[j * n + i] != h[i * n + j];
  printf("transposed: %s\n", wrong ? "FAIL" : "PASS");
  return wrong != 0;
}
