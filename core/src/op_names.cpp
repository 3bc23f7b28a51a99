// Names of warp ops as they appear in trace files and dumps (PTX spelling).
#include <string>

#include "warpviz/trace.h"

namespace warpviz {

namespace {

// Indexed by Op; the order must follow the enum in trace.h.
constexpr const char* kOpNames[kOpCount] = {
    "shfl.idx",   "shfl.up",    "shfl.down",  "shfl.bfly",  "vote.ballot",
    "vote.any",   "vote.all",   "activemask", "match.any",  "match.all",
    "redux.add",  "redux.min",  "redux.max",  "redux.and",  "redux.or",
    "redux.xor",  "syncwarp",   "ld.shared",  "st.shared",
};
static_assert(static_cast<int>(Op::StoreShared) == kOpCount - 1);

}  // namespace

const char* op_name(Op op) {
  const int i = static_cast<int>(op);
  return i < kOpCount ? kOpNames[i] : "?";
}

bool parse_op(const std::string& name, Op* out) {
  for (int i = 0; i < kOpCount; ++i) {
    if (name == kOpNames[i]) {
      *out = static_cast<Op>(i);
      return true;
    }
  }
  // CUDA calls the butterfly shuffle __shfl_xor_sync; PTX calls it bfly.
  if (name == "shfl.xor") {
    *out = Op::ShflXor;
    return true;
  }
  return false;
}

DType op_result_dtype(Op op, DType step_dtype) {
  switch (op) {
    case Op::Ballot:
    case Op::Any:
    case Op::All:
    case Op::ActiveMask:
    case Op::MatchAny:
    case Op::MatchAll: return DType::U32;
    default: return step_dtype;
  }
}

const char* op_operand_name(Op op) {
  switch (op) {
    case Op::ShflIdx: return "srcLane";
    case Op::ShflUp:
    case Op::ShflDown: return "delta";
    case Op::ShflXor: return "laneMask";
    default: return "b";
  }
}

}  // namespace warpviz
