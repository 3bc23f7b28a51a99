// What one warp's shared-memory access costs on the GPU (bank_cost.h): the
// access's exact instruction (inline PTX ld/st.shared of its width, volatile
// so nothing is merged, hoisted or dropped) repeated by one warp under clock64,
// then by every warp of a full GPU under CUDA events.
//
// [SECTION] The access as one PTX instruction
// [SECTION] Latency kernel: one warp, a dependency chain
// [SECTION] Throughput kernel: every SM full of warps
// [SECTION] Host: validation, buffers, timing
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "warpviz/bank_cost.h"
#include "warpviz/cuda_recording.h"
#include "warpviz/cuda_timing.h"

namespace warpviz {
namespace {

constexpr int kUnroll = 32;                  // accesses per loop trip: the loop's own cost is ~1/32 per access
constexpr uint32_t kThroughputThreads = 256; // 8 warps a block
constexpr uint32_t kMinBlocksPerSm = 4;      // launch bounds: at least 32 warps an SM, registers permitting
constexpr uint32_t kFirstIterations = 64;    // 2048 accesses per warp in the first throughput launch
constexpr uint32_t kMaxIterations = 1u << 16;

// ============================================================================
// [SECTION] The access as one PTX instruction
// ============================================================================
// `addr` is a shared-window address (cvta.to.shared). The PTX is
// ld/st.volatile: `asm volatile` only binds nvcc, and ptxas would otherwise
// merge repeated loads of one address and drop repeated stores (seen on the
// H200: the throughput loop kept 4 of its 32 LDS). Each load returns its
// first 32-bit word (the dependency of the latency chain) and the XOR of all
// its words (what the throughput loop accumulates). ld.shared.u8/u16 zero-extend
// into the 32-bit register; st.shared.u8/u16 store its low bits.
struct Loaded {
  uint32_t first, folded;
};

template <int Bytes>
__device__ __forceinline__ Loaded shared_load(uint32_t addr);
template <>
__device__ __forceinline__ Loaded shared_load<1>(uint32_t addr) {
  uint32_t v;
  asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(v) : "r"(addr));
  return {v, v};
}
template <>
__device__ __forceinline__ Loaded shared_load<2>(uint32_t addr) {
  uint32_t v;
  asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=r"(v) : "r"(addr));
  return {v, v};
}
template <>
__device__ __forceinline__ Loaded shared_load<4>(uint32_t addr) {
  uint32_t v;
  asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr));
  return {v, v};
}
template <>
__device__ __forceinline__ Loaded shared_load<8>(uint32_t addr) {
  uint32_t x, y;
  asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(addr));
  return {x, x ^ y};
}
template <>
__device__ __forceinline__ Loaded shared_load<16>(uint32_t addr) {
  uint32_t x, y, z, w;
  asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(addr));
  return {x, x ^ y ^ z ^ w};
}

template <int Bytes>
__device__ __forceinline__ void shared_store(uint32_t addr, uint32_t v);
template <>
__device__ __forceinline__ void shared_store<1>(uint32_t addr, uint32_t v) {
  asm volatile("st.volatile.shared.u8 [%0], %1;" ::"r"(addr), "r"(v));
}
template <>
__device__ __forceinline__ void shared_store<2>(uint32_t addr, uint32_t v) {
  asm volatile("st.volatile.shared.u16 [%0], %1;" ::"r"(addr), "r"(v));
}
template <>
__device__ __forceinline__ void shared_store<4>(uint32_t addr, uint32_t v) {
  asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(addr), "r"(v));
}
template <>
__device__ __forceinline__ void shared_store<8>(uint32_t addr, uint32_t v) {
  asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %1};" ::"r"(addr), "r"(v));
}
template <>
__device__ __forceinline__ void shared_store<16>(uint32_t addr, uint32_t v) {
  asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %1, %1, %1};" ::"r"(addr), "r"(v));
}

extern __shared__ __align__(128) unsigned char bank_cost_shared[];

__device__ __forceinline__ uint32_t shared_base() {
  return static_cast<uint32_t>(__cvta_generic_to_shared(bank_cost_shared));
}

// Zeroes the block's dynamic shared memory (`bytes` is a multiple of 16): the
// latency chain adds each loaded value to the next address, so every value
// must be 0.
__device__ void zero_shared(uint32_t bytes) {
  for (uint32_t i = threadIdx.x; i < bytes / 4; i += blockDim.x) reinterpret_cast<uint32_t*>(bank_cost_shared)[i] = 0;
  __syncthreads();
}

