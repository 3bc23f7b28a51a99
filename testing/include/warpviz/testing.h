// warpviz/testing.h: Catch2 tests about what a kernel does, lane by lane,
// without a GPU.
//
//   #include <warpviz/testing.h>
//   using namespace warpviz;
//   using namespace warpviz::testing;
//
//   TEST_CASE("my_sum: five shfl.down rounds, lane 0 holds the sum") {
//     const Recording rec = record_file(KernelFile("my_sum.cu").input("iota"));
//     const StepQuery shuffles = rec.steps().op(Op::ShflDown);
//     CHECK_THAT(shuffles, HasStepCount(5));
//     CHECK_THAT(shuffles.nth(0).lane(3), ReadsFrom(19));   // offset 16
//     CHECK_THAT(rec.steps(), NoUndefinedReads());
//     CHECK_THAT(rec.output("out").element(0), HasValue<int>(496));
//   }
//
// A failed check names the step (its place in the query, op, source line,
// block, warp, seq) and the lane, with what was expected against what the
// recording holds:
//   step 2 (shfl.down, line 4, block 0, warp 0, seq 2) where lane 3 read lane 7, expected lane 5
//
// The library is warpviz_testing (testing/CMakeLists.txt); installed, it is
// the CMake package `warpviz` with the target warpviz::testing (README,
// "Testing kernels with Catch2").
//
// [SECTION] Running a kernel
// [SECTION] Lane values
// [SECTION] Querying steps
// [SECTION] Matchers
// [SECTION] How Catch2 prints them
#pragma once

#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "warpviz/backends.h"
#include "warpviz/bank_model.h"
#include "warpviz/trace.h"
#include "warpviz/user_file.h"

namespace warpviz::testing {

class Recording;

// ============================================================================
// [SECTION] Running a kernel
// ============================================================================

// A run that did not produce a trace: a compile error, a crash, a time limit,
// a bad scenario parameter. The message says what and where (for a compile
// error, the compiler's diagnostics); thrown out of a TEST_CASE, Catch2
// reports the test as failed with it.
class RunFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using Settings = std::vector<std::pair<std::string, std::string>>;

// A built-in scenario (warpviz-cli list), its --set parameters and input
// ("" for its default). The CPU emulator unless `backend` says otherwise.
Recording record_scenario(const std::string& name, const Settings& sets = {}, const std::string& input = "",
                          BackendChoice backend = BackendChoice::Cpu);

// A user's .cu file: a user::FileRequest, or built step by step
//   record_file(KernelFile("k.cu").block(64).input("iota").arg("n", "64"))
class KernelFile {
 public:
  explicit KernelFile(std::string path) { request_.path = std::move(path); }
  KernelFile& kernel(std::string name) { return request_.kernel = std::move(name), *this; }
  KernelFile& grid(Dim3 grid) { return request_.grid = grid, *this; }
  KernelFile& block(Dim3 block) { return request_.block = block, *this; }
  KernelFile& shared(size_t bytes) { return request_.shared = bytes, *this; }
  // Every `const T*` parameter's values ("iota", "random:7", "values:1,2,3").
  KernelFile& input(std::string spec) { return input("", std::move(spec)); }
  KernelFile& input(std::string param, std::string spec) {
    return request_.inputs.emplace_back(std::move(param), std::move(spec)), *this;
  }
  KernelFile& arg(std::string param, std::string value) {
    return request_.args.emplace_back(std::move(param), std::move(value)), *this;
  }
  KernelFile& len(std::string param, size_t elements) {
    return request_.lens.emplace_back(std::move(param), std::to_string(elements)), *this;
  }
  KernelFile& backend(user::FileBackend backend) { return request_.backend = backend, *this; }
  KernelFile& time_limit(double seconds) { return request_.time_limit_s = seconds, *this; }
  const user::FileRequest& request() const { return request_; }
  operator const user::FileRequest&() const { return request_; }

