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
#include "ggc.h"

#include "gimple_emitter.h"
#include "gpu_rewrites.h"

namespace {

const char* const kLoadFunction = "__warpviz_shared_load";
const char* const kStoreFunction = "__warpviz_shared_store";

// The `__shared__` variable a reference reads or writes, or NULL_TREE. Only
// plain and volatile-free references of a register type of 1, 2, 4 or 8
// bytes: volatile ones meet as converged access points already
// (meet_before_volatile_access), bit-fields and aggregates are left alone.
tree shared_variable(tree ref) {
  if (!ref || TREE_THIS_VOLATILE(ref)) return NULL_TREE;
  tree type = TREE_TYPE(ref);
  if (!(INTEGRAL_TYPE_P(type) || SCALAR_FLOAT_TYPE_P(type) || POINTER_TYPE_P(type))) return NULL_TREE;
  if (TYPE_VOLATILE(type) || !tree_fits_uhwi_p(TYPE_SIZE_UNIT(type))) return NULL_TREE;
  const unsigned HOST_WIDE_INT bytes = tree_to_uhwi(TYPE_SIZE_UNIT(type));
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) return NULL_TREE;
  tree base = ref;
  while (handled_component_p(base)) {
    if (TREE_THIS_VOLATILE(base)) return NULL_TREE;
    if (TREE_CODE(base) == COMPONENT_REF && DECL_BIT_FIELD(TREE_OPERAND(base, 1))) return NULL_TREE;
    if (TREE_CODE(base) == BIT_FIELD_REF || TREE_CODE(base) == REALPART_EXPR || TREE_CODE(base) == IMAGPART_EXPR)
      return NULL_TREE;
    base = TREE_OPERAND(base, 0);
  }
  if (TREE_CODE(base) == MEM_REF && TREE_CODE(TREE_OPERAND(base, 0)) == ADDR_EXPR)
    base = TREE_OPERAND(TREE_OPERAND(base, 0), 0);
  if (!VAR_P(base) || !DECL_THREAD_LOCAL_P(base) || TREE_THIS_VOLATILE(base)) return NULL_TREE;
  return base;
}

// The element's kind for the trace: 0 unsigned or pointer, 1 signed, 2 float.
unsigned element_kind(tree type) {
  if (SCALAR_FLOAT_TYPE_P(type)) return 2;
  return INTEGRAL_TYPE_P(type) && !TYPE_UNSIGNED(type) ? 1 : 0;
}

tree load_decl = NULL_TREE;
tree store_decl = NULL_TREE;

tree declare(const char* name, tree type) {
  tree decl = build_fn_decl(name, type);
  SET_DECL_ASSEMBLER_NAME(decl, get_identifier(name));
  // A block that fails unwinds its waiting lanes' stacks through the call.
  TREE_NOTHROW(decl) = 0;
  return decl;
}

// uint64 __warpviz_shared_load(const void* at, const void* variable, unsigned bytes, unsigned kind, unsigned line)
tree load_function() {
  if (!load_decl)
    load_decl = declare(kLoadFunction, build_function_type_list(long_long_unsigned_type_node, ptr_type_node,
                                                                ptr_type_node, unsigned_type_node, unsigned_type_node,
                                                                unsigned_type_node, NULL_TREE));
  return load_decl;
}

// void __warpviz_shared_store(void* at, const void* variable, unsigned bytes, unsigned kind, unsigned line, uint64 bits)
tree store_function() {
  if (!store_decl)
    store_decl = declare(kStoreFunction, build_function_type_list(void_type_node, ptr_type_node, ptr_type_node,
                                                                  unsigned_type_node, unsigned_type_node,
                                                                  unsigned_type_node, long_long_unsigned_type_node,
                                                                  NULL_TREE));
  return store_decl;
}

const struct ggc_root_tab shared_access_roots[] = {
    {&load_decl, 1, sizeof(load_decl), gt_ggc_mx_tree_node, gt_pch_nx_tree_node},
    {&store_decl, 1, sizeof(store_decl), gt_ggc_mx_tree_node, gt_pch_nx_tree_node},
    LAST_GGC_ROOT_TAB,
};

unsigned line_of(gimple* stmt) {
  const location_t where = gimple_location(stmt);
  return where == UNKNOWN_LOCATION ? 0 : unsigned(LOCATION_LINE(where));
}

// `p = &ref`, and the variable marked as one whose address is taken.
tree address_of(GimpleEmitter& e, tree ref, tree variable) {
  TREE_ADDRESSABLE(variable) = 1;
  return e.emit(ADDR_EXPR, ptr_type_node, build_fold_addr_expr_with_type(ref, ptr_type_node));
}

// The bits of `value` (a register type of `bytes` bytes) as an unsigned integer of that width.
tree bits_of(GimpleEmitter& e, tree value, unsigned bytes) {
  tree same_width = build_nonstandard_integer_type(bytes * 8, 1);
  tree type = TREE_TYPE(value);
  if (INTEGRAL_TYPE_P(type) || POINTER_TYPE_P(type)) return e.convert(same_width, value);
  return e.emit(VIEW_CONVERT_EXPR, same_width, build1(VIEW_CONVERT_EXPR, same_width, value));
}

}  // namespace

bool record_shared_access(gimple_stmt_iterator* gsi) {
  gimple* stmt = gsi_stmt(*gsi);
  if (!is_gimple_assign(stmt) || !gimple_assign_single_p(stmt)) return false;
  tree lhs = gimple_assign_lhs(stmt), rhs = gimple_assign_rhs1(stmt);
  tree stored_to = shared_variable(lhs);
  tree loaded_from = stored_to ? NULL_TREE : shared_variable(rhs);
  if (!stored_to && !loaded_from) return false;
  // A copy from one shared word to another: a load, then a store.
  if (stored_to && shared_variable(rhs)) return false;

  GimpleEmitter e(gsi);
  tree ref = stored_to ? lhs : rhs;
  tree type = TREE_TYPE(ref);
  const unsigned bytes = unsigned(tree_to_uhwi(TYPE_SIZE_UNIT(type)));
  tree variable = stored_to ? stored_to : loaded_from;
  tree at = address_of(e, ref, variable);
  tree variable_at = e.emit(ADDR_EXPR, ptr_type_node, build_fold_addr_expr_with_type(variable, ptr_type_node));
  tree bytes_arg = build_int_cst(unsigned_type_node, bytes);
  tree kind_arg = build_int_cst(unsigned_type_node, element_kind(type));
  tree line_arg = build_int_cst(unsigned_type_node, line_of(stmt));
  if (stored_to) {
    tree bits = e.convert(long_long_unsigned_type_node, bits_of(e, rhs, bytes));
    gcall* call = gimple_build_call(store_function(), 6, at, variable_at, bytes_arg, kind_arg, line_arg, bits);
    gimple_set_location(call, gimple_location(stmt));
    gsi_replace(gsi, call, false);
    return true;
  }
  tree loaded = create_tmp_reg(long_long_unsigned_type_node, "wv");
  gcall* call = gimple_build_call(load_function(), 5, at, variable_at, bytes_arg, kind_arg, line_arg);
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
