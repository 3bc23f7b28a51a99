// warpviz-cli bench record: what recording costs on a GPU. The seed's
// reduce_sum, compiled with the recording layer exactly as the scenarios are,
// runs with no recorder, with one warp in 64 recorded and with every warp
// recorded; the goals compare those times with the unrecorded launch and with
// the copy bandwidth measured on the same device.
#include "warpviz/record.cuh"
#include "warpviz/session.h"
#include "warpviz/cuda_timing.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "warpviz/cuda_backend.h"
#include "warpviz/record_benchmark.h"

namespace warpviz_bench_record {
#include "../../kernels/warp_shuffle.cu"

#include "bench_record_grid_stride.cuh"
}  // namespace warpviz_bench_record

// The same kernels with WARPVIZ_WATCH compiled out: the reduction as bench
// record timed it before watches existed (5 shuffle steps per warp_sum, not 5
// shuffles and 5 watches), the kernel the capture-cost goal was set on.
namespace warpviz_bench_record_unwatched {
#undef WARPVIZ_WATCH
#define WARPVIZ_WATCH(var) \
  do {                     \
  } while (0)
#include "../../kernels/warp_shuffle.cu"
#include "bench_record_grid_stride.cuh"
}  // namespace warpviz_bench_record_unwatched

namespace warpviz {
namespace {

constexpr unsigned kBlock = 256;
constexpr uint32_t kWarpsPerBlock = kBlock / kWarpSize;
constexpr uint32_t kSampleStride = 64;
// reduce_sum: warp 0 of a block runs two warp_sums, the others one; a
// warp_sum is 5 shuffles, each followed by a watch of val where watches are
// compiled in.
constexpr uint32_t kStepsPerWarpSum = 5;
constexpr uint32_t kStepsPerWarp = 32;
constexpr int kWarmupLaunches = 3;
constexpr double kMaxRelativeError = 1e-5;  // f32 tree sums of 256 values land near 1e-7
constexpr double kSampledGoal = 1.05;
constexpr double kFullGoal = 1.10;       // full capture against the unrecorded kernel
constexpr double kFullBandwidthBound = 1.2;  // and against (input + trace bytes) at the copy bandwidth

// Random floats in [-1, 1) (splitmix64): never zeros, which can hide unwritten
// outputs and run faster than real data.
std::vector<float> random_input(size_t n, uint64_t seed) {
  std::vector<float> values(n);
  uint64_t state = seed;
  for (float& v : values) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    v = float(int64_t(z >> 40) - (int64_t(1) << 23)) * 0x1p-23f;
  }
  return values;
}

// Which kernel a benchmark table times.
struct Workload {
  std::string name;
  unsigned grid = 0;
  bool grid_stride = false;  // reduce_sum_grid_stride, else the seed's reduce_sum
  bool watches = true;       // false: the kernel built with WARPVIZ_WATCH compiled out
  // Steps a recorded warp makes: warp 0 of a block, and the others. The seed's
  // reduce_sum records its warpSums: lane 0 of every warp stores (one step),
  // warp 0 loads (one more).
  uint32_t warp_sum_steps() const { return kStepsPerWarpSum * (watches ? 2 : 1); }
  uint32_t steps_warp0() const { return 2 * warp_sum_steps() + (grid_stride ? 0 : 2); }
  uint32_t steps_other_warps() const { return warp_sum_steps() + (grid_stride ? 0 : 1); }
};

// The block each input element lands in, for the double-precision reference.
size_t block_of(const Workload& w, size_t element) {
  if (!w.grid_stride) return element / kBlock;
  return (element / 4) % (size_t(w.grid) * kBlock) / kBlock;
}

// ||gpu - ref|| / ||ref|| over the per-block partial sums, ref in double. NaN
// (a partial the kernel never wrote keeps its NaN poison) stays NaN.
double partials_relative_error(const Workload& w, const std::vector<float>& input, const std::vector<float>& partials) {
  std::vector<double> ref(partials.size(), 0.0);
  for (size_t i = 0; i < input.size(); ++i) ref[block_of(w, i)] += input[i];
  double diff2 = 0, ref2 = 0;
  for (size_t block = 0; block < partials.size(); ++block) {
    const double d = double(partials[block]) - ref[block];
    diff2 += d * d;
    ref2 += ref[block] * ref[block];
  }
  return std::sqrt(diff2) / std::sqrt(ref2);
}

// One way of launching the kernel: the recorder it attaches and its buffers.
struct Mode {
  std::string name;
  DeviceRecorder recorder;                // enabled = 0: nothing is recorded
  const CudaRecording* recording = nullptr;
  uint64_t recorded_warps = 0;
  DeviceArray<float> partials;
  std::vector<float> times_ms;
};

// Outside the timed region: evict the L2 (60 MB on an H200, a fifth of the
// input: whichever mode ran last would otherwise leave the next one a warm
// cache), point the kernel at this mode's recorder and zero its step counters
// (they count up across launches; a full counter records nothing).
void prepare(const Mode& mode, const DeviceBytes& l2_flush) {
  cuda_check(cudaMemsetAsync(l2_flush.get(), 0x3c, kL2FlushBytes, 0), "flush the L2");
  cuda_check(warpviz_attach_recorder(mode.recorder), "attach the recorder");
  if (mode.recorded_warps)
    cuda_check(cudaMemsetAsync(mode.recorder.step_counts, 0, mode.recorded_warps * sizeof(uint32_t), 0),
               "reset the step counters");
}

void launch(const Workload& w, Mode& mode, const DeviceArray<float>& input, int n) {
  if (w.grid_stride && !w.watches)
    warpviz_bench_record_unwatched::reduce_sum_grid_stride<<<w.grid, kBlock>>>(
        reinterpret_cast<const float4*>(input.ptr()), mode.partials.ptr(), n / 4);
  else if (w.grid_stride)
    warpviz_bench_record::reduce_sum_grid_stride<<<w.grid, kBlock>>>(reinterpret_cast<const float4*>(input.ptr()),
                                                                     mode.partials.ptr(), n / 4);
  else
    warpviz_bench_record::reduce_sum<float><<<w.grid, kBlock>>>(input.ptr(), mode.partials.ptr(), n);
  cuda_check(cudaGetLastError(), "reduction launch");
}

// Steps the recorded warps make (two warp_sums in warp 0 of a block, one in
// the others): every stride-th warp of the grid.
uint64_t expected_steps(const Workload& workload, uint64_t warps, uint32_t stride) {
  uint64_t steps = 0;
  for (uint64_t w = 0; w < warps; w += stride)
    steps += w % kWarpsPerBlock == 0 ? workload.steps_warp0() : workload.steps_other_warps();
  return steps;
}

// Device memory of a recording's buffer (its size, not what it writes).
uint64_t recording_bytes(uint64_t recorded_warps) {
  return recorded_warps * (kStepsPerWarp * (sizeof(DeviceStepHeader) + kDeviceRowsPerStep * kWarpSize * sizeof(uint32_t)) +
                           sizeof(uint32_t));
}

const char* verdict(bool ok) { return ok ? "PASS" : "MISS"; }
const char* check(bool ok) { return ok ? "ok" : "FAILED"; }

// One table: the kernel unrecorded, sampled and fully recorded. Returns false
// when a correctness check fails (a missed goal is reported, not an error).
bool run_workload(const Workload& w, const std::vector<float>& host_input, const DeviceArray<float>& input, int n,
                  double copy_bandwidth, int repeat, std::ostream& out) {
  const unsigned grid = w.grid;
  const uint64_t input_bytes = uint64_t(n) * sizeof(float);
  const uint64_t warps = uint64_t(grid) * kWarpsPerBlock;
  const uint64_t sampled_warps = (warps + kSampleStride - 1) / kSampleStride;
  size_t free_bytes = 0, total_bytes = 0;
  cuda_check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  const uint64_t needed = 3 * uint64_t(grid) * sizeof(float) + recording_bytes(sampled_warps) + recording_bytes(warps);
  out << "\n" << w.name << "\n  grid            " << grid << " blocks of " << kBlock << ", " << warps << " warps\n";
  if (needed > free_bytes) {
    out << "  skipped: needs " << needed / (1 << 20) << " MiB of device memory, " << free_bytes / (1 << 20)
        << " MiB free\n";
    return true;
  }

  // Built once: constructing a recording allocates (and, for every warp, a lot).
  const emu::RecordFilter every_block;
  const Dim3 grid_dim{grid, 1, 1}, block_dim{kBlock, 1, 1};
  const CudaRecording sampled(grid_dim, block_dim, every_block, kStepsPerWarp, kSampleStride);
  const CudaRecording full(grid_dim, block_dim, every_block, kStepsPerWarp);

  std::vector<Mode> modes;
  modes.reserve(3);
  modes.push_back({"(a) unrecorded (enabled = 0)", DeviceRecorder{}, nullptr, 0, DeviceArray<float>(grid, 0.f), {}});
  modes.push_back({"(b) sampled, 1 warp in 64", sampled.recorder(), &sampled, sampled.step_counts().size(),
                   DeviceArray<float>(grid, 0.f), {}});
  modes.push_back({"(c) full capture, every warp", full.recorder(), &full, full.step_counts().size(),
                   DeviceArray<float>(grid, 0.f), {}});

  const DeviceBytes l2_flush(kL2FlushBytes);
  // Correctness first, on outputs poisoned with NaN so an unwritten partial shows.
  std::vector<std::vector<float>> results;
  bool steps_as_expected = true;
  for (Mode& mode : modes) {
    cuda_check(cudaMemset(mode.partials.ptr(), 0xff, grid * sizeof(float)), "poison the partial sums");
    prepare(mode, l2_flush);
    launch(w, mode, input, n);
    cuda_check(cudaDeviceSynchronize(), "reduction");
    results.push_back(mode.partials.download());
    if (mode.recording) {
      uint64_t steps = 0;
      for (uint32_t count : mode.recording->step_counts()) steps += count;
      const uint32_t stride = mode.recording == &sampled ? kSampleStride : 1;
      steps_as_expected &= steps == expected_steps(w, warps, stride);
    }
  }
  const double relative_error = partials_relative_error(w, host_input, results[0]);
  const bool sums_right = relative_error <= kMaxRelativeError;  // false for NaN too
  bool same_bits = true;
  for (size_t m = 1; m < results.size(); ++m)
    same_bits &= std::memcmp(results[m].data(), results[0].data(), grid * sizeof(float)) == 0;
  out << std::scientific << std::setprecision(2)
      << "  correctness     partial sums of (a) vs a double-precision CPU sum: relative error " << relative_error
      << " (limit " << kMaxRelativeError << "): " << check(sums_right) << "\n"
      << "                  (b) and (c) give the partial sums of (a) bit for bit: " << check(same_bits) << "\n"
      << "                  recorded steps: " << w.steps_warp0() << " per warp 0 of a block, " << w.steps_other_warps()
      << " per other warp: " << check(steps_as_expected) << "\n"
      << std::flush;

  // Modes take turns, so a drift of the clocks or the memory touches all three alike.
  EventTimer timer;
  for (int r = -kWarmupLaunches; r < repeat; ++r)
    for (Mode& mode : modes) {
      prepare(mode, l2_flush);
      timer.start();
      launch(w, mode, input, n);
      const float ms = timer.stop_ms();
      if (r >= 0) mode.times_ms.push_back(ms);
    }

  // The last timed launch recorded exactly what the first one did.
  bool steps_after_timing = true;
  for (const Mode& mode : modes)
    if (mode.recording) {
      uint64_t steps = 0;
      for (uint32_t count : mode.recording->step_counts()) steps += count;
      steps_after_timing &= steps == expected_steps(w, warps, mode.recording == &sampled ? kSampleStride : 1);
    }
  out << "                  recorded steps of the last timed launch as expected: " << check(steps_after_timing)
      << "\n";
  steps_as_expected &= steps_after_timing;

  out << "  median of " << repeat << " launches per mode, after " << kWarmupLaunches
      << " warm-up launches; modes interleaved; L2 flushed before each launch\n"
      << "  " << std::left << std::setw(30) << "mode" << std::right << std::setw(11) << "median ms" << std::setw(10)
      << "min ms" << std::setw(10) << "max ms" << std::setw(9) << "vs (a)" << std::setw(16) << "recorded warps"
      << std::setw(14) << "trace bytes" << "\n";
  const double base_ms = median_of(modes[0].times_ms);
  std::vector<DeviceTraceBytes> written;
  for (const Mode& mode : modes) {
    const double ms = median_of(mode.times_ms);
    written.push_back(mode.recording ? mode.recording->bytes_written() : DeviceTraceBytes{});
    out << "  " << std::left << std::setw(30) << mode.name << std::right << std::fixed << std::setprecision(4)
        << std::setw(11) << ms << std::setw(10) << *std::min_element(mode.times_ms.begin(), mode.times_ms.end())
        << std::setw(10) << *std::max_element(mode.times_ms.begin(), mode.times_ms.end()) << std::setprecision(3)
        << std::setw(9) << ms / base_ms << std::setw(16) << mode.recorded_warps << std::setw(14)
        << written.back().total() << "\n";
  }
  const DeviceTraceBytes& full_bytes = written[2];
  out << std::fixed << std::setprecision(1) << "  device record   " << full_bytes.per_step() << " bytes per step ("
      << sizeof(DeviceStepHeader) << "-byte header + " << full_bytes.per_lane() << " bytes per lane that ran it), "
      << full_bytes.steps << " steps in full capture (the trace in memory: "
      << double(step_encoding::step_bytes(0)) / kWarpSize << " bytes per lane of a 32-bit step, encoded)\n";

  const double sampled_ratio = median_of(modes[1].times_ms) / base_ms;
  const double full_ms = median_of(modes[2].times_ms);
  const double full_ratio = full_ms / base_ms;
  const double full_bound_ms = kFullBandwidthBound * double(input_bytes + full_bytes.total()) / copy_bandwidth * 1e3;
  const double unrecorded_floor_ms = double(input_bytes) / copy_bandwidth * 1e3;
  out << std::fixed << std::setprecision(3) << "  goals\n"
      << "  sampled      <= " << kSampledGoal << " x unrecorded: " << sampled_ratio << " x   "
      << verdict(sampled_ratio <= kSampledGoal) << "\n"
      << "  full capture <= " << kFullGoal << " x unrecorded (the capture cost): " << full_ratio << " x   "
      << verdict(full_ratio <= kFullGoal) << "\n"
      << "  (full capture against " << kFullBandwidthBound << " x (input + trace bytes) / copy bandwidth = "
      << full_bound_ms << " ms: " << full_ms << " ms, " << verdict(full_ms <= full_bound_ms) << ";\n"
      << "   unrecorded: " << base_ms << " ms against " << unrecorded_floor_ms
      << " ms for its input bytes at the copy bandwidth)\n";
  cuda_check(warpviz_attach_recorder(DeviceRecorder{}), "detach the recorder");
  return sums_right && same_bits && steps_as_expected;
}

}  // namespace

