// warpviz-cli bench reduce: the article's claim that a reduction "还能靠 warp
// shuffle 再快一截" (gets faster still with warp shuffles), measured, and
// warpviz's own fastest reduction against CUB.
//
// Variants, each summing the whole array to one value:
//   (a) the classic shared-memory tree, __syncthreads() between halvings, one
//       element per thread; per-block sums, then one finishing block
//   (b) the article's reduceKernel: warp shuffles, warpSums[32], one
//       __syncthreads(); one element per thread; the same finishing block
//   (c) the seed's reduce_sum, as warpviz compiles it (kernels/warp_shuffle.cu,
//       recording layer in place, no recorder attached); the same finish
//   (d) contiguous tiles per block, 16-byte loads, warp-shuffle finish, the
//       last block to finish sums the per-block sums (one launch, no memset);
//       (d-stride) the same with grid-stride loads a grid apart
//   (d-redux) i32 only: (d) with __reduce_add_sync for the warp step
//   (e) CUB's DeviceReduce::Sum
#include <cub/cub.cuh>

#include "warpviz/device_array.h"
#include "warpviz/cuda_timing.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "warpviz/cuda_backend.h"
#include "warpviz/reduce_benchmark.h"

namespace warpviz {
// bench_reduce_seed.cu: variant (c).
void detach_recorder_for_reduce_benchmark();
template <typename T>
void launch_seed_reduce_sum(int grid, int block, const T* in, T* partials, int n);
}  // namespace warpviz

namespace warpviz_bench_reduce {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kBlock = 256;

// (a) The tree every CUDA course starts from: halve the active threads each
// round, a block barrier between rounds, log2(256) = 8 rounds.
template <typename T>
__global__ void tree_partials(const T* in, T* partials, int n) {
    __shared__ T s[kBlock];
    const int tid = threadIdx.x;
    const int gid = blockIdx.x * blockDim.x + tid;
    s[tid] = gid < n ? in[gid] : T(0);
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (tid < half) s[tid] += s[tid + half];
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = s[0];
}

template <typename T>
__device__ T warp_reduce_down(T v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(kFull, v, offset);
    return v;
}

// (b) The article's reduceKernel: each warp reduces in registers, lane 0
// writes its warp's sum, one barrier, warp 0 reduces the warp sums.
template <typename T>
__global__ void article_partials(const T* in, T* out, int n) {
    __shared__ T warpSums[32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int gid = blockIdx.x * blockDim.x + threadIdx.x;
    T v = gid < n ? in[gid] : T(0);
    v = warp_reduce_down(v);
    if (lane == 0) warpSums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < int(blockDim.x / 32) ? warpSums[lane] : T(0);
        v = warp_reduce_down(v);
        if (lane == 0) out[blockIdx.x] = v;
    }
}

template <typename T> struct Vec4;
template <> struct Vec4<float> { using type = float4; };
template <> struct Vec4<int> { using type = int4; };

// Blocks of (d) that have written their sum; the last one resets it, so the
// next launch needs no memset.
__device__ unsigned blocks_done;

template <typename T, bool kRedux>
__device__ T warp_total(T v) {
    if constexpr (kRedux) return T(__reduce_add_sync(kFull, unsigned(v)));  // redux.sync: one instruction
    else return warp_reduce_down(v);
}

// The block's total of every thread's `v`, in thread 0: each warp's total,
// through `warpSums`, then warp 0 over those. Every thread of the block calls it.
template <typename T, bool kRedux>
__device__ T block_total(T v, T* warpSums) {
    v = warp_total<T, kRedux>(v);
    __syncthreads();  // a previous call's readers are done with warpSums
    if (threadIdx.x % 32 == 0) warpSums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < blockDim.x / 32 ? warpSums[threadIdx.x] : T(0);
        v = warp_total<T, kRedux>(v);
    }
    return v;
}

// The finish of (a), (b), (c): one block sums the per-block sums.
template <typename T>
__global__ void finish_partials(const T* partials, int count, T* out) {
    __shared__ T warpSums[32];
    T v = T(0);
    for (int i = threadIdx.x; i < count; i += blockDim.x) v += partials[i];
    v = block_total<T, false>(v, warpSums);
    if (threadIdx.x == 0) *out = v;
}

