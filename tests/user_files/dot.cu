// A dot product of two vectors, one warp-level reduction per warp: each lane
// multiplies its pair, __shfl_down_sync folds the warp's products into lane
// 0, and lane 0 adds its warp's sum to the result. Run with 64 threads (two
// warps): warpviz dot.cu --block 64 --input iota
__global__ void dot(const float* a, const float* b, float* result) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = a[i] * b[i];
    for (int offset = 16; offset > 0; offset >>= 1)
        sum += __shfl_down_sync(0xffffffff, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(result, sum);
}
