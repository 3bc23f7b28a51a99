// Why an sm_90 GPU refuses a launch (user_launch.h). Both kits link it: the
// CPU runtime checks every launch with it, and a kernels-only program's
// driver (user_driver.h) checks its request before either backend runs it.
#include <cstdio>
#include <string>

#include "warpviz/user_launch.h"

namespace warpviz::user {

std::string launch_config_error(Dim3 grid, Dim3 block, size_t shared_bytes) {
  char dims[160];
  std::snprintf(dims, sizeof dims, "grid (%u,%u,%u), block (%u,%u,%u)", grid.x, grid.y, grid.z, block.x, block.y,
                block.z);
  const std::string config = "cudaErrorInvalidConfiguration: invalid configuration argument (";
  // Each dimension first: their product may not even fit 64 bits.
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
    return config + dims + ": a dimension is 0)";
  if (block.x > 1024 || block.y > 1024 || block.z > 64 || block.count() > 1024)
    return config + dims + ": sm_90 allows at most 1024 threads a block, 1024 x 1024 x 64)";
  if (grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535)
    return config + dims + ": sm_90 allows a grid of at most 2147483647 x 65535 x 65535 blocks)";
  if (shared_bytes > kMaxDynamicSharedBytes)
    return "cudaErrorInvalidValue: invalid argument (" + std::to_string(shared_bytes) +
           " bytes of dynamic shared memory; sm_90 allows at most " + std::to_string(kMaxDynamicSharedBytes) +
           " a block, with the opt-in)";
  return "";
}

}  // namespace warpviz::user
