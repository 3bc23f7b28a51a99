// A GCC plugin that gives plain C++ in users' device code the GPU's results
// where x86 differs: integer division by zero and MIN / -1, shifts by the
// width or more, float-to-integer conversions out of range (gpu_rewrites.cpp).
//
// Device code is every function carrying `__attribute__((warpviz_device))`,
// which the kit's `__global__` and `__device__` macros expand to
// (record_host.h), and every function defined inside one (lambdas, local
// classes). Host code keeps x86's behaviour: a host division by zero still
// traps, as in the real program.
//
// It also puts a meeting point of the warp's converged lanes before every
// volatile load and store of memory lanes can share (converged_access.cpp),
// and notes atomic calls that can see the order blocks run in
// (atomic_order.cpp).
//
// The pass runs right after GIMPLE lowering, before the CFG and before any
// optimization, so it sees each operation as written at -O0 and at -O2 alike.
#include "gcc-plugin.h"
#include "plugin-version.h"

#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-walk.h"
#include "stringpool.h"
#include "attribs.h"
#include "diagnostic-core.h"

#include "atomic_order.h"
#include "gpu_rewrites.h"

// GCC loads only plugins that declare this; warpviz's licence is compatible.
int plugin_is_GPL_compatible;

namespace {

const char* const kDeviceAttribute = "warpviz_device";

// nvcc contracts `a * b + c` into one FMA (its default --fmad=true), so the
// bits of a dot product depend on it. A device function gets GCC's own
// contraction, which fuses a multiply into the add or subtract that uses it,
// as nvcc's does: fp-contract=fast, and the FMA instruction where this CPU has
// one (without it nothing is contracted, and docs/floats.md says so). Host
// code stays uncontracted, as nvcc's host compiler leaves it on x86-64.
bool cpu_has_fma() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("fma");
}

tree string_argument(const char* text) { return build_tree_list(NULL_TREE, build_string(strlen(text) + 1, text)); }

void contract_like_nvcc(tree* fn, int flags) {
  static const bool fma = cpu_has_fma();
  tree attributes = tree_cons(get_identifier("optimize"), string_argument("fp-contract=fast"), NULL_TREE);
  if (fma) attributes = tree_cons(get_identifier("target"), string_argument("fma"), attributes);
  decl_attributes(fn, attributes, flags);
}

// Kept on functions (the pass reads it); accepted without effect on
// variables (`__device__ int x;`), types and anything else CUDA allows it on.
tree handle_device_attribute(tree* node, tree, tree, int flags, bool* no_add_attrs) {
  if (TREE_CODE(*node) != FUNCTION_DECL) {
    *no_add_attrs = true;
    return NULL_TREE;
  }
  contract_like_nvcc(node, flags);
  return NULL_TREE;
}

const attribute_spec device_attribute_spec = {
    kDeviceAttribute, 0, 0, false, false, false, false, handle_device_attribute, NULL};

void register_device_attribute(void*, void*) {
  register_attribute(&device_attribute_spec);
  register_shared_pointer_attribute();
}

bool marked_device(tree fn) { return lookup_attribute(kDeviceAttribute, DECL_ATTRIBUTES(fn)) != NULL_TREE; }

// The function, or a function it is defined inside (a lambda's closure type
// and a local class have the enclosing function as context), is device code.
bool is_device_code(tree fn) {
  for (tree scope = fn; scope;) {
    if (TREE_CODE(scope) == FUNCTION_DECL) {
      if (marked_device(scope)) return true;
      scope = DECL_CONTEXT(scope);
    } else if (TYPE_P(scope)) {
      scope = TYPE_CONTEXT(scope);
    } else if (TREE_CODE(scope) == BLOCK) {
      scope = BLOCK_SUPERCONTEXT(scope);
    } else {
      return false;  // a namespace or the translation unit: host scope
    }
  }
  return false;
}

tree rewrite_statement(gimple_stmt_iterator* gsi, bool*, struct walk_stmt_info*) {
  gimple* stmt = gsi_stmt(*gsi);
  meet_before_volatile_access(gsi);
  if (record_shared_access(gsi)) return NULL_TREE;
  if (is_gimple_assign(stmt)) {
    rewrite_division(gsi) || rewrite_shift(gsi) || rewrite_float_to_int(gsi);
  } else {
    drop_ubsan_check(gsi);
  }
  return NULL_TREE;
}

const pass_data device_semantics_pass_data = {
    GIMPLE_PASS, "warpviz_device_semantics", OPTGROUP_NONE, TV_NONE, PROP_gimple_lcf, 0, 0, 0, 0,
};

class DeviceSemanticsPass : public gimple_opt_pass {
 public:
  explicit DeviceSemanticsPass(gcc::context* ctx) : gimple_opt_pass(device_semantics_pass_data, ctx) {}
  bool gate(function* fun) override { return is_device_code(fun->decl); }
  unsigned int execute(function* fun) override {
    gimple_seq body = gimple_body(fun->decl);
    note_order_dependent_atomics(fun->decl, body);
    begin_shared_access_function();
    struct walk_stmt_info wi;
    memset(&wi, 0, sizeof wi);
    walk_gimple_seq_mod(&body, rewrite_statement, NULL, &wi);
    gimple_set_body(fun->decl, body);
    return 0;
  }
};

}  // namespace

int plugin_init(struct plugin_name_args* info, struct plugin_gcc_version* version) {
  if (!plugin_default_version_check(version, &gcc_version)) {
    error("warpviz device-semantics plugin: built for GCC %s, loaded by GCC %s", gcc_version.basever,
          version->basever);
    return 1;
  }
  register_callback(info->base_name, PLUGIN_ATTRIBUTES, register_device_attribute, NULL);
  register_callback(info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL, const_cast<void*>(converged_access_gc_roots()));
  register_callback(info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL, const_cast<void*>(shared_access_gc_roots()));
  struct register_pass_info pass;
  pass.pass = new DeviceSemanticsPass(g);
  pass.reference_pass_name = "lower";
  pass.ref_pass_instance_number = 1;
  pass.pos_op = PASS_POS_INSERT_AFTER;
  register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
  return 0;
}
