// One launch, then host code that never ends: the time limit finds no kernel running.
__global__ void once(int* out) { out[threadIdx.x] = 1; }
int main() {
    int* d;
    cudaMalloc(&d, 32 * sizeof(int));
    once<<<1, 32>>>(d);
    cudaDeviceSynchronize();
    volatile unsigned long spins = 0;
    for (;;) spins = spins + 1;
}
