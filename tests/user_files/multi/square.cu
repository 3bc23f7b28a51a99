// Two kernels, launched one after the other by a host function the .cpp
// file calls (without -rdc a kernel is launched from its own file).
__global__ void square(int* values) {
  const int i = threadIdx.x;
  values[i] = values[i] * values[i];
}

__global__ void add_one(int* values) { values[threadIdx.x] += 1; }

void square_then_add_one(int* device_values, int n) {
  square<<<1, n>>>(device_values);
  add_one<<<1, n>>>(device_values);
  cudaDeviceSynchronize();
}