int run_record_benchmark(int log2_n, int repeat, std::ostream& out) {
  // The kernels index with int; below a block the figures mean nothing.
  if (log2_n < 8 || log2_n > 30 || repeat < 1) {
    std::cerr << "warpviz-cli bench record: --log2n must be 8..30 and --repeat at least 1\n";
    return 2;
  }
  CudaDeviceInfo device;
  std::string why;
  if (!cuda_device_present(&device, &why)) {
    std::cerr << "warpviz-cli bench record: no GPU to time: " << why << "\n";
    return 2;
  }
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  const int n = int(1u << log2_n);
  const uint64_t input_bytes = uint64_t(n) * sizeof(float);
  const uint64_t seed = std::random_device{}();
  out << "bench record: warp-shuffle reductions of kernels/warp_shuffle.cu on " << device.name
      << " (compute capability " << device.compute_capability << ", " << prop.multiProcessorCount << " SMs)\n"
      << "  n               " << n << " (2^" << log2_n << ") random floats in [-1, 1), seed " << seed << "\n"
      << "  input bytes     " << input_bytes << "\n"
      << std::flush;

  const double copy_bandwidth = measure_copy_bandwidth();
  out << std::fixed << std::setprecision(1) << "  copy bandwidth  " << copy_bandwidth / 1e9
      << " GB/s (device-to-device copy of 2 GiB, bytes read + written, median of " << kCopyRepeats << ")\n"
      << std::flush;

  const std::vector<float> host_input = random_input(size_t(n), seed);
  const DeviceArray<float> input(host_input);

  // Eight 256-thread blocks fill an SM (2048 threads).
  const Workload grid_stride{"grid-stride reduce_sum: float4 slices per thread, then the seed's warp_sum",
                             unsigned(prop.multiProcessorCount) * 8, true};
  const Workload grid_stride_unwatched{
      "the same, WARPVIZ_WATCH compiled out: shuffle steps only, the kernel the capture-cost goal was set on",
      unsigned(prop.multiProcessorCount) * 8, true, false};
  const Workload seed_kernel{"the seed's reduce_sum: one element per thread",
                             unsigned((uint64_t(n) + kBlock - 1) / kBlock), false};
  bool ok = run_workload(grid_stride, host_input, input, n, copy_bandwidth, repeat, out);
  ok &= run_workload(grid_stride_unwatched, host_input, input, n, copy_bandwidth, repeat, out);
  ok &= run_workload(seed_kernel, host_input, input, n, copy_bandwidth, repeat, out);
  return ok ? 0 : 1;
}

}  // namespace warpviz
