/**
 * Cooperative Groups：现代写法 (seeds/001). Scenarios cg_reduce, cg_scan, coalesced.
 *
 * CG 把 mask/sync 的心智负担收进 API. Underneath, a tile's shfl_down is
 * __shfl_down_sync(tile mask, v, d, tile size), and cg::reduce takes the
 * hardware redux path for int with cg::plus/less/greater on a tile of >= 16,
 * and the xor butterfly otherwise (floats, smaller tiles).
 */
#include "warpviz/record.cuh"
#include "warpviz/session.h"

namespace cg = cooperative_groups;

enum CgOp { CG_PLUS = 0, CG_LESS = 1, CG_GREATER = 2 };

template <typename T>
__global__ void cg_reduce_kernel(const T* input, int op, T* out, T* down_out) {
    auto block = cg::this_thread_block();
    auto warp  = cg::tiled_partition<32>(block);   // 显式把线程分组成 warp

    T value = input[warp.thread_rank()];
    T v = warp.shfl_down(value, 1);                 // 不用记 mask 和 _sync
    down_out[warp.thread_rank()] = v;
    if (op == CG_LESS) {
        v = cg::reduce(warp, value, cg::less<T>());
    } else if (op == CG_GREATER) {
        v = cg::reduce(warp, value, cg::greater<T>());
    } else {
        v = cg::reduce(warp, value, cg::plus<T>());  // 现成的归约
    }
    WARPVIZ_WATCH(v);
    out[warp.thread_rank()] = v;
}

template <unsigned TileSize, typename T>
__global__ void cg_scan_kernel(const T* input, T* out, T* inclusive_out) {
    auto tile = cg::tiled_partition<TileSize>(cg::this_thread_block());
    T value = input[threadIdx.x];
    inclusive_out[threadIdx.x] = cg::inclusive_scan(tile, value);
    out[threadIdx.x] = cg::exclusive_scan(tile, value);
}

// coalesced_threads() inside a branch: the group is whoever took it.
template <typename T>
__global__ void coalesced_kernel(const T* input, unsigned active, T* first_out, T* down_out, T* up_out,
                                 int* rank_out) {
    int lane = threadIdx.x % 32;
    T v = input[lane];
    if (active & (1u << lane)) {
        auto group = cg::coalesced_threads();
        first_out[lane] = group.shfl(v, 0);         // the lowest member's value
        down_out[lane] = group.shfl_down(v, 1);     // the next member up, or my own
        up_out[lane] = group.shfl_up(v, 1);         // the next member down, or my own
        rank_out[lane] = group.thread_rank();
    }
}

// ==================== 主机端: what warpviz-cli runs ====================
template <typename T>
void run_cg_reduce(warpviz::Session& s) {
    const std::string& op_name = s.param("op");
    const int op = op_name == "less" ? CG_LESS : op_name == "greater" ? CG_GREATER : CG_PLUS;
    auto input = s.input<T>();
    auto out = s.alloc<T>(32), down = s.alloc<T>(32);
    s.launch(cg_reduce_kernel<T>, dim3{1}, dim3{32}, input.ptr(), op, out.ptr(), down.ptr());
    s.output("out", out);
    s.output("shfl_down", down);
}

template <unsigned TileSize, typename T>
void run_cg_scan_tile(warpviz::Session& s) {
    auto input = s.input<T>();
    auto out = s.alloc<T>(32), inclusive = s.alloc<T>(32);
    s.launch(cg_scan_kernel<TileSize, T>, dim3{1}, dim3{32}, input.ptr(), out.ptr(), inclusive.ptr());
    s.output("out", out);
    s.output("inclusive", inclusive);
}

template <typename T>
void run_cg_scan(warpviz::Session& s) {
    switch (s.param_int("tile")) {
        case 1: run_cg_scan_tile<1, T>(s); break;
        case 2: run_cg_scan_tile<2, T>(s); break;
        case 4: run_cg_scan_tile<4, T>(s); break;
        case 8: run_cg_scan_tile<8, T>(s); break;
        case 16: run_cg_scan_tile<16, T>(s); break;
        case 32: run_cg_scan_tile<32, T>(s); break;
        default: throw warpviz::ScenarioError("cg_scan: tile=" + s.param("tile") + " has no host code");
    }
}

template <typename T>
void run_coalesced(warpviz::Session& s) {
    auto input = s.input<T>();
    auto first = s.alloc<T>(32), down = s.alloc<T>(32), up = s.alloc<T>(32);
    auto rank = s.alloc<int>(32, -1);
    s.launch(coalesced_kernel<T>, dim3{1}, dim3{32}, input.ptr(), s.param_mask("active"), first.ptr(), down.ptr(),
             up.ptr(), rank.ptr());
    s.output("out", first);
    s.output("shfl_down", down);
    s.output("shfl_up", up);
    s.output("rank", rank);
}

// ==================== The scenarios: one declaration each ====================
static const warpviz::ScenarioRegistrar cg_reduce_scenario =
    warpviz::ScenarioDeclaration("cg_reduce", 120)
        .summary("cooperative groups: tiled_partition<32>, tile.shfl_down, cg::reduce(tile, v, op)",
                 "协作组：tiled_partition<32>、tile.shfl_down、cg::reduce(tile, v, op)")
        .source("kernels/cooperative_groups.cu", "cg_reduce_kernel")
        .param(warpviz::choice_param("op", "plus", {"plus", "less", "greater"}, "cg operator"))
        .input("iota", warpviz::one_warp)
        .run<warpviz::device_f32, int>([](warpviz::Session& s, auto value) {
            run_cg_reduce<typename decltype(value)::type>(s);
        });

static const warpviz::ScenarioRegistrar cg_scan_scenario =
    warpviz::ScenarioDeclaration("cg_scan", 130)
        .summary("cooperative groups: inclusive_scan and exclusive_scan over tiles",
                 "协作组：在 tile 上做 inclusive_scan 和 exclusive_scan")
        .source("kernels/cooperative_groups.cu", "cg_scan_kernel")
        .param(warpviz::choice_param("tile", "8", {"1", "2", "4", "8", "16", "32"}, "tile size"))
        .input("iota", warpviz::one_warp)
        .run<warpviz::device_f32, int>([](warpviz::Session& s, auto value) {
            run_cg_scan<typename decltype(value)::type>(s);
        });

static const warpviz::ScenarioRegistrar coalesced_scenario =
    warpviz::ScenarioDeclaration("coalesced", 140)
        .summary("coalesced_threads() in a branch: shfl(v, 0), shfl_down(v, 1), shfl_up(v, 1)",
                 "分支中的 coalesced_threads()：shfl(v, 0)、shfl_down(v, 1)、shfl_up(v, 1)")
        .source("kernels/cooperative_groups.cu", "coalesced_kernel")
        .param(warpviz::mask_param("active", "lanes that take the branch", "0xaaaaaaaa"))
        .input("iota", warpviz::one_warp)
        .run<int, warpviz::device_f32>([](warpviz::Session& s, auto value) {
            run_coalesced<typename decltype(value)::type>(s);
        });
