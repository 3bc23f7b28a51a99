// What warpviz puts in front of a user's own .cu file on the CPU backend
// (g++ -include): the recording layer, the CUDA runtime API on the emulator,
// and the device-side built-ins a first warp kernel uses. A user file needs no
// include of its own; `#include "warpviz/record.cuh"`, <cuda_runtime.h> and
// <cooperative_groups.h> still work (they resolve to this).
//
// Built into a precompiled header at build time, so a user file compiles in a
// fraction of a second.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "warpviz/record.cuh"
#include "warpviz/user_runtime.h"
#include "warpviz/user_driver.h"  // here, so that it is precompiled too
// Last: it routes fminf/fmaxf/fmin/fmax to the GPU's rule by macro, after
// every standard header has declared the host's.
#include "warpviz/device_math.h"
#include "warpviz/simd_intrinsics.h"
#include "warpviz/removed_warp_intrinsics.h"
#include "warpviz/launch_dims.h"
// cudaLaunchKernel and cudaLaunchCooperativeKernel, for every file that
// includes cuda_runtime.h, not only those that include cooperative_groups.h.
#include "warpviz/cooperative_launch.h"

// Names a host variable may take too, as in CUDA (launch_dims.h). The headers
// above read the running thread's; they are the same for a whole launch.
#undef gridDim
#undef blockDim
#define gridDim warpviz_launch_grid_dim
#define blockDim warpviz_launch_block_dim

// ============================================================================
// Keywords the emulator has no use for
// ============================================================================

#define __constant__
#define __managed__
#define __launch_bounds__(...)
#define __grid_constant__

// The nvcc the H200 references were built with (13.0): code that picks the
// __shfl_*_sync path by `#if __CUDACC_VER_MAJOR__ >= 9` picks it here too.
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 0
// __CUDA_ARCH__, __CUDACC__ and CUDA's include guards are the runner's
// (nvcc_compile_model.cpp): 900 in a .cu file's device code, undefined in host
// code and .cpp files, as nvcc's two passes give.

// ============================================================================
// Device built-ins
// ============================================================================
#include "warpviz/atomics.h"

inline unsigned __lanemask_le() { return unsigned((2ull << ::warpviz::emu::current_thread().lane) - 1u); }
inline unsigned __lanemask_eq() { return 1u << ::warpviz::emu::current_thread().lane; }
inline unsigned __lanemask_gt() { return ~__lanemask_le(); }
inline unsigned __lanemask_ge() { return ~__lanemask_lt(); }

// cudaMalloc(&d_out, bytes) remembers the variable's name and type, so a
// whole program's arrays are recorded after each launch as `d_out`.
#define cudaMalloc(ptr, ...) ::warpviz::user::malloc_named(#ptr, __LINE__, ptr, __VA_ARGS__)
#define cudaMallocManaged(ptr, ...) ::warpviz::user::malloc_named(#ptr, __LINE__, ptr, __VA_ARGS__)

// Last: printf is a macro from here on (kernel printf in the GPU's order).
#include "warpviz/kernel_printf.h"
