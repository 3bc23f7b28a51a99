// record_shared_access (gpu_rewrites.h). A student's transpose through a
// `__shared__` tile has no WARPVIZ_LOAD in it, yet its bank conflicts are
// what the banks panel is for: each load and store of a `__shared__`
// variable in device code becomes a call that the emulator records as one
// warp-wide LDS/STS (or, for a warp it does not record, performs at once).
// `__shared__` is `thread_local` in the CPU's compile model and device code
// has no other thread_local, so a reference whose base is a thread_local
// variable is a shared access. The pass runs before inlining and
// optimisation, where `tile[ty][tx]` still names `tile`.
#include "gcc-plugin.h"
#include "plugin-version.h"

#include "tree.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "stringpool.h"
#include "attribs.h"
#include "fold-const.h"
#include "ggc.h"

#include "gimple_emitter.h"
#include "gpu_rewrites.h"

#include <unordered_map>

namespace {

const char* const kLoadFunction = "__warpviz_shared_load";
const char* const kStoreFunction = "__warpviz_shared_store";
// Through a pointer derived from an `extern __shared__` array: the emulator
// checks that the address is shared memory (the pointer may have been set to
// another since) before it records.
const char* const kPointerLoadFunction = "__warpviz_shared_pointer_load";
const char* const kPointerStoreFunction = "__warpviz_shared_pointer_store";
const char* const kSharedPointerAttribute = "warpviz_shared_pointer";

// Within the function being rewritten: each pointer variable known to point
// into an `extern __shared__` array, and that array's pointer (the one the
// warpviz_shared_pointer attribute marks). Statements come in order, so a
// temporary's `_3 = sdata + _2` is seen before `*_3 = v`.
std::unordered_map<tree, tree> g_derived_from;

bool marked_shared_pointer(tree decl) {
  return VAR_P(decl) && lookup_attribute(kSharedPointerAttribute, DECL_ATTRIBUTES(decl)) != NULL_TREE;
}

// The `extern __shared__` array pointer that `value` points into, or NULL_TREE.
tree shared_root(tree value) {
  if (!value) return NULL_TREE;
  if (marked_shared_pointer(value)) return value;
  const auto found = g_derived_from.find(value);
  return found == g_derived_from.end() ? NULL_TREE : found->second;
}

// Notes what an assignment to a pointer variable makes it point into.
void follow_pointer_assignment(gimple* stmt) {
  if (!is_gimple_assign(stmt)) return;
  tree lhs = gimple_assign_lhs(stmt);
  // The gimplifier's temporaries are SSA names already; named locals are variables.
  if (!(VAR_P(lhs) || TREE_CODE(lhs) == SSA_NAME) || !POINTER_TYPE_P(TREE_TYPE(lhs)) || marked_shared_pointer(lhs))
    return;
  tree root = NULL_TREE;
  switch (gimple_assign_rhs_code(stmt)) {
    case POINTER_PLUS_EXPR:
    case NOP_EXPR:
    case CONVERT_EXPR:
    case VAR_DECL:
    case SSA_NAME:
      root = shared_root(gimple_assign_rhs1(stmt));
      break;
    default:
      break;
  }
  if (root)
    g_derived_from[lhs] = root;
  else
    g_derived_from.erase(lhs);
}

struct SharedTarget {
  tree variable = NULL_TREE;  // a `__shared__` variable, or an `extern __shared__` array's pointer
  bool through_pointer = false;
};

// What a reference reads or writes, if shared memory. Only
// plain and volatile-free references of a register type of 1, 2, 4 or 8
// bytes: volatile ones meet as converged access points already
// (meet_before_volatile_access), bit-fields and aggregates are left alone.
SharedTarget shared_target(tree ref) {
  if (!ref || TREE_THIS_VOLATILE(ref)) return {};
  tree type = TREE_TYPE(ref);
  if (!(INTEGRAL_TYPE_P(type) || SCALAR_FLOAT_TYPE_P(type) || POINTER_TYPE_P(type))) return {};
  if (TYPE_VOLATILE(type) || !tree_fits_uhwi_p(TYPE_SIZE_UNIT(type))) return {};
  const unsigned HOST_WIDE_INT bytes = tree_to_uhwi(TYPE_SIZE_UNIT(type));
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) return {};
  tree base = ref;
  while (handled_component_p(base)) {
    if (TREE_THIS_VOLATILE(base)) return {};
    if (TREE_CODE(base) == COMPONENT_REF && DECL_BIT_FIELD(TREE_OPERAND(base, 1))) return {};
    if (TREE_CODE(base) == BIT_FIELD_REF || TREE_CODE(base) == REALPART_EXPR || TREE_CODE(base) == IMAGPART_EXPR)
      return {};
    base = TREE_OPERAND(base, 0);
  }
  if (TREE_CODE(base) == MEM_REF) {
    if (TREE_THIS_VOLATILE(base)) return {};
    tree address = TREE_OPERAND(base, 0);
    if (TREE_CODE(address) == ADDR_EXPR) {
      base = TREE_OPERAND(address, 0);
    } else if (tree root = shared_root(address)) {
      return {root, true};
    } else {
      return {};
    }
  }
  if (!VAR_P(base) || !DECL_THREAD_LOCAL_P(base) || TREE_THIS_VOLATILE(base)) return {};
  return {base, false};
}

