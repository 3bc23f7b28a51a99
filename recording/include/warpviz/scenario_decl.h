// One declaration per scenario, written once next to its kernels. It feeds the
// registry (warpviz-cli list and run, the app, the views' traits) and the
// backend the file is compiled for: the CPU emulator under the host compiler,
// the GPU under nvcc. A kernel file declares its scenarios after its kernels
// (so the kernels' line numbers, which traces record, stay put):
//
//   #include "warpviz/record.cuh"
//   #include "warpviz/session.h"      // the backend's Session, and this header
//
//   template <typename T>
//   __global__ void add_one(const T* in, T* out) { out[threadIdx.x] = in[threadIdx.x] + T(1); }
//
//   static const warpviz::ScenarioRegistrar add_one_scenario =
//       warpviz::ScenarioDeclaration("add_one", 1000)        // name, place in the table
//           .summary("every lane adds one")
//           .source("my/add_one.cu", "add_one")               // as the trace's source panel shows it
//           .param(warpviz::int_param("block", "32", 32, 1024, "threads (a multiple of 32)"))
//           .input("iota", [](const warpviz::ParamValues& p) { return size_t(p.get_int("block")); })
//           .run<warpviz::device_f32, int>([](warpviz::Session& s, auto value) {
//               using T = typename decltype(value)::type;    // the run's dtype: f32 (the default) or i32
//               auto in = s.input<T>();
//               auto out = s.alloc<T>(in.size());
//               s.launch(add_one<T>, dim3{1}, dim3{unsigned(in.size())}, in.ptr(), out.ptr());
//               s.output("out", out);
//           });
//
// run<T1, T2, ...> adds the `dtype` parameter (choices in that order, the first
// the default) and calls the host code with ValueType<T> for the run's dtype; a
// dtype none of them is raises a ScenarioError, never a run in another type.
// run(host_code) without types calls host_code(session) (the scenario picks its
// own types, as bank does from elem). The host code may also take `auto& s`
// (then `s.template input<T>()`): it is instantiated once per backend.
//
// The registrar runs before main. Both backends' compiles of one file register
// the same spec (the registry keeps one); the same name from another file is a
// ScenarioError, which stops the program at start-up with its message.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "warpviz/scenario.h"
#if defined(__CUDACC__)
#include "warpviz/cuda_session.h"
#define WARPVIZ_BACKEND_NAMESPACE cuda_backend
#else
#include "warpviz/host_session.h"
#define WARPVIZ_BACKEND_NAMESPACE cpu_backend
#endif