 private:
  user::FileRequest request_;
};

// `launch` picks one launch by index ("1") or kernel name; empty: the file
// must launch exactly once. The request's backend is passed through.
Recording record_file(const user::FileRequest& request, const std::string& launch = "");
// Every launch, in launch order (a whole program may launch several kernels).
std::vector<Recording> record_file_launches(const user::FileRequest& request);

// Where installed copies find the kit a user's file is compiled against when
// WARPVIZ_KIT is unset: the package config (warpvizConfig.cmake) defines
// WARPVIZ_TESTING_KIT_DIR for its users, and this header hands it over.
namespace detail {
bool use_kit_when_unset(const char* kit_dir);
#ifdef WARPVIZ_TESTING_KIT_DIR
inline const bool kit_registered = use_kit_when_unset(WARPVIZ_TESTING_KIT_DIR);
#endif
}  // namespace detail

// ============================================================================
// [SECTION] Lane values
// ============================================================================
// A trace keeps each value as bits beside its DType; a test reads them as the
// C++ type it expects. 32-bit types take the low word.

template <class T>
concept LaneValue = std::same_as<T, int32_t> || std::same_as<T, uint32_t> || std::same_as<T, int64_t> ||
                    std::same_as<T, uint64_t> || std::same_as<T, float> || std::same_as<T, double>;

template <LaneValue T>
T value_as(uint64_t bits) {
  if constexpr (sizeof(T) == 4)
    return std::bit_cast<T>(uint32_t(bits));
  else
    return std::bit_cast<T>(bits);
}

// Equal as a test means it: floats compare by value, and two NaNs are equal
// (a kernel that should produce NaN does).
template <LaneValue T>
bool same_value(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    if (std::isnan(a) && std::isnan(b)) return true;
  return a == b;
}

// ============================================================================
// [SECTION] Querying steps
// ============================================================================

class StepRef;

// One lane of one step.
class LaneRef {
 public:
  LaneRef(std::shared_ptr<const Trace> trace, size_t step_index, size_t ordinal, int lane);

  int lane() const { return lane_; }
  LaneRecord record() const;  // a copy: the trace holds its steps encoded
  StepRef step() const;
  bool active() const { return record().active(); }
  bool undefined() const { return record().undefined(); }
  int src() const { return record().src; }  // the lane read from (shuffles); -1: none
  template <LaneValue T>
  T in() const { return value_as<T>(record().in); }
  template <LaneValue T>
  T out() const { return value_as<T>(record().out); }
  // "lane 3 of step 2 (shfl.down, line 4, block 0, warp 0, seq 2)"
  std::string where() const;

 private:
  std::shared_ptr<const Trace> trace_;
  size_t step_index_, ordinal_;
  int lane_;
};

// One step, as the n-th of the query that found it.
class StepRef {
 public:
  StepRef(std::shared_ptr<const Trace> trace, size_t step_index, size_t ordinal);

  // The step decoded (a copy: the trace holds its steps encoded).
  TraceStep step() const { return trace_->steps[step_index_]; }
  size_t ordinal() const { return ordinal_; }  // its place in the query: "step 2"
  Op op() const { return trace_->steps.op(step_index_); }
  uint32_t line() const { return trace_->steps.line(step_index_); }
  uint32_t block() const { return trace_->steps.block(step_index_); }
  uint32_t warp() const { return trace_->steps.warp(step_index_); }
  uint32_t seq() const { return trace_->steps.seq(step_index_); }
  uint32_t mask() const { return trace_->steps.mask(step_index_); }
  uint32_t active_lanes() const;  // bit l: lane l executed the step
  // std::out_of_range for a lane outside 0..31.
  LaneRef lane(int lane) const;
  // The bank model's cost of a shared-memory step (bank_model.h);
  // std::invalid_argument, naming the step, for any other op.
  BankAnalysis bank() const;
  // "step 2 (shfl.down, line 4, block 0, warp 0, seq 2)"
  std::string where() const;

 private:
  std::shared_ptr<const Trace> trace_;
  size_t step_index_, ordinal_;
};

// The steps of a recording that pass every filter so far, in trace order
// (block, warp, seq). Filters return a new query; the recording is shared.
class StepQuery {
 public:
  StepQuery(std::shared_ptr<const Trace> trace, std::vector<size_t> indices, std::string filters);

  StepQuery op(Op op) const;
  StepQuery line(uint32_t line) const;
  StepQuery block(uint32_t block) const;
  StepQuery warp(uint32_t warp) const;
  StepQuery lane(int lane) const;  // steps lane `lane` executed (was active in)
  StepQuery shuffles() const;      // shfl.idx, .up, .down, .xor
  StepQuery shared() const;        // ld.shared, st.shared
  StepQuery watches() const;       // WARPVIZ_WATCH steps, any variable
  StepQuery watch(const std::string& name) const;  // WARPVIZ_WATCH(name) steps

