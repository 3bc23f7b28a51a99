// Slow, never stuck: 4096 blocks of shuffles and barriers take minutes on
// the emulator. At any moment lanes of the running warp wait at a shuffle for
// the lane that runs, and the block's other warps at the barrier: waits that
// end as the emulator gets round to them.
__global__ void warmup(int* out) { out[threadIdx.x] = threadIdx.x; }
__global__ void churn(int* out, int rounds) {
    int v = threadIdx.x;
    for (int r = 0; r < rounds; ++r) {
        for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
int main() {
    int* d;
    cudaMalloc(&d, 4096 * 256 * sizeof(int));
    warmup<<<1, 32>>>(d);
    churn<<<4096, 256>>>(d, 64);
    cudaDeviceSynchronize();
    return 0;
}