namespace warpviz {

// The value type a typed run<T...> hands its host code: `typename decltype(value)::type`.
template <class T>
struct ValueType {
  using type = T;
};

inline ParamSpec int_param(std::string name, std::string default_value, int64_t min, int64_t max, std::string help) {
  ParamSpec p{std::move(name), ParamKind::Int, std::move(default_value), std::move(help), {}};
  p.min = min;
  p.max = max;
  return p;
}
inline ParamSpec mask_param(std::string name, std::string help, std::string default_value = "0xffffffff") {
  return ParamSpec{std::move(name), ParamKind::Mask, std::move(default_value), std::move(help), {}};
}
inline ParamSpec choice_param(std::string name, std::string default_value, std::vector<std::string> choices,
                              std::string help) {
  return ParamSpec{std::move(name), ParamKind::Choice, std::move(default_value), std::move(help), std::move(choices)};
}
inline ParamSpec text_param(std::string name, std::string default_value, std::string help) {
  return ParamSpec{std::move(name), ParamKind::Text, std::move(default_value), std::move(help), {}};
}

// The input count of a scenario that runs one warp, one value per lane.
inline size_t one_warp(const ParamValues&) { return size_t(kWarpSize); }

// Each backend has its own Session, so what holds host code lives in the
// backend's namespace (as the Session does): the two compiles never collide.
inline namespace WARPVIZ_BACKEND_NAMESPACE {

using ScenarioRunner = std::function<void(Session&)>;

// This backend's host code by scenario name, filled by the registrars.
inline std::map<std::string, ScenarioRunner, std::less<>>& scenario_runners() {
  static std::map<std::string, ScenarioRunner, std::less<>> runners;
  return runners;
}

inline const ScenarioRunner* find_scenario_runner(std::string_view name) {
  const auto it = scenario_runners().find(name);
  return it == scenario_runners().end() ? nullptr : &it->second;
}

// The DType the backend stores a value type as (device_f32 is GpuFloat on the
// CPU, float on the GPU; both are f32).
#if defined(__CUDACC__)
template <class T>
inline constexpr DType kValueDType = rec::DeviceBits<T>::dtype;
#else
template <class T>
inline constexpr DType kValueDType = ValueBits<T>::dtype;
#endif

class ScenarioDeclaration {
 public:
  ScenarioDeclaration(std::string name, int order) {
    spec_.name = std::move(name);
    spec_.order = order;
  }

  // What the scenario is, in English and in Chinese (the L key switches).
  ScenarioDeclaration& summary(std::string text, std::string chinese = {}) {
    spec_.summary = std::move(text);
    spec_.summary_zh = std::move(chinese);
    return *this;
  }
  // The kernel file as the source panel names it (relative to the repository
  // root for the built-ins) and the __global__ function the scenario is about.
  ScenarioDeclaration& source(std::string path, std::string kernel) {
    spec_.source_path = std::move(path);
    spec_.kernel = std::move(kernel);
    return *this;
  }
  ScenarioDeclaration& param(ParamSpec p) {
    spec_.params.push_back(std::move(p));
    return *this;
  }
  // The default input (an input spec: iota, ones, random:SEED, values:...)
  // and how many values a run reads, given its parameters.
  ScenarioDeclaration& input(std::string default_input, std::function<size_t(const ParamValues&)> count) {
    spec_.default_input = std::move(default_input);
    spec_.input_count = std::move(count);
    return *this;
  }
  ScenarioDeclaration& claim(SeedClaim c) {
    spec_.seed_claims.push_back(std::move(c));
    return *this;
  }
  // A claim with its source named in Chinese too ("seeds/000 的 main()").
  ScenarioDeclaration& claim(SeedClaim c, std::string source_zh) {
    c.source_zh = std::move(source_zh);
    return claim(std::move(c));
  }
  // The run's dtype when the scenario has no dtype parameter.
  ScenarioDeclaration& dtype_of(std::function<DType(const ParamValues&)> of) {
    spec_.dtype_of = std::move(of);
    return *this;
  }
  ScenarioDeclaration& check(std::function<void(ResolvedScenario&)> checker) {
    spec_.check = std::move(checker);
    return *this;
  }

  // View traits (ScenarioTraits says what each one does).
  ScenarioDeclaration& shows_tile(std::string pad_param) {
    spec_.traits.shows_tile = true;
    spec_.traits.pad_param = std::move(pad_param);
    return *this;
  }
  ScenarioDeclaration& block_reduction() {
    spec_.traits.block_reduction = true;
    return *this;
  }
  ScenarioDeclaration& compaction() {
    spec_.traits.compaction = true;
    return *this;
  }
  ScenarioDeclaration& times_bank_cost() {
    spec_.traits.times_bank_cost = true;
    return *this;
  }

  // The host code: see the top of this file.
  template <class... ValueTypes, class HostCode>
  ScenarioDeclaration& run(HostCode host_code) {
    if constexpr (sizeof...(ValueTypes) == 0) {
      run_ = ScenarioRunner(std::move(host_code));
    } else {
      spec_.params.push_back(choice_param("dtype", dtype_name(dtype_list<ValueTypes...>().front()),
                                          {dtype_name(kValueDType<ValueTypes>)...}, "value type"));
      run_ = [host_code = std::move(host_code), name = spec_.name](Session& s) {
        const bool ran = ((s.dtype() == kValueDType<ValueTypes> && (host_code(s, ValueType<ValueTypes>{}), true)) || ...);
        if (!ran) throw ScenarioError(unhandled_dtype(name, s.dtype(), dtype_list<ValueTypes...>()));
      };
    }
    return *this;
  }

  const ScenarioSpec& spec() const { return spec_; }
  const ScenarioRunner& runner() const { return run_; }

 private:
  template <class... ValueTypes>
  static std::vector<DType> dtype_list() {
    return {kValueDType<ValueTypes>...};
  }
  static std::string unhandled_dtype(const std::string& name, DType dtype, const std::vector<DType>& handled) {
    std::string takes;
    for (DType t : handled) takes += (takes.empty() ? "" : ", ") + std::string(dtype_name(t));
    return name + ": dtype " + dtype_name(dtype) + " has no host code; it runs " + takes;
  }

  ScenarioSpec spec_;
  ScenarioRunner run_;
};

// A static one per declaration: registers the spec with the registry and the
// host code with this backend, before main.
class ScenarioRegistrar {
 public:
  ScenarioRegistrar(const ScenarioDeclaration& declaration) {  // NOLINT: implicit, so `= ScenarioDeclaration(...)` reads
    if (!declaration.runner())
      throw ScenarioError("scenario '" + declaration.spec().name + "' is declared without host code (.run)");
    register_scenario(declaration.spec());
    scenario_runners().emplace(declaration.spec().name, declaration.runner());
  }
};

}  // namespace WARPVIZ_BACKEND_NAMESPACE
}  // namespace warpviz
