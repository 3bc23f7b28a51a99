// The warp intrinsics without a mask that CUDA 9 deprecated: "when targeting
// devices with compute capability 7.x or higher, __shfl, __shfl_up,
// __shfl_down and __shfl_xor are no longer available" (and __any, __all,
// __ballot likewise; CUDA Programming Guide, "Warp Shuffle Functions" and
// "Warp Vote Functions"). nvcc for sm_90 rejects them; so does warpviz, with
// a message that names the replacement. Templates, not macros, so a file's
// own compatibility function of the same name still wins.
#pragma once

#include <cstddef>

namespace warpviz::removed {
template <class... A>
constexpr bool always_false = false;
}  // namespace warpviz::removed

#define WARPVIZ_REMOVED_INTRINSIC(name, replacement)                                                        \
  template <class... A>                                                                                     \
  int name(A...) {                                                                                          \
    static_assert(warpviz::removed::always_false<A...>,                                                     \
                  #name " (without a mask) is not available for sm_70 and later (the H200 is sm_90): use " replacement); \
    return 0;                                                                                               \
  }
WARPVIZ_REMOVED_INTRINSIC(__shfl, "__shfl_sync(mask, var, srcLane)")
WARPVIZ_REMOVED_INTRINSIC(__shfl_up, "__shfl_up_sync(mask, var, delta)")
WARPVIZ_REMOVED_INTRINSIC(__shfl_down, "__shfl_down_sync(mask, var, delta)")
WARPVIZ_REMOVED_INTRINSIC(__shfl_xor, "__shfl_xor_sync(mask, var, laneMask)")
WARPVIZ_REMOVED_INTRINSIC(__any, "__any_sync(mask, predicate)")
WARPVIZ_REMOVED_INTRINSIC(__all, "__all_sync(mask, predicate)")
WARPVIZ_REMOVED_INTRINSIC(__ballot, "__ballot_sync(mask, predicate)")
#undef WARPVIZ_REMOVED_INTRINSIC
