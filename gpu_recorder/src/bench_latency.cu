// warpviz-cli bench latency: what one warp op costs on this GPU, set beside the
// article's claims that shuffles "延迟以个位数 cycle 计" (have single-digit-cycle
// latency) and that exchanging registers beats going through shared memory.
//
// Latency: one warp runs a chain of kChain ops, each op's input the previous
// op's result, timed with clock64. ptxas folds what it can prove (an add of the
// same value 64 times becomes one multiply-add; a constant-lane shuffle of a
// value every lane holds is the value itself), so each link adds `d`, a
// per-lane register the compiler cannot see through (lane * k, k = 0 at run
// time): one dependent IADD3 per link that keeps the values different by lane.
// The cost of that add comes from a chain of adds that cannot fold (two
// registers adding into each other in turn) and is subtracted. Shared loads
// chase pointers (each word holds the shared address of the next), so they
// need no add at all; volatile accesses keep ptxas from forwarding a store to
// the load after it. scripts/gpu-check.sh (costs) counts each chain's
// instructions in the SASS to show nothing was folded.
// Throughput: every SM full of 256-thread blocks, each thread running
// kIndependentChains chains side by side; warp-ops per SM per cycle, from each
// SM's own clock.
#include "warpviz/device_array.h"
#include "warpviz/cuda_timing.h"

#include <algorithm>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "warpviz/cuda_backend.h"
#include "warpviz/latency_benchmark.h"

namespace warpviz_bench_latency {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kChain = 4096;
constexpr int kUnroll = 64;
constexpr int kIndependentChains = 8;
constexpr int kThroughputIterations = 512;
constexpr int kBlock = 256;

__device__ __forceinline__ uint32_t add(uint32_t x, uint32_t d) { return x + d; }

__device__ __forceinline__ uint32_t ld_shared(uint32_t address) {
    uint32_t value;
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(value) : "r"(address) : "memory");
    return value;
}

__device__ __forceinline__ void st_shared(uint32_t address, uint32_t value) {
    asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(address), "r"(value) : "memory");
}

// The shared table: 32 x 32 words, each holding the shared address of the
// word its chain visits next. Word (row, col) lies in bank col (4-byte banks).
enum class Layout { Columns, Rows };
//   Columns: a lane keeps to its own column (bank = lane) and walks down the
//            rows: 32 lanes, 32 banks, conflict-free.
//   Rows:    a lane keeps to its own row and walks along it: every lane is in
//            the same column at once, so the same bank, 32 different words:
//            a 32-way conflict.
__device__ void fill_table(uint32_t* table, Layout layout) {
    const uint32_t base = uint32_t(__cvta_generic_to_shared(table));
    for (int w = threadIdx.x; w < 32 * 32; w += blockDim.x) {
        const int row = w / 32, col = w % 32;
        const int next = layout == Layout::Columns ? ((row + 1) % 32) * 32 + col : row * 32 + (col + 1) % 32;
        table[w] = base + 4u * uint32_t(next);
    }
}

// Where chain `chain` of lane `lane` starts.
__device__ uint32_t table_start(const uint32_t* table, Layout layout, int lane, int chain) {
    const uint32_t base = uint32_t(__cvta_generic_to_shared(table));
    const int word = layout == Layout::Columns ? (chain % 32) * 32 + lane : lane * 32 + chain % 32;
    return base + 4u * uint32_t(word);
}

