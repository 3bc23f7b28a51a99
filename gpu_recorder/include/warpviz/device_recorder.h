// The GPU recorder's buffer layout, shared by device code (nvcc) and the host
// code that sizes it and turns it into a Trace. Plain structs only; the format
// is described in docs/gpu-recorder.md.
//
// Every recorded warp owns `steps_per_warp` step slots. A slot is one
// DeviceStepHeader, written once by the lowest lane of the group that ran the
// op, and kDeviceRowsPerStep rows of 32 words, one 4-byte word per lane, so
// that a row the 32 lanes write is 128 contiguous bytes (one coalesced store):
//
//   row 0  in, low 32 bits     every step
//   row 1  out, low 32 bits    every step
//   row 2  addr                a shared step's byte offset, or a shuffle's b
//                              when it differs by lane (kRowAddr)
//   row 3  in, high 32 bits    only when some lane's in or out has high bits
//   row 4  out, high 32 bits   (64-bit values; kRowsHigh)
//
// Everything else a LaneRecord holds is the same for the whole step or a bit
// per lane, and lives in the header: the lanes that ran (active), kLaneOk (a
// ballot of the op's predicate), the source lane of a shuffle (five ballots of
// the lane id the hardware shuffled, one per bit; or, when the hardware's
// answer is the rule's in every lane, one flag: kSrcByRule) and a shared
// step's width.
// So a lane writes 8 bytes for a 32-bit step, 12 with an address, 16 or 20 for
// 64-bit values; a step adds one 64-byte header.
//
// A warp counts its own steps in shared memory (no global atomic round trip on
// the recording path) and publishes the count with a fire-and-forget atomicMax
// for the host. A step whose number is past the warp's slots is not written.
#pragma once

#include <cstddef>
#include <cstdint>

#include "warpviz/trace.h"

namespace warpviz {

constexpr int kDeviceRowsPerStep = 5;
constexpr int kRowIn = 0, kRowOut = 1, kRowAddr = 2, kRowInHigh = 3, kRowOutHigh = 4;

// DeviceStepHeader::rows: which of the optional rows the step wrote.
enum DeviceRowFlag : uint8_t {
  kRowsAddr = 1,  // row 2
  kRowsHigh = 2,  // rows 3 and 4
  // Not a row: a shuffle whose every lane read the lane, with the predicate,
  // that PTX's lane selection (shfl_select.h) names, as the device checked.
  // Its src_bits and ok are left 0; the host computes them by the rule.
  kSrcByRule = 4,
};

struct alignas(16) DeviceStepHeader {
  uint32_t block = 0, line = 0, mask = 0;
  uint32_t active = 0;       // lanes that executed the op
  uint32_t ok = 0;           // lanes whose predicate was true (shuffles' p, match_all's pred)
  uint32_t src_bits[5] = {}; // shuffles: bit k of lane L's source lane is bit L of src_bits[k]
  int64_t b = 0;
  int32_t width = 0;
  uint32_t c = 0;
  uint8_t warp = 0, op = 0, dtype = 0, step_flags = 0;
  uint8_t bytes = 0;         // shared steps: the access width (every lane's LaneRecord::bytes)
  uint8_t rows = 0;          // DeviceRowFlag bits
  uint8_t reserved[2] = {};
};
static_assert(sizeof(DeviceStepHeader) == 64, "one header is four 16-byte stores");

// Bytes a step of this header wrote into the buffer: the header and its rows.
inline uint64_t device_step_bytes(uint8_t rows) {
  int written = 2;  // in and out
  if (rows & kRowsAddr) written += 1;
  if (rows & kRowsHigh) written += 2;
  return sizeof(DeviceStepHeader) + uint64_t(written) * kWarpSize * sizeof(uint32_t);
}

struct DeviceRecorder {
  DeviceStepHeader* headers = nullptr;  // [recorded warps * steps_per_warp]
  uint32_t* rows = nullptr;             // [recorded warps * steps_per_warp * kDeviceRowsPerStep * 32]
  uint32_t* step_counts = nullptr;      // [recorded warps]: steps each warp tried to record
  uint32_t steps_per_warp = 0;
  uint32_t enabled = 0;                 // 0: every warp runs unrecorded
  uint32_t block_begin = 0, block_end = 0;  // recorded blocks [begin, end)
  uint32_t warp_mask = 0xffffffffu;     // recorded warps of a block (bit per warp index < 32)
  uint32_t warp_stride_shift = 0;       // of those, every (1 << shift)-th global warp
  uint32_t warps_per_block = 1;
  uint32_t launch_tag = 0;              // set per launch by warpviz_attach_recorder: tells this
                                        // launch's shared-memory step counters from stale ones
};

}  // namespace warpviz
