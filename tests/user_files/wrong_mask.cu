// A wrong mask: the full mask inside a branch that only lanes 0-15 take.
// Lanes 16-31 never arrive at the shuffle, so its result is undefined;
// warpviz-cli warns and the app says so over the lanes.
__global__ void wrong_mask(const int* in, int* out) {
    int v = in[threadIdx.x];
    if (threadIdx.x < 16)
        v += __shfl_down_sync(0xffffffff, v, 8);
    out[threadIdx.x] = v;
}
