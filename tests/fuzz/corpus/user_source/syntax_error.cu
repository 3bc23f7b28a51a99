__global__ void broken(const int* in, int* out) {
    int v = in[threadIdx.x]
    out[threadIdx.x] = v;
}
