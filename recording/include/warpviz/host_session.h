// What a scenario's host code sees on the CPU backend: its parameters and
// input, "device" arrays (host memory here) and kernel launches that run in
// the emulator and record into the trace.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "warpviz/scenario.h"
#include "warpviz/session_base.h"
#include "warpviz/value_bits.h"
#include "warpviz/warp_scheduler.h"

namespace warpviz {
// A namespace of its own, so the GPU backend's Session never collides with this one.
inline namespace cpu_backend {

template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(size_t count, T fill = T{}) : data_(count, fill) {}
  explicit DeviceArray(std::vector<T> values) : data_(std::move(values)) {}
  T* ptr() { return data_.data(); }
  const T* ptr() const { return data_.data(); }
  size_t size() const { return data_.size(); }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  std::vector<T> data_;
};

class Session : public SessionBase {
 public:
  using SessionBase::SessionBase;

  // The scenario's input, converted to T bit for bit.
  template <class T>
  DeviceArray<T> input() const {
    DeviceArray<T> a(scenario_.input_bits.size());
    for (size_t i = 0; i < a.size(); ++i) a[i] = ValueBits<T>::from_bits(scenario_.input_bits[i]);
    return a;
  }

  template <class T>
  DeviceArray<T> alloc(size_t count, T fill = T{}) const {
    return DeviceArray<T>(count, fill);
  }

  // A "device" array holding the host code's own values.
  template <class T>
  DeviceArray<T> upload(const std::vector<T>& values) const {
    return DeviceArray<T>(values);
  }

  template <class... KernelParams, class... Args>
  void launch(void (*kernel)(KernelParams...), Dim3 grid, Dim3 block, Args... args) {
    trace_.meta.grid = grid;
    trace_.meta.block = block;
    const emu::LaunchStats s = emu::launch_grid(grid, block, [&] { kernel(args...); }, filter_, trace_);
    stats_.threads += s.threads;
    stats_.warp_ops += s.warp_ops;
    stats_.lane_ops += s.lane_ops;
    stats_.context_switches += s.context_switches;
  }

  template <class T>
  void output(const std::string& name, const DeviceArray<T>& a) {
    TraceOutput out;
    out.name = name;
    out.dtype = ValueBits<T>::dtype;
    out.bits.resize(a.size());
    for (size_t i = 0; i < a.size(); ++i) out.bits[i] = ValueBits<T>::to_bits(a[i]);
    trace_.outputs.push_back(std::move(out));
  }

  const emu::LaunchStats& stats() const { return stats_; }

 private:
  emu::LaunchStats stats_;
};

}  // namespace cpu_backend
}  // namespace warpviz
