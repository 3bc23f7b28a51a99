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
    "redux.xor",  "syncwarp",   "ld.shared",  "st.shared",  "watch",
};
static_assert(static_cast<int>(Op::Watch) == kOpCount - 1);

// The 16 name bytes of a watch's args, in order (watch_name_args' packing).
void watch_name_bytes(const OpArgs& args, char (&bytes)[kWatchNameBytes]) {
  const uint64_t b = static_cast<uint64_t>(args.b);
  const uint32_t width = static_cast<uint32_t>(args.width);
  for (int i = 0; i < kWatchNameBytes; ++i) {
    const uint64_t byte = i < 8 ? b >> (8 * i) : i < 12 ? width >> (8 * (i - 8)) : args.c >> (8 * (i - 12));
    bytes[i] = static_cast<char>(byte & 0xff);
  }
}

}  // namespace

std::string watch_name(const OpArgs& args) {
  char bytes[kWatchNameBytes];
  watch_name_bytes(args, bytes);
  size_t length = 0;
  while (length < size_t(kWatchNameBytes) && bytes[length] != 0) ++length;
  return std::string(bytes, length);
}

bool watch_args_valid(const OpArgs& args) {
  char bytes[kWatchNameBytes];
  watch_name_bytes(args, bytes);
  size_t length = 0;
  while (length < size_t(kWatchNameBytes) && bytes[length] != 0) ++length;
  for (size_t i = length; i < size_t(kWatchNameBytes); ++i)
    if (bytes[i] != 0) return false;  // bytes after the NUL: not a packed name
  return watch_name_fits(bytes, length);
}

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
