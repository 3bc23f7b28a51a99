// cudaLaunchCooperativeKernel and the occupancy queries that size its grid,
// on the CPU backend (cooperative_launch_cpu.cpp). A cooperative launch runs
// every block at once, so grid.sync() can wait for all of them; a grid larger
// than an H200 holds at once is refused, as on the GPU, with
// cudaErrorCooperativeLaunchTooLarge.
//
// Programs pass the kernel cast to void*, which loses its parameter types:
// the macros below take the cast off again (`(void *)kernel` -> `kernel`), so
// the `void** args` convert to the kernel's own parameter types.
#pragma once

#include <algorithm>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "warpviz/user_runtime.h"

namespace warpviz::user {

// How many blocks of `block_threads` threads and `dynamic_shared` bytes an
// H200 SM holds at once: by threads (2048), blocks (32) and shared memory
// (228 KiB, 1 KiB of it reserved per block). Registers and static shared
// memory the emulator cannot see: it assumes they do not limit.
int max_active_blocks_per_sm(int block_threads, size_t dynamic_shared);
// The H200's SM count.
constexpr int kSmCount = 132;

// Runs a cooperative launch (user_runtime_cpu.cpp): refused, returning the
// error, when the grid cannot be resident at once.
cudaError_t run_cooperative_launch(const char* kernel_name, Dim3 grid, Dim3 block, size_t shared_bytes,
                                   const std::function<void()>& thread_body);
template <class...>
inline constexpr bool kAlwaysFalse = false;

template <class... Params, size_t... I>
std::tuple<std::decay_t<Params>...> kernel_arguments(void** args, std::index_sequence<I...>) {
  return std::tuple<std::decay_t<Params>...>(*static_cast<std::decay_t<Params>*>(args[I])...);
}

template <class... Params>
cudaError_t launch_cooperative(const char* name, void (*kernel)(Params...), LaunchDim grid, LaunchDim block,
                               void** args, size_t shared = 0, cudaStream_t stream = nullptr) {
  if (sizeof...(Params) && !args) return cudaErrorInvalidValue;
  if (stream_is_capturing(stream))
    fail("request", "cudaLaunchCooperativeKernel into a stream capture is not supported by warpviz on the CPU backend",
         2);
  // The values are copied at the launch, as CUDA copies them.
  const auto values = kernel_arguments<Params...>(args, std::index_sequence_for<Params...>{});
  return run_cooperative_launch(name, grid.dim, block.dim, shared, [&] { std::apply(kernel, values); });
}
template <class... Params>
cudaError_t launch_plain(const char* name, void (*kernel)(Params...), LaunchDim grid, LaunchDim block, void** args,
                         size_t shared = 0, cudaStream_t stream = nullptr) {
  if (sizeof...(Params) && !args) return cudaErrorInvalidValue;
  const auto values = kernel_arguments<Params...>(args, std::index_sequence_for<Params...>{});
  if (stream_is_capturing(stream)) {  // a kernel node (cuda_graphs_cpu.cpp)
    capture_kernel(stream, name, grid.dim, block.dim, shared, [kernel, values] { std::apply(kernel, values); },
                   function_key(kernel));
    return cudaSuccess;
  }
  return run_launch(name, grid.dim, block.dim, shared, [&] { std::apply(kernel, values); }, function_key(kernel));
}
// A plain pointer (the kernel through reinterpret_cast, a variable) cannot be
// called with the arguments' types: refused when the file compiles.
template <class... Rest>
cudaError_t launch_cooperative(const char*, const void*, Rest&&...) {
  static_assert(kAlwaysFalse<Rest...>,
                "cudaLaunchCooperativeKernel: warpviz needs the kernel itself, `kernel` or `(void *)kernel`, "
                "to pass the arguments as its parameters");
  return cudaErrorInvalidValue;
}
template <class... Rest>
cudaError_t launch_plain(const char*, const void*, Rest&&...) {
  static_assert(kAlwaysFalse<Rest...>,
                "cudaLaunchKernel: warpviz needs the kernel itself, `kernel` or `(void *)kernel`, to pass the "
                "arguments as its parameters");
  return cudaErrorInvalidValue;
}

}  // namespace warpviz::user

// The occupancy queries themselves are the runtime's (user_runtime.h);
// the WithFlags form takes no flag that matters on the emulator.
template <class Kernel>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, Kernel kernel, int block_threads,
                                                                   size_t dynamic_shared, unsigned) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, block_threads, dynamic_shared);
}

// `(void *)kernel` -> `kernel`: a leading parenthesis is a cast, taken off;
// anything else is passed on as it is.
#define WARPVIZ_LAUNCH_CAST_PROBE(...) ~,
#define WARPVIZ_LAUNCH_SECOND_(a, b, ...) b
#define WARPVIZ_LAUNCH_SECOND(...) WARPVIZ_LAUNCH_SECOND_(__VA_ARGS__)
#define WARPVIZ_LAUNCH_UNCAST(f) WARPVIZ_LAUNCH_SECOND(WARPVIZ_LAUNCH_CAST_PROBE f, f)
#define WARPVIZ_LAUNCH_STR_(...) #__VA_ARGS__
#define WARPVIZ_LAUNCH_STR(...) WARPVIZ_LAUNCH_STR_(__VA_ARGS__)

#define cudaLaunchCooperativeKernel(f, ...)                                                       \
  ::warpviz::user::launch_cooperative(WARPVIZ_LAUNCH_STR(WARPVIZ_LAUNCH_UNCAST(f)), WARPVIZ_LAUNCH_UNCAST(f), \
                                      __VA_ARGS__)
#define cudaLaunchKernel(f, ...) \
  ::warpviz::user::launch_plain(WARPVIZ_LAUNCH_STR(WARPVIZ_LAUNCH_UNCAST(f)), WARPVIZ_LAUNCH_UNCAST(f), __VA_ARGS__)
