// printf in a user's file, on the CPU backend: in a kernel its lines are held
// until the warp syncs and then written in the GPU's order (lane 0 to 31,
// statement by statement: warpviz/lane_output_buffer.h); in host code it is
// the C library's printf.
//
// A function-like macro, so `printf(...)`, `std::printf(...)` and
// `::printf(...)` all reach it while `&printf` stays the library's. Last in
// the prelude: the standard headers have declared the real one by then.
#pragma once

#include <cstdio>

// CUDA Programming Guide, "Formatted Output": in device code printf returns
// the number of arguments parsed (0 with none), -1 for a null format.
int warpviz_printf(const char* format, ...) __attribute__((format(printf, 1, 2)));
namespace std {
using ::warpviz_printf;
}
#define printf(...) warpviz_printf(__VA_ARGS__)
