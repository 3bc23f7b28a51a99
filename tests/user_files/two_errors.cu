// Two mistakes on two lines: both are marked.
__global__ void two_errors(const int* in, int* out) {
    int v = in[threadIdx.x];
    unsigned votes = __ballot_sync(0xffffffff);
    int w = undeclared_name + v;
    out[threadIdx.x] = v + w + int(votes);
}
