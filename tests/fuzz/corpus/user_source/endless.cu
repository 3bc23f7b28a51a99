__global__ void spin(int* out) {
    int i = 0;
    while (out[0] == 0) {   // nothing ever sets it
        ++i;
    }
    out[threadIdx.x] = i;
}