  size_t count() const { return indices_.size(); }
  bool empty() const { return indices_.empty(); }
  // The n-th step (from 0); std::out_of_range, saying how many there are.
  StepRef nth(size_t n) const;
  StepRef operator[](size_t n) const { return nth(n); }
  std::vector<StepRef> all() const;
  // "shfl.down steps of warp 0": the filters, for messages.
  std::string describe() const;

 private:
  template <class Keep>
  StepQuery filtered(Keep keep, const std::string& what) const;

  std::shared_ptr<const Trace> trace_;
  std::vector<size_t> indices_;
  std::string filters_;
};

// One element of an output array.
struct OutputElement {
  std::string output;
  DType dtype = DType::I32;
  size_t index = 0;
  uint64_t bits = 0;
  template <LaneValue T>
  T as() const { return value_as<T>(bits); }
};

// A named output array (a kernel's T* parameter, or a scenario's "out").
class OutputRef {
 public:
  explicit OutputRef(const TraceOutput& output) : output_(output) {}
  const std::string& name() const { return output_.name; }
  DType dtype() const { return output_.dtype; }
  size_t size() const { return output_.bits.size(); }
  const std::vector<uint64_t>& bits() const { return output_.bits; }
  // std::out_of_range, naming the output and its size.
  OutputElement element(size_t index) const;
  template <LaneValue T>
  std::vector<T> as() const {
    std::vector<T> v;
    for (uint64_t b : output_.bits) v.push_back(value_as<T>(b));
    return v;
  }

 private:
  TraceOutput output_;
};

// One launch's trace, shared by every query made of it.
class Recording {
 public:
  explicit Recording(Trace trace);
  const Trace& trace() const { return *trace_; }
  StepQuery steps() const;
  // RunFailed naming the outputs there are when `name` is none of them.
  OutputRef output(const std::string& name = "out") const;

 private:
  std::shared_ptr<const Trace> trace_;
};

// ============================================================================
// [SECTION] Matchers
// ============================================================================
// Each matcher works out, in match(), the sentence that says what went wrong;
// Catch2 prints it after the thing matched (see below), e.g.
//   lane 3 of step 2 (shfl.down, line 4, block 0, warp 0, seq 2) read lane 7, expected lane 5

using Catch::MatcherBase;

// A lane read from `src_lane` (a shuffle's source).
class ReadsFrom : public MatcherBase<LaneRef> {
 public:
  explicit ReadsFrom(int src_lane) : expected_(src_lane) {}
  bool match(const LaneRef& lane) const override;
  std::string describe() const override { return text_; }

 private:
  int expected_;
  mutable std::string text_;
};

// Every lane of a step read its expected source: expected[l] for lane l, -1
// for a lane that must read nothing (inactive). 32 entries.
class ReadSources : public MatcherBase<StepRef> {
 public:
  explicit ReadSources(std::vector<int> expected) : expected_(std::move(expected)) {}
  bool match(const StepRef& step) const override;
  std::string describe() const override { return text_; }

 private:
  std::vector<int> expected_;
  mutable std::string text_;
};

// A query found exactly `n` steps.
class HasStepCount : public MatcherBase<StepQuery> {
 public:
  explicit HasStepCount(size_t n) : expected_(n) {}
  bool match(const StepQuery& steps) const override;
  std::string describe() const override { return text_; }

 private:
  size_t expected_;
  mutable std::string text_;
};

// No lane of any step has a result the CUDA rules leave undefined: a
// shuffle's source lane inactive or outside the mask, a lane outside its own
// mask (LaneFlag kLaneUndefined).
class NoUndefinedReads : public MatcherBase<StepQuery> {
 public:
  bool match(const StepQuery& steps) const override;
  std::string describe() const override { return text_; }

 private:
  mutable std::string text_;
};

// Every step of a query is a shared-memory step costing `wavefronts` and
// `conflicts` by the bank model; -1 leaves a figure unchecked.
class HasBankCost : public MatcherBase<StepQuery> {
 public:
  HasBankCost(int wavefronts, int conflicts) : wavefronts_(wavefronts), conflicts_(conflicts) {}
  bool match(const StepQuery& steps) const override;
  std::string describe() const override { return text_; }

