// The trace model: what ran, and every recorded warp step lane by lane.
//
// TraceStep and LaneRecord are plain fixed-size structs so that the GPU recorder
// (device code, nvcc) and the CPU emulator fill the very same layout.
// A Trace holds its steps encoded, as a .wvt file does (TraceSteps,
// trace_steps.h): a TraceStep is what one step decodes to.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "warpviz/dtype.h"

namespace warpviz {

constexpr int kWarpSize = 32;

enum class Op : uint8_t {
  ShflIdx = 0,
  ShflUp,
  ShflDown,
  ShflXor,
  Ballot,
  Any,
  All,
  ActiveMask,
  MatchAny,
  MatchAll,
  ReduxAdd,
  ReduxMin,
  ReduxMax,
  ReduxAnd,
  ReduxOr,
  ReduxXor,
  SyncWarp,
  LoadShared,
  StoreShared,
  Watch,  // WARPVIZ_WATCH(var): no instruction, a variable's value in each converged lane
};
constexpr int kOpCount = 20;

const char* op_name(Op op);  // "shfl.idx", "shfl.up", ..., "ld.shared", "st.shared", "watch"
bool parse_op(const std::string& name, Op* out);
inline bool op_is_shuffle(Op op) { return op <= Op::ShflXor; }
inline bool op_is_shared(Op op) { return op == Op::LoadShared || op == Op::StoreShared; }
inline bool op_is_watch(Op op) { return op == Op::Watch; }
// The type of a lane's "out": votes, activemask and match return a u32 mask or
// flag; every other op returns the step's own type.
DType op_result_dtype(Op op, DType step_dtype);
// What the intrinsic calls a shuffle's b operand: "srcLane", "delta" or
// "laneMask"; "b" for other ops.
const char* op_operand_name(Op op);

// Per-lane flags.
enum LaneFlag : uint8_t {
  kLaneActive = 1,      // the lane executed this op
  kLaneOk = 2,          // the op's predicate: shuffles' in-range p, match_all's pred
  kLaneUndefined = 4,   // result undefined by spec (source lane inactive / outside mask,
                        // or the lane is not in its own mask); the value is what the
                        // backend produced, not something to rely on
};

struct LaneRecord {
  uint64_t in = 0;     // value the lane supplied (bits of the step's dtype)
  uint64_t out = 0;    // value the lane got back
  uint32_t addr = 0;   // shared-memory steps: byte address
  int8_t src = -1;     // lane read from (shuffles); -1 when none
  uint8_t flags = 0;   // LaneFlag bits
  uint8_t bytes = 0;   // shared-memory steps: access width in bytes
  uint8_t reserved = 0;

