// Host code: nvcc hands a .cpp file to the host compiler alone.
int host_view_in_cpp() {
#ifdef __CUDA_ARCH__
  return 1;
#else
  return 0;
#endif
}

int cudacc_in_cpp() {
#ifdef __CUDACC__
  return 1;
#else
  return 0;
#endif
}