// The ops. `link` is one link of a chain.
// The add alone: two registers adding into each other in turn, so each add
// waits for the one before and no closed form exists for ptxas to find. `y`
// lives in the kernel (kAlternating): link() sees it through `d`.
struct Alu {
    static constexpr bool kShared = false;
    static constexpr bool kAlternating = true;
    __device__ static uint32_t link(uint32_t x, uint32_t d) { return x + d; }
};
struct ShflIdxConstant {
    static constexpr bool kShared = false;
    __device__ static uint32_t link(uint32_t x, uint32_t k) { return add(__shfl_sync(kFull, x, 5), k); }
};
struct ShflIdxData {  // the source lane is the value itself (shfl reads its low 5 bits)
    static constexpr bool kShared = false;
    __device__ static uint32_t link(uint32_t x, uint32_t k) { return add(__shfl_sync(kFull, x, int(x)), k); }
};
struct ShflUp {
    static constexpr bool kShared = false;
    __device__ static uint32_t link(uint32_t x, uint32_t k) { return add(__shfl_up_sync(kFull, x, 1), k); }
};
struct ShflDown {
    static constexpr bool kShared = false;
    __device__ static uint32_t link(uint32_t x, uint32_t k) { return add(__shfl_down_sync(kFull, x, 1), k); }
};
struct ShflBfly {
    static constexpr bool kShared = false;
    __device__ static uint32_t link(uint32_t x, uint32_t k) { return add(__shfl_xor_sync(kFull, x, 1), k); }
};
struct Ballot {  // the predicate x & 1 costs a logic op too
    static constexpr bool kShared = false;
    __device__ static uint32_t link(uint32_t x, uint32_t k) { return add(__ballot_sync(kFull, x & 1u), k); }
};
struct Any {
    static constexpr bool kShared = false;
    __device__ static uint32_t link(uint32_t x, uint32_t k) { return add(uint32_t(__any_sync(kFull, x & 1u)), k); }
};
// activemask has no operand: left alone, ptxas hoists it out of the loop. Under
// a branch on the chain's value it cannot move (the lanes inside a branch are
// its result), so the link is compare, activemask, add.
struct ActiveMask {
    static constexpr bool kShared = false;
    __device__ static uint32_t link(uint32_t x, uint32_t d) {
        if (x != 0x7fffffffu) x += __activemask();
        return add(x, d);
    }
};
struct MatchAny {
    static constexpr bool kShared = false;
    __device__ static uint32_t link(uint32_t x, uint32_t k) { return add(__match_any_sync(kFull, x), k); }
};
struct ReduxAdd {
    static constexpr bool kShared = false;
    __device__ static uint32_t link(uint32_t x, uint32_t k) { return add(__reduce_add_sync(kFull, x), k); }
};
struct LdShared {
    static constexpr bool kShared = true;
    __device__ static uint32_t link(uint32_t x, uint32_t) { return ld_shared(x); }
};
struct StLdShared {  // store the word's own content back, then load it: a round trip through the bank
    static constexpr bool kShared = true;
    __device__ static uint32_t link(uint32_t x, uint32_t) {
        st_shared(x, x + 0u);
        return ld_shared(x);
    }
};

template <class Op, class = void>
struct Alternating { static constexpr bool value = false; };
template <class Op>
struct Alternating<Op, decltype(void(Op::kAlternating))> { static constexpr bool value = Op::kAlternating; };

// Latency: one warp, one chain. cycles[0] = the chain's clock64 cycles.
template <class Op, Layout kLayout>
__global__ void latency_chain(uint32_t k, uint32_t* sink, long long* cycles) {
    __shared__ uint32_t table[32 * 32];
    const int lane = threadIdx.x;
    uint32_t x = uint32_t(lane);
    uint32_t d = uint32_t(lane) * k;  // 0 at run time, a different register value per lane to ptxas
    if constexpr (Op::kShared) {
        fill_table(table, kLayout);
        __syncwarp();
        x = table_start(table, kLayout, lane, 0);
    }
    __syncwarp();
    const long long start = clock64();
    for (int i = 0; i < kChain; i += kUnroll) {
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            if constexpr (Alternating<Op>::value) {
                if (u % 2 == 0) x = Op::link(x, d);
                else d = Op::link(d, x);
            } else {
                x = Op::link(x, d);
            }
        }
    }
    const long long stop = clock64();
    sink[lane] = x ^ d;  // the chain's result is used: nothing of it is dead
    if (lane == 0) cycles[0] = stop - start;
}