__device__ __forceinline__ uint32_t lane_index() { return threadIdx.x & 31u; }

// ============================================================================
// [SECTION] Latency kernel: one warp, a dependency chain
// ============================================================================
// One block of 32 threads. The chain runs twice and the second run is timed:
// the first one brings the unrolled code into the instruction cache.
template <int Bytes, bool Store>
__global__ void bank_cost_latency(const uint32_t* lane_addrs, uint32_t active, uint32_t shared_bytes,
                                  uint32_t trips, long long* cycles, uint32_t* sink) {
  zero_shared(shared_bytes);
  const uint32_t lane = lane_index();
  if (!((active >> lane) & 1u)) return;  // inactive lanes execute no access, as in the recorded step
  const uint32_t base = shared_base() + lane_addrs[lane];
  uint32_t addr = base;
  long long elapsed = 0;
  for (int run = 0; run < 2; ++run) {
    const long long start = clock64();
    for (uint32_t t = 0; t < trips; ++t) {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        if constexpr (Store) {
          shared_store<Bytes>(addr, lane);  // back to back: nothing waits on a store
        } else {
          addr += shared_load<Bytes>(addr).first;  // the value is 0: the same address, but only once loaded
        }
      }
    }
    elapsed = clock64() - start;
  }
  if (lane == uint32_t(__ffs(active) - 1)) *cycles = elapsed;
  sink[lane] = addr - base;  // keeps the chain live (0)
}

// ============================================================================
// [SECTION] Throughput kernel: every SM full of warps
// ============================================================================
// Every warp repeats the access, independent accesses back to back; loads XOR
// their values into a register written out at the end, so none is dead. Thread
// 0 of each block notes its SM and the clock64 span of the block's loop.
struct BlockClock {
  uint32_t sm;
  long long start, end;
};

template <int Bytes, bool Store>
__global__ void __launch_bounds__(kThroughputThreads, kMinBlocksPerSm)
    bank_cost_throughput(const uint32_t* lane_addrs, uint32_t active, uint32_t shared_bytes, uint32_t trips,
                         BlockClock* clocks, uint32_t* sink) {
  zero_shared(shared_bytes);
  const uint32_t lane = lane_index();
  const uint32_t addr = shared_base() + lane_addrs[lane];
  uint32_t acc = lane;
  const long long start = clock64();
  if ((active >> lane) & 1u) {
    for (uint32_t t = 0; t < trips; ++t) {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        if constexpr (Store)
          shared_store<Bytes>(addr, acc);
        else
          acc ^= shared_load<Bytes>(addr).folded;
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    clocks[blockIdx.x] = BlockClock{sm, start, clock64()};
  }
  sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// ============================================================================
// [SECTION] Host: validation, buffers, timing
// ============================================================================

template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t count) { cuda_check(cudaMalloc(&ptr_, std::max<size_t>(count, 1) * sizeof(T)), "cudaMalloc"); }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return ptr_; }

 private:
  T* ptr_ = nullptr;
};

// Per SM: (last block end - first block start) / the warp-accesses its blocks
// made; the median over SMs.
double clock64_cycles_per_access(const std::vector<BlockClock>& clocks, uint64_t warp_accesses_per_block) {
  struct Span {
    long long start = 0, end = 0;
    uint64_t blocks = 0;
  };
  std::map<uint32_t, Span> spans;
  for (const BlockClock& c : clocks) {
    Span& s = spans[c.sm];
    s.start = s.blocks ? std::min(s.start, c.start) : c.start;
    s.end = s.blocks ? std::max(s.end, c.end) : c.end;
    ++s.blocks;
  }
  std::vector<double> per_sm;
  for (const auto& [sm, s] : spans) per_sm.push_back(double(s.end - s.start) / double(s.blocks * warp_accesses_per_block));
  return per_sm.empty() ? 0.0 : median_of(per_sm);
}

struct DeviceFacts {
  int sms = 0;
  int clock_khz = 0;
  int max_shared_optin = 0;
};

