// Lane 0 waits for lane 1's flag with no __syncwarp between: on an H200
// independent thread scheduling lets lane 1 on. The emulator runs lanes one
// at a time between meeting points; the volatile accesses are meeting points
// (the compiler plugin), where lane 1 gets its turn. Without the plugin lane
// 1 never does: stuck, and no thread waits at a warp operation for lane 0.
__global__ void handshake(int* flag) {
    if (threadIdx.x == 0) {
        while (((volatile int*)flag)[0] == 0) { }
    } else if (threadIdx.x == 1) {
        ((volatile int*)flag)[0] = 1;
    }
}
