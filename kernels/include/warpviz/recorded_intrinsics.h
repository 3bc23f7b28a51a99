// The CUDA warp intrinsics' names, as macros onto warpviz::rec, so each call
// records the kernel source line it stands on. Shared by record_host.h (the
// emulator) and record_device.cuh (the GPU), which define warpviz::rec.
#pragma once

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