// The element's kind for the trace: 0 unsigned or pointer, 1 signed, 2 float.
unsigned element_kind(tree type) {
  if (SCALAR_FLOAT_TYPE_P(type)) return 2;
  return INTEGRAL_TYPE_P(type) && !TYPE_UNSIGNED(type) ? 1 : 0;
}

tree load_decl = NULL_TREE;
tree store_decl = NULL_TREE;
tree pointer_load_decl = NULL_TREE;
tree pointer_store_decl = NULL_TREE;

tree declare(const char* name, tree type) {
  tree decl = build_fn_decl(name, type);
  SET_DECL_ASSEMBLER_NAME(decl, get_identifier(name));
  // A block that fails unwinds its waiting lanes' stacks through the call.
  TREE_NOTHROW(decl) = 0;
  return decl;
}

// uint64 __warpviz_shared_load(const void* at, const void* variable, unsigned bytes, unsigned kind, unsigned line)
tree load_function(bool through_pointer) {
  tree& decl = through_pointer ? pointer_load_decl : load_decl;
  if (!decl)
    decl = declare(through_pointer ? kPointerLoadFunction : kLoadFunction,
                   build_function_type_list(long_long_unsigned_type_node, ptr_type_node, ptr_type_node,
                                            unsigned_type_node, unsigned_type_node, unsigned_type_node, NULL_TREE));
  return decl;
}

// void __warpviz_shared_store(void* at, const void* variable, unsigned bytes, unsigned kind, unsigned line, uint64 bits)
tree store_function(bool through_pointer) {
  tree& decl = through_pointer ? pointer_store_decl : store_decl;
  if (!decl)
    decl = declare(through_pointer ? kPointerStoreFunction : kStoreFunction,
                   build_function_type_list(void_type_node, ptr_type_node, ptr_type_node, unsigned_type_node,
                                            unsigned_type_node, unsigned_type_node, long_long_unsigned_type_node,
                                            NULL_TREE));
  return decl;
}

const struct ggc_root_tab shared_access_roots[] = {
    {&load_decl, 1, sizeof(load_decl), gt_ggc_mx_tree_node, gt_pch_nx_tree_node},
    {&store_decl, 1, sizeof(store_decl), gt_ggc_mx_tree_node, gt_pch_nx_tree_node},
    {&pointer_load_decl, 1, sizeof(pointer_load_decl), gt_ggc_mx_tree_node, gt_pch_nx_tree_node},
    {&pointer_store_decl, 1, sizeof(pointer_store_decl), gt_ggc_mx_tree_node, gt_pch_nx_tree_node},
    LAST_GGC_ROOT_TAB,
};

// `tmp = value` before the statement at gsi: a single operand of any kind
// (`&tile[i][j]`, or the pointer that `&*p` folds to).
tree in_temporary(gimple_stmt_iterator* gsi, tree value) {
  tree tmp = create_tmp_reg(ptr_type_node, "wv");
  gassign* stmt = gimple_build_assign(tmp, fold_convert(ptr_type_node, value));
  gimple_set_location(stmt, gimple_location(gsi_stmt(*gsi)));
  gsi_insert_before(gsi, stmt, GSI_SAME_STMT);
  return tmp;
}

// The address of the reference, in a temporary.
tree address_of(gimple_stmt_iterator* gsi, tree ref) {
  return in_temporary(gsi, build_fold_addr_expr_with_type(ref, ptr_type_node));
}