__device__ uint32_t sm_id() {
    uint32_t id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

// Throughput: every thread runs kIndependentChains chains; per block, the SM
// it ran on and its first and last clock64.
template <class Op, Layout kLayout>
__global__ void __launch_bounds__(kBlock) throughput_chains(uint32_t k, uint32_t* sink, long long* spans) {
    __shared__ uint32_t table[32 * 32];
    const int lane = threadIdx.x % 32;
    const uint32_t d = uint32_t(threadIdx.x) * k;  // as in latency_chain
    uint32_t x[kIndependentChains];
    if constexpr (Op::kShared) fill_table(table, kLayout);
    __syncthreads();
#pragma unroll
    for (int c = 0; c < kIndependentChains; ++c)
        x[c] = Op::kShared ? table_start(table, kLayout, lane, c + int(threadIdx.x / 32)) : uint32_t(threadIdx.x + c);
    __syncthreads();
    const long long start = clock64();
    for (int i = 0; i < kThroughputIterations; ++i) {
#pragma unroll
        for (int c = 0; c < kIndependentChains; ++c) x[c] = Op::link(x[c], d);
    }
    __syncthreads();
    const long long stop = clock64();
    uint32_t all = 0;
#pragma unroll
    for (int c = 0; c < kIndependentChains; ++c) all ^= x[c];
    sink[blockIdx.x * blockDim.x + threadIdx.x] = all;
    if (threadIdx.x == 0) {
        spans[3 * blockIdx.x] = sm_id();
        spans[3 * blockIdx.x + 1] = start;
        spans[3 * blockIdx.x + 2] = stop;
    }
}

}  // namespace warpviz_bench_latency

namespace warpviz {
namespace {

namespace kl = warpviz_bench_latency;
constexpr int kTries = 5;  // the first run also warms the instruction cache; the fastest counts

template <class Op, kl::Layout kLayout = kl::Layout::Columns>
double chain_cycles_per_link() {
  DeviceArray<uint32_t> sink(32, 0u);
  DeviceArray<long long> cycles(1, 0ll);
  double best = 1e30;
  for (int t = 0; t < kTries; ++t) {
    kl::latency_chain<Op, kLayout><<<1, 32>>>(0u, sink.ptr(), cycles.ptr());
    cuda_check(cudaGetLastError(), "latency chain launch");
    cuda_check(cudaDeviceSynchronize(), "latency chain");
    best = std::min(best, double(cycles.download()[0]) / kl::kChain);
  }
  return best;
}

template <class Op, kl::Layout kLayout = kl::Layout::Columns>
double warp_ops_per_sm_per_cycle(int sm_count) {
  int blocks_per_sm = 0;
  cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kl::throughput_chains<Op, kLayout>,
                                                           kl::kBlock, 0),
             "occupancy");
  // Every block resident at once: all SMs full for the whole measurement.
  const int grid = sm_count * std::max(blocks_per_sm, 1);
  DeviceArray<uint32_t> sink(size_t(grid) * kl::kBlock, 0u);
  DeviceArray<long long> spans(size_t(grid) * 3, 0ll);
  double best = 0;
  for (int t = 0; t < kTries; ++t) {
    kl::throughput_chains<Op, kLayout><<<grid, kl::kBlock>>>(0u, sink.ptr(), spans.ptr());
    cuda_check(cudaGetLastError(), "throughput launch");
    cuda_check(cudaDeviceSynchronize(), "throughput");
    const std::vector<long long> s = spans.download();
    // Per SM: its blocks' warp-ops over the span of its own clock.
    std::map<long long, std::pair<long long, long long>> span_of_sm;
    std::map<long long, int> blocks_of_sm;
    for (int b = 0; b < grid; ++b) {
      auto [it, fresh] = span_of_sm.try_emplace(s[3 * b], s[3 * b + 1], s[3 * b + 2]);
      if (!fresh) {
        it->second.first = std::min(it->second.first, s[3 * b + 1]);
        it->second.second = std::max(it->second.second, s[3 * b + 2]);
      }
      ++blocks_of_sm[s[3 * b]];
    }
    std::vector<double> rates;
    const double ops_per_block = double(kl::kBlock / 32) * kl::kThroughputIterations * kl::kIndependentChains;
    for (const auto& [sm, span] : span_of_sm)
      rates.push_back(blocks_of_sm[sm] * ops_per_block / double(span.second - span.first));
    best = std::max(best, median_of(rates));
  }
  return best;
}

