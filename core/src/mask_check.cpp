// Member masks naming lanes that did not arrive: see mask_check.h.
#include "warpviz/mask_check.h"

namespace warpviz {

namespace {

// __activemask takes no mask; a watch's mask is the lanes that ran it; a
// shared-memory access is no warp intrinsic.
bool takes_member_mask(Op op) { return op != Op::ActiveMask && !op_is_watch(op) && !op_is_shared(op); }

}  // namespace

uint32_t mask_lanes_absent(const TraceStep& step, uint32_t existing) {
  if (!takes_member_mask(step.op)) return 0;
  uint32_t arrived = 0;
  for (int lane = 0; lane < kWarpSize; ++lane)
    if (step.lanes[lane].active()) arrived |= 1u << lane;
  return step.mask & existing & ~arrived;
}

uint32_t lanes_in_warp(const Dim3& block, uint32_t warp) {
  const uint64_t threads = block.count(), first = uint64_t(warp) * kWarpSize;
  if (threads <= first) return 0;
  const uint64_t lanes = threads - first;
  return lanes >= uint64_t(kWarpSize) ? 0xffffffffu : (1u << lanes) - 1;
}

std::vector<AbsentMaskLanes> steps_with_absent_mask_lanes(const Trace& trace) {
  std::vector<AbsentMaskLanes> found;
  for (size_t i = 0; i < trace.steps.size(); ++i) {
    const TraceStep step = trace.steps[i];
    if (const uint32_t lanes = mask_lanes_absent(step, lanes_in_warp(trace.meta.block, step.warp)))
      found.push_back({i, lanes});
  }
  return found;
}

std::string lane_ranges(uint32_t lanes) {
  std::string text;
  for (int lane = 0; lane < kWarpSize;) {
    if (!(lanes >> lane & 1u)) {
      ++lane;
      continue;
    }
    int last = lane;
    while (last + 1 < kWarpSize && (lanes >> (last + 1) & 1u)) ++last;
    if (!text.empty()) text += ", ";
    text += std::to_string(lane);
    if (last > lane) text += "-" + std::to_string(last);
    lane = last + 1;
  }
  return text;
}

std::string absent_mask_warning(const Trace& trace, const AbsentMaskLanes& absent) {
  if (absent.step >= trace.steps.size()) return {};
  const TraceStep step = trace.steps[absent.step];
  const bool one = (absent.lanes & (absent.lanes - 1)) == 0;
  std::string where = "block " + std::to_string(step.block) + " warp " + std::to_string(step.warp) + " step " +
                      std::to_string(absent.step + 1) + " (" + op_name(step.op);
  if (step.line) where += ", line " + std::to_string(step.line);
  return where + "): mask " + format_hex(DType::U32, step.mask) + " names " + (one ? "lane " : "lanes ") +
         lane_ranges(absent.lanes) + ", which never arrived (inactive: on another path or exited); " +
         "the result is undefined";
}

}  // namespace warpviz