  bool active() const { return flags & kLaneActive; }
  bool ok() const { return flags & kLaneOk; }
  bool undefined() const { return flags & kLaneUndefined; }
};

// Per-step flags.
enum StepFlag : uint8_t {
  // A shuffle whose b operand differs by lane (b is a register, e.g. srcLane =
  // lane ^ 1): each active lane's b is in its LaneRecord::addr, and args.b is the
  // lowest active lane's.
  kStepPerLaneOperand = 1,
  // A raw PTX shfl.sync: args.c was given directly, not built from args.width.
  kStepRawOperandC = 2,
};

// Arguments of a step, as the source gave them (before any 5-bit truncation).
struct OpArgs {
  int64_t b = 0;        // delta / srcLane / laneMask
  int32_t width = 32;   // shuffle width (any value: invalid widths follow the PTX formula)
  uint32_t c = 0;       // the shfl.sync c operand built from width, as the CUDA headers build it
};

// ---- watch steps --------------------------------------------------------------
// A watch step (WARPVIZ_WATCH(var)) records a variable of the kernel: each lane
// that is converged at the line (what __activemask() gives there) with its value
// in both `in` and `out`, the step's dtype the variable's type, and its mask the
// lanes that ran it. It is no instruction: nothing is exchanged.
//
// The variable's name travels in the step's args, whose operands a watch has no
// use for: the GPU recorder's buffer holds fixed-size step headers (b, width, c)
// and has no room for strings, and a name table would need the device to intern
// strings at run time. So a name is at most kWatchNameBytes printable ASCII
// bytes (checked at compile time by the macro), packed little-endian: bytes 0-7
// in b, 8-11 in width, 12-15 in c, NUL after the name.
constexpr int kWatchNameBytes = 16;

constexpr bool watch_name_char_ok(char ch) { return ch >= 0x20 && ch <= 0x7e; }

// A name WARPVIZ_WATCH can carry: 1 to kWatchNameBytes printable ASCII bytes.
constexpr bool watch_name_fits(const char* name, size_t length) {
  if (length == 0 || length > size_t(kWatchNameBytes)) return false;
  for (size_t i = 0; i < length; ++i)
    if (!watch_name_char_ok(name[i])) return false;
  return true;
}

// The args of a watch of `name` (watch_name_fits; longer names are cut).
constexpr OpArgs watch_name_args(const char* name, size_t length) {
  uint64_t b = 0;
  uint32_t width = 0, c = 0;
  for (size_t i = 0; i < length && i < size_t(kWatchNameBytes); ++i) {
    const uint64_t byte = uint8_t(name[i]);
    if (i < 8) b |= byte << (8 * i);
    else if (i < 12) width |= uint32_t(byte) << (8 * (i - 8));
    else c |= uint32_t(byte) << (8 * (i - 12));
  }
  OpArgs args;
  args.b = int64_t(b);
  args.width = int32_t(width);
  args.c = c;
  return args;
}

// The name a watch step's args carry ("" when they carry none). Stops at the
// first NUL; see watch_args_valid for what a file may hold.
std::string watch_name(const OpArgs& args);
// Args that watch_name_args could have made: a name that fits, NUL after it.
bool watch_args_valid(const OpArgs& args);

struct TraceStep {
  uint32_t block = 0;   // linear block index
  uint32_t warp = 0;    // warp index within the block
  uint32_t seq = 0;     // order of this step within its warp
  uint32_t line = 0;    // source line of the op in the trace's kernel source
  uint32_t mask = 0;    // member mask the op was called with
  Op op = Op::ShflIdx;
  DType dtype = DType::I32;  // type of in/out values ("out" of votes/match is u32)
  uint8_t step_flags = 0;    // StepFlag bits
  uint8_t reserved = 0;
  OpArgs args;
  LaneRecord lanes[kWarpSize];
};

}  // namespace warpviz

#include "warpviz/trace_steps.h"  // TraceSteps, which needs TraceStep above

namespace warpviz {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  // As CUDA's dim3: `Dim3(256)` is 256 x 1 x 1.
  constexpr Dim3() = default;
  constexpr Dim3(uint32_t x_, uint32_t y_ = 1, uint32_t z_ = 1) : x(x_), y(y_), z(z_) {}
  uint64_t count() const { return uint64_t(x) * y * z; }
  bool operator==(const Dim3& o) const { return x == o.x && y == o.y && z == o.z; }
};

struct TraceOutput {
  std::string name;
  DType dtype = DType::F32;
  std::vector<uint64_t> bits;  // one entry per element
};

struct TraceMeta {
  std::string scenario;
  std::map<std::string, std::string> params;  // every parameter, defaults included
  DType dtype = DType::F32;
  std::string input_spec;                     // as given: "iota", "random:7", ...
  Dim3 grid, block;
  std::string backend;                        // "cpu" or "cuda"
  std::string device;                         // "CPU emulator" or the GPU's name
  std::string compute_capability;             // "9.0"; the emulated target for cpu
  std::string tool_version;
  std::string source_path;                    // kernel source, relative to the repository
  std::string source_text;
  // Figures measured on a GPU beside the recording (bank scenarios), by name:
  //   "latency_cycles"     clock64 cycles per access: one warp, repeated dependent accesses
  //   "throughput_cycles"  SM cycles per warp-access with every SM full of warps
  //   "ncu.<metric>"       an Nsight Compute counter, summed over the kernel's launch
  // Empty for the CPU emulator. Not part of a diff of steps.
  std::map<std::string, double> measurements;
};

struct Trace {
  TraceMeta meta;
  TraceSteps steps;                 // ordered by block, warp, seq; held encoded (trace_steps.h)
  std::vector<TraceOutput> outputs; // the main one is "out"
  bool overflow = false;            // the recorder ran out of room; steps are a prefix

  const TraceOutput* output(const std::string& name) const {
    for (const auto& o : outputs)
      if (o.name == name) return &o;
    return nullptr;
  }
};

}  // namespace warpviz
