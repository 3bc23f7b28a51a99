/**
 * CUDA Warp 级编程 (seeds/001): the article's two-level integer reduction.
 * Scenario reduce_int.
 *
 * The article says warpReduceSum leaves the same result in every lane. With
 * __shfl_down_sync only lane 0 ends with the total: the higher lanes keep the
 * partial sums the hardware leaves there (the butterfly __shfl_xor_sync would
 * give every lane the total). warp_result records every lane to show it.
 */
#include "warpviz/record.cuh"
#include "warpviz/session.h"

// warp 内 32 个线程的 sum 归约：5 步 log2(32)
__inline__ __device__ int warpReduceSum(int value) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        value += __shfl_down_sync(0xffffffff, value, offset);
        WARPVIZ_WATCH(value);
    }
    return value;      // 文章: 所有 lane 都持有相同结果 (only lane 0 holds the total)
}

__global__ void reduceKernel(const int* in, int* out, int n, int* warp_result) {
    __shared__ int warpSums[32];                    // 每 warp 一个部分和

    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    int gid  = blockIdx.x * blockDim.x + threadIdx.x;

    int v = (gid < n) ? in[gid] : 0;
    v = warpReduceSum(v);                           // ① warp 内：寄存器交换
    warp_result[gid] = v;                           // warpviz: every lane's result, for the view

    if (lane == 0) WARPVIZ_STORE(warpSums, warpSums[warp], v);  // ② lane0 写入共享内存 (warpSums[warp] = v)
    __syncthreads();                                //    （block 级栅栏）

    // ③ 第一个 warp 再归约各 warp 的部分和
    if (warp == 0) {
        v = (lane < blockDim.x / 32) ? WARPVIZ_LOAD(warpSums, warpSums[lane]) : 0;  // warpSums[lane]
        v = warpReduceSum(v);
        if (lane == 0) out[blockIdx.x] = v;         // 每 block 出一个结果
    }
}

// ==================== 主机端: what warpviz-cli runs ====================
void run_reduce_int(warpviz::Session& s) {
    const int n = int(s.param_int("n"));
    const int block_size = int(s.param_int("block"));
    const int grid_size = (n + block_size - 1) / block_size;
    auto input = s.input<int>();
    auto out = s.alloc<int>(grid_size);
    auto warp_result = s.alloc<int>(size_t(grid_size) * block_size);
    s.launch(reduceKernel, dim3{unsigned(grid_size)}, dim3{unsigned(block_size)}, input.ptr(), out.ptr(), n,
             warp_result.ptr());
    s.output("out", out);
    s.output("warp_result", warp_result);
}

// ==================== The scenario ====================
static const warpviz::ScenarioRegistrar reduce_int_scenario =
    warpviz::ScenarioDeclaration("reduce_int", 70)
        .summary("the article's reduceKernel: warpReduceSum, warpSums[32], warp 0 reduces the warp sums",
                 "原文的 reduceKernel：warpReduceSum，warpSums[32]，由 warp 0 归约各 warp 的部分和")
        .source("kernels/warp_reduce_int.cu", "reduceKernel")
        .param(warpviz::int_param("n", "1024", 1, int64_t(1) << 26, "number of input elements"))
        .param(warpviz::int_param("block", "256", 32, 1024, "threads per block (a multiple of 32)"))
        .input("iota", [](const warpviz::ParamValues& p) { return size_t(p.get_int("n")); })
        .claim({"article, warpReduceSum", "return value; // 所有 lane 都持有相同结果 (every lane holds the same result)",
                "warp_result", -1, ""},
               "原文的 warpReduceSum")
        .block_reduction()
        .run<int>([](warpviz::Session& s, auto) { run_reduce_int(s); });