DeviceFacts device_facts() {
  int device = 0;
  cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  DeviceFacts f;
  cuda_check(cudaDeviceGetAttribute(&f.sms, cudaDevAttrMultiProcessorCount, device), "read the SM count");
  cuda_check(cudaDeviceGetAttribute(&f.clock_khz, cudaDevAttrClockRate, device), "read the SM clock rate");
  cuda_check(cudaDeviceGetAttribute(&f.max_shared_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
             "read the shared memory limit");
  if (f.sms <= 0 || f.clock_khz <= 0) throw CudaError("the device reports no SMs or no clock rate");
  return f;
}

template <int Bytes, bool Store>
void measure_latency(const uint32_t* lane_addrs, uint32_t active, uint32_t shared_bytes,
                     const BankCostOptions& options, BankCost& cost) {
  const uint32_t trips = std::max<uint32_t>(1, (options.latency_accesses + kUnroll - 1) / kUnroll);
  DeviceBuffer<long long> cycles(1);
  DeviceBuffer<uint32_t> sink(kWarpSize);
  auto kernel = bank_cost_latency<Bytes, Store>;
  cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared_bytes)),
             "allow the latency kernel its shared memory");
  kernel<<<1, kWarpSize, shared_bytes>>>(lane_addrs, active, shared_bytes, trips, cycles.get(), sink.get());
  cuda_check(cudaGetLastError(), "latency kernel launch");
  cuda_check(cudaDeviceSynchronize(), "latency kernel");
  long long elapsed = 0;
  cuda_check(cudaMemcpy(&elapsed, cycles.get(), sizeof elapsed, cudaMemcpyDeviceToHost), "download the latency");
  cost.latency_accesses = uint64_t(trips) * kUnroll;
  cost.latency_cycles = double(elapsed) / double(cost.latency_accesses);
}

template <int Bytes, bool Store>
void measure_throughput(const uint32_t* lane_addrs, uint32_t active, uint32_t shared_bytes, const DeviceFacts& device,
                        const BankCostOptions& options, BankCost& cost) {
  auto kernel = bank_cost_throughput<Bytes, Store>;
  cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared_bytes)),
             "allow the throughput kernel its shared memory");
  // As much shared memory as the SM can give: the occupancy asked for below.
  cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, int(cudaSharedmemCarveoutMaxShared)),
             "set the shared memory carve-out");
  int blocks_per_sm = 0;
  cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, int(kThroughputThreads), shared_bytes),
             "occupancy of the throughput kernel");
  if (blocks_per_sm < 1) throw CudaError("the throughput kernel cannot be resident on an SM (occupancy 0)");
  // One wave: every block resident at once, each SM holding blocks_per_sm.
  const int blocks = device.sms * blocks_per_sm;
  const uint64_t warps = uint64_t(blocks) * (kThroughputThreads / kWarpSize);
  DeviceBuffer<BlockClock> clocks{size_t(blocks)};
  DeviceBuffer<uint32_t> sink{size_t(blocks) * kThroughputThreads};
  EventTimer timer;
  auto launch = [&](uint32_t trips) {
    timer.start();
    kernel<<<blocks, kThroughputThreads, shared_bytes>>>(lane_addrs, active, shared_bytes, trips, clocks.get(), sink.get());
    cuda_check(cudaGetLastError(), "throughput kernel launch");
    return timer.stop_ms();
  };

  // A first, short launch pays for loading the module (lazy loading happens
  // between the events); then the loop grows until a launch lasts min_launch_ms.
  launch(1);
  uint32_t trips = kFirstIterations;
  for (float ms = launch(trips); ms < options.min_launch_ms && trips < kMaxIterations; ms = launch(trips)) {
    const double want = options.min_launch_ms / std::max(ms, 1e-3f);
    uint32_t factor = 2;
    while (factor < want && factor < kMaxIterations) factor *= 2;
    trips = std::min<uint32_t>(kMaxIterations, trips * factor);
  }

  const uint64_t accesses_per_warp = uint64_t(trips) * kUnroll;
  const uint64_t warp_accesses = warps * accesses_per_warp;
  std::vector<float> times;
  std::vector<double> clock_figures;
  std::vector<BlockClock> host_clocks(static_cast<size_t>(blocks));
  const int runs = std::max(1, options.runs);
  for (int r = 0; r < runs; ++r) {
    times.push_back(launch(trips));
    cuda_check(cudaMemcpy(host_clocks.data(), clocks.get(), host_clocks.size() * sizeof(BlockClock), cudaMemcpyDeviceToHost),
               "download the block clocks");
    clock_figures.push_back(clock64_cycles_per_access(host_clocks, accesses_per_warp * (kThroughputThreads / kWarpSize)));
  }
  const double ms = median_of(times);
  const double ns_per_access_per_sm = ms * 1e6 * device.sms / double(warp_accesses);
  cost.elapsed_ms = ms;
  cost.throughput_ns_per_access = ns_per_access_per_sm;
  cost.throughput_cycles = ns_per_access_per_sm * (device.clock_khz * 1e-6);  // kHz -> cycles per ns
  cost.throughput_clock64_cycles = median_of(clock_figures);
  cost.blocks = blocks;
  cost.blocks_per_sm = blocks_per_sm;
  cost.threads_per_block = int(kThroughputThreads);
  cost.warps_per_sm = blocks_per_sm * int(kThroughputThreads / kWarpSize);
  cost.accesses_per_warp = accesses_per_warp;
  cost.warp_accesses = warp_accesses;
  cost.runs = runs;
}

