// A whole program, run as it is by `warpviz-cli run kernels/examples/block_max.cu`:
// its main() allocates, copies, launches twice and checks; every launch is
// recorded (--launch 1 picks the second). It builds with plain nvcc too:
//   nvcc -o block_max kernels/examples/block_max.cu && ./block_max
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    std::fprintf(stderr, "CUDA error: %s (line %d)\n", cudaGetErrorString(e), __LINE__); return 1; } } while (0)

// The largest value of each warp, by the xor butterfly: every lane ends with it.
__device__ float warp_max(float v) {
    for (int mask = 16; mask > 0; mask >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, mask));
    return v;
}

// One block: each warp's maximum into shared memory, then warp 0 over those.
__global__ void block_max(const float* in, float* out, int n) {
    __shared__ float warp_best[32];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    float v = warp_max(i < n ? in[i] : -1e30f);
    if (lane == 0) warp_best[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < blockDim.x / warpSize ? warp_best[lane] : -1e30f;
        v = warp_max(v);
        if (lane == 0) out[blockIdx.x] = v;
    }
}

int main() {
    const int n = 256, blocks = 2, threads = 128;
    float host[n];
    for (int i = 0; i < n; ++i) host[i] = float((i * 37) % 101);   // 0..100, in no order
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, blocks * sizeof(float)));
    CHECK(cudaMemcpy(d_in, host, n * sizeof(float), cudaMemcpyHostToDevice));

    block_max<<<blocks, threads>>>(d_in, d_out, n);    // each block's maximum
    CHECK(cudaGetLastError());
    block_max<<<1, 32>>>(d_out, d_out, blocks);         // the maximum of those
    CHECK(cudaGetLastError());

    float best = 0;
    CHECK(cudaMemcpy(&best, d_out, sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("max = %.0f (expected 100): %s\n", best, best == 100.0f ? "PASS" : "FAIL");
    cudaFree(d_in);
    cudaFree(d_out);
    return best == 100.0f ? 0 : 1;
}