 private:
  int wavefronts_, conflicts_;
  mutable std::string text_;
};

namespace detail {
std::string value_text(DType dtype, uint64_t bits);
std::string index_list(const std::vector<size_t>& items, size_t shown);
template <LaneValue T>
std::string typed_text(T v) {
  if constexpr (std::is_same_v<T, float>)
    return value_text(DType::F32, std::bit_cast<uint32_t>(v));
  else if constexpr (std::is_same_v<T, double>)
    return value_text(DType::F64, std::bit_cast<uint64_t>(v));
  else
    return std::to_string(v);
}
}  // namespace detail

// A lane's result ("out"), or with Which::In what it supplied, read as T.
enum class Which { In, Out };
template <LaneValue T>
class HasLaneValue : public MatcherBase<LaneRef> {
 public:
  HasLaneValue(T expected, Which which) : expected_(expected), which_(which) {}
  bool match(const LaneRef& lane) const override {
    const char* what = which_ == Which::Out ? "got" : "supplied";
    if (!lane.active()) {
      text_ = std::string("did not execute the step, expected it to have ") + what + " " +
              detail::typed_text(expected_);
      return false;
    }
    const T got = which_ == Which::Out ? lane.out<T>() : lane.in<T>();
    const bool ok = same_value(got, expected_);
    text_ = std::string(what) + " " + detail::typed_text(got) + (ok ? "" : ", expected " + detail::typed_text(expected_));
    return ok;
  }
  std::string describe() const override { return text_; }

 private:
  T expected_;
  Which which_;
  mutable std::string text_;
};
template <LaneValue T>
HasLaneValue<T> GotValue(T expected) { return HasLaneValue<T>(expected, Which::Out); }
template <LaneValue T>
HasLaneValue<T> SuppliedValue(T expected) { return HasLaneValue<T>(expected, Which::In); }

// One element of an output array, read as T.
template <LaneValue T>
class HasValue : public MatcherBase<OutputElement> {
 public:
  explicit HasValue(T expected) : expected_(expected) {}
  bool match(const OutputElement& e) const override {
    const T got = e.as<T>();
    const bool ok = same_value(got, expected_);
    text_ = "is " + detail::typed_text(got) + (ok ? "" : ", expected " + detail::typed_text(expected_));
    return ok;
  }
  std::string describe() const override { return text_; }

 private:
  T expected_;
  mutable std::string text_;
};

// A whole output array, read as T, equals `expected`.
template <LaneValue T>
class OutputEquals : public MatcherBase<OutputRef> {
 public:
  explicit OutputEquals(std::vector<T> expected) : expected_(std::move(expected)) {}
  bool match(const OutputRef& out) const override {
    if (out.size() != expected_.size()) {
      text_ = "has " + std::to_string(out.size()) + " elements, expected " + std::to_string(expected_.size());
      return false;
    }
    const std::vector<T> got = out.as<T>();
    std::vector<size_t> wrong;
    for (size_t i = 0; i < got.size(); ++i)
      if (!same_value(got[i], expected_[i])) wrong.push_back(i);
    if (wrong.empty()) {
      text_ = "equals the expected " + std::to_string(expected_.size()) + " elements";
      return true;
    }
    const size_t i = wrong.front();
    text_ = "where " + out.name() + "[" + std::to_string(i) + "] is " + detail::typed_text(got[i]) + ", expected " +
            detail::typed_text(expected_[i]);
    if (wrong.size() > 1)
      text_ += " (" + std::to_string(wrong.size()) + " elements differ: " + detail::index_list(wrong, 8) + ")";
    return false;
  }
  std::string describe() const override { return text_; }

 private:
  std::vector<T> expected_;
  mutable std::string text_;
};

}  // namespace warpviz::testing

// ============================================================================
// [SECTION] How Catch2 prints them
// ============================================================================
// CHECK_THAT(x, m) prints "<x> <m>": x says where, the matcher what.

namespace Catch {
template <>
struct StringMaker<warpviz::testing::LaneRef> {
  static std::string convert(const warpviz::testing::LaneRef& l) { return l.where(); }
};
template <>
struct StringMaker<warpviz::testing::StepRef> {
  static std::string convert(const warpviz::testing::StepRef& s) { return s.where(); }
};
template <>
struct StringMaker<warpviz::testing::StepQuery> {
  static std::string convert(const warpviz::testing::StepQuery& q) { return "the " + q.describe(); }
};
template <>
struct StringMaker<warpviz::testing::OutputRef> {
  static std::string convert(const warpviz::testing::OutputRef& o) {
    return "output " + o.name() + " (" + warpviz::dtype_name(o.dtype()) + ", " + std::to_string(o.size()) +
           " elements)";
  }
};
template <>
struct StringMaker<warpviz::testing::OutputElement> {
  static std::string convert(const warpviz::testing::OutputElement& e) {
    return e.output + "[" + std::to_string(e.index) + "]";
  }
};
}  // namespace Catch
