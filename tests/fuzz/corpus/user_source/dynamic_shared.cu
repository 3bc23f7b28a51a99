// A block sum through extern __shared__ memory, sized by --shared.
__global__ void block_sum(const float* in, float* out) {
    extern __shared__ float partial[];
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x % warpSize == 0) partial[threadIdx.x / warpSize] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0;
        for (int w = 0; w < blockDim.x / warpSize; ++w) total += partial[w];
        out[blockIdx.x] = total;
    }
}
