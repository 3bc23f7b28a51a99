// Warp 1 waits for a value that warp 0 writes only after __syncthreads, and
// the barrier waits for warp 1: a deadlock, on a GPU as in the emulator.
// Run it with --block 64.
__global__ void stuck(const int* in, int* out) {
    int v = in[threadIdx.x];
    if (threadIdx.x >= 32) {
        while (((volatile int*)out)[0] == 0) { }   // never set: warp 0 is at the barrier
    }
    __syncthreads();
    if (threadIdx.x == 0) out[0] = 1;
    out[threadIdx.x] = v;
}
