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

void register_scenarios(warpviz::RunnerTable& runners) {
    runners["match"] = [](warpviz::Session& s) {
        switch (s.dtype()) {
            case warpviz::DType::U32: run_match<unsigned>(s); break;
            case warpviz::DType::F32: run_match<warpviz::device_f32>(s); break;
            case warpviz::DType::F64: run_match<warpviz::device_f64>(s); break;
            default: run_match<int>(s); break;
        }
    };
    runners["redux"] = [](warpviz::Session& s) {
        if (s.dtype() == warpviz::DType::U32) run_redux<unsigned>(s);
        else run_redux<int>(s);
    };
}