// The end of (d): the block's total, then the last block to arrive (seen
// through an atomic ticket after a fence) sums the blocks' totals in a fixed
// order: one launch, the same bits every time.
template <typename T, bool kRedux>
__device__ void finish_block_sum(T v, T* partials, T* out) {
    __shared__ T warpSums[kBlock / 32];
    __shared__ bool last_block;
    v = block_total<T, kRedux>(v, warpSums);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = v;
        __threadfence();  // the total is visible to the last block before its ticket is
        last_block = atomicAdd(&blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last_block) return;
    __threadfence();
    v = T(0);
    for (int b = threadIdx.x; b < int(gridDim.x); b += blockDim.x) v += __ldcg(partials + b);  // L2, not a stale L1
    v = block_total<T, kRedux>(v, warpSums);
    if (threadIdx.x == 0) {
        *out = v;
        blocks_done = 0;
    }
}

template <typename V, typename T>
__device__ T vector_sum(const V& a) { return (a.x + a.y) + (a.z + a.w); }

// (d) Tiles of kBlock x kVectors vectors of 16 bytes: each block reads whole
// contiguous tiles (tile b, b + grid, ...), every thread kVectors vectors of a
// tile before any add (64 or 128 bytes in flight per thread cover the memory
// latency at full occupancy), each warp's loads one contiguous 512 bytes.
template <typename T, bool kRedux, int kVectors = 4>
__global__ void __launch_bounds__(kBlock) tiled_sum(const T* in, int n, T* partials, T* out) {
    using V = typename Vec4<T>::type;
    const V* in4 = reinterpret_cast<const V*>(in);
    const int n4 = n / 4;
    constexpr int kTile = kBlock * kVectors;
    const int full_tiles = n4 / kTile;
    T v = T(0);
    for (int t = blockIdx.x; t < full_tiles; t += gridDim.x) {
        const V* tile = in4 + size_t(t) * kTile + threadIdx.x;
        V loaded[kVectors];
#pragma unroll
        for (int k = 0; k < kVectors; ++k) loaded[k] = tile[k * kBlock];
        T tile_sum = T(0);
#pragma unroll
        for (int k = 0; k < kVectors; ++k) tile_sum += vector_sum<V, T>(loaded[k]);
        v += tile_sum;
    }
    for (int i = full_tiles * kTile + blockIdx.x * kBlock + threadIdx.x; i < n4; i += gridDim.x * kBlock)
        v += vector_sum<V, T>(in4[i]);
    if (blockIdx.x == 0 && int(threadIdx.x) < n - 4 * n4) v += in[4 * n4 + threadIdx.x];
    finish_block_sum<T, kRedux>(v, partials, out);
}

// (d-stride) The first try at (d): grid-stride, four vectors a grid apart per
// thread, streaming loads. Kept beside (d) for the comparison.
template <typename T>
__global__ void __launch_bounds__(kBlock) grid_stride_sum(const T* in, int n, T* partials, T* out) {
    using V = typename Vec4<T>::type;
    const V* in4 = reinterpret_cast<const V*>(in);
    const int n4 = n / 4;
    const int stride = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    T v = T(0);
    for (; i + 3 * stride < n4; i += 4 * stride) {
        const V a = __ldcs(in4 + i), b = __ldcs(in4 + i + stride);
        const V c = __ldcs(in4 + i + 2 * stride), d = __ldcs(in4 + i + 3 * stride);
        v += (vector_sum<V, T>(a) + vector_sum<V, T>(b)) + (vector_sum<V, T>(c) + vector_sum<V, T>(d));
    }
    for (; i < n4; i += stride) v += vector_sum<V, T>(__ldcs(in4 + i));
    if (blockIdx.x == 0 && int(threadIdx.x) < n - 4 * n4) v += in[4 * n4 + threadIdx.x];
    finish_block_sum<T, false>(v, partials, out);
}

}  // namespace warpviz_bench_reduce

