// The host program warpviz writes for a .cu file that has kernels only: the
// kernel's parameters come from its signature. The compiler deduces their
// types from the kernel itself (so templates and typedefs work); only the
// names and default arguments come from the source text.
//
//   const T*  an input array, filled from --input [NAME=]SPEC
//   T*        an output array, zeroed unless --input NAME=SPEC fills it;
//             recorded under the parameter's name
//   scalar    --arg NAME=VALUE, or the kernel's default argument
//
// Arrays hold one element per thread unless --len NAME=N says otherwise.
// Included after the prelude, which declares CUDA's runtime API (the real one
// under nvcc, the emulator's otherwise).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "warpviz/dtype.h"
#include "warpviz/input_spec.h"
#include "warpviz/user_launch.h"
#include "warpviz/value_bits.h"

namespace warpviz::user {

template <class T, class = void>
struct HasValueBits : std::false_type {};
template <class T>
struct HasValueBits<T, std::void_t<decltype(ValueBits<T>::dtype)>> : std::true_type {};

// "const int*" as the source would spell it (typeid loses nothing but spelling).
template <class T>
std::string type_name() {
  return spelled_type(typeid(T).name(), std::is_pointer_v<T> && std::is_const_v<std::remove_pointer_t<T>>);
}

// One kernel parameter: its storage on the "device" and what it records.
template <class P>
class KernelParam {
 public:
  KernelParam(const ParamDecl& decl, size_t threads) : name_(decl.name) {
    if constexpr (std::is_pointer_v<P> && HasValueBits<std::remove_cv_t<std::remove_pointer_t<P>>>::value) {
      using Elem = std::remove_cv_t<std::remove_pointer_t<P>>;
      constexpr bool input = std::is_const_v<std::remove_pointer_t<P>>;
      const std::vector<uint64_t> bits = array_start_bits(decl, input, ValueBits<Elem>::dtype, threads, type_name<P>());
      const size_t count = bits.size();
      // Through cudaMemcpy, so the same host code runs on a GPU too.
      std::vector<Elem> host(count);
      for (size_t i = 0; i < count; ++i) host[i] = ValueBits<Elem>::from_bits(bits[i]);
      Elem* device = nullptr;
      if ((cudaMalloc)(&device, count * sizeof(Elem)) != cudaSuccess ||  // (): no line of this file
          cudaMemcpy(device, host.data(), count * sizeof(Elem), cudaMemcpyHostToDevice) != cudaSuccess)
        request_error("cannot allocate `" + name_ + "` (" + std::to_string(count) + " elements)");
      note_allocation(device, count * sizeof(Elem), decl.name, 0, int(ValueBits<Elem>::dtype));
      value_ = device;
      count_ = count;
      output_ = !input;
    } else if constexpr (HasValueBits<P>::value || std::is_arithmetic_v<P>) {
      // A number: int, float, ..., or warpviz::device_f32 (GpuFloat) on the CPU.
      DType as;
      if constexpr (HasValueBits<P>::value) as = ValueBits<P>::dtype;
      else as = std::is_floating_point_v<P> ? DType::F64 : std::is_signed_v<P> ? DType::I64 : DType::U64;
      const uint64_t bits = scalar_bits(decl, as, type_name<P>());
      if constexpr (HasValueBits<P>::value) value_ = ValueBits<P>::from_bits(bits);
      else if constexpr (std::is_floating_point_v<P>) value_ = P(ValueBits<double>::from_bits(bits));
      else value_ = P(bits);
    } else {
      unsupported_parameter(decl, type_name<P>(), std::is_pointer_v<P>);
    }
  }

  P value() const { return value_; }

  // The array as the kernel left it, when it is an output.
  void collect(std::vector<TraceOutput>& outputs) const {
    if constexpr (std::is_pointer_v<P>) {
      using Elem = std::remove_cv_t<std::remove_pointer_t<P>>;
      if constexpr (HasValueBits<Elem>::value) {
        if (!output_) return;
        TraceOutput out;
        out.name = name_;
        out.dtype = ValueBits<Elem>::dtype;
        std::vector<Elem> host(count_);
        cudaMemcpy(host.data(), value_, count_ * sizeof(Elem), cudaMemcpyDeviceToHost);
        out.bits.resize(count_);
        for (size_t i = 0; i < count_; ++i) out.bits[i] = ValueBits<Elem>::to_bits(host[i]);
        outputs.push_back(std::move(out));
      }
    }
  }

 private:
  std::string name_;
  P value_{};
  size_t count_ = 0;
  bool output_ = false;
};

// A request a GPU would refuse, or whose thread count overflows, ends the run
// with that error before any array is sized from it.
inline void check_launch_request(const char* kernel_name, const KernelRequest& req) {
  const std::string refused = launch_config_error(req.grid, req.block, req.shared);
  if (!refused.empty()) fail("kernel-error", std::string("launch of `") + kernel_name + "`: " + refused, 3);
  unsigned long long threads = 0;
  if (__builtin_mul_overflow((unsigned long long)req.grid.count(), (unsigned long long)req.block.count(), &threads) ||
      threads > (unsigned long long)(SIZE_MAX / 16))
    fail("kernel-error",
         std::string("launch of `") + kernel_name + "`: the grid's thread count (" + std::to_string(req.grid.count()) +
             " blocks x " + std::to_string(req.block.count()) + " threads) overflows",
         3);
}

// Runs `kernel` once as the request says, and records it with its outputs.
template <class... Params, size_t N>
int run_kernel_only(const char* kernel_name, void (*kernel)(Params...), const ParamDecl (&decls)[N]) {
  static_assert(sizeof...(Params) == N, "one declaration per kernel parameter");
  std::vector<std::string> names;
  for (const ParamDecl& d : decls) names.push_back(d.name);
  check_request_names(names);
  const KernelRequest& req = kernel_request();
  check_launch_request(kernel_name, req);
  const size_t threads = size_t(req.grid.count() * req.block.count());
  return [&]<size_t... I>(std::index_sequence<I...>) {
    std::tuple<KernelParam<Params>...> params{KernelParam<Params>(decls[I], threads)...};
    allow_dynamic_shared(kernel, req.shared);
    kernel ->* launch_config(kernel_name, req.grid, req.block, req.shared)(std::get<I>(params).value()...);
    std::vector<TraceOutput> outputs;
    (std::get<I>(params).collect(outputs), ...);
    record_outputs(std::move(outputs));
    return 0;
  }(std::index_sequence_for<Params...>{});
}

// A kernel without parameters.
template <size_t N = 0>
int run_kernel_only(const char* kernel_name, void (*kernel)()) {
  check_request_names({});
  const KernelRequest& req = kernel_request();
  check_launch_request(kernel_name, req);
  allow_dynamic_shared(kernel, req.shared);
  kernel ->* launch_config(kernel_name, req.grid, req.block, req.shared)();
  record_outputs({});
  return 0;
}

}  // namespace warpviz::user
