/**
 * Bit intrinsics per lane: __popc, __ffs, __clz, __brev and __fns. Scenario bits.
 * Not warp collectives, but the building blocks of ballot arithmetic
 * (__ffs(ballot) - 1, __popc(ballot & lanes below), coalesced groups' __fns).
 * Each result is a watched variable, one step per intrinsic.
 */
#include "warpviz/record.cuh"
#include "warpviz/session.h"

__global__ void bits_kernel(const unsigned* input, unsigned fns_mask, int fns_offset, int* popc_out, int* ffs_out,
                            int* clz_out, unsigned* brev_out, unsigned* fns_out) {
    int lane = threadIdx.x % 32;
    unsigned x = input[lane];
    // Per-lane intrinsics are no warp steps: each result is watched, so the
    // lanes, the timeline and presentation mode have a step to show for it.
    int popc = __popc(x);
    WARPVIZ_WATCH(popc);
    int ffs = __ffs(int(x));                // 1-based; __ffs(0) = 0
    WARPVIZ_WATCH(ffs);
    int clz = __clz(int(x));                // __clz(0) = 32
    WARPVIZ_WATCH(clz);
    unsigned brev = __brev(x);
    WARPVIZ_WATCH(brev);
    unsigned fns = __fns(fns_mask, unsigned(lane), fns_offset);   // 0xffffffff when there is no such bit
    WARPVIZ_WATCH(fns);
    popc_out[lane] = popc;
    ffs_out[lane] = ffs;
    clz_out[lane] = clz;
    brev_out[lane] = brev;
    fns_out[lane] = fns;
}

// ==================== 主机端: what warpviz-cli runs ====================
void run_bits(warpviz::Session& s) {
    auto input = s.input<unsigned>();
    auto popc = s.alloc<int>(32), ffs = s.alloc<int>(32), clz = s.alloc<int>(32);
    auto brev = s.alloc<unsigned>(32), fns = s.alloc<unsigned>(32);
    s.launch(bits_kernel, dim3{1}, dim3{32}, input.ptr(), s.param_mask("fns_mask"), int(s.param_int("fns_offset")),
             popc.ptr(), ffs.ptr(), clz.ptr(), brev.ptr(), fns.ptr());
    s.output("out", popc);
    s.output("ffs", ffs);
    s.output("clz", clz);
    s.output("brev", brev);
    s.output("fns", fns);
}

// ==================== The scenario ====================
static const warpviz::ScenarioRegistrar bits_scenario =
    warpviz::ScenarioDeclaration("bits", 150)
        .summary("per-lane bit intrinsics: __popc, __ffs, __clz, __brev, __fns(fns_mask, lane, fns_offset)",
                 "逐 lane 的位运算内建函数：__popc、__ffs、__clz、__brev、__fns(fns_mask, lane, fns_offset)")
        .source("kernels/bits.cu", "bits_kernel")
        .param(warpviz::mask_param("fns_mask", "mask searched by __fns", "0x00ff00f1"))
        .param(warpviz::int_param("fns_offset", "1", -32, 32, "offset passed to __fns"))
        .input("iota", warpviz::one_warp)
        .run<unsigned>([](warpviz::Session& s, auto) { run_bits(s); });
