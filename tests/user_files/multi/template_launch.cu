// Template kernels launched with their arguments written out, as
// `sum<256><<<g, b>>>` and `kernel<T, N><<<...>>>` are in the corpus, and
// one whose arguments are deduced from the launch's (`init<<<1, 32>>>(root,
// allocator)` in HeCBench's btree).
#include <cstdio>

template <int Value>
__global__ void fill(int* out) { out[threadIdx.x] = Value; }

template <class T, int Factor>
__global__ void scale(T* values) { values[threadIdx.x] *= T(Factor); }

template <class T>
__global__ void add(T* values, T amount) { values[threadIdx.x] += amount; }

int main() {
  int* ints = nullptr;
  float* floats = nullptr;
  cudaMallocManaged(&ints, 32 * sizeof(int));
  cudaMallocManaged(&floats, 32 * sizeof(float));
  for (int i = 0; i < 32; ++i) floats[i] = 0.5f * float(i);
  fill<256><<<1, 32>>>(ints);
  scale<float, 4><<<dim3(1), dim3(32)>>>(floats);
  add<<<1, 32>>>(ints, 1);  // add<int>
  cudaDeviceSynchronize();
  std::printf("fill %d %d, scale %g %g\n", ints[0], ints[31], floats[1], floats[31]);
  return 0;
}
