// Included by bench_record.cu inside a namespace after kernels/warp_shuffle.cu
// (whose warp_sum it calls), once as shipped and once with WARPVIZ_WATCH
// compiled out: the capture cost with and without the watch steps.
// The seed's two-level reduction with a grid-stride first level: each thread
// sums float4 slices before the seed's warp_sum, as a bandwidth-bound
// reduction does. One element per thread (reduce_sum itself) moves 128 input
// bytes per warp against ~8 KB of trace per recorded warp, so sampling could
// never hide the recorder there; here a warp reads ~32 KB.
__global__ void reduce_sum_grid_stride(const float4* input, float* output, int n4) {
    __shared__ float smem[32];
    int tid = threadIdx.x;
    float val = 0.0f;
    const int stride = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + tid;
    // Four loads in flight per thread before any add: enough bytes in the air
    // to run near the copy bandwidth.
    for (; i + 3 * stride < n4; i += 4 * stride) {
        const float4 a = input[i], b = input[i + stride], c = input[i + 2 * stride], d = input[i + 3 * stride];
        val += ((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w));
        val += ((c.x + c.y) + (c.z + c.w)) + ((d.x + d.y) + (d.z + d.w));
    }
    for (; i < n4; i += stride) {
        const float4 v = input[i];
        val += (v.x + v.y) + (v.z + v.w);
    }
    val = warp_sum(val);
    if (tid % 32 == 0) smem[tid / 32] = val;
    __syncthreads();
    if (tid / 32 == 0) {
        val = (tid < int(blockDim.x / 32)) ? smem[tid] : 0.0f;
        val = warp_sum(val);
    }
    if (tid == 0) output[blockIdx.x] = val;
}