template <int Bytes, bool Store>
void measure_as(const SharedAccess& access, uint32_t shared_bytes, const DeviceFacts& device,
                const BankCostOptions& options, BankCost& cost) {
  DeviceBuffer<uint32_t> lane_addrs(kWarpSize);
  std::vector<uint32_t> addrs(kWarpSize, 0);
  for (int lane = 0; lane < kWarpSize; ++lane)
    if ((access.active >> lane) & 1u) addrs[lane] = access.addr[lane];
  cuda_check(cudaMemcpy(lane_addrs.get(), addrs.data(), kWarpSize * sizeof(uint32_t), cudaMemcpyHostToDevice),
             "upload the lane addresses");
  measure_latency<Bytes, Store>(lane_addrs.get(), access.active, shared_bytes, options, cost);
  measure_throughput<Bytes, Store>(lane_addrs.get(), access.active, shared_bytes, device, options, cost);
}

template <int Bytes>
void measure_width(const SharedAccess& access, uint32_t shared_bytes, const DeviceFacts& device,
                   const BankCostOptions& options, BankCost& cost) {
  if (access.store)
    measure_as<Bytes, true>(access, shared_bytes, device, options, cost);
  else
    measure_as<Bytes, false>(access, shared_bytes, device, options, cost);
}

}  // namespace

BankCost measure_bank_cost(const SharedAccess& access, const BankCostOptions& options) {
  const int bytes = access.bytes;
  if (!valid_shared_width(bytes))
    throw std::invalid_argument("bank cost: access width " + std::to_string(bytes) + " bytes; valid widths are 1, 2, 4, 8, 16");
  if (access.active == 0) throw std::invalid_argument("bank cost: no lane is active, so there is no access to time");
  uint64_t end = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!((access.active >> lane) & 1u)) continue;
    if (access.addr[lane] % uint32_t(bytes))
      throw std::invalid_argument("bank cost: lane " + std::to_string(lane) + "'s byte offset " +
                                  std::to_string(access.addr[lane]) + " is not a multiple of its width " +
                                  std::to_string(bytes) + " (the GPU faults on a misaligned shared access)");
    end = std::max<uint64_t>(end, uint64_t(access.addr[lane]) + uint64_t(bytes));
  }
  const uint64_t shared_bytes = (end + 15) / 16 * 16;
  const DeviceFacts device = device_facts();
  if (shared_bytes > uint64_t(device.max_shared_optin))
    throw std::invalid_argument("bank cost: the access reaches byte " + std::to_string(end) + ", past the " +
                                std::to_string(device.max_shared_optin) + " bytes of shared memory a block can have");

  BankCost cost;
  cost.sms = device.sms;
  cost.sm_clock_mhz = device.clock_khz / 1000.0;
  cost.shared_bytes = uint32_t(shared_bytes);
  const uint32_t shared = uint32_t(shared_bytes);
  switch (bytes) {
    case 1: measure_width<1>(access, shared, device, options, cost); break;
    case 2: measure_width<2>(access, shared, device, options, cost); break;
    case 4: measure_width<4>(access, shared, device, options, cost); break;
    case 8: measure_width<8>(access, shared, device, options, cost); break;
    default: measure_width<16>(access, shared, device, options, cost); break;
  }
  return cost;
}

}  // namespace warpviz
