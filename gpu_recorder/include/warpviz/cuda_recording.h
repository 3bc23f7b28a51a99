// Host side of the GPU recorder: sizes a device trace buffer for one launch,
// turns what the warps wrote (device_recorder.h's compact layout) back into
// trace steps, and, when asked, guards the buffer to prove that the device
// wrote nothing outside what the layout allows. nvcc, or a host compiler with
// the CUDA runtime's headers.
//
// [SECTION] Errors
// [SECTION] One launch's buffer
// [SECTION] Decoding the steps
// [SECTION] The guard
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "warpviz/device_recorder.h"
#include "warpviz/trace.h"
#include "warpviz/warp_rules.h"
#include "warpviz/warp_scheduler.h"

namespace warpviz {

// ============================================================================
// [SECTION] Errors
// ============================================================================

class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline void cuda_check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw CudaError(std::string(what) + ": " + cudaGetErrorString(status));
}

// What the recorded warps wrote: steps, and bytes of headers and of lane rows
// (a lane that ran a step writes one word per row the step uses).
struct DeviceTraceBytes {
  uint64_t steps = 0;
  uint64_t lanes = 0;          // lanes that ran those steps (the words of one row)
  uint64_t header_bytes = 0;
  uint64_t lane_bytes = 0;
  uint64_t total() const { return header_bytes + lane_bytes; }
  double per_step() const { return steps ? double(total()) / double(steps) : 0.0; }
  double per_lane() const { return lanes ? double(lane_bytes) / double(lanes) : 0.0; }
};

// ============================================================================
// [SECTION] One launch's buffer
// ============================================================================

// Which warps it records comes from a RecordFilter (a block list is recorded
// as its range, then trimmed on the host) and a stride (1: every chosen warp;
// 64: one warp in 64), rounded up to a power of two. A guarded recording fills
// its buffers with kGuardPattern and adds kGuardBytes after each of them;
// guard_damage() then finds any byte the device should not have written.
class CudaRecording {
 public:
  static constexpr uint8_t kGuardPattern = 0xa5;
  static constexpr size_t kGuardBytes = size_t(64) << 10;

  CudaRecording(Dim3 grid, Dim3 block, const emu::RecordFilter& filter, uint32_t steps_per_warp,
                uint32_t warp_stride = 1, bool guarded = false)
      : filter_(filter), guarded_(guarded) {
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
    // The device numbers slots and steps in 32 bits (a 64-bit index cost
    // recorded kernels two registers, and a 256-thread block its eighth block
    // per SM). 2^32 steps would need 256 GiB of headers alone.
    if (entries() > UINT32_MAX)
      throw CudaError("the recording needs " + std::to_string(entries()) + " step slots (" + std::to_string(slots_) +
                      " warps x " + std::to_string(steps_per_warp) + "), more than the recorder numbers (2^32 - 1)");
    const size_t guard = guarded_ ? kGuardBytes : 0;
    cuda_check(cudaMalloc(&rec_.headers, header_bytes() + guard), "recorder headers");
    cuda_check(cudaMalloc(&rec_.rows, row_bytes() + guard), "recorder rows");
    cuda_check(cudaMalloc(&rec_.step_counts, count_bytes() + guard), "recorder counters");
    cuda_check(cudaMemset(rec_.step_counts, 0, count_bytes()), "recorder counters");
    if (guarded_) {
      cuda_check(cudaMemset(rec_.headers, kGuardPattern, header_bytes() + guard), "poison the headers");
      cuda_check(cudaMemset(rec_.rows, kGuardPattern, row_bytes() + guard), "poison the rows");
      cuda_check(cudaMemset(reinterpret_cast<char*>(rec_.step_counts) + count_bytes(), kGuardPattern, guard),
                 "poison the counters' guard");
    }
    rec_.enabled = 1;
  }
  ~CudaRecording() {
    cudaFree(rec_.headers);
    cudaFree(rec_.rows);
    cudaFree(rec_.step_counts);
  }
  CudaRecording(const CudaRecording&) = delete;
  CudaRecording& operator=(const CudaRecording&) = delete;

  const DeviceRecorder& recorder() const { return rec_; }
  bool guarded() const { return guarded_; }
  // The buffer as allocated (guards not counted).
  uint64_t buffer_bytes() const { return header_bytes() + row_bytes() + count_bytes(); }

  // Steps the warps tried to record (some may not have fit).
  std::vector<uint32_t> step_counts() const {
    std::vector<uint32_t> counts(slots_);
    if (slots_) cuda_check(cudaMemcpy(counts.data(), rec_.step_counts, count_bytes(), cudaMemcpyDeviceToHost),
                           "download counters");
    return counts;
  }

