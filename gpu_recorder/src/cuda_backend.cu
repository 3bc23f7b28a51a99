// The GPU backend: scenario host code compiled by nvcc, on device 0.
#include <cuda_runtime.h>

#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>

#include "warpviz/bank_cost.h"
#include "warpviz/bank_model.h"
#include "warpviz/cuda_backend.h"
#include "warpviz/scenario_decl.h"

namespace warpviz {

bool probe_device_once(CudaDeviceInfo* info, std::string* why);

namespace {

// A times_bank_cost scenario's single shared access, timed on this GPU (bank_cost.h).
// A trace without exactly one shared step (a run that recorded no warp, for
// ncu) gets no figures. A pattern the timing kernels cannot run is reported and
// the recording kept; a failing CUDA call fails the run.
void measure_bank_scenario(Trace& trace) {
  size_t access = 0;  // the shared step's index
  size_t shared_steps = 0;
  for (size_t i = 0; i < trace.steps.size(); ++i)
    if (op_is_shared(trace.steps.op(i))) {
      access = i;
      ++shared_steps;
    }
  if (shared_steps == 0) return;
  if (shared_steps != 1) {
    std::cerr << "note: bank cost not measured: the trace has " << shared_steps
              << " shared-memory steps, the measurement times exactly one\n";
    return;
  }
  try {
    const BankCost cost = measure_bank_cost(shared_access_of(trace.steps[access]));
    trace.meta.measurements["latency_cycles"] = cost.latency_cycles;
    trace.meta.measurements["throughput_cycles"] = cost.throughput_cycles;
    trace.meta.measurements["throughput_ns"] = cost.throughput_ns_per_access;
    trace.meta.measurements["throughput_clock64_cycles"] = cost.throughput_clock64_cycles;
    trace.meta.measurements["sm_clock_mhz"] = cost.sm_clock_mhz;
    trace.meta.measurements["warps_per_sm"] = cost.warps_per_sm;
  } catch (const std::invalid_argument& e) {
    std::cerr << "note: bank cost not measured: " << e.what() << "\n";
  } catch (const CudaError& e) {
    throw CudaError(std::string("measuring the bank cost: ") + e.what());
  }
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

namespace {

// Whether to time a bank scenario's access after recording it. Off with
// WARPVIZ_MEASURE_BANK_COST=0: under compute-sanitizer the timing kernels (a
// full wave of every SM) take minutes and time nothing real.
bool measure_bank_cost_wanted() {
  const char* text = std::getenv("WARPVIZ_MEASURE_BANK_COST");
  return !(text && std::string(text) == "0");
}

}  // namespace

Trace run_scenario_cuda(const ResolvedScenario& scenario, const emu::RecordFilter& filter) {
  const ScenarioRunner* runner = find_scenario_runner(scenario.spec->name);
  if (!runner) throw ScenarioError("internal: scenario '" + scenario.spec->name + "' has no GPU runner");
  CudaDeviceInfo info;
  std::string why;
  if (!cuda_device_present(&info, &why)) throw CudaError(why);
  Trace trace;
  fill_trace_meta(scenario, trace);
  trace.meta.backend = "cuda";
  trace.meta.device = info.name;
  trace.meta.compute_capability = info.compute_capability;
  Session session(scenario, filter, trace);
  (*runner)(session);
  if (scenario.spec->traits.times_bank_cost && measure_bank_cost_wanted()) measure_bank_scenario(trace);
  return trace;
}

}  // namespace warpviz
