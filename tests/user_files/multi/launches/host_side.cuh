// The host side, in a header beside its kernels: the launch of a template
// kernel whose argument is deduced from the launch's arguments.
#pragma once
#include "kernels.cuh"

inline void fill_then_double(int* values, int first) {
  fill_from<<<1, 32>>>(values, first);
  doubled<<<1, 32>>>(values);
  cudaDeviceSynchronize();
}