  // What the warps wrote into the buffer, from the steps' own headers.
  DeviceTraceBytes bytes_written() const {
    const Download d = download(false);
    DeviceTraceBytes bytes;
    for_each_used_step(d, [&](size_t index, uint32_t) {
      const DeviceStepHeader& h = d.headers[index];
      const uint64_t lanes = uint64_t(popcount(h.active));
      bytes.steps += 1;
      bytes.lanes += lanes;
      bytes.header_bytes += sizeof(DeviceStepHeader);
      bytes.lane_bytes += (device_step_bytes(h.rows) - sizeof(DeviceStepHeader)) / kWarpSize * lanes;
    });
    return bytes;
  }

  // ==========================================================================
  // [SECTION] Decoding the steps
  // ==========================================================================

  // Appends the recorded steps to `trace`, ordered by block, warp, seq. Returns
  // false when some warp had more steps than its slots (nothing else is lost).
  bool collect(Trace& trace) const {
    const Download d = download(true);
    bool complete = true;
    for (uint32_t c : d.counts) complete &= c <= rec_.steps_per_warp;
    // Decoded here, sorted, then encoded into the trace (TraceSteps).
    std::vector<TraceStep> steps;
    bool full = false;
    for_each_used_step(d, [&](size_t index, uint32_t seq) {
      const DeviceStepHeader& h = d.headers[index];
      if (full || !filter_.wants(h.block, h.warp)) return;
      if (trace.steps.size() + steps.size() >= filter_.max_steps) {
        trace.overflow = true;
        full = true;
        return;
      }
      decode_step(h, &d.rows[index * kDeviceRowsPerStep * kWarpSize], seq, steps.emplace_back());
    });
    std::stable_sort(steps.begin(), steps.end(), [](const TraceStep& a, const TraceStep& b) {
      if (a.block != b.block) return a.block < b.block;
      return a.warp != b.warp ? a.warp < b.warp : a.seq < b.seq;
    });
    trace.steps.reserve(steps.size());
    for (const TraceStep& s : steps) trace.steps.push_back(s);
    if (!complete) trace.overflow = true;
    return complete;
  }

