// Pre-CUDA-9 code: __shfl_down without a mask, which nvcc refuses for sm_90.
__global__ void reduce(float* v) {
  float x = v[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) x += __shfl_down(x, offset);
  v[threadIdx.x] = x;
}
