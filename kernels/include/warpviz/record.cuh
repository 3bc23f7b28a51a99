// warpviz recording layer: include this first in a kernel source.
//
// Under nvcc the warp intrinsics run on the GPU (recording into a device trace
// buffer is the GPU backend's job). Under a host compiler the same source runs
// in warpviz's exact CPU emulator: every CUDA thread is a fiber, and each
// __shfl_*_sync / __ballot_sync / ... brings its warp together and is recorded
// lane by lane.
//
// Kernels that want bit-exact floats on both backends are templates over the
// value type and are instantiated with warpviz::device_f32 / device_f64: plain
// float/double on the GPU, GPU-exact GpuFloat/GpuDouble on the CPU.
#pragma once

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace warpviz {
using device_f32 = float;
using device_f64 = double;
}  // namespace warpviz
#else
#include "warpviz/record_host.h"
#endif
