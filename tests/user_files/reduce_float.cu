// A float given to __reduce_add_sync: the intrinsic takes int or unsigned only.
__global__ void sum_floats(const float* in, float* out) {
    float v = in[threadIdx.x];
    float total = __reduce_add_sync(0xffffffff, v);
    out[threadIdx.x] = total;
}
