__global__ void my_sum(const int* in, int* out) {
    int v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffff, v, offset);
    out[threadIdx.x] = v;
}
