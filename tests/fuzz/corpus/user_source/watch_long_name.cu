__global__ void long_name(const int* in, int* out) {
    int a_name_longer_than_sixteen = in[threadIdx.x];
    WARPVIZ_WATCH(a_name_longer_than_sixteen);
    out[threadIdx.x] = a_name_longer_than_sixteen;
}
