// The matchers of testing.h that need no template: each builds, in match(),
// the sentence a failed check prints.
#include <cstdio>

#include "warpviz/testing.h"

namespace warpviz::testing {

namespace detail {

std::string value_text(DType dtype, uint64_t bits) { return format_value(dtype, bits); }

// Sorted indices as runs: "3, 5, 8-15, 20"; past `shown` runs, ", ...".
std::string index_list(const std::vector<size_t>& items, size_t shown) {
  std::string s;
  size_t runs = 0;
  for (size_t i = 0; i < items.size();) {
    size_t j = i;
    while (j + 1 < items.size() && items[j + 1] == items[j] + 1) ++j;
    if (runs++ == shown) return s + ", ...";
    s += (i ? ", " : "") + std::to_string(items[i]) + (j > i ? "-" + std::to_string(items[j]) : "");
    i = j + 1;
  }
  return s;
}

}  // namespace detail

namespace {

std::string hex_mask(uint32_t mask) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", mask);
  return buf;
}

std::string source_text(int src) { return src < 0 ? "no lane" : "lane " + std::to_string(src); }

// Why the CUDA rules leave a lane's result undefined, in the words of
// warp_rules.cpp: the lane must be in the mask it passes, and a shuffle's
// source must be a lane of the mask that executed the same shuffle.
std::string undefined_reason(const TraceStep& step, int lane) {
  const LaneRecord& l = step.lanes[lane];
  if (!(step.mask >> lane & 1u))
    return "lane " + std::to_string(lane) + " is not in its own mask " + hex_mask(step.mask);
  if (!op_is_shuffle(step.op) || l.src < 0 || l.src >= kWarpSize)
    return "lane " + std::to_string(lane) + "'s result is undefined";
  const std::string read = "lane " + std::to_string(lane) + " read lane " + std::to_string(l.src);
  if (!(step.mask >> l.src & 1u)) return read + ", which is outside the mask " + hex_mask(step.mask);
  if (!step.lanes[l.src].active()) return read + ", which did not execute the shuffle (inactive)";
  return read + ", an undefined value";
}

}  // namespace

bool ReadsFrom::match(const LaneRef& lane) const {
  const int got = lane.active() ? lane.src() : -1;
  if (!lane.active()) {
    text_ = expected_ < 0 ? "did not execute the step, as expected"
                          : "did not execute the step, expected it to read " + source_text(expected_);
    return expected_ < 0;
  }
  const bool ok = got == expected_;
  text_ = "read " + source_text(got) + (ok ? "" : ", expected " + source_text(expected_));
  return ok;
}

bool ReadSources::match(const StepRef& step) const {
  if (expected_.size() != size_t(kWarpSize)) {
    text_ = "cannot be checked: ReadSources needs 32 expected lanes, one per lane, it was given " +
            std::to_string(expected_.size());
    return false;
  }
  std::vector<size_t> wrong;
  for (int l = 0; l < kWarpSize; ++l) {
    const LaneRecord r = step.step().lanes[l];
    const int got = r.active() ? r.src : -1;
    if (got != expected_[size_t(l)]) wrong.push_back(size_t(l));
  }
  if (wrong.empty()) {
    text_ = "read the expected source on every lane";
    return true;
  }
  const int l = int(wrong.front());
  const LaneRecord r = step.step().lanes[l];
  text_ = "where lane " + std::to_string(l) + " " +
          (r.active() ? "read " + source_text(r.src) : std::string("did not execute the step")) + ", expected " +
          (expected_[size_t(l)] < 0 ? "it to read no lane" : source_text(expected_[size_t(l)]));
  if (wrong.size() > 1)
    text_ += " (" + std::to_string(wrong.size()) + " lanes differ: " + detail::index_list(wrong, 8) + ")";
  return false;
}

bool HasStepCount::match(const StepQuery& steps) const {
  const bool ok = steps.count() == expected_;
  text_ = ok ? "as expected" : "where " + std::to_string(expected_) + " were expected";
  if (!ok && !steps.empty()) {
    // Which steps there were: enough to see the missing or extra round.
    std::string list;
    const auto all = steps.all();
    for (size_t i = 0; i < all.size() && i < 8; ++i)
      list += std::string(i ? "; " : "") + op_name(all[i].op()) + " line " + std::to_string(all[i].line()) +
              " seq " + std::to_string(all[i].seq());
    if (all.size() > 8) list += "; ...";
    text_ += " (found: " + list + ")";
  }
  return ok;
}

bool NoUndefinedReads::match(const StepQuery& steps) const {
  size_t bad_steps = 0, bad_lanes = 0;
  std::string first;
  for (const StepRef& s : steps.all()) {
    std::vector<size_t> lanes;
    for (int l = 0; l < kWarpSize; ++l)
      if (s.step().lanes[l].active() && s.step().lanes[l].undefined()) lanes.push_back(size_t(l));
    if (lanes.empty()) continue;
    if (bad_steps++ == 0) {
      first = s.where() + ": " + undefined_reason(s.step(), int(lanes.front()));
      if (lanes.size() > 1) first += " (undefined lanes: " + detail::index_list(lanes, 8) + ")";
    }
    bad_lanes += lanes.size();
  }
  if (bad_steps == 0) {
    text_ = "have no undefined reads";
    return true;
  }
  text_ = "have undefined results on " + std::to_string(bad_lanes) + " lanes of " + std::to_string(bad_steps) +
          (bad_steps == 1 ? " step: " : " steps; the first: ") + first;
  return false;
}

namespace {

// "32 wavefronts, 31 conflicts"; a figure below 0 is left out.
std::string bank_figures(long wavefronts, long conflicts) {
  std::string t;
  if (wavefronts >= 0) t += std::to_string(wavefronts) + " wavefronts";
  if (conflicts >= 0) t += std::string(t.empty() ? "" : ", ") + std::to_string(conflicts) + " conflicts";
  return t;
}

}  // namespace

bool HasBankCost::match(const StepQuery& steps) const {
  if (steps.empty()) {
    text_ = "hold no step to cost";
    return false;
  }
  for (const StepRef& s : steps.all()) {
    if (!op_is_shared(s.op())) {
      text_ = "hold " + s.where() + ", which is no shared-memory step";
      return false;
    }
    const BankAnalysis a = s.bank();
    const bool ok = (wavefronts_ < 0 || a.wavefronts == uint32_t(wavefronts_)) &&
                    (conflicts_ < 0 || a.conflicts == uint32_t(conflicts_));
    if (!ok) {
      text_ = "where " + s.where() + " costs " + bank_figures(a.wavefronts, a.conflicts) + ", expected " +
              bank_figures(wavefronts_, conflicts_);
      return false;
    }
  }
  text_ = "each cost " + bank_figures(wavefronts_, conflicts_);
  return true;
}

}  // namespace warpviz::testing
