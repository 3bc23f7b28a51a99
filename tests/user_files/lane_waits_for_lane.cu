// Lane 0 waits for lane 1's flag with no __syncwarp between: warp-synchronous
// code that the emulator, running lanes one at a time, cannot run (lane 1
// never gets its turn); on an H200 independent thread scheduling lets lane 1
// on. Stuck, and no thread waits at a warp operation or barrier for lane 0.
__global__ void handshake(int* flag) {
    if (threadIdx.x == 0) {
        while (((volatile int*)flag)[0] == 0) { }
    } else if (threadIdx.x == 1) {
        ((volatile int*)flag)[0] = 1;
    }
}
