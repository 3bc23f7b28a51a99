// Wrong: each round only the lanes below `offset` shuffle, and the mask says
// so, but lane i reads lane i + offset, which is outside that mask: the value
// it gets is undefined (on a GPU, whatever that register held).
__global__ void warp_sum(const int* in, int* total) {
    int lane = threadIdx.x % 32;
    int v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset >>= 1) {
        unsigned mask = (1u << offset) - 1;
        if (lane < offset)
            v += __shfl_down_sync(mask, v, offset);
    }
    if (lane == 0) *total = v;
}
