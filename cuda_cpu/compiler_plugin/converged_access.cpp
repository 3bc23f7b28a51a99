// meet_before_volatile_access (gpu_rewrites.h). Warp-synchronous code written
// before __syncwarp existed (the unrolled `volatile` last-warp reduction, a
// warp's ping-pong buffer) relies on a converged warp making each access for
// all its lanes at once; the emulator runs lanes one at a time, so without a
// meeting point lane 0 would read its neighbours' words before they wrote
// them. `volatile` is what such code must write, so it is what marks the
// accesses; other code pays nothing.
#include "gcc-plugin.h"
#include "plugin-version.h"

#include "tree.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "stringpool.h"
#include "ggc.h"

#include "gpu_rewrites.h"

namespace {

const char* const kMeetingFunction = "__warpviz_converged_access";

// An automatic variable of the function: the lane's own, nobody else sees it
// (`volatile double r = op();` in a rounding-mode intrinsic).
bool lane_local(tree decl) {
  return VAR_P(decl) && !TREE_STATIC(decl) && !DECL_EXTERNAL(decl) && !DECL_THREAD_LOCAL_P(decl);
}

bool volatile_shared_access(tree ref) {
  if (!ref) return false;
  bool is_volatile = false;
  tree base = ref;
  while (handled_component_p(base)) {
    is_volatile |= TREE_THIS_VOLATILE(base);
    base = TREE_OPERAND(base, 0);
  }
  if (TREE_CODE(base) == MEM_REF || TREE_CODE(base) == TARGET_MEM_REF) {
    is_volatile |= TREE_THIS_VOLATILE(base);
    tree address = TREE_OPERAND(base, 0);
    if (TREE_CODE(address) == ADDR_EXPR && DECL_P(TREE_OPERAND(address, 0)) &&
        lane_local(TREE_OPERAND(address, 0)))
      return false;
    return is_volatile;
  }
  if (VAR_P(base)) {
    is_volatile |= TREE_THIS_VOLATILE(base) || TYPE_VOLATILE(TREE_TYPE(base));
    return is_volatile && !lane_local(base);
  }
  return false;
}

// One declaration for the whole translation unit, kept from the garbage
// collector by the root registered in plugin_init.
tree meeting_decl = NULL_TREE;

tree meeting_function() {
  if (meeting_decl) return meeting_decl;
  tree type = build_function_type_list(void_type_node, unsigned_type_node, unsigned_type_node, NULL_TREE);
  meeting_decl = build_fn_decl(kMeetingFunction, type);
  SET_DECL_ASSEMBLER_NAME(meeting_decl, get_identifier(kMeetingFunction));
  // A block that fails unwinds its waiting lanes' stacks through the call.
  TREE_NOTHROW(meeting_decl) = 0;
  return meeting_decl;
}

const struct ggc_root_tab meeting_roots[] = {
    {&meeting_decl, 1, sizeof(meeting_decl), gt_ggc_mx_tree_node, gt_pch_nx_tree_node},
    LAST_GGC_ROOT_TAB,
};

}  // namespace

bool meet_before_volatile_access(gimple_stmt_iterator* gsi) {
  gimple* stmt = gsi_stmt(*gsi);
  bool access = false;
  if (is_gimple_assign(stmt)) {
    access = volatile_shared_access(gimple_assign_lhs(stmt)) ||
             (gimple_assign_single_p(stmt) && volatile_shared_access(gimple_assign_rhs1(stmt)));
  } else if (is_gimple_call(stmt)) {
    access = volatile_shared_access(gimple_call_lhs(stmt));
  }
  if (!access) return false;
  // Sites are numbered through the translation unit: two accesses on one
  // line (`s[t] += s[t + 16]`) are two meetings.
  static unsigned next_site = 1;
  const location_t where = gimple_location(stmt);
  gcall* call = gimple_build_call(meeting_function(), 2, build_int_cst(unsigned_type_node, source_line(stmt)),
                                  build_int_cst(unsigned_type_node, next_site++));
  gimple_set_location(call, where);
  gsi_insert_before(gsi, call, GSI_SAME_STMT);
  return true;
}

const void* converged_access_gc_roots() { return meeting_roots; }

unsigned source_line(const gimple* stmt) {
  const location_t where = gimple_location(stmt);
  return where == UNKNOWN_LOCATION ? 0 : unsigned(LOCATION_LINE(where));
}
