// Host side of the GPU recorder: sizes a device trace buffer for one launch,
// and turns what the warps wrote into trace steps. nvcc only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "warpviz/device_recorder.h"
#include "warpviz/trace.h"
#include "warpviz/warp_rules.h"
#include "warpviz/warp_scheduler.h"

namespace warpviz {

class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline void cuda_check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw CudaError(std::string(what) + ": " + cudaGetErrorString(status));
}

// One launch's trace buffer. Which warps it records comes from a RecordFilter
// (a block list is recorded as its range, then trimmed on the host) and a
// stride (1: every chosen warp; 64: one warp in 64), rounded up to a power of two.
class CudaRecording {
 public:
  CudaRecording(Dim3 grid, Dim3 block, const emu::RecordFilter& filter, uint32_t steps_per_warp,
                uint32_t warp_stride = 1)
      : filter_(filter) {
    rec_.steps_per_warp = steps_per_warp;
    rec_.warps_per_block = uint32_t((block.count() + kWarpSize - 1) / kWarpSize);
    while ((1u << rec_.warp_stride_shift) < warp_stride && rec_.warp_stride_shift < 31) ++rec_.warp_stride_shift;
    const uint32_t stride = 1u << rec_.warp_stride_shift;
    rec_.block_begin = 0;
    rec_.block_end = uint32_t(grid.count());
    if (!filter.blocks.empty()) {
      rec_.block_begin = *std::min_element(filter.blocks.begin(), filter.blocks.end());
      rec_.block_end = std::min<uint32_t>(rec_.block_end, *std::max_element(filter.blocks.begin(), filter.blocks.end()) + 1);
      if (rec_.block_begin >= rec_.block_end) rec_.block_begin = rec_.block_end = 0;
    }
    if (!filter.warps.empty()) {
      rec_.warp_mask = 0;
      for (uint32_t w : filter.warps)
        if (w < 32) rec_.warp_mask |= 1u << w;
    }
    const uint64_t warps = uint64_t(rec_.block_end - rec_.block_begin) * rec_.warps_per_block;
    slots_ = (warps + stride - 1) / stride;
    if (slots_ == 0) return;
    cuda_check(cudaMalloc(&rec_.headers, slots_ * steps_per_warp * sizeof(DeviceStepHeader)), "recorder headers");
    cuda_check(cudaMalloc(&rec_.lanes, slots_ * steps_per_warp * kWarpSize * sizeof(LaneRecord)), "recorder lanes");
    cuda_check(cudaMalloc(&rec_.step_counts, slots_ * sizeof(uint32_t)), "recorder counters");
    cuda_check(cudaMemset(rec_.step_counts, 0, slots_ * sizeof(uint32_t)), "recorder counters");
    rec_.enabled = 1;
  }
  ~CudaRecording() {
    cudaFree(rec_.headers);
    cudaFree(rec_.lanes);
    cudaFree(rec_.step_counts);
  }
  CudaRecording(const CudaRecording&) = delete;
  CudaRecording& operator=(const CudaRecording&) = delete;

  const DeviceRecorder& recorder() const { return rec_; }
  uint64_t buffer_bytes() const {
    return slots_ * rec_.steps_per_warp * (sizeof(DeviceStepHeader) + kWarpSize * sizeof(LaneRecord));
  }

  // Steps the warps tried to record (some may not have fit).
  std::vector<uint32_t> step_counts() const {
    std::vector<uint32_t> counts(slots_);
    if (slots_) cuda_check(cudaMemcpy(counts.data(), rec_.step_counts, slots_ * sizeof(uint32_t), cudaMemcpyDeviceToHost),
                           "download counters");
    return counts;
  }

  // Bytes the warps wrote into the buffer: headers and lane records.
  uint64_t bytes_written() const {
    uint64_t steps = 0;
    for (uint32_t c : step_counts()) steps += std::min(c, rec_.steps_per_warp);
    return steps * (sizeof(DeviceStepHeader) + kWarpSize * sizeof(LaneRecord));
  }

  // Appends the recorded steps to `trace`, ordered by block, warp, seq. Returns
  // false when some warp had more steps than its slots (nothing else is lost).
  bool collect(Trace& trace) const {
    const std::vector<uint32_t> counts = step_counts();
    bool complete = true;
    for (uint32_t c : counts) complete &= c <= rec_.steps_per_warp;
    if (slots_ == 0) return complete;
    const size_t entries = slots_ * rec_.steps_per_warp;
    std::vector<DeviceStepHeader> headers(entries);
    std::vector<LaneRecord> lanes(entries * kWarpSize);
    cuda_check(cudaMemcpy(headers.data(), rec_.headers, entries * sizeof(DeviceStepHeader), cudaMemcpyDeviceToHost),
               "download steps");
    cuda_check(cudaMemcpy(lanes.data(), rec_.lanes, lanes.size() * sizeof(LaneRecord), cudaMemcpyDeviceToHost),
               "download lanes");
    const size_t first = trace.steps.size();
    for (size_t slot = 0; slot < slots_; ++slot) {
      const uint32_t used = std::min(counts[slot], rec_.steps_per_warp);
      for (uint32_t seq = 0; seq < used; ++seq) {
        const size_t index = slot * rec_.steps_per_warp + seq;
        const DeviceStepHeader& h = headers[index];
        if (!filter_.wants(h.block, h.warp)) continue;
        if (trace.steps.size() >= filter_.max_steps) {
          trace.overflow = true;
          break;
        }
        TraceStep& s = trace.steps.emplace_back();
        s.block = h.block;
        s.warp = h.warp;
        s.seq = seq;
        s.line = h.line;
        s.mask = h.mask;
        s.op = Op(h.op);
        s.dtype = DType(h.dtype);
        s.step_flags = h.step_flags;
        s.args.b = h.b;
        s.args.width = h.width;
        s.args.c = h.c;
        for (int lane = 0; lane < kWarpSize; ++lane)
          if ((h.active >> lane) & 1u) s.lanes[lane] = lanes[index * kWarpSize + lane];
        rules::finalize_recorded_step(s);
      }
    }
    std::stable_sort(trace.steps.begin() + long(first), trace.steps.end(), [](const TraceStep& a, const TraceStep& b) {
      if (a.block != b.block) return a.block < b.block;
      return a.warp != b.warp ? a.warp < b.warp : a.seq < b.seq;
    });
    if (!complete) trace.overflow = true;
    return complete;
  }

 private:
  emu::RecordFilter filter_;
  DeviceRecorder rec_{};
  uint64_t slots_ = 0;
};

}  // namespace warpviz
