// Lanes 0-15 wait at a shuffle for lanes 16-31, which wait at __syncthreads
// for lanes 0-15: on a GPU this launch hangs.
__global__ void stuck(const int* in, int* out) {
    int v = in[threadIdx.x];
    if (threadIdx.x < 16) {
        v = __shfl_down_sync(0xffffffff, v, 1);
    } else {
        __syncthreads();
    }
    out[threadIdx.x] = v;
}
