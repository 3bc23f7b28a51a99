// Your own kernel, recorded: nothing of warpviz in the file, no host code.
//
//   warpviz-cli run kernels/examples/warp_prefix_sum.cu --grid 2 --block 64 --input random:7
//   warpviz kernels/examples/warp_prefix_sum.cu --grid 2 --block 64
//
// warpviz reads the parameters from the signature: `values` is an input (one
// int per thread, from --input), `prefix` and `over_threshold` are outputs
// recorded under their names, `threshold` takes --arg threshold=N (default 20).
//
// Each warp computes an inclusive prefix sum of its 32 values (a Kogge-Stone
// scan with __shfl_up_sync), then asks which lanes' running sums passed the
// threshold.
__global__ void warp_prefix_sum(const int* values, int* prefix, unsigned* over_threshold, int threshold = 20) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % warpSize;
    int sum = values[i];
    for (int delta = 1; delta < 32; delta <<= 1) {
        const int below = __shfl_up_sync(0xffffffff, sum, delta);
        if (lane >= delta) sum += below;   // lanes below delta read no one: they keep their sum
    }
    prefix[i] = sum;
    const unsigned over = __ballot_sync(0xffffffff, sum > threshold);
    if (lane == 0) over_threshold[i / warpSize] = over;
}
