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

#include <cxxabi.h>

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

struct ParamDecl {
  const char* name;
  const char* default_text;  // the default argument as written, or nullptr
};

template <class T>
std::string type_name() {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> s(abi::__cxa_demangle(typeid(T).name(), nullptr, nullptr, &status),
                                           std::free);
  std::string name = status == 0 && s ? s.get() : typeid(T).name();
  if constexpr (std::is_pointer_v<T> && std::is_const_v<std::remove_pointer_t<T>>) {
    // typeid keeps the pointee's const: "int const*" reads as the source would.
    if (name.size() > 7 && name.compare(name.size() - 7, 7, " const*") == 0)
      name = "const " + name.substr(0, name.size() - 7) + "*";
  }
  return name;
}

template <class T, class = void>
struct HasValueBits : std::false_type {};
template <class T>
struct HasValueBits<T, std::void_t<decltype(ValueBits<T>::dtype)>> : std::true_type {};

inline const std::string* find_named(const std::vector<std::pair<std::string, std::string>>& list,
                                     const std::string& name) {
  for (const auto& [k, v] : list)
    if (k == name) return &v;
  return nullptr;
}

// One kernel parameter: its storage on the "device" and what it records.
template <class P>
class KernelParam {
 public:
  KernelParam(const ParamDecl& decl, size_t threads) : name_(decl.name) {
    const KernelRequest& req = kernel_request();
    if constexpr (std::is_pointer_v<P>) {
      using Elem = std::remove_cv_t<std::remove_pointer_t<P>>;
      if constexpr (!HasValueBits<Elem>::value) {
        request_error("parameter `" + name_ + "` is " + type_name<P>() +
                      ": a kernel-only file fills arrays of int, unsigned, float, double, long long and "
                      "unsigned long long; write a main() to pass anything else");
      } else {
        constexpr bool input = std::is_const_v<std::remove_pointer_t<P>>;
        size_t count = threads;
        if (const std::string* len = find_named(req.lens, name_)) {
          const auto n = parse_value(DType::U64, *len);
          if (!n || *n == 0 || *n > (uint64_t(1) << 28))
            request_error("--len " + name_ + "=" + *len + ": a length is a whole number from 1 to 268435456");
          count = size_t(*n);
        }
        const std::string* spec = find_named(req.inputs, name_);
        if (!spec && input) spec = find_named(req.inputs, "");
        std::vector<uint64_t> bits(count, 0);
        if (spec || input) {
          try {
            bits = make_input_values(parse_input_spec(spec ? *spec : "iota"), ValueBits<Elem>::dtype, count);
          } catch (const std::exception& e) {
            request_error("--input for `" + name_ + "` (" + type_name<P>() + ", " + std::to_string(count) +
                          " elements): " + e.what());
          }
        }
        // Through cudaMemcpy, so the same host code runs on a GPU too.
        std::vector<Elem> host(count);
        for (size_t i = 0; i < count; ++i) host[i] = ValueBits<Elem>::from_bits(bits[i]);
        Elem* device = nullptr;
        if ((cudaMalloc)(&device, count * sizeof(Elem)) != cudaSuccess ||  // (): no line of this file
            cudaMemcpy(device, host.data(), count * sizeof(Elem), cudaMemcpyHostToDevice) != cudaSuccess)
          request_error("cannot allocate `" + name_ + "` (" + std::to_string(count) + " elements)");
        note_allocation(device, count * sizeof(Elem), name_.c_str(), 0, int(ValueBits<Elem>::dtype));
        value_ = device;
        count_ = count;
        output_ = !input;
      }
    } else if constexpr (std::is_arithmetic_v<P>) {
      const std::string* text = find_named(req.args, name_);
      std::string given = text ? *text : decl.default_text ? decl.default_text : "";
      if (given.empty())
        request_error("the kernel's parameter `" + name_ + "` (" + type_name<P>() + ") needs a value: --arg " +
                      name_ + "=VALUE");
      const DType as = std::is_floating_point_v<P> ? (sizeof(P) == 4 ? DType::F32 : DType::F64)
                       : std::is_signed_v<P>       ? DType::I64
                                                   : DType::U64;
      // Default arguments are C++ literals: 1.5f, 32u, 10L.
      while (!text && given.size() > 1 && std::string("fFuUlL").find(given.back()) != std::string::npos &&
             given.compare(0, 2, "0x") != 0)
        given.pop_back();
      const auto bits = parse_value(as, given);
      if (!bits)
        request_error("--arg " + name_ + "=" + given + ": not a value of type " + type_name<P>() +
                      (text ? "" : " (the kernel's default argument; give --arg " + name_ + "=VALUE)"));
      if constexpr (std::is_floating_point_v<P>) {
        if constexpr (sizeof(P) == 4) value_ = P(ValueBits<float>::from_bits(*bits));
        else value_ = P(ValueBits<double>::from_bits(*bits));
      } else {
        value_ = P(*bits);
      }
    } else {
      request_error("parameter `" + name_ + "` is " + type_name<P>() +
                    ": a kernel-only file takes pointers and numbers; write a main() to pass anything else");
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

// Runs `kernel` once as the request says, and records it with its outputs.
template <class... Params, size_t N>
int run_kernel_only(const char* kernel_name, void (*kernel)(Params...), const ParamDecl (&decls)[N]) {
  static_assert(sizeof...(Params) == N, "one declaration per kernel parameter");
  std::vector<std::string> names;
  for (const ParamDecl& d : decls) names.push_back(d.name);
  check_request_names(names);
  const KernelRequest& req = kernel_request();
  const size_t threads = size_t(req.grid.count() * req.block.count());
  return [&]<size_t... I>(std::index_sequence<I...>) {
    std::tuple<KernelParam<Params>...> params{KernelParam<Params>(decls[I], threads)...};
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
  kernel ->* launch_config(kernel_name, req.grid, req.block, req.shared)();
  record_outputs({});
  return 0;
}

}  // namespace warpviz::user