namespace warpviz {
namespace {

namespace kr = warpviz_bench_reduce;

constexpr int kWarmupLaunches = 3;
constexpr double kMaxRelativeError = 1e-5;  // f32 sums of 2^28 values in [0, 1) land near 1e-7

uint64_t splitmix(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// f32: uniform in [0, 1), so the sum has no cancellation and its relative
// error means something. i32: uniform in [-1000, 1000].
template <typename T>
std::vector<T> random_values(size_t n, uint64_t seed) {
  std::vector<T> values(n);
  for (T& v : values) {
    const uint64_t z = splitmix(seed);
    if constexpr (std::is_same_v<T, float>) v = float(z >> 40) * 0x1p-24f;
    else v = int(z % 2001) - 1000;
  }
  return values;
}

struct Variant {
  std::string id, description;
  std::function<void()> launch;  // every kernel of one whole sum
  const void* out = nullptr;     // device scalar it leaves the sum in
  std::vector<float> times_ms;
};

template <typename T>
struct SizeRun {
  int n = 0;
  DeviceArray<T> input;
  DeviceArray<T> partials;  // per-block sums of (a), (b), (c), (d)
  std::vector<DeviceArray<T>> outs;
  DeviceBytes cub_temp;
  size_t cub_temp_bytes;
  SizeRun(const std::vector<T>& host, size_t partial_count, size_t variants, size_t cub_bytes)
      : n(int(host.size())), input(host), partials(partial_count, T(0)), cub_temp(std::max<size_t>(cub_bytes, 1)),
        cub_temp_bytes(cub_bytes) {
    for (size_t v = 0; v < variants; ++v) outs.emplace_back(1, T(0));
  }
};

std::string format_error(double e) {
  std::ostringstream s;
  s << std::scientific << std::setprecision(2) << e;
  return s.str();
}

template <typename T>
void run_size(int log2_n, int repeat, int grid_d, const DeviceBytes& l2_flush, double copy_gbps, std::ostream& log,
              ReduceBenchmark* result) {
  const char* dtype = std::is_same_v<T, float> ? "f32" : "i32";
  const int n = 1 << log2_n;
  const uint64_t seed = 0x5eed0000u + uint64_t(log2_n);
  log << "  " << dtype << ", n = 2^" << log2_n << ": preparing input (seed " << seed << ")\n" << std::flush;
  const std::vector<T> host = random_values<T>(size_t(n), seed);
  const int blocks_one_per_thread = (n + kr::kBlock - 1) / kr::kBlock;

  size_t cub_bytes = 0;
  cuda_check(cub::DeviceReduce::Sum(nullptr, cub_bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), n),
             "cub::DeviceReduce::Sum (temporary size)");
  const bool with_redux = std::is_same_v<T, int>;
  SizeRun<T> run(host, size_t(std::max(blocks_one_per_thread, grid_d)), with_redux ? 8 : 7, cub_bytes);
  const T* in = run.input.ptr();
  T* partials = run.partials.ptr();

  std::vector<Variant> variants;
  auto out = [&](size_t k) { return run.outs[k].ptr(); };
  variants.push_back({"a", "shared-memory tree, __syncthreads() halving, 1 element/thread", [=] {
                        kr::tree_partials<T><<<blocks_one_per_thread, kr::kBlock>>>(in, partials, n);
                        kr::finish_partials<T><<<1, 1024>>>(partials, blocks_one_per_thread, out(0));
                      }, out(0)});
  variants.push_back({"b", "the article's reduceKernel: warp shuffles, 1 element/thread", [=] {
                        kr::article_partials<T><<<blocks_one_per_thread, kr::kBlock>>>(in, partials, n);
                        kr::finish_partials<T><<<1, 1024>>>(partials, blocks_one_per_thread, out(1));
                      }, out(1)});
  variants.push_back({"c", "the seed's reduce_sum as warpviz compiles it, 1 element/thread", [=] {
                        launch_seed_reduce_sum<T>(blocks_one_per_thread, kr::kBlock, in, partials, n);
                        kr::finish_partials<T><<<1, 1024>>>(partials, blocks_one_per_thread, out(2));
                      }, out(2)});
  variants.push_back({"d", "contiguous tiles, 16-byte loads, shuffle finish, last block sums", [=] {
                        kr::tiled_sum<T, false><<<grid_d, kr::kBlock>>>(in, n, partials, out(3));
                      }, out(3)});
  variants.push_back({"d-8", "(d) with 8 vectors per thread per tile", [=] {
                        kr::tiled_sum<T, false, 8><<<grid_d, kr::kBlock>>>(in, n, partials, out(6));
                      }, out(6)});
  variants.push_back({"d-stride", "(d) as grid-stride loads a grid apart, streaming", [=] {
                        kr::grid_stride_sum<T><<<grid_d, kr::kBlock>>>(in, n, partials, out(5));
                      }, out(5)});
  if constexpr (std::is_same_v<T, int>)
    variants.push_back({"d-redux", "(d) with __reduce_add_sync for the warp step", [=] {
                          kr::tiled_sum<T, true><<<grid_d, kr::kBlock>>>(in, n, partials, out(7));
                        }, out(7)});
  void* cub_temp = run.cub_temp.get();
  variants.push_back({"e", "CUB DeviceReduce::Sum", [=] {
                        size_t bytes = cub_bytes;
                        cuda_check(cub::DeviceReduce::Sum(cub_temp, bytes, in, out(4), n), "cub::DeviceReduce::Sum");
                      }, out(4)});

  // Variants take turns, so drifting clocks or memory touch them all alike.
  EventTimer timer;
  for (int r = -kWarmupLaunches; r < repeat; ++r)
    for (Variant& v : variants) {
      cuda_check(cudaMemsetAsync(l2_flush.get(), r & 0xff, kL2FlushBytes, 0), "flush the L2");
      timer.start();
      v.launch();
      cuda_check(cudaGetLastError(), "reduction launch");
      const float ms = timer.stop_ms();
      if (r >= 0) v.times_ms.push_back(ms);
    }

  // Check the sum each variant left after its last timed launch.
  double ref_f = 0;
  uint32_t ref_i = 0;  // i32 sums wrap as the GPU's adds do
  for (const T& x : host) {
    if constexpr (std::is_same_v<T, float>) ref_f += double(x);
    else ref_i += uint32_t(x);
  }
  double cub_ms = 0;
  for (const Variant& v : variants)
    if (v.id == "e") cub_ms = median_of(v.times_ms);
  for (const Variant& v : variants) {
    T got{};
    cuda_check(cudaMemcpy(&got, v.out, sizeof(T), cudaMemcpyDeviceToHost), "read the sum");
    ReduceTiming t;
    t.variant = v.id;
    t.description = v.description;
    t.dtype = dtype;
    t.log2_n = log2_n;
    t.median_ms = median_of(v.times_ms);
    t.min_ms = *std::min_element(v.times_ms.begin(), v.times_ms.end());
    t.max_ms = *std::max_element(v.times_ms.begin(), v.times_ms.end());
    t.gb_per_s = double(n) * sizeof(T) / (t.median_ms * 1e-3) / 1e9;
    t.copy_fraction = t.gb_per_s / copy_gbps;
    t.vs_cub = cub_ms / t.median_ms;
    if constexpr (std::is_same_v<T, float>) {
      const double error = std::abs(double(got) - ref_f) / std::abs(ref_f);
      t.correct = error <= kMaxRelativeError;
      t.check = "relative error " + format_error(error) + " against a double sum (limit " +
                format_error(kMaxRelativeError) + ")";
    } else {
      t.correct = uint32_t(got) == ref_i;
      t.check = t.correct ? "exact" : "got " + std::to_string(got) + ", exact sum " + std::to_string(int32_t(ref_i));
    }
    result->timings.push_back(t);
  }
}

double hbm_peak_gbps() {
  int memory_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, 0) != cudaSuccess ||
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  // Double data rate: two transfers per memory clock.
  return 2.0 * memory_khz * 1e3 * (bus_bits / 8.0) / 1e9;
}

}  // namespace

