// Recording a kernel of your own with warpviz, on a GPU.
//
//   warpviz-example-record my_kernel.wvt [path/to/record_my_kernel.cu]
//   warpviz-cli dump my_kernel.wvt --active-only
//
// Your kernel keeps calling the standard __shfl_*_sync, __ballot_sync,
// __any_sync, __match_*_sync, __reduce_*_sync and __syncwarp. Including
// warpviz/record.cuh first turns each of those calls in this file into one
// that still returns what the hardware returns, and also writes, lane by lane,
// what every lane gave and got into the trace buffer of the launch.
//
// Build it like warpviz-example-record in kernels/CMakeLists.txt: nvcc with
// kernels/include and core/include on the include path, C++17, linked with
// warpviz_core.

// 1. The one include, before any code that uses the intrinsics.
#include "warpviz/record.cuh"

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "warpviz/trace_io.h"
#include "warpviz/version.h"

// 2. Your kernel, written as usual. Each warp computes an inclusive prefix sum
//    of its 32 values, then asks which lanes' running sums passed a threshold.
__global__ void warp_prefix_sum(const int* values, int* prefix, unsigned* over_threshold, int threshold) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  int sum = values[i];
  for (int delta = 1; delta < 32; delta <<= 1) {
    const int below = __shfl_up_sync(0xffffffff, sum, delta);
    if (lane >= delta) sum += below;
  }
  prefix[i] = sum;
  const unsigned over = __ballot_sync(0xffffffff, sum > threshold);
  if (lane == 0) over_threshold[i / 32] = over;
}

namespace {

void check(cudaError_t status, const char* what) { warpviz::cuda_check(status, what); }

std::string read_text(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return {};
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

template <class T>
warpviz::TraceOutput download_output(const std::string& name, warpviz::DType dtype, const T* device, size_t count) {
  std::vector<T> host(count);
  check(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost), "download an output");
  warpviz::TraceOutput out{name, dtype, {}};
  for (T v : host) out.bits.push_back(uint32_t(v));  // 32-bit values keep the low word
  return out;
}

int record(const std::string& trace_path, const std::string& source_path) {
  int devices = 0;
  const cudaError_t found = cudaGetDeviceCount(&devices);
  if (found != cudaSuccess || devices == 0) {
    std::cerr << "no CUDA device to record on ("
              << (found != cudaSuccess ? cudaGetErrorString(found) : "none found") << ")\n";
    return 2;
  }
  // The trace carries the kernel's source, so its steps' line numbers can be shown.
  const std::string source = read_text(source_path);
  if (source.empty()) {
    std::cerr << "cannot read the kernel source '" << source_path << "'; pass its path as the second argument\n";
    return 2;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");

  // Two blocks of 128 threads: 8 warps.
  const int n = 256, threshold = 20;
  const dim3 grid{2}, block{128};
  std::vector<int> host_values(n);
  for (int i = 0; i < n; ++i) host_values[i] = (7 * i) % 11 - 5;
  int* values = nullptr;
  int* prefix = nullptr;
  unsigned* over_threshold = nullptr;
  check(cudaMalloc(&values, n * sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&prefix, n * sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&over_threshold, n / 32 * sizeof(unsigned)), "cudaMalloc");
  check(cudaMemcpy(values, host_values.data(), n * sizeof(int), cudaMemcpyHostToDevice), "upload");

  // 3. A trace buffer for this launch: every block (an empty block list), every
  //    warp, room for 32 steps per warp (this kernel makes 6).
  const warpviz::Dim3 grid_dim{grid.x, grid.y, grid.z}, block_dim{block.x, block.y, block.z};
  const warpviz::CudaRecording rec(grid_dim, block_dim, warpviz::emu::RecordFilter{}, 32);

  // 4. Attach it, launch, wait. Launches after a detach record nothing.
  check(warpviz_attach_recorder(rec.recorder()), "attach the recorder");
  warp_prefix_sum<<<grid, block>>>(values, prefix, over_threshold, threshold);
  check(cudaGetLastError(), "launch");
  check(cudaDeviceSynchronize(), "warp_prefix_sum");
  check(warpviz_attach_recorder(warpviz::DeviceRecorder{}), "detach the recorder");

  // 5. The trace: what ran, the recorded steps, the outputs.
  warpviz::Trace trace;
  trace.meta.scenario = "user:record_my_kernel";
  trace.meta.params = {{"n", std::to_string(n)}, {"threshold", std::to_string(threshold)}};
  trace.meta.dtype = warpviz::DType::I32;
  trace.meta.input_spec = "(7 * i) % 11 - 5";
  trace.meta.grid = grid_dim;
  trace.meta.block = block_dim;
  trace.meta.backend = "cuda";
  trace.meta.device = prop.name;
  trace.meta.compute_capability = std::to_string(prop.major) + "." + std::to_string(prop.minor);
  trace.meta.tool_version = warpviz::tool_version();
  trace.meta.source_path = "kernels/examples/record_my_kernel.cu";
  trace.meta.source_text = source;
  if (!rec.collect(trace)) std::cerr << "some warp made more steps than its 32 slots; the trace keeps the first 32\n";
  trace.outputs.push_back(download_output("out", warpviz::DType::I32, prefix, n));
  trace.outputs.push_back(download_output("over_threshold", warpviz::DType::U32, over_threshold, n / 32));
  warpviz::save_trace(trace, trace_path);

  check(cudaFree(values), "cudaFree");
  check(cudaFree(prefix), "cudaFree");
  check(cudaFree(over_threshold), "cudaFree");
  std::cout << "recorded " << trace.steps.size() << " steps of " << grid.x * block.x / 32 << " warps on " << prop.name
            << " into " << trace_path << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: warpviz-example-record TRACE_FILE [KERNEL_SOURCE]\n"
                 "  Records warp_prefix_sum on GPU 0 into TRACE_FILE (.json: JSON, else binary .wvt).\n"
                 "  KERNEL_SOURCE defaults to the path this file was compiled from.\n";
    return 2;
  }
  try {
    return record(argv[1], argc == 3 ? argv[2] : __FILE__);
  } catch (const std::exception& e) {  // CudaError, TraceFileError
    std::cerr << "warpviz-example-record: " << e.what() << "\n";
    return 1;
  }
}
