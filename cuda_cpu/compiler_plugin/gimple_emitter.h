// Appends `tmp = a CODE b` statements before the statement being rewritten:
// the small builder the rewrites share, so that each of them reads as the
// formula it implements. Runs in the lowering passes (no SSA, no CFG yet), so
// results are fresh temporaries, not SSA names.
#pragma once

class GimpleEmitter {
 public:
  explicit GimpleEmitter(gimple_stmt_iterator* gsi) : gsi_(gsi), loc_(gimple_location(gsi_stmt(*gsi))) {}

  tree emit(tree_code code, tree type, tree a, tree b = NULL_TREE, tree c = NULL_TREE) {
    tree result = create_tmp_reg(type, "wv");
    gassign* stmt = c ? gimple_build_assign(result, code, a, b, c)
                      : b ? gimple_build_assign(result, code, a, b) : gimple_build_assign(result, code, a);
    gimple_set_location(stmt, loc_);
    gsi_insert_before(gsi_, stmt, GSI_SAME_STMT);
    return result;
  }
  tree test(tree_code code, tree a, tree b) { return emit(code, boolean_type_node, a, b); }
  tree select(tree cond, tree if_true, tree if_false) {
    return emit(COND_EXPR, TREE_TYPE(if_true), cond, if_true, if_false);
  }
  tree convert(tree type, tree value) {
    return useless_type_conversion_p(type, TREE_TYPE(value)) ? value : emit(NOP_EXPR, type, value);
  }

  // The statement being rewritten becomes `lhs = value`.
  void finish(tree value) {
    gimple* old = gsi_stmt(*gsi_);
    tree lhs = gimple_assign_lhs(old);
    gassign* stmt = gimple_build_assign(lhs, convert(TREE_TYPE(lhs), value));
    gimple_set_location(stmt, loc_);
    gsi_replace(gsi_, stmt, false);
  }

 private:
  gimple_stmt_iterator* gsi_;
  location_t loc_;
};
