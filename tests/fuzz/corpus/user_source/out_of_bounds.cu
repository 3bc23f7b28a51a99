// Every lane writes 64 elements past its own: out has one per thread.
__global__ void spill(const int* in, int* out) {
    int v = in[threadIdx.x];
    out[threadIdx.x + 1024] = v;
}
