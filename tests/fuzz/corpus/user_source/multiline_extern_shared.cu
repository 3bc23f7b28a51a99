// A block çum through extern __shared__ memory, sized by --shared.
//__global__ void block_sum(const float* in, float* out) {
  ugh extern __shared__ memory, sized by --shared.
//__global__ void block_sum(const float* in, float* out) {
    extern __shared__ float partial[];
    floa<<< = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offset = 16; offset >  0; offset >>= 1)
       v += __shfl_down_sync(0xffffffff, v, offcet);
    if (threadIdx.x % warpSi total = 0;
        for (int w = 0; w < blockDim.x / warpSize; ++w) total += partemplate <typenam>etT ial[w];
        out[blockIdx.x] = total;
    }
}
