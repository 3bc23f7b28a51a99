// The rewrites of gpu_rewrites.h. Each formula below is the H200's measured
// behaviour (tests/h200_probes/plain_cpp_semantics.out), computed without any
// operation that is undefined in C++ or traps on x86, so neither the
// optimizers at -O2 nor the processor can disturb it.
#include "gcc-plugin.h"
#include "plugin-version.h"

#include "tree.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimplify.h"
#include "real.h"
#include "stringpool.h"
#include "builtins.h"

#include "gimple_emitter.h"
#include "gpu_rewrites.h"

namespace {

tree all_ones(tree type) { return build_int_cst(type, -1); }

tree unsigned_of(tree type) { return unsigned_type_for(type); }

bool is_scalar_integer(tree type) { return TREE_CODE(type) == INTEGER_TYPE; }

// An exact power of two in a floating type: the bounds of the conversions.
tree power_of_two(tree float_type, int exponent, bool negative) {
  REAL_VALUE_TYPE r;
  real_2expN(&r, exponent, TYPE_MODE(float_type));
  if (negative) r = real_value_negate(&r);
  return build_real(float_type, r);
}

}  // namespace

// a / b and a % b. The GPU (H200, measured):
//  - up to 32 bits: x / 0 and x % 0 give all ones, signed or not;
//    MIN / -1 = MIN and MIN % -1 = 0 (the wrapped quotient);
//  - 64 bits: nvcc divides in 32 bits when both operands fit in 32 bits
//    ((a | b) >> 32 == 0), so 0 / 0 gives 0x00000000ffffffff; otherwise a
//    division by zero gives all ones.
bool rewrite_division(gimple_stmt_iterator* gsi) {
  gimple* stmt = gsi_stmt(*gsi);
  const tree_code code = gimple_assign_rhs_code(stmt);
  if (code != TRUNC_DIV_EXPR && code != TRUNC_MOD_EXPR) return false;
  tree type = TREE_TYPE(gimple_assign_lhs(stmt));
  if (!is_scalar_integer(type)) return false;
  tree a = gimple_assign_rhs1(stmt), b = gimple_assign_rhs2(stmt);
  const bool is_signed = !TYPE_UNSIGNED(type);
  // A constant divisor other than 0 (and -1, when signed) cannot fault.
  if (TREE_CODE(b) == INTEGER_CST && !integer_zerop(b) && !(is_signed && integer_minus_onep(b))) return false;

  GimpleEmitter e(gsi);
  tree by_zero = e.test(EQ_EXPR, b, build_zero_cst(type));
  tree unsafe = by_zero;
  if (is_signed) {
    tree a_min = e.test(EQ_EXPR, a, TYPE_MIN_VALUE(type));
    tree b_minus_one = e.test(EQ_EXPR, b, build_int_cst(type, -1));
    tree overflow = e.emit(BIT_AND_EXPR, boolean_type_node, a_min, b_minus_one);
    unsafe = e.emit(BIT_IOR_EXPR, boolean_type_node, by_zero, overflow);
  }
  // MIN / 1 and MIN % 1 are the GPU's MIN / -1 and MIN % -1.
  tree divisor = e.select(unsafe, build_one_cst(type), b);
  tree result = e.emit(code, type, a, divisor);
  tree zero_result = all_ones(type);
  if (TYPE_PRECISION(type) == 64) {
    tree u64 = unsigned_of(type);
    tree either = e.emit(BIT_IOR_EXPR, u64, e.convert(u64, a), e.convert(u64, b));
    tree high = e.emit(RSHIFT_EXPR, u64, either, build_int_cst(integer_type_node, 32));
    tree fits_32 = e.test(EQ_EXPR, high, build_zero_cst(u64));
    zero_result = e.select(fits_32, build_int_cst(type, 0xffffffffu), all_ones(type));
  }
  e.finish(e.select(by_zero, zero_result, result));
  return true;
}

// x << k and x >> k. The GPU clamps the amount, taken as unsigned (so -1 is
// huge): k >= width gives 0 for << and for unsigned >>, and the sign in every
// bit for signed >>.
bool rewrite_shift(gimple_stmt_iterator* gsi) {
  gimple* stmt = gsi_stmt(*gsi);
  const tree_code code = gimple_assign_rhs_code(stmt);
  if (code != LSHIFT_EXPR && code != RSHIFT_EXPR) return false;
  tree type = TREE_TYPE(gimple_assign_lhs(stmt));
  if (!is_scalar_integer(type)) return false;
  tree x = gimple_assign_rhs1(stmt), k = gimple_assign_rhs2(stmt);
  if (!is_scalar_integer(TREE_TYPE(k))) return false;
  const unsigned width = TYPE_PRECISION(type);
  if (TREE_CODE(k) == INTEGER_CST && wi::ltu_p(wi::to_wide(k), width)) return false;
  tree amount_type = unsigned_of(TREE_TYPE(k));
  // An amount type too narrow to hold the width can never reach it.
  if (TYPE_PRECISION(amount_type) < 32 && (1u << TYPE_PRECISION(amount_type)) <= width) return false;

  GimpleEmitter e(gsi);
  tree amount = e.convert(amount_type, k);
  tree too_far = e.test(GE_EXPR, amount, build_int_cst(amount_type, width));
  if (code == RSHIFT_EXPR && !TYPE_UNSIGNED(type)) {
    tree clamped = e.select(too_far, build_int_cst(amount_type, width - 1), amount);
    e.finish(e.emit(RSHIFT_EXPR, type, x, clamped));
  } else {
    tree safe = e.select(too_far, build_zero_cst(amount_type), amount);
    tree shifted = e.emit(code, type, x, safe);
    e.finish(e.select(too_far, build_zero_cst(type), shifted));
  }
  return true;
}