  // One step back into the trace's LaneRecords: every field the device did
  // not write per lane comes from the header (see device_recorder.h), and
  // what the spec leaves undefined is marked by finalize_recorded_step.
  static void decode_step(const DeviceStepHeader& h, const uint32_t* rows, uint32_t seq, TraceStep& s) {
    if (h.op >= kOpCount || h.rows > (kRowsAddr | kRowsHigh | kSrcByRule) ||
        ((h.rows & kSrcByRule) && !op_is_shuffle(Op(h.op))))
      throw CudaError("the recorder's buffer holds a step it cannot have written (op " + std::to_string(h.op) +
                      ", rows " + std::to_string(h.rows) + ")");
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
    const bool shuffle = op_is_shuffle(s.op);
    const bool high = h.rows & kRowsHigh;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (!((h.active >> lane) & 1u)) continue;
      LaneRecord& l = s.lanes[lane];
      const auto word = [&](int row) { return rows[row * kWarpSize + lane]; };
      l.in = word(kRowIn) | (high ? uint64_t(word(kRowInHigh)) << 32 : 0);
      l.out = word(kRowOut) | (high ? uint64_t(word(kRowOutHigh)) << 32 : 0);
      l.addr = (h.rows & kRowsAddr) ? word(kRowAddr) : 0u;
      int src = -1;
      bool ok = (h.ok >> lane) & 1u;
      if (shuffle && (h.rows & kSrcByRule)) {
        // The device checked that every lane read what the rule names, with
        // its own b where b differs by lane (then in the addr row).
        const uint32_t b = (h.step_flags & kStepPerLaneOperand) ? l.addr : uint32_t(h.b);
        const rules::ShflSelection rule = rules::shfl_select(s.op, lane, b, h.c);
        src = rule.src;
        ok = rule.in_range;
      } else if (shuffle) {
        src = 0;
        for (int bit = 0; bit < 5; ++bit) src |= int((h.src_bits[bit] >> lane) & 1u) << bit;
      }
      l.src = int8_t(src);
      l.flags = uint8_t(kLaneActive | (ok ? kLaneOk : 0));
      l.bytes = h.bytes;
    }
    rules::finalize_recorded_step(s);
  }

  // ==========================================================================
  // [SECTION] The guard
  // ==========================================================================

  // For a guarded recording, after the launch: "" when every byte the device
  // must not touch still holds the pattern, else what was touched. Checked:
  // the guard after each buffer, the slots past each warp's last recorded
  // step, and in the steps it did record the words of lanes that did not run
  // and of rows the step does not use.
  std::string guard_damage() const {
    if (!guarded_ || slots_ == 0) return "";
    const Download d = download(true);
    std::string damage;
    const auto report = [&](const std::string& what) {
      if (damage.size() < 400) damage += (damage.empty() ? "" : "; ") + what;
    };
    const auto guard_intact = [&](const void* end, const char* name) {
      std::vector<unsigned char> guard(kGuardBytes);
      cuda_check(cudaMemcpy(guard.data(), end, kGuardBytes, cudaMemcpyDeviceToHost), "download a guard");
      for (size_t i = 0; i < guard.size(); ++i)
        if (guard[i] != kGuardPattern) return report(std::string("the guard after the ") + name + " changed at byte " +
                                                     std::to_string(i));
    };
    guard_intact(reinterpret_cast<const char*>(rec_.headers) + header_bytes(), "headers");
    guard_intact(reinterpret_cast<const char*>(rec_.rows) + row_bytes(), "lane rows");
    guard_intact(reinterpret_cast<const char*>(rec_.step_counts) + count_bytes(), "step counters");

    uint32_t poison = 0;
    std::memset(&poison, kGuardPattern, sizeof poison);
    for (size_t slot = 0; slot < slots_; ++slot) {
      const uint32_t used = std::min(d.counts[slot], rec_.steps_per_warp);
      for (uint32_t seq = 0; seq < rec_.steps_per_warp; ++seq) {
        const size_t index = slot * rec_.steps_per_warp + seq;
        const uint32_t* rows = &d.rows[index * kDeviceRowsPerStep * kWarpSize];
        const std::string where = "warp slot " + std::to_string(slot) + " step " + std::to_string(seq);
        if (seq >= used) {
          if (!untouched(&d.headers[index], sizeof(DeviceStepHeader))) report(where + " (never recorded): header written");
          if (!untouched(rows, kDeviceRowsPerStep * kWarpSize * sizeof(uint32_t)))
            report(where + " (never recorded): lane rows written");
          continue;
        }
        const DeviceStepHeader& h = d.headers[index];
        for (int row = 0; row < kDeviceRowsPerStep; ++row) {
          const bool row_used = row <= kRowOut || (row == kRowAddr && (h.rows & kRowsAddr)) ||
                                (row >= kRowInHigh && (h.rows & kRowsHigh));
          for (int lane = 0; lane < kWarpSize; ++lane) {
            const bool written = row_used && ((h.active >> lane) & 1u);
            if (!written && rows[row * kWarpSize + lane] != poison)
              report(where + ": row " + std::to_string(row) + " lane " + std::to_string(lane) +
                     " written, which the step does not use");
          }
        }
      }
    }
    return damage;
  }

 private:
  struct Download {
    std::vector<uint32_t> counts;
    std::vector<DeviceStepHeader> headers;
    std::vector<uint32_t> rows;  // empty unless asked for
  };

  size_t entries() const { return size_t(slots_) * rec_.steps_per_warp; }
  size_t header_bytes() const { return entries() * sizeof(DeviceStepHeader); }
  size_t row_bytes() const { return entries() * kDeviceRowsPerStep * kWarpSize * sizeof(uint32_t); }
  size_t count_bytes() const { return size_t(slots_) * sizeof(uint32_t); }

  static int popcount(uint32_t x) {
    int n = 0;
    for (; x; x &= x - 1) ++n;
    return n;
  }

  static bool untouched(const void* p, size_t bytes) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < bytes; ++i)
      if (b[i] != kGuardPattern) return false;
    return true;
  }

  Download download(bool with_rows) const {
    Download d;
    d.counts = step_counts();
    if (slots_ == 0) return d;
    d.headers.resize(entries());
    cuda_check(cudaMemcpy(d.headers.data(), rec_.headers, header_bytes(), cudaMemcpyDeviceToHost), "download steps");
    if (with_rows) {
      d.rows.resize(row_bytes() / sizeof(uint32_t));
      cuda_check(cudaMemcpy(d.rows.data(), rec_.rows, row_bytes(), cudaMemcpyDeviceToHost), "download lanes");
    }
    return d;
  }

  // Each warp's recorded steps in order: fn(index into the buffer, seq).
  template <class Fn>
  void for_each_used_step(const Download& d, Fn fn) const {
    for (size_t slot = 0; slot < slots_; ++slot) {
      const uint32_t used = std::min(d.counts[slot], rec_.steps_per_warp);
      for (uint32_t seq = 0; seq < used; ++seq) fn(slot * rec_.steps_per_warp + seq, seq);
    }
  }

  emu::RecordFilter filter_;
  DeviceRecorder rec_{};
  uint64_t slots_ = 0;
  bool guarded_ = false;
};

}  // namespace warpviz
