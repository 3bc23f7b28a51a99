// A launch written inside a #define, the callee's template arguments on one
// line and <<< >>> on the next (HeCBench's softmax-fused launches so).
#include <cstdio>

template <typename T, int N>
__global__ void fill(T* out) { out[threadIdx.x] = T(N + threadIdx.x); }

#define LAUNCH(n)                \
  fill<int, n>                   \
      <<<1, 4>>>(values);

int main() {
  int* values = nullptr;
  cudaMalloc(&values, 4 * sizeof(int));
  LAUNCH(40)
  int host[4] = {};
  cudaMemcpy(host, values, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("filled %d %d %d %d\n", host[0], host[1], host[2], host[3]);
  cudaFree(values);
  return 0;
}
