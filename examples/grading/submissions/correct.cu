// Exercise: sum the 32 values of one warp with __shfl_down_sync, halving the
// distance each round (16, 8, 4, 2, 1); lane 0 writes the total.
__global__ void warp_sum(const int* in, int* total) {
    int v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x == 0) *total = v;
}
