// The GPU recorder's buffer layout, shared by device code (nvcc) and the host
// code that sizes it and turns it into a Trace. Plain structs only.
//
// Every recorded warp owns `steps_per_warp` step slots. A step's lanes are 32
// consecutive LaneRecords, each written by its own lane (coalesced); each
// group's lowest lane writes the header. A warp counts its own steps in shared
// memory (no global atomic round trip on the recording path) and publishes the
// count with a fire-and-forget atomicMax for the host.
#pragma once

#include <cstdint>

#include "warpviz/trace.h"

namespace warpviz {

struct DeviceStepHeader {
  uint32_t block = 0, warp = 0, line = 0, mask = 0;
  uint32_t active = 0;  // lanes that executed the op
  int64_t b = 0;
  int32_t width = 0;
  uint32_t c = 0;
  uint8_t op = 0, dtype = 0, step_flags = 0, reserved = 0;
};

struct DeviceRecorder {
  DeviceStepHeader* headers = nullptr;  // [recorded warps * steps_per_warp]
  LaneRecord* lanes = nullptr;          // [recorded warps * steps_per_warp * 32]
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