namespace {

// float or double x -> a 32- or 64-bit integer of `type`, saturating. NaN
// gives 0 from float to 32 bits, and the pattern 0x80..0 otherwise
// (measured: double -> uint32 NaN is 0x80000000, float -> uint64 NaN is
// 0x8000000000000000).
tree saturating_convert(GimpleEmitter& e, tree type, tree x) {
  tree float_type = TREE_TYPE(x);
  const int bits = TYPE_PRECISION(type);
  const bool is_signed = !TYPE_UNSIGNED(type);
  const bool from_float = TYPE_PRECISION(float_type) == 32;
  tree nan_value = from_float && bits == 32 ? build_zero_cst(type)
                                            : wide_int_to_tree(type, wi::set_bit_in_zero(bits - 1, bits));
  tree is_nan = e.test(UNORDERED_EXPR, x, x);
  tree too_high = e.test(GE_EXPR, x, power_of_two(float_type, is_signed ? bits - 1 : bits, false));
  tree too_low = is_signed ? e.test(LT_EXPR, x, power_of_two(float_type, bits - 1, true))
                           : e.test(LE_EXPR, x, build_real(float_type, dconstm1));
  tree out = e.emit(BIT_IOR_EXPR, boolean_type_node, is_nan, e.emit(BIT_IOR_EXPR, boolean_type_node, too_high, too_low));
  // Convert only values in range: out-of-range conversion is undefined in C++.
  tree in_range = e.select(out, build_zero_cst(float_type), x);
  tree converted = e.emit(FIX_TRUNC_EXPR, type, in_range);
  tree low = is_signed ? TYPE_MIN_VALUE(type) : build_zero_cst(type);
  tree r = e.select(too_low, low, converted);
  r = e.select(too_high, TYPE_MAX_VALUE(type), r);
  return e.select(is_nan, nan_value, r);
}

}  // namespace

// (T)x for float/double x. Types narrower than 32 bits are the 32-bit
// conversion of the same signedness, truncated (measured: uint8_t(2^31) = 0,
// int16_t(2^31) = 0xffff).
bool rewrite_float_to_int(gimple_stmt_iterator* gsi) {
  gimple* stmt = gsi_stmt(*gsi);
  if (gimple_assign_rhs_code(stmt) != FIX_TRUNC_EXPR) return false;
  tree type = TREE_TYPE(gimple_assign_lhs(stmt));
  tree x = gimple_assign_rhs1(stmt);
  if (TREE_CODE(type) != INTEGER_TYPE || TREE_CODE(TREE_TYPE(x)) != REAL_TYPE) return false;
  const machine_mode mode = TYPE_MODE(TREE_TYPE(x));
  if (mode != SFmode && mode != DFmode) return false;
  if (TYPE_PRECISION(type) > 64) return false;
  tree target = type;
  if (TYPE_PRECISION(type) < 32) target = TYPE_UNSIGNED(type) ? unsigned_type_node : integer_type_node;
  else if (TYPE_PRECISION(type) != 32 && TYPE_PRECISION(type) != 64) return false;

  GimpleEmitter e(gsi);
  e.finish(saturating_convert(e, target, x));
  return true;
}

bool drop_ubsan_check(gimple_stmt_iterator* gsi) {
  gimple* stmt = gsi_stmt(*gsi);
  if (!is_gimple_call(stmt)) return false;
  static const built_in_function checks[] = {
      BUILT_IN_UBSAN_HANDLE_DIVREM_OVERFLOW,    BUILT_IN_UBSAN_HANDLE_DIVREM_OVERFLOW_ABORT,
      BUILT_IN_UBSAN_HANDLE_SHIFT_OUT_OF_BOUNDS, BUILT_IN_UBSAN_HANDLE_SHIFT_OUT_OF_BOUNDS_ABORT,
      BUILT_IN_UBSAN_HANDLE_FLOAT_CAST_OVERFLOW, BUILT_IN_UBSAN_HANDLE_FLOAT_CAST_OVERFLOW_ABORT,
  };
  // By the declaration, not gimple_call_builtin_p: UBSan passes the operands
  // as integers where the builtin's type says pointers.
  tree callee = gimple_call_fndecl(stmt);
  if (!callee) return false;
  for (built_in_function check : checks) {
    if (fndecl_built_in_p(callee, check)) {
      gsi_replace(gsi, gimple_build_nop(), false);
      return true;
    }
  }
  return false;
}
