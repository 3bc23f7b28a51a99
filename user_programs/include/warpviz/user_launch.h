// What a user's .cu file shares on both backends: the rewritten launch
// (`kernel ->* launch_config("kernel", grid, block, shared)(args)`, see
// user_source.cpp), the named arrays recorded after each launch, and the
// bookkeeping that writes one trace per launch for the parent process
// (user_runtime_common.cpp). The CPU emulator's launch is in user_runtime.h,
// the GPU's in user_prelude_cuda.cuh.
//
// The child process that runs a user's file is told where to write by the
// environment (WARPVIZ_USER_OUT): one `launch-N.wvt` per launch and a
// `launches.jsonl` index line for each, written as the launch ends, so a later
// crash keeps the launches before it; and `fault.txt`, what went wrong.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "warpviz/trace.h"
#include "warpviz/value_bits.h"
#include "warpviz/warp_scheduler.h"

namespace warpviz::user {

// A launch's grid or block: a dim3 or a plain integer, as in <<<4, 256>>>.
struct LaunchDim {
  Dim3 dim;
  template <class D, class = decltype(std::declval<const D&>().z)>
  LaunchDim(const D& d) : dim{uint32_t(d.x), uint32_t(d.y), uint32_t(d.z)} {}  // NOLINT: implicit, as CUDA's
  template <class I, class = std::enable_if_t<std::is_integral_v<I>>, class = void>
  LaunchDim(I n) : dim{uint32_t(n), 1, 1} {}  // NOLINT
};

template <class... Args>
struct PendingLaunch {
  const char* name;
  Dim3 grid, block;
  size_t shared;
  std::tuple<Args...> args;
  const void* stream = nullptr;  // the CPU backend's stream capture (cuda_graphs_cpu.cpp) asks
};

struct LaunchConfig {
  const char* name;
  Dim3 grid, block;
  size_t shared;
  const void* stream = nullptr;
  template <class... Args>
  PendingLaunch<std::decay_t<Args>...> operator()(Args&&... args) const {
    return {name, grid, block, shared, std::tuple<std::decay_t<Args>...>(std::forward<Args>(args)...), stream};
  }
};

inline LaunchConfig launch_config(const char* name, LaunchDim grid, LaunchDim block, size_t shared = 0,
                                  const void* stream = nullptr) {
  return LaunchConfig{name, grid.dim, block.dim, shared, stream};
}

// ============================================================================
// Named arrays
// ============================================================================

template <class T, class = void>
struct TraceDType {
  static constexpr int value = -1;
};
template <class T>
struct TraceDType<T, std::void_t<decltype(ValueBits<T>::dtype)>> {
  static constexpr int value = int(ValueBits<T>::dtype);
};

// Remembers an array under a name (a parameter's, or the variable cudaMalloc
// filled: "&d_out" gives "d_out") with its element type (a DType, or -1), so
// it is recorded after each launch and named in crash reports.
void note_allocation(const void* ptr, size_t bytes, const char* name, int line, int dtype);
void forget_allocation(const void* ptr);

// ============================================================================
// Launch bookkeeping (user_runtime_common.cpp)
// ============================================================================

// The next launch's index (0, 1, ...).
int begin_launch();
// A library call that is a kernel (or several) on a GPU: a cuBLAS GEMM, say.
// It records nothing, but `--launches N` counts it, so that a program whose
// work is all cuBLAS stops after its checks too.
void begin_library_launch();
// Which warps a launch records: every one, up to WARPVIZ_USER_MAX_STEPS steps;
// none after the 256th launch.
emu::RecordFilter launch_filter(int index);
// Fills the trace's metadata, records the named arrays (`read` copies device
// bytes to the host) and writes the launch's trace for the parent.
void finish_launch(int index, const char* kernel_name, Dim3 grid, Dim3 block, size_t shared, const char* backend,
                   const char* device, Trace trace,
                   const std::function<void(void* host, const void* device, size_t bytes)>& read);
// Ends the program with a report the parent shows as the run's error.
[[noreturn]] void fail(const char* kind, const std::string& message, int exit_code);
// The most dynamic shared memory an H200 gives one block, with the opt-in.
constexpr size_t kMaxDynamicSharedBytes = 227 * 1024;
// Why an sm_90 GPU refuses this launch, as the CUDA runtime's error name and
// text ("" when it runs): the limits of an H200 (launch_config.cpp).
std::string launch_config_error(Dim3 grid, Dim3 block, size_t shared_bytes);
// The kernel running now, for crash and time-limit reports (or null).
void set_running_kernel(const char* name);
// The kernel running now, or null (from the host between launches).
const char* running_kernel_name();

// ============================================================================
// The request of a kernels-only file (user_driver.h)
// ============================================================================

// A kernel parameter as the kernels-only host code knows it (user_driver.h).
struct ParamDecl {
  const char* name;
  const char* default_text;  // the default argument as written, or nullptr
};

// What the parent process asked for (WARPVIZ_USER_REQUEST; user_runtime.cpp).
struct KernelRequest {
  Dim3 grid{1}, block{32};
  size_t shared = 0;
  std::vector<std::pair<std::string, std::string>> inputs;  // name ("" for every input) -> spec
  std::vector<std::pair<std::string, std::string>> args;    // scalar name -> value
  std::vector<std::pair<std::string, std::string>> lens;    // array name -> element count
  // A file that declares scenarios (user_scenarios.h): list them, or run one.
  bool list_scenarios = false;
  std::string scenario, scenario_input;
  std::vector<std::pair<std::string, std::string>> sets;
};
const KernelRequest& kernel_request();

// Ends the program with a message the parent shows as it is (exit code 2:
// the user's request does not fit the kernel).
[[noreturn]] void request_error(const std::string& message);
// The names the request used that the kernel has no parameter for.
void check_request_names(const std::vector<std::string>& param_names);
// The kernels-only host code's non-template part, compiled once in the
// runtime rather than in every user's file (user_runtime_common.cpp):
// an array's starting values (--input, --len; one per thread, zero for an
// output), a scalar's bits (--arg or its default argument), the refusal of a
// parameter type it cannot fill, and a type spelled as in the source.
std::vector<uint64_t> array_start_bits(const ParamDecl& decl, bool input, DType dtype, size_t threads,
                                       const std::string& type);
uint64_t scalar_bits(const ParamDecl& decl, DType as, const std::string& type);
[[noreturn]] void unsupported_parameter(const ParamDecl& decl, const std::string& type, bool pointer);
std::string spelled_type(const char* mangled, bool const_pointee);
// Attaches the outputs to the trace of the launch that just ran.
void record_outputs(std::vector<TraceOutput> outputs);


}  // namespace warpviz::user
