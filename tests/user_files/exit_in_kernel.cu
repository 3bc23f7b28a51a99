// A kernel that calls exit(0): the run must not end as a success.
#include <cstdlib>

__global__ void quit_early(int* out) {
    out[threadIdx.x] = 1;
    if (threadIdx.x == 3) exit(0);
}
