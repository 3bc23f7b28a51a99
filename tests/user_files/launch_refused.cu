// A whole program whose launches a GPU refuses: each leaves its error for
// cudaGetLastError, and the kernel does not run.
#include <stdio.h>
#include <cuda_runtime.h>

__global__ void mark(int* flag) { *flag = 1; }

int main() {
    int* flag;
    cudaMallocManaged(&flag, sizeof(int));
    *flag = 0;
    mark<<<1, 2048>>>(flag);
    cudaError_t e = cudaPeekAtLastError();
    printf("block 2048: %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
    e = cudaGetLastError();
    printf("cleared by get: %s\n", cudaGetErrorName(cudaGetLastError()));
    mark<<<dim3(1, 65536), 32>>>(flag);
    printf("grid y 65536: %s\n", cudaGetErrorName(cudaGetLastError()));
    mark<<<1, 32, 300 * 1024>>>(flag);
    printf("shared 300 KB: %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaDeviceSynchronize();
    printf("flag %d\n", *flag);
    return 0;
}
