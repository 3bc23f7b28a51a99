// Writes extern __shared__ memory: run with --shared 0 there is none, and
// the write faults, as on a GPU.
__global__ void stage(const int* in, int* out) {
    extern __shared__ int tile[];
    tile[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[31 - threadIdx.x];
}
