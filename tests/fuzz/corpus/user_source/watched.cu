// WARPVIZ_WATCH in a user's own file: no include, any variable.
enum class Phase : unsigned char { Start = 1, Done = 2 };

__global__ void watched(const int* in, float* out) {
    int v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(0xffffffff, v, offset);
        WARPVIZ_WATCH(v);
    }
    float half = v * 0.5f;
    WARPVIZ_WATCH(half);
    if (threadIdx.x % 4 == 0) {
        double twice = 2.0 * v;
        WARPVIZ_WATCH(twice);
    }
    bool odd = threadIdx.x % 2 == 1;
    WARPVIZ_WATCH(odd);
    Phase phase = Phase::Done;
    WARPVIZ_WATCH(phase);
    out[threadIdx.x] = half;
}
