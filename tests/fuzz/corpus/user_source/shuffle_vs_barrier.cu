// Lanes 0-15 shuffle with a full mask while lanes 16-31 wait at __syncthreads.
// Undefined in PTX (a divergent aligned barrier), but no hang: the H200 lets
// the shuffle go on without lanes 16-31 (lane 15 reads lane 16 as 0), then
// releases the barrier. The emulator does the same and marks the read undefined.
__global__ void split(const int* in, int* out) {
    int v = in[threadIdx.x];
    if (threadIdx.x < 16) {
        v = __shfl_down_sync(0xffffffff, v, 1);
    } else {
        __syncthreads();
    }
    out[threadIdx.x] = v;
}