// The bits of `value` (a register type of `bytes` bytes) as an unsigned integer of that width.
tree bits_of(GimpleEmitter& e, tree value, unsigned bytes) {
  tree same_width = build_nonstandard_integer_type(bytes * 8, 1);
  tree type = TREE_TYPE(value);
  if (INTEGRAL_TYPE_P(type) || POINTER_TYPE_P(type)) return e.convert(same_width, value);
  return e.emit(VIEW_CONVERT_EXPR, same_width, build1(VIEW_CONVERT_EXPR, same_width, value));
}

}  // namespace

void begin_shared_access_function() { g_derived_from.clear(); }

bool record_shared_access(gimple_stmt_iterator* gsi) {
  gimple* stmt = gsi_stmt(*gsi);
  if (!is_gimple_assign(stmt)) return false;
  if (!gimple_assign_single_p(stmt)) {
    follow_pointer_assignment(stmt);
    return false;
  }
  tree lhs = gimple_assign_lhs(stmt), rhs = gimple_assign_rhs1(stmt);
  const SharedTarget stored_to = shared_target(lhs);
  const SharedTarget loaded_from = stored_to.variable ? SharedTarget{} : shared_target(rhs);
  if (!stored_to.variable && !loaded_from.variable) {
    follow_pointer_assignment(stmt);
    return false;
  }
  // A copy from one shared word to another (gimplified from `a = b` of a
  // register type only through a temporary): left alone.
  if (stored_to.variable && shared_target(rhs).variable) return false;

  GimpleEmitter e(gsi);
  tree ref = stored_to.variable ? lhs : rhs;
  tree type = TREE_TYPE(ref);
  const unsigned bytes = unsigned(tree_to_uhwi(TYPE_SIZE_UNIT(type)));
  const SharedTarget target = stored_to.variable ? stored_to : loaded_from;
  tree variable = target.variable;
  // Through a pointer: the array's start is the pointer's value; else the variable's address.
  if (!target.through_pointer) TREE_ADDRESSABLE(variable) = 1;
  tree at = address_of(gsi, ref);
  tree variable_at = target.through_pointer ? in_temporary(gsi, variable) : address_of(gsi, variable);
  tree bytes_arg = build_int_cst(unsigned_type_node, bytes);
  tree kind_arg = build_int_cst(unsigned_type_node, element_kind(type));
  tree line_arg = build_int_cst(unsigned_type_node, source_line(stmt));
  if (stored_to.variable) {
    tree bits = e.convert(long_long_unsigned_type_node, bits_of(e, rhs, bytes));
    gcall* call = gimple_build_call(store_function(target.through_pointer), 6, at, variable_at, bytes_arg, kind_arg,
                                    line_arg, bits);
    gimple_set_location(call, gimple_location(stmt));
    gsi_replace(gsi, call, false);
    return true;
  }
  tree loaded = create_tmp_reg(long_long_unsigned_type_node, "wv");
  gcall* call =
      gimple_build_call(load_function(target.through_pointer), 5, at, variable_at, bytes_arg, kind_arg, line_arg);
  gimple_call_set_lhs(call, loaded);
  gimple_set_location(call, gimple_location(stmt));
  gsi_insert_before(gsi, call, GSI_SAME_STMT);
  tree same_width = build_nonstandard_integer_type(bytes * 8, 1);
  tree narrow = e.convert(same_width, loaded);
  if (INTEGRAL_TYPE_P(type) || POINTER_TYPE_P(type))
    e.finish(narrow);
  else
    e.finish(e.emit(VIEW_CONVERT_EXPR, type, build1(VIEW_CONVERT_EXPR, type, narrow)));
  return true;
}

const void* shared_access_gc_roots() { return shared_access_roots; }

// `T* const name __attribute__((warpviz_shared_pointer)) = dynamic_shared<T>();`,
// what the runner writes for `extern __shared__ T name[];`.
namespace {
tree handle_shared_pointer_attribute(tree* node, tree, tree, int, bool* no_add_attrs) {
  if (!VAR_P(*node) || !POINTER_TYPE_P(TREE_TYPE(*node))) *no_add_attrs = true;
  return NULL_TREE;
}
const attribute_spec shared_pointer_attribute_spec = {
    kSharedPointerAttribute, 0, 0, false, false, false, false, handle_shared_pointer_attribute, NULL};
}  // namespace

void register_shared_pointer_attribute() { register_attribute(&shared_pointer_attribute_spec); }
