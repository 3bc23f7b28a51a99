// Running a kernel for a test and querying its steps (testing.h).
//
// [SECTION] Running
// [SECTION] Lanes and steps
// [SECTION] Queries
// [SECTION] Outputs and recordings
#include <cstdlib>

#include "warpviz/scenario.h"
#include "warpviz/testing.h"

namespace warpviz::testing {

// ============================================================================
// [SECTION] Running
// ============================================================================

namespace detail {

bool use_kit_when_unset(const char* kit_dir) {
  // Only fills the gap: a WARPVIZ_KIT the user set always wins. setenv runs
  // during static initialisation, before any test thread exists.
  if (kit_dir && *kit_dir) ::setenv("WARPVIZ_KIT", kit_dir, /*overwrite=*/0);
  return true;
}

}  // namespace detail

Recording record_scenario(const std::string& name, const Settings& sets, const std::string& input,
                          BackendChoice backend) {
  try {
    const ResolvedScenario resolved = resolve_scenario({name, sets, input});
    RunOptions options;
    options.backend = backend;
    return Recording(run_scenario(resolved, options));
  } catch (const std::exception& e) {  // ScenarioError, BackendUnavailable, an emulator fault
    throw RunFailed("scenario " + name + ": " + e.what());
  }
}

namespace {

std::string failure_text(const user::FileRequest& request, const user::FileRun& run) {
  std::string text = request.path + ": " + user::outcome_name(run.outcome);
  if (!run.message.empty()) text += ": " + run.message;
  for (const user::Diagnostic& d : run.diagnostics)
    if (d.severity == "error")
      text += "\n  " + d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message;
  if (run.diagnostics.empty() && !run.compiler_output.empty()) text += "\n" + run.compiler_output;
  return text;
}

user::FileRun run_checked(const user::FileRequest& request) {
  user::FileRun run = user::run_user_file(request);
  if (!run.ok()) throw RunFailed(failure_text(request, run));
  if (run.launches.empty()) throw RunFailed(request.path + ": the program launched no kernel");
  return run;
}

}  // namespace

Recording record_file(const user::FileRequest& request, const std::string& launch) {
  const user::FileRun run = run_checked(request);
  if (launch.empty()) {
    if (run.launches.size() != 1)
      throw RunFailed(request.path + " launched " + std::to_string(run.launches.size()) +
                      " kernels: name one (record_file(request, \"1\") or the kernel's name), "
                      "or take them all with record_file_launches");
    return Recording(run.launches.front());
  }
  std::string why;
  const Trace* picked = user::pick_launch(run, launch, &why);
  if (!picked) throw RunFailed(request.path + ": " + why);
  return Recording(*picked);
}

std::vector<Recording> record_file_launches(const user::FileRequest& request) {
  user::FileRun run = run_checked(request);
  std::vector<Recording> out;
  for (Trace& t : run.launches) out.emplace_back(std::move(t));
  return out;
}

// ============================================================================
// [SECTION] Lanes and steps
// ============================================================================

LaneRef::LaneRef(std::shared_ptr<const Trace> trace, size_t step_index, size_t ordinal, int lane)
    : trace_(std::move(trace)), step_index_(step_index), ordinal_(ordinal), lane_(lane) {}

LaneRecord LaneRef::record() const { return trace_->steps[step_index_].lanes[lane_]; }

StepRef LaneRef::step() const { return StepRef(trace_, step_index_, ordinal_); }

std::string LaneRef::where() const { return "lane " + std::to_string(lane_) + " of " + step().where(); }

StepRef::StepRef(std::shared_ptr<const Trace> trace, size_t step_index, size_t ordinal)
    : trace_(std::move(trace)), step_index_(step_index), ordinal_(ordinal) {}

uint32_t StepRef::active_lanes() const { return trace_->steps.active_lanes(step_index_); }

LaneRef StepRef::lane(int lane) const {
  if (lane < 0 || lane >= kWarpSize)
    throw std::out_of_range("lane " + std::to_string(lane) + " of " + where() + ": a warp has lanes 0 to 31");
  return LaneRef(trace_, step_index_, ordinal_, lane);
}

BankAnalysis StepRef::bank() const {
  if (!op_is_shared(op()))
    throw std::invalid_argument(where() + " is no shared-memory step: the bank model costs ld.shared and st.shared");
  try {
    return analyze_shared_access(shared_access_of(step()));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(where() + ": " + e.what());
  }
}

std::string StepRef::where() const {
  return "step " + std::to_string(ordinal_) + " (" + op_name(op()) + ", line " + std::to_string(line()) +
         ", block " + std::to_string(block()) + ", warp " + std::to_string(warp()) + ", seq " +
         std::to_string(seq()) + ")";
}

// ============================================================================
// [SECTION] Queries
// ============================================================================

StepQuery::StepQuery(std::shared_ptr<const Trace> trace, std::vector<size_t> indices, std::string filters)
    : trace_(std::move(trace)), indices_(std::move(indices)), filters_(std::move(filters)) {}

template <class Keep>
StepQuery StepQuery::filtered(Keep keep, const std::string& what) const {
  std::vector<size_t> kept;
  for (size_t i : indices_)
    if (keep(trace_->steps, i)) kept.push_back(i);
  return StepQuery(trace_, std::move(kept), filters_.empty() ? what : filters_ + ", " + what);
}

StepQuery StepQuery::op(Op op) const {
  return filtered([op](const TraceSteps& s, size_t i) { return s.op(i) == op; }, op_name(op));
}
StepQuery StepQuery::line(uint32_t line) const {
  return filtered([line](const TraceSteps& s, size_t i) { return s.line(i) == line; },
                  "line " + std::to_string(line));
}
StepQuery StepQuery::block(uint32_t block) const {
  return filtered([block](const TraceSteps& s, size_t i) { return s.block(i) == block; },
                  "block " + std::to_string(block));
}
StepQuery StepQuery::warp(uint32_t warp) const {
  return filtered([warp](const TraceSteps& s, size_t i) { return s.warp(i) == warp; }, "warp " + std::to_string(warp));
}
StepQuery StepQuery::lane(int lane) const {
  if (lane < 0 || lane >= kWarpSize)
    throw std::out_of_range("lane " + std::to_string(lane) + ": a warp has lanes 0 to 31");
  return filtered([lane](const TraceSteps& s, size_t i) { return (s.active_lanes(i) >> lane) & 1u; },
                  "lane " + std::to_string(lane) + " active");
}
StepQuery StepQuery::shuffles() const {
  return filtered([](const TraceSteps& s, size_t i) { return op_is_shuffle(s.op(i)); }, "shuffles");
}
StepQuery StepQuery::shared() const {
  return filtered([](const TraceSteps& s, size_t i) { return op_is_shared(s.op(i)); }, "shared-memory");
}

StepQuery StepQuery::watches() const {
  return filtered([](const TraceSteps& s, size_t i) { return op_is_watch(s.op(i)); }, "watch");
}
StepQuery StepQuery::watch(const std::string& name) const {
  return filtered(
      [name](const TraceSteps& s, size_t i) { return op_is_watch(s.op(i)) && watch_name(s.args(i)) == name; },
                  "watch " + name);
}

StepRef StepQuery::nth(size_t n) const {
  if (n >= indices_.size()) {
    if (indices_.empty()) throw std::out_of_range("there is no step " + std::to_string(n) + ": no step matched [" + filters_ + "]");
    throw std::out_of_range("there is no step " + std::to_string(n) + " among the " + describe() + " (they are steps 0 to " +
                            std::to_string(indices_.size() - 1) + ")");
  }
  return StepRef(trace_, indices_[n], n);
}

std::vector<StepRef> StepQuery::all() const {
  std::vector<StepRef> v;
  for (size_t n = 0; n < indices_.size(); ++n) v.emplace_back(trace_, indices_[n], n);
  return v;
}

std::string StepQuery::describe() const {
  return std::to_string(indices_.size()) + " steps" + (filters_.empty() ? "" : " [" + filters_ + "]");
}

// ============================================================================
// [SECTION] Outputs and recordings
// ============================================================================

OutputElement OutputRef::element(size_t index) const {
  if (index >= size())
    throw std::out_of_range(name() + "[" + std::to_string(index) + "]: the output has " + std::to_string(size()) +
                            " elements");
  return OutputElement{name(), dtype(), index, output_.bits[index]};
}

Recording::Recording(Trace trace) : trace_(std::make_shared<const Trace>(std::move(trace))) {}

StepQuery Recording::steps() const {
  std::vector<size_t> all(trace_->steps.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  return StepQuery(trace_, std::move(all), "");
}

OutputRef Recording::output(const std::string& name) const {
  if (const TraceOutput* o = trace_->output(name)) return OutputRef(*o);
  std::string names;
  for (const TraceOutput& o : trace_->outputs) names += (names.empty() ? "" : ", ") + o.name;
  throw RunFailed("the recording has no output `" + name + "` (its outputs: " + (names.empty() ? "none" : names) +
                  ")");
}

}  // namespace warpviz::testing
