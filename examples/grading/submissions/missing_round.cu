// Wrong: the loop stops at offset 2, so lane 0 never adds lane 1's partial sum.
__global__ void warp_sum(const int* in, int* total) {
    int v = in[threadIdx.x];
    for (int offset = 16; offset > 1; offset >>= 1)
        v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x == 0) *total = v;
}
