// Where __CUDA_ARCH__ is defined, as nvcc's two passes give it: 900 in
// device code (and at file scope, the device pass's view), undefined in the
// body of a host function. arch_host.cpp is host code throughout.
#include <cstdio>

#if __CUDA_ARCH__ >= 700
// Only the device pass keeps this helper; the kernel below calls it from
// its own `#if` body, as cuda-samples' simpleAWBarrier does.
__device__ int arch_of_device_pass() { return __CUDA_ARCH__; }
#endif

#define DEVICE_ONLY __device__

DEVICE_ONLY int device_view() {
#ifdef __CUDA_ARCH__
  return 1;
#else
  return 0;
#endif
}

__host__ __device__ int both_view() {
#if defined(__CUDA_ARCH__)
  return 1;
#else
  return 0;
#endif
}

__global__ void report(int* out) {
#if __CUDA_ARCH__ >= 700
  out[0] = arch_of_device_pass();
#else
  out[0] = -1;
#endif
  out[1] = device_view();
  out[2] = both_view();
}

int host_view_in_cu() {
#ifndef __CUDA_ARCH__
  return 0;
#else
  return 1;
#endif
}

int host_view_in_cpp();  // arch_host.cpp
int cudacc_in_cpp();     // arch_host.cpp

int main() {
  int* out = nullptr;
  cudaMallocManaged(&out, 3 * sizeof(int));
  report<<<1, 1>>>(out);
  cudaDeviceSynchronize();
  std::printf("device: arch %d, ifdef %d, host-device %d\n", out[0], out[1], out[2]);
  std::printf("host .cu: %d, host .cpp: %d, __CUDACC__ in .cpp: %d\n", host_view_in_cu(), host_view_in_cpp(),
              cudacc_in_cpp());
#if defined(__CUDACC__) && defined(__NVCC__)
  std::printf("CUDA_VERSION %d, CUDART_VERSION %d\n", CUDA_VERSION, CUDART_VERSION);
#endif
  return 0;
}