template <class Op, kl::Layout kLayout = kl::Layout::Columns>
void measure(LatencyBenchmark* result, const std::string& op, const std::string& variant, bool has_add,
             const std::string& how, std::ostream& log) {
  log << "  " << op << (variant.empty() ? "" : " (" + variant + ")") << "\n" << std::flush;
  OpCost cost;
  cost.op = op;
  cost.variant = variant;
  cost.how = how;
  cost.chain_cycles = chain_cycles_per_link<Op, kLayout>();
  cost.latency_cycles = cost.chain_cycles - (has_add ? result->alu_cycles : 0.0);
  cost.ops_per_sm_per_cycle = warp_ops_per_sm_per_cycle<Op, kLayout>(result->on.sm_count);
  result->ops.push_back(cost);
}

}  // namespace

int run_latency_benchmark(std::ostream& log, LatencyBenchmark* result) {
  CudaDeviceInfo device;
  std::string why;
  if (!cuda_device_present(&device, &why)) {
    std::cerr << "warpviz-cli bench latency: no GPU to time: " << why << "\n";
    return 2;
  }
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  result->on = measured_on_this_gpu();
  result->chain_length = kl::kChain;
  log << "bench latency on " << device.name << ": chains of " << kl::kChain << " dependent ops in one warp\n"
      << std::flush;

  result->alu_cycles = chain_cycles_per_link<kl::Alu>();
  const std::string with_add = "chain of op + dependent add of a per-lane register; an unfoldable add chain's cycles subtracted";
  measure<kl::ShflIdxConstant>(result, "shfl.idx", "constant source lane", true, with_add, log);
  measure<kl::ShflIdxData>(result, "shfl.idx", "data-dependent source lane", true, with_add, log);
  measure<kl::ShflUp>(result, "shfl.up", "", true, with_add, log);
  measure<kl::ShflDown>(result, "shfl.down", "", true, with_add, log);
  measure<kl::ShflBfly>(result, "shfl.bfly", "", true, with_add, log);
  measure<kl::Ballot>(result, "vote.ballot", "", true, with_add + "; includes the and that makes the predicate", log);
  measure<kl::Any>(result, "vote.any", "", true, with_add + "; includes the and that makes the predicate", log);
  measure<kl::ActiveMask>(result, "activemask", "", true,
                          "no operand to chain through: activemask under a branch on x, then x += it; includes the "
                          "compare that guards it",
                          log);
  measure<kl::MatchAny>(result, "match.any", "", true, with_add, log);
  measure<kl::ReduxAdd>(result, "redux.add", "", true, with_add, log);
  measure<kl::LdShared, kl::Layout::Columns>(result, "ld.shared", "conflict-free", false,
                                             "pointer chase: each word holds the next word's shared address", log);
  measure<kl::LdShared, kl::Layout::Rows>(result, "ld.shared", "32-way conflict", false,
                                          "pointer chase, all 32 lanes in one bank, 32 different words", log);
  measure<kl::StLdShared, kl::Layout::Columns>(result, "st.shared", "conflict-free", false,
                                               "st.shared then ld.shared of the same word; the ld chain subtracted",
                                               log);
  // st.shared has no result to chain on: its cost is the round trip less the load.
  const OpCost& load = result->ops[result->ops.size() - 3];
  OpCost& store = result->ops.back();
  store.latency_cycles = store.chain_cycles - load.chain_cycles;
  return 0;
}

}  // namespace warpviz
