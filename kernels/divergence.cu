/**
 * 分支发散 (divergence, seeds/001): 分支会让 warp 内两条路径串行各跑一遍.
 * Scenario divergence.
 *
 * Two branches, each path with warp ops over the lanes that took it, and a
 * warp op after they join. Each path's mask is voted by every lane with
 * __ballot_sync before the branch, not read with __activemask() inside it:
 * __activemask() says who is converged at that instant, and under independent
 * thread scheduling (Volta and later) that need not be every lane of the path.
 */
#include "warpviz/record.cuh"
#include "warpviz/session.h"

template <typename T>
__global__ void divergence_kernel(const T* input, T threshold, T* neighbour_out, unsigned* parity_ballot_out,
                                  T* first_out, unsigned* side_ballot_out, unsigned* out) {
    const unsigned FULL = 0xffffffff;
    int lane = threadIdx.x % 32;
    T value = input[lane];

    // ---- 1. 按 lane 奇偶分支：a branch on lane parity ----
    const unsigned odd = __ballot_sync(FULL, lane & 1);   // every lane votes before the branch: 0xaaaaaaaa
    T neighbour;
    unsigned parity_ballot;
    if (lane & 1) {
        // Rule: a lane calling a *_sync op must be in its mask, and every lane
        // the mask names must run this same op: odd names exactly the odd lanes.
        neighbour = __shfl_down_sync(odd, value, 2);             // lane + 2 is odd too; lane 31 keeps its own
        parity_ballot = __ballot_sync(odd, neighbour > value);   // bits of odd lanes only
    } else {
        // Rule as above, with the even lanes' mask ~odd; lane ^ 2 is even too.
        neighbour = __shfl_xor_sync(~odd, value, 2);
        parity_ballot = __ballot_sync(~odd, neighbour > value);  // bits of even lanes only
    }

    // ---- 2. 数据相关的分支：a branch on the data ----
    const unsigned above = __ballot_sync(FULL, value > threshold);   // the lanes that will take the if
    T first;
    unsigned side_ballot;
    if (value > threshold) {
        // Rule: the mask is exactly the lanes here; the source lane (the lowest
        // of them) is in the mask and active, so the value it reads is defined.
        first = __shfl_sync(above, value, __ffs(above) - 1);
        side_ballot = __ballot_sync(above, value >= threshold + T(5));    // far above, among the lanes above
    } else {
        // Rule as above, with the other lanes' mask ~above.
        first = __shfl_sync(~above, value, __ffs(~above) - 1);
        side_ballot = __ballot_sync(~above, value == threshold);         // exactly at it, among the rest
    }

    // ---- 3. 汇合：all 32 lanes again ----
    const unsigned rising = __ballot_sync(FULL, neighbour > value);   // both parity paths' ballots in one word

    neighbour_out[lane] = neighbour;
    parity_ballot_out[lane] = parity_ballot;
    first_out[lane] = first;
    side_ballot_out[lane] = side_ballot;
    out[lane] = rising;
}

// ==================== 主机端: what warpviz-cli runs ====================
template <typename T>
void run_divergence(warpviz::Session& s) {
    auto input = s.input<T>();
    auto neighbour = s.alloc<T>(32), first = s.alloc<T>(32);
    auto parity_ballot = s.alloc<unsigned>(32), side_ballot = s.alloc<unsigned>(32), rising = s.alloc<unsigned>(32);
    s.launch(divergence_kernel<T>, dim3{1}, dim3{32}, input.ptr(), T(int(s.param_int("threshold"))), neighbour.ptr(),
             parity_ballot.ptr(), first.ptr(), side_ballot.ptr(), rising.ptr());
    s.output("out", rising);
    s.output("neighbour", neighbour);
    s.output("parity_ballot", parity_ballot);
    s.output("first", first);
    s.output("side_ballot", side_ballot);
}

// ==================== The scenario ====================
static const warpviz::ScenarioRegistrar divergence_scenario =
    warpviz::ScenarioDeclaration("divergence", 85)
        .summary("divergence: a branch on lane parity and one on the data, each path's shuffle and ballot "
                 "over its own mask, a ballot after they join",
                 "分支发散：按 lane 奇偶分支、按数据分支，每条路径在自己的掩码上做 shuffle 和 ballot，"
                 "汇合后再做一次 ballot")
        .source("kernels/divergence.cu", "divergence_kernel")
        .param(warpviz::int_param("threshold", "0", -100, 100, "the data branch: lanes with value > threshold take the if"))
        .input("random:1", warpviz::one_warp)
        .run<int, warpviz::device_f32>([](warpviz::Session& s, auto value) {
            run_divergence<typename decltype(value)::type>(s);
        });
