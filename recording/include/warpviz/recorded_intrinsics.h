// The CUDA warp intrinsics' names, as macros onto warpviz::rec, so each call
// records the kernel source line it stands on. Shared by record_host.h (the
// emulator) and record_device.cuh (the GPU), which define warpviz::rec.
#pragma once

#include "warpviz/trace.h"  // watch_name_fits, watch_name_args

#define __shfl_sync(...) ::warpviz::rec::shfl_idx(__LINE__, __VA_ARGS__)
#define __shfl_up_sync(...) ::warpviz::rec::shfl_up(__LINE__, __VA_ARGS__)
#define __shfl_down_sync(...) ::warpviz::rec::shfl_down(__LINE__, __VA_ARGS__)
#define __shfl_xor_sync(...) ::warpviz::rec::shfl_xor(__LINE__, __VA_ARGS__)
#define __ballot_sync(...) ::warpviz::rec::ballot(__LINE__, __VA_ARGS__)
#define __any_sync(...) ::warpviz::rec::any(__LINE__, __VA_ARGS__)
#define __all_sync(...) ::warpviz::rec::all(__LINE__, __VA_ARGS__)
#define __activemask() ::warpviz::rec::activemask(__LINE__)
#define __match_any_sync(...) ::warpviz::rec::match_any(__LINE__, __VA_ARGS__)
#define __match_all_sync(...) ::warpviz::rec::match_all(__LINE__, __VA_ARGS__)
#define __reduce_add_sync(...) ::warpviz::rec::redux(::warpviz::Op::ReduxAdd, __LINE__, __VA_ARGS__)
#define __reduce_min_sync(...) ::warpviz::rec::redux(::warpviz::Op::ReduxMin, __LINE__, __VA_ARGS__)
#define __reduce_max_sync(...) ::warpviz::rec::redux(::warpviz::Op::ReduxMax, __LINE__, __VA_ARGS__)
#define __reduce_and_sync(mask, v) ::warpviz::rec::redux(::warpviz::Op::ReduxAnd, __LINE__, mask, unsigned(v))
#define __reduce_or_sync(mask, v) ::warpviz::rec::redux(::warpviz::Op::ReduxOr, __LINE__, mask, unsigned(v))
#define __reduce_xor_sync(mask, v) ::warpviz::rec::redux(::warpviz::Op::ReduxXor, __LINE__, mask, unsigned(v))
#define __syncwarp(...) ::warpviz::rec::syncwarp(__LINE__ __VA_OPT__(, ) __VA_ARGS__)

// Shared-memory accesses: `T v = WARPVIZ_LOAD(tile, tile[threadIdx.x][0]);`,
// `WARPVIZ_STORE(tile, tile[threadIdx.y][threadIdx.x], v);`. The address
// recorded is the element's byte offset from the start of the array.
#define WARPVIZ_LOAD(array, element) ::warpviz::rec::load_shared(__LINE__, array, element)
#define WARPVIZ_STORE(array, element, value) ::warpviz::rec::store_shared(__LINE__, array, element, value)

// A watched variable: `WARPVIZ_WATCH(val);` records `val` at this line in every
// lane converged here (the lanes __activemask() gives), with its name, as a
// "watch" step. It exchanges nothing and changes no value. The name is the
// argument's spelling, at most 16 printable ASCII characters (it travels in the
// step's fixed-size args: trace.h, "watch steps"). Integers, enums, bool and
// floating-point values of up to 8 bytes; narrower integers are widened to
// 32 bits as C++ promotes them.
#define WARPVIZ_WATCH(var)                                                                         \
  do {                                                                                             \
    static_assert(::warpviz::watch_name_fits(#var, sizeof(#var) - 1),                              \
                  "WARPVIZ_WATCH(" #var "): a watched name is 1 to 16 printable ASCII characters"); \
    ::warpviz::rec::watch(__LINE__, ::warpviz::watch_name_args(#var, sizeof(#var) - 1), (var));    \
  } while (0)
