/**
 * Warp Shuffle归约详解 (seeds/000): the seed demo as warpviz scenarios.
 *
 * 演示:
 * 1. 基本Warp Shuffle操作      -> scenario test_shuffle
 * 2. Warp内求和归约            -> scenarios warp_sum, warp_sum_xor
 * 3. Warp内求最大值            -> scenario warp_max
 * 4. 多Block协作归约           -> scenario reduce_sum
 *
 * The kernels are the seed's, written as templates over the value type T:
 * on the GPU T is float; the CPU emulator runs them with GPU-exact floats.
 */
#include "warpviz/record.cuh"
#include "warpviz/session.h"

// ==================== Warp求和归约 ====================
template <typename T>
__device__ T warp_sum(T val) {
    // 方法1: 使用__shfl_down_sync（最常用）
    // 每次迭代，将下方offset个线程的值加到当前线程
    for (int offset = 16; offset > 0; offset >>= 1) {
        val += __shfl_down_sync(0xFFFFFFFF, val, offset);
        WARPVIZ_WATCH(val);
    }
    return val;
}

// 方法2: 使用__shfl_xor_sync（蝶形归约）
template <typename T>
__device__ T warp_sum_xor(T val) {
    // XOR掩码: 1, 2, 4, 8, 16
    for (int offset = 1; offset < 32; offset <<= 1) {
        val += __shfl_xor_sync(0xFFFFFFFF, val, offset);
        WARPVIZ_WATCH(val);
    }
    return val;
}

// ==================== Warp最大值归约 ====================
template <typename T>
__device__ T warp_max(T val) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        T other = __shfl_down_sync(0xFFFFFFFF, val, offset);
        val = fmaxf(val, other);
        WARPVIZ_WATCH(val);
    }
    return val;
}

// ==================== 多Block协作归约 ====================
template <typename T>
__global__ void reduce_sum(const T* input, T* output, int n) {
    // The seed declares `extern __shared__ float smem[]` sized blockDim.x floats;
    // it only ever uses one slot per warp, and a block has at most 32 warps.
    __shared__ T smem[32];

    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    int warp_id = tid / 32;
    int lane_id = tid % 32;

    // 加载数据
    T val = (i < n) ? input[i] : T(0.0f);

    // Step 1: Warp内归约（32个线程用5步）
    val = warp_sum(val);

    // Step 2: 每个Warp的线程0写入Shared Memory
    if (lane_id == 0) {
        WARPVIZ_STORE(smem, smem[warp_id], val);  // warpviz: smem[warp_id] = val, recorded
    }
    __syncthreads();

    // Step 3: 第一个Warp归约所有Warp的结果
    if (warp_id == 0) {
        // 只有前num_warps个线程参与
        int num_warps = blockDim.x / 32;
        val = (tid < num_warps) ? WARPVIZ_LOAD(smem, smem[tid]) : T(0.0f);  // warpviz: smem[tid], recorded
        val = warp_sum(val);
    }

    // Step 4: 线程0写入最终结果
    if (tid == 0) {
        output[blockIdx.x] = val;
    }
}

// ==================== 测试Warp Shuffle基本操作 ====================
template <typename T>
__global__ void test_shuffle(const T* input, T* output) {
    int tid = threadIdx.x;
    T val = input[tid];   // seed: float val = (float)tid; the default input "iota" is exactly that

    // 测试__shfl_down_sync
    T down_val = __shfl_down_sync(0xFFFFFFFF, val, 1);
    // 线程i的down_val = 线程i+1的val

    // 测试__shfl_xor_sync
    T xor_val = __shfl_xor_sync(0xFFFFFFFF, val, 1);
    // 线程i的xor_val = 线程i^1的val

    output[tid] = down_val + xor_val;
}

// One warp through each device function; every lane writes its final value.
template <typename T>
__global__ void warp_sum_kernel(const T* input, T* out) {
    out[threadIdx.x] = warp_sum(input[threadIdx.x]);
}

template <typename T>
__global__ void warp_sum_xor_kernel(const T* input, T* out) {
    out[threadIdx.x] = warp_sum_xor(input[threadIdx.x]);
}

template <typename T>
__global__ void warp_max_kernel(const T* input, T* out) {
    out[threadIdx.x] = warp_max(input[threadIdx.x]);
}

// ==================== 主机端: what warpviz-cli runs ====================
template <typename T, typename Kernel>
void run_one_warp(warpviz::Session& s, Kernel kernel) {
    auto input = s.input<T>();
    auto out = s.alloc<T>(32);
    s.launch(kernel, dim3{1}, dim3{32}, input.ptr(), out.ptr());
    s.output("out", out);
}