int run_reduce_benchmark(const std::vector<int>& log2_sizes, int repeat, std::ostream& log, ReduceBenchmark* result) {
  CudaDeviceInfo device;
  std::string why;
  if (!cuda_device_present(&device, &why)) {
    std::cerr << "warpviz-cli bench reduce: no GPU to time: " << why << "\n";
    return 2;
  }
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  result->on = measured_on_this_gpu();
  result->repeat = repeat;
  result->hbm_peak_gb_per_s = hbm_peak_gbps();
  log << "bench reduce on " << device.name << " (" << prop.multiProcessorCount << " SMs)\n  measuring the copy bandwidth\n"
      << std::flush;
  result->copy_gb_per_s = measure_copy_bandwidth() / 1e9;

  int blocks_per_sm = 0;
  cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kr::tiled_sum<float, false>,
                                                           kr::kBlock, 0),
             "occupancy of (d)");
  const int grid_d = prop.multiProcessorCount * std::max(blocks_per_sm, 1);
  const DeviceBytes l2_flush(kL2FlushBytes);
  detach_recorder_for_reduce_benchmark();  // (c) runs unrecorded
  for (int log2_n : log2_sizes) {
    run_size<float>(log2_n, repeat, grid_d, l2_flush, result->copy_gb_per_s, log, result);
    run_size<int>(log2_n, repeat, grid_d, l2_flush, result->copy_gb_per_s, log, result);
  }
  bool ok = true;
  for (const ReduceTiming& t : result->timings) ok &= t.correct;
  return ok ? 0 : 1;
}

}  // namespace warpviz
