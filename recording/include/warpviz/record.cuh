// warpviz recording layer: include this first in a kernel source.
//
// Under nvcc the warp intrinsics run on the GPU, and each call made by a warp
// that a recorder chose is also written, lane by lane, into a device trace
// buffer (record_device.cuh). Under a host compiler the same source runs in
// warpviz's exact CPU emulator: every CUDA thread is a fiber, and each
// __shfl_*_sync / __ballot_sync / ... brings its warp together and is recorded
// lane by lane (record_host.h).
//
// Kernels that want bit-exact floats on both backends are templates over the
// value type and are instantiated with warpviz::device_f32 / device_f64: plain
// float/double on the GPU, GPU-exact GpuFloat/GpuDouble on the CPU.
#pragma once

#if defined(__CUDACC__)
#include "warpviz/record_device.cuh"
#else
#include "warpviz/record_host.h"
#endif