template <typename T>
void run_reduce_sum(warpviz::Session& s) {
    const int n = int(s.param_int("n"));
    const int block_size = int(s.param_int("block"));
    const int grid_size = (n + block_size - 1) / block_size;
    auto input = s.input<T>();
    auto out = s.alloc<T>(grid_size);
    s.launch(reduce_sum<T>, dim3{unsigned(grid_size)}, dim3{unsigned(block_size)}, input.ptr(), out.ptr(), n);
    s.output("out", out);
}

// ==================== The scenarios: one declaration each ====================
using f32 = warpviz::device_f32;
using f64 = warpviz::device_f64;

static const warpviz::ScenarioRegistrar test_shuffle_scenario =
    warpviz::ScenarioDeclaration("test_shuffle", 10)
        .summary("the seed's test_shuffle: shfl_down by 1 plus shfl_xor by 1, per lane",
                 "原文的 test_shuffle：每个 lane 做 shfl_down 1 加 shfl_xor 1")
        .source("kernels/warp_shuffle.cu", "test_shuffle")
        .input("iota", warpviz::one_warp)
        .claim({"seeds/000 main()", "Thread 0 result: (expected: 0+1 + 0^1=1 = 1.0)", "out", 0, "1"},
               "seeds/000 的 main()")
        .claim({"seeds/000 main()", "Thread 5 result: (expected: 6 + 5^1=4 = 10.0)", "out", 5, "10"},
               "seeds/000 的 main()")
        .run<f32, f64, int>([](warpviz::Session& s, auto value) {
            using T = typename decltype(value)::type;
            run_one_warp<T>(s, test_shuffle<T>);
        });

static const warpviz::ScenarioRegistrar warp_sum_scenario =
    warpviz::ScenarioDeclaration("warp_sum", 20)
        .summary("the seed's warp_sum: val += __shfl_down_sync(full, val, offset), offset 16 -> 1",
                 "原文的 warp_sum：val += __shfl_down_sync(full, val, offset)，offset 从 16 到 1")
        .source("kernels/warp_shuffle.cu", "warp_sum_kernel")
        .input("iota", warpviz::one_warp)
        .run<f32, int>([](warpviz::Session& s, auto value) {
            using T = typename decltype(value)::type;
            run_one_warp<T>(s, warp_sum_kernel<T>);
        });

static const warpviz::ScenarioRegistrar warp_sum_xor_scenario =
    warpviz::ScenarioDeclaration("warp_sum_xor", 30)
        .summary("the seed's butterfly: val += __shfl_xor_sync(full, val, offset), offset 1 -> 16",
                 "原文的蝶形归约：val += __shfl_xor_sync(full, val, offset)，offset 从 1 到 16")
        .source("kernels/warp_shuffle.cu", "warp_sum_xor_kernel")
        .input("iota", warpviz::one_warp)
        .run<f32, int>([](warpviz::Session& s, auto value) {
            using T = typename decltype(value)::type;
            run_one_warp<T>(s, warp_sum_xor_kernel<T>);
        });

static const warpviz::ScenarioRegistrar warp_max_scenario =
    warpviz::ScenarioDeclaration("warp_max", 40)
        .summary("the seed's warp_max: fmaxf with __shfl_down_sync, offset 16 -> 1",
                 "原文的 warp_max：fmaxf 配合 __shfl_down_sync，offset 从 16 到 1")
        .source("kernels/warp_shuffle.cu", "warp_max_kernel")
        .input("iota", warpviz::one_warp)
        .run<f32>([](warpviz::Session& s, auto) { run_one_warp<f32>(s, warp_max_kernel<f32>); });

static const warpviz::ScenarioRegistrar reduce_sum_scenario =
    warpviz::ScenarioDeclaration("reduce_sum", 60)
        .summary("the seed's two-level reduce_sum: warp_sum, warp sums through shared memory, warp 0 again",
                 "原文的两级 reduce_sum：先 warp_sum，各 warp 的和经共享内存交给 warp 0 再归约")
        .source("kernels/warp_shuffle.cu", "reduce_sum")
        .param(warpviz::int_param("n", "1024", 1, int64_t(1) << 26, "number of input elements"))
        .param(warpviz::int_param("block", "256", 32, 1024, "threads per block (a multiple of 32)"))
        .input("ones", [](const warpviz::ParamValues& p) { return size_t(p.get_int("n")); })
        .block_reduction()
        .run<f32>([](warpviz::Session& s, auto) { run_reduce_sum<f32>(s); });
