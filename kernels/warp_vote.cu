/**
 * Warp 投票：集体判断 (seeds/001). Scenarios vote and compact.
 *
 * ballot + popc 组合是流压缩（stream compaction）的原语：谁的数据有效、
 * 有效数据排到哪，一次指令全知道。
 */
#include "warpviz/record.cuh"
#include "warpviz/session.h"

template <typename T>
__global__ void vote_kernel(const T* input, unsigned mask, int raw_predicate, unsigned* ballot_out, int* any_out,
                            int* all_out, int* first_out, int* count_out) {
    int lane = threadIdx.x % 32;
    T value = input[lane];
    if (!(mask & (1u << lane))) return;            // lanes outside the mask do not vote

    bool pred = value > T(0);
    int p = raw_predicate ? int(value) : int(pred);   // raw: any non-zero value counts as true
    bool any  = __any_sync(mask, p);                // warp 内有人满足？
    bool all  = __all_sync(mask, p);                // 全部满足？
    unsigned ballot = __ballot_sync(mask, p);       // 每位 = 对应 lane 的判断
    int first = __ffs(ballot) - 1;                  // 第一个满足的 lane 编号
    int count = __popc(ballot);                     // 满足的线程数

    ballot_out[lane] = ballot;
    any_out[lane] = any;
    all_out[lane] = all;
    first_out[lane] = first;
    count_out[lane] = count;
}

// 筛出非零元素紧凑存放: each kept lane's slot is the number of kept lanes below it.
template <typename T>
__global__ void compact_kernel(const T* input, T* out, int* slot_out, int* count_out) {
    int lane = threadIdx.x % 32;
    T value = input[lane];
    bool keep = value != T(0);
    unsigned ballot = __ballot_sync(0xffffffff, keep);
    unsigned lanes_below = (1u << lane) - 1;
    int slot = __popc(ballot & lanes_below);
    if (keep) out[slot] = value;
    slot_out[lane] = keep ? slot : -1;
    count_out[lane] = __popc(ballot);
}

// ==================== 主机端: what warpviz-cli runs ====================
template <typename T>
void run_vote(warpviz::Session& s) {
    auto input = s.input<T>();
    auto ballot = s.alloc<unsigned>(32);
    auto any = s.alloc<int>(32), all = s.alloc<int>(32), first = s.alloc<int>(32), count = s.alloc<int>(32);
    s.launch(vote_kernel<T>, dim3{1}, dim3{32}, input.ptr(), s.param_mask("mask"), int(s.param("predicate") == "raw"),
             ballot.ptr(), any.ptr(), all.ptr(), first.ptr(), count.ptr());
    s.output("out", ballot);
    s.output("any", any);
    s.output("all", all);
    s.output("first", first);
    s.output("count", count);
}

template <typename T>
void run_compact(warpviz::Session& s) {
    auto input = s.input<T>();
    auto out = s.alloc<T>(32);
    auto slot = s.alloc<int>(32), count = s.alloc<int>(32);
    s.launch(compact_kernel<T>, dim3{1}, dim3{32}, input.ptr(), out.ptr(), slot.ptr(), count.ptr());
    s.output("out", out);
    s.output("slot", slot);
    s.output("count", count);
}

// ==================== The scenarios: one declaration each ====================
static const warpviz::ScenarioRegistrar vote_scenario =
    warpviz::ScenarioDeclaration("vote", 80)
        .summary("the article's vote: pred = value > 0; ballot, any, all, __ffs(ballot) - 1, __popc(ballot)",
                 "原文的投票：pred = value > 0；ballot、any、all、__ffs(ballot) - 1、__popc(ballot)")
        .source("kernels/warp_vote.cu", "vote_kernel")
        .param(warpviz::choice_param("predicate", "positive", {"positive", "raw"},
                                     "positive: value > 0 (the article); raw: the value itself, any non-zero is true"))
        .param(warpviz::mask_param("mask", "member mask of the votes"))
        .input("random:1", warpviz::one_warp)
        .run<int, warpviz::device_f32>([](warpviz::Session& s, auto value) {
            run_vote<typename decltype(value)::type>(s);
        });

static const warpviz::ScenarioRegistrar compact_scenario =
    warpviz::ScenarioDeclaration("compact", 90)
        .summary("stream compaction: keep non-zero values, slot = popc(ballot & lanes below)",
                 "流压缩：保留非零值，写入位置 = popc(ballot & 更低编号的 lane)")
        .source("kernels/warp_vote.cu", "compact_kernel")
        .input("values:5,0,0,7,1,0,3,0,0,0,2,8,0,0,0,4,6,0,0,0,9,0,1,0,0,3,0,0,5,0,0,2", warpviz::one_warp)
        .compaction()
        .run<int, warpviz::device_f32>([](warpviz::Session& s, auto value) {
            run_compact<typename decltype(value)::type>(s);
        });
