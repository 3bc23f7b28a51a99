/**
 * Match (sm_70+) and redux (sm_80+): whole-warp answers in one instruction.
 * Scenarios match and redux.
 *
 * __match_*_sync compares bits: -0.0f and +0.0f differ, NaNs match only when
 * their payloads do. __reduce_*_sync wraps at 32 bits, and the overload (int
 * or unsigned) decides whether min/max compare signed.
 */
#include "warpviz/record.cuh"
#include "warpviz/session.h"

template <typename T>
__global__ void match_kernel(const T* input, unsigned mask, unsigned* any_out, unsigned* all_out, int* pred_out) {
    int lane = threadIdx.x % 32;
    T value = input[lane];
    if (!(mask & (1u << lane))) return;

    unsigned same = __match_any_sync(mask, value);     // lanes holding my value
    int pred = 0;
    unsigned all = __match_all_sync(mask, value, &pred);  // mask if everyone agrees, else 0

    any_out[lane] = same;
    all_out[lane] = all;
    pred_out[lane] = pred;
}

template <typename T>
__global__ void redux_kernel(const T* input, unsigned mask, T* add_out, T* min_out, T* max_out,
                             unsigned* and_out, unsigned* or_out, unsigned* xor_out) {
    int lane = threadIdx.x % 32;
    T value = input[lane];
    if (!(mask & (1u << lane))) return;

    add_out[lane] = __reduce_add_sync(mask, value);
    min_out[lane] = __reduce_min_sync(mask, value);
    max_out[lane] = __reduce_max_sync(mask, value);
    and_out[lane] = __reduce_and_sync(mask, unsigned(value));
    or_out[lane] = __reduce_or_sync(mask, unsigned(value));
    xor_out[lane] = __reduce_xor_sync(mask, unsigned(value));
}

// ==================== 主机端: what warpviz-cli runs ====================
template <typename T>
void run_match(warpviz::Session& s) {
    auto input = s.input<T>();
    auto any = s.alloc<unsigned>(32), all = s.alloc<unsigned>(32);
    auto pred = s.alloc<int>(32);
    s.launch(match_kernel<T>, dim3{1}, dim3{32}, input.ptr(), s.param_mask("mask"), any.ptr(), all.ptr(), pred.ptr());
    s.output("out", any);
    s.output("all", all);
    s.output("pred", pred);
}

template <typename T>
void run_redux(warpviz::Session& s) {
    auto input = s.input<T>();
    auto add = s.alloc<T>(32), min = s.alloc<T>(32), max = s.alloc<T>(32);
    auto and_ = s.alloc<unsigned>(32), or_ = s.alloc<unsigned>(32), xor_ = s.alloc<unsigned>(32);
    s.launch(redux_kernel<T>, dim3{1}, dim3{32}, input.ptr(), s.param_mask("mask"), add.ptr(), min.ptr(), max.ptr(),
             and_.ptr(), or_.ptr(), xor_.ptr());
    s.output("out", add);
    s.output("min", min);
    s.output("max", max);
    s.output("and", and_);
    s.output("or", or_);
    s.output("xor", xor_);
}

// ==================== The scenarios: one declaration each ====================
static const warpviz::ScenarioRegistrar match_scenario =
    warpviz::ScenarioDeclaration("match", 100)
        .summary("__match_any_sync and __match_all_sync: lanes holding identical bits",
                 "__match_any_sync 和 __match_all_sync：找出持有相同位模式的 lane")
        .source("kernels/match_redux.cu", "match_kernel")
        .param(warpviz::mask_param("mask", "member mask"))
        .input("values:3,1,4,1,5,9,2,6,5,3,5,8,9,7,9,3,2,3,8,4,6,2,6,4,3,3,8,3,2,7,9,5", warpviz::one_warp)
        .run<int, unsigned, warpviz::device_f32, warpviz::device_f64>([](warpviz::Session& s, auto value) {
            run_match<typename decltype(value)::type>(s);
        });

static const warpviz::ScenarioRegistrar redux_scenario =
    warpviz::ScenarioDeclaration("redux", 110)
        .summary("__reduce_add/min/max/and/or/xor_sync over the lanes in the mask",
                 "__reduce_add/min/max/and/or/xor_sync：对 mask 中的 lane 做归约")
        .source("kernels/match_redux.cu", "redux_kernel")
        .param(warpviz::mask_param("mask", "member mask (lanes outside it do not run the reductions)"))
        .input("random:1", warpviz::one_warp)
        .run<int, unsigned>([](warpviz::Session& s, auto value) { run_redux<typename decltype(value)::type>(s); });
