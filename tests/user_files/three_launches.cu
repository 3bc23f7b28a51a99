// Three launches of three sizes, for the progress record: 4x64, 2x32, 3x96.
#include <cstdio>
__global__ void fill(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x; }
__global__ void twice(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] *= 2; }
__global__ void last_one(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] += 1; }
int main() {
    int* d;
    cudaMalloc(&d, 288 * sizeof(int));
    fill<<<4, 64>>>(d);
    twice<<<2, 32>>>(d);
    last_one<<<3, 96>>>(d);
    cudaDeviceSynchronize();
    printf("three launches\n");
    return 0;
}
