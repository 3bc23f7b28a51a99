// Shared by the trace readers and writers inside warpviz_core; not installed.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "warpviz/trace.h"

namespace warpviz::detail {

// Little-endian stores and loads of the binary form, byte by byte (no
// struct dumps, so nothing depends on the host's byte order); GCC merges the
// shifts into single loads and stores on little-endian hosts.
inline void store_u32(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v);
  p[1] = uint8_t(v >> 8);
  p[2] = uint8_t(v >> 16);
  p[3] = uint8_t(v >> 24);
}
inline void store_u64(uint8_t* p, uint64_t v) {
  store_u32(p, uint32_t(v));
  store_u32(p + 4, uint32_t(v >> 32));
}
inline uint32_t load_u32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
inline uint64_t load_u64(const uint8_t* p) { return uint64_t(load_u32(p)) | uint64_t(load_u32(p + 4)) << 32; }
inline bool fits_u32(uint64_t v) { return (v >> 32) == 0; }

// The binary form in memory (write_trace_binary writes exactly these bytes).
std::vector<uint8_t> trace_binary_bytes(const Trace& trace);
// Parses the binary form from bytes already read (load_trace reads once, sniffs,
// then parses without a second read). The trace's steps keep the bytes
// (TraceSteps::adopt): its steps are not copied out of them.
//
// `known_checksum`: the XXH3-64 of the first `body_end` bytes, worked out by
// the caller as it read them (load_trace hashes each chunk while it is still in
// the cache); used when the file's body ends there, else the body is hashed here.
struct BodyChecksum {
  size_t body_end = 0;
  uint64_t xxh3 = 0;
};
Trace read_trace_binary_bytes(std::string&& bytes, const std::string& name,
                              std::optional<BodyChecksum> known_checksum = std::nullopt);

// The two JSON readers behind trace_from_json (trace_json.cpp): the fast one
// fills steps from SAX events and gives up (nullopt) wherever it is unsure;
// the other reads each step through nlohmann's document and names every
// problem. Where the fast one returns a trace, the other returns the same.
// Both throw TraceFileError, the fast one only for what the other would say
// too (invalid JSON, the checks after the parse); nlohmann's own exceptions
// may pass through both (trace_from_json turns them into TraceFileError).
std::optional<Trace> read_trace_json_fast(const std::string& text, const std::string& name);
Trace read_trace_json_by_document(const std::string& text, const std::string& name);

// Asks the kernel to back a big buffer about to be filled with huge pages:
// filling a trace's hundreds of MB page by page costs a fault per 4 KiB, and
// on a virtual machine a fault is slow. A hint; nothing changes where it is
// not supported.
void advise_huge_pages(const void* data, size_t bytes);

// Faults in a big buffer about to be filled, on a thread of its own, from the
// end back in 4 MiB chunks, while the caller fills it from the start: the
// kernel zeroes each fresh page at its first touch, and on a big .wvt load that
// zeroing was 61% of the profile against 16% for the parse. Split over two
// cores, a 76 MB load took 0.059-0.081 s instead of 0.075-0.095 s (load average
// 3 on this 2-core machine; at load 8, with no core idle, it made no
// difference). A hint: nothing happens where MADV_POPULATE_WRITE or a thread
// is not to be had, or for a buffer under 16 MiB. Stops after its current chunk
// and is joined when it goes away, so it must go before the buffer does (or
// moves).
class PageFaulter {
 public:
  PageFaulter(void* data, size_t bytes);
  ~PageFaulter();
  PageFaulter(const PageFaulter&) = delete;
  PageFaulter& operator=(const PageFaulter&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::thread worker_;
};

// Why a launch shape cannot be a CUDA launch ("" when it can): every dimension at
// least 1; block at most 1024 threads (x, y <= 1024, z <= 64); grid x < 2^31,
// y and z < 65536. A trace claiming more is damaged, and the views would size
// things by it.
std::string launch_shape_problem(const Dim3& grid, const Dim3& block);

// Where a step's recorded place does not fit the trace's own launch: its block
// outside the grid or its warp outside the block. Traces of big grids record only
// some blocks, so only the numbers are checked, not which blocks are present.
struct StepPlaceProblem {
  const char* field = nullptr;  // "block" or "warp"; nullptr: no problem
  std::string why;              // "5 is outside the grid's 2 blocks"
};
StepPlaceProblem step_place_problem(const TraceStep& step, const Dim3& grid, const Dim3& block);

// A lane's source lane is -1 (none) or a lane of the warp.
inline bool valid_src_lane(int src) { return src >= -1 && src < kWarpSize; }

}  // namespace warpviz::detail
