// Limits on what a trace file may hold: its size in bytes, its launch shape and
// its steps' places in that shape. Both readers apply the same rules.
#include <cstdlib>
#include <limits>
#include <string>

#include "trace_io_internal.h"
#include "warpviz/trace_io.h"

namespace warpviz {

std::optional<uint64_t> parse_byte_count(const std::string& text) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return std::nullopt;
  uint64_t n = 0;
  size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    const uint64_t digit = uint64_t(text[i] - '0');
    if (n > (std::numeric_limits<uint64_t>::max() - digit) / 10) return std::nullopt;
    n = n * 10 + digit;
  }
  int shift = 0;
  if (i < text.size()) {
    const std::string unit = text.substr(i);
    if (unit == "K" || unit == "k" || unit == "KiB") shift = 10;
    else if (unit == "M" || unit == "MiB") shift = 20;
    else if (unit == "G" || unit == "GiB") shift = 30;
    else if (unit == "T" || unit == "TiB") shift = 40;
    else return std::nullopt;
  }
  if (n == 0 || n > (std::numeric_limits<uint64_t>::max() >> shift)) return std::nullopt;
  return n << shift;
}

uint64_t max_trace_bytes() {
  const char* env = std::getenv(kMaxTraceBytesEnv);
  if (!env || !*env) return kDefaultMaxTraceBytes;
  const auto n = parse_byte_count(env);
  if (!n)
    throw TraceFileError(std::string(kMaxTraceBytesEnv) + "='" + env +
                         "' is not a byte count (e.g. 4096, 512M, 2G)");
  return *n;
}

namespace detail {

std::string launch_shape_problem(const Dim3& grid, const Dim3& block) {
  auto dims = [](const Dim3& d) {
    return "[" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + "]";
  };
  if (grid.x == 0 || grid.y == 0 || grid.z == 0) return "grid " + dims(grid) + " has a zero dimension";
  if (block.x == 0 || block.y == 0 || block.z == 0) return "block " + dims(block) + " has a zero dimension";
  // CUDA's limits (every compute capability warpviz knows).
  if (grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535)
    return "grid " + dims(grid) + " exceeds CUDA's limits (x < 2^31, y and z < 65536)";
  if (block.x > 1024 || block.y > 1024 || block.z > 64 || block.count() > 1024)
    return "block " + dims(block) + " exceeds CUDA's limits (1024 threads; z at most 64)";
  return "";
}

StepPlaceProblem step_place_problem(const TraceStep& step, const Dim3& grid, const Dim3& block) {
  StepPlaceProblem p;
  const uint64_t blocks = grid.count();
  const uint64_t warps = (block.count() + kWarpSize - 1) / kWarpSize;
  if (step.block >= blocks) {
    p.field = "block";
    p.why = std::to_string(step.block) + " is outside the grid's " + std::to_string(blocks) + " block" +
            (blocks == 1 ? "" : "s");
  } else if (step.warp >= warps) {
    p.field = "warp";
    p.why = std::to_string(step.warp) + " is outside the block's " + std::to_string(warps) + " warp" +
            (warps == 1 ? "" : "s");
  }
  return p;
}

}  // namespace detail

}  // namespace warpviz
