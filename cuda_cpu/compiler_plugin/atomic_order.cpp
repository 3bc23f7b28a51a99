// note_order_dependent_atomics (atomic_order.h). A launch's blocks run on
// every core only when the order they run in cannot change what the program
// computes. CUDA's atomic functions are the usual way blocks meet, but most
// uses leave no trace of the order:
//   - on a `__shared__` variable (a `thread_local` here): the block's own;
//   - `atomicAdd(&count, 1);` on integers with the result thrown away: the
//     sum is the same in any order (so are sub, and, or, xor, min, max, inc
//     and dec).
// Any other atomic call in device code (its result used, on floats, an
// exchange or a compare-and-swap) can see the order: the plugin then
// defines the weak symbol __warpviz_order_dependent_atomic, naming the call,
// and the runtime runs that program's blocks one after another. Every unit
// with device code also gets __warpviz_atomics_judged, so that the runtime
// can tell a program whose atomics were judged from one built without the
// plugin.
#define INCLUDE_STRING
#include "gcc-plugin.h"
#include "plugin-version.h"

#include "tree.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-walk.h"
#include "cgraph.h"
#include "hash-map.h"

#include "atomic_order.h"

namespace {

const char* const kMarkerSymbol = "__warpviz_order_dependent_atomic";
// Defined in every unit with device code the plugin saw: a program without it
// was built without the plugin, and its atomics were never judged.
const char* const kJudgedSymbol = "__warpviz_atomics_judged";

// The base name of CUDA's atomic function `fn` (atomicAdd_block -> atomicAdd), or "".
std::string atomic_function(tree fn) {
  if (!fn || !DECL_NAME(fn)) return "";
  std::string name = IDENTIFIER_POINTER(DECL_NAME(fn));
  for (const char* scope : {"_block", "_system"}) {
    const size_t n = strlen(scope);
    if (name.size() > n && name.compare(name.size() - n, n, scope) == 0) name.resize(name.size() - n);
  }
  static const char* const known[] = {"atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax", "atomicAnd",
                                      "atomicOr",  "atomicXor", "atomicInc",  "atomicDec", "atomicCAS"};
  for (const char* k : known)
    if (name == k) return name;
  return "";
}

// Operations whose final value is the same whatever order they come in.
bool commutes(const std::string& op) {
  return op != "atomicExch" && op != "atomicCAS";
}

// The kit's own headers (include/warpviz/): a grid barrier's counter there
// is the launch's business, not the program's.
bool in_kit_header(tree fn) {
  const char* file = DECL_SOURCE_FILE(fn);
  return file && strstr(file, "/include/warpviz/") != nullptr;
}

// Variables assigned exactly once in the function, with what they were
// given: enough to follow `_1 = &bins[i]; atomicAdd(_1, 1)` back to `bins`.
using SingleAssignments = hash_map<tree, tree>;

struct Collect {
  SingleAssignments* once;
  hash_map<tree, int>* count;
};

tree collect_assignment(gimple_stmt_iterator* gsi, bool*, struct walk_stmt_info* wi) {
  gimple* stmt = gsi_stmt(*gsi);
  if (!is_gimple_assign(stmt)) return NULL_TREE;
  tree lhs = gimple_assign_lhs(stmt);
  if (!VAR_P(lhs)) return NULL_TREE;
  Collect* c = static_cast<Collect*>(wi->info);
  int& n = c->count->get_or_insert(lhs);
  ++n;
  // A single rhs (an address, a copy) or pointer arithmetic: its base operand.
  tree rhs = gimple_assign_rhs1(stmt);
  const tree_code code = gimple_assign_rhs_code(stmt);
  if (code == POINTER_PLUS_EXPR || CONVERT_EXPR_CODE_P(code) || gimple_assign_single_p(stmt))
    c->once->put(lhs, rhs);
  else
    c->once->put(lhs, NULL_TREE);
  return NULL_TREE;
}

// Whether `address` is a `__shared__` (thread_local) variable's, following
// single assignments a few steps back.
bool shared_address(tree address, SingleAssignments& once, hash_map<tree, int>& count, int depth = 0) {
  if (!address || depth > 8) return false;
  STRIP_NOPS(address);
  if (TREE_CODE(address) == ADDR_EXPR) {
    tree base = get_base_address(TREE_OPERAND(address, 0));
    return base && VAR_P(base) && DECL_THREAD_LOCAL_P(base);
  }
  // The gimplifier's temporaries are SSA names already: their one definition.
  if (TREE_CODE(address) == SSA_NAME) {
    gimple* def = SSA_NAME_DEF_STMT(address);
    if (!def || !is_gimple_assign(def)) return false;
    const tree_code code = gimple_assign_rhs_code(def);
    if (code != POINTER_PLUS_EXPR && !CONVERT_EXPR_CODE_P(code) && !gimple_assign_single_p(def)) return false;
    return shared_address(gimple_assign_rhs1(def), once, count, depth + 1);
  }
  if (VAR_P(address) && !DECL_THREAD_LOCAL_P(address)) {
    int* n = count.get(address);
    tree* rhs = once.get(address);
    if (n && *n == 1 && rhs && *rhs) return shared_address(*rhs, once, count, depth + 1);
  }
  return false;
}

struct Classify {
  SingleAssignments* once;
  hash_map<tree, int>* count;
  std::string first;  // "atomicAdd on line 12 of main.cu", the first order-dependent call
};

tree classify_call(gimple_stmt_iterator* gsi, bool*, struct walk_stmt_info* wi) {
  gimple* stmt = gsi_stmt(*gsi);
  if (!is_gimple_call(stmt) || gimple_call_num_args(stmt) < 1) return NULL_TREE;
  const std::string op = atomic_function(gimple_call_fndecl(stmt));
  if (op.empty()) return NULL_TREE;
  Classify* c = static_cast<Classify*>(wi->info);
  if (!c->first.empty()) return NULL_TREE;
  tree address = gimple_call_arg(stmt, 0);
  if (shared_address(address, *c->once, *c->count)) return NULL_TREE;
  tree pointee = POINTER_TYPE_P(TREE_TYPE(address)) ? TREE_TYPE(TREE_TYPE(address)) : NULL_TREE;
  const bool result_unused = gimple_call_lhs(stmt) == NULL_TREE;
  if (result_unused && commutes(op) && pointee && INTEGRAL_TYPE_P(pointee)) return NULL_TREE;
  const location_t where = gimple_location(stmt);
  const char* why = !result_unused                              ? "its result used"
                    : !commutes(op)                             ? "an exchange"
                                                                : "not on integers";
  c->first = op + " on line " + std::to_string(where == UNKNOWN_LOCATION ? 0 : LOCATION_LINE(where)) + " of " +
             (where == UNKNOWN_LOCATION ? "?" : LOCATION_FILE(where)) + " (" + why + ")";
  return NULL_TREE;
}

// A weak symbol holding `text`, as top-level assembly: the lowering passes
// run before the unit's variables are written out.
void define_weak_string(const char* symbol, const std::string& text) {
  std::string safe;
  for (char ch : text) safe += (ch == '"' || ch == '\\' || ch < ' ' || ch > '~') ? '?' : ch;
  const std::string assembly = std::string("\t.pushsection .rodata.warpviz_atomic_order,\"a\"\n\t.weak ") + symbol +
                               "\n\t.type " + symbol + ", @object\n" + symbol + ":\n\t.string \"" + safe +
                               "\"\n\t.popsection\n";
  symtab->finalize_toplevel_asm(build_string(int(assembly.size()), assembly.c_str()));
}

}  // namespace

void note_order_dependent_atomics(tree fn, gimple_seq body) {
  static bool judged = false, marked = false;
  if (!judged) define_weak_string(kJudgedSymbol, "atomic calls judged by the warpviz plugin");
  judged = true;
  if (marked || in_kit_header(fn)) return;
  SingleAssignments once;
  hash_map<tree, int> count;
  Collect collect{&once, &count};
  struct walk_stmt_info wi;
  memset(&wi, 0, sizeof wi);
  wi.info = &collect;
  walk_gimple_seq(body, collect_assignment, NULL, &wi);
  Classify classify{&once, &count, ""};
  memset(&wi, 0, sizeof wi);
  wi.info = &classify;
  walk_gimple_seq(body, classify_call, NULL, &wi);
  if (!classify.first.empty()) {
    define_weak_string(kMarkerSymbol, classify.first);
    marked = true;
  }
}
