// The GPU backend: scenario host code compiled by nvcc, on device 0.
#include <cuda_runtime.h>

#include "cuda_scenarios.h"
#include "warpviz/cuda_backend.h"

namespace warpviz {

bool probe_device_once(CudaDeviceInfo* info, std::string* why);

namespace {

const RunnerTable& cuda_runners() {
  static const RunnerTable table = [] {
    RunnerTable t;
    register_warp_shuffle_scenarios_cuda(t);
    register_warp_reduce_int_scenarios_cuda(t);
    register_shfl_playground_scenarios_cuda(t);
    register_warp_vote_scenarios_cuda(t);
    register_match_redux_scenarios_cuda(t);
    register_cooperative_groups_scenarios_cuda(t);
    register_bits_scenarios_cuda(t);
    return t;
  }();
  return table;
}

}  // namespace

namespace {

struct DeviceProbe {
  bool present = false;
  CudaDeviceInfo info;
  std::string why;
};

// Asked once per process: the answer does not change, and every run asks.
DeviceProbe probe_device() {
  DeviceProbe probe;
  probe.present = probe_device_once(&probe.info, &probe.why);
  return probe;
}

}  // namespace

bool cuda_device_present(CudaDeviceInfo* info, std::string* why) {
  static const DeviceProbe probe = probe_device();
  if (info) *info = probe.info;
  if (why) *why = probe.why;
  return probe.present;
}

bool probe_device_once(CudaDeviceInfo* info, std::string* why) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    if (why)
      *why = status != cudaSuccess ? std::string("no usable CUDA device (") + cudaGetErrorString(status) + ")"
                                   : std::string("no CUDA device found");
    return false;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    if (why) *why = "cannot read the CUDA device's properties";
    return false;
  }
  if (prop.major < 8) {
    if (why) *why = std::string(prop.name) + " is sm_" + std::to_string(prop.major * 10 + prop.minor) +
                    "; warpviz records on sm_80 or newer (__reduce_*_sync needs it)";
    return false;
  }
  if (info) {
    info->name = prop.name;
    info->compute_capability = std::to_string(prop.major) + "." + std::to_string(prop.minor);
  }
  return true;
}

Trace run_scenario_cuda(const ResolvedScenario& scenario, const emu::RecordFilter& filter) {
  const auto it = cuda_runners().find(scenario.spec->name);
  if (it == cuda_runners().end())
    throw ScenarioError("internal: scenario '" + scenario.spec->name + "' has no GPU runner");
  CudaDeviceInfo info;
  std::string why;
  if (!cuda_device_present(&info, &why)) throw CudaError(why);
  Trace trace;
  fill_trace_meta(scenario, trace);
  trace.meta.backend = "cuda";
  trace.meta.device = info.name;
  trace.meta.compute_capability = info.compute_capability;
  Session session(scenario, filter, trace);
  it->second(session);
  return trace;
}

}  // namespace warpviz
