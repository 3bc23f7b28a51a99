// gridDim and blockDim of a user's file on the CPU backend. In CUDA they are
// built-in variables, not macros, so host code may name a variable of its
// own after them (`dim3 blockDim(16, 16); kernel<<<gridDim, blockDim>>>()`),
// which a macro that expands to an expression cannot allow. Every thread of
// a launch shares them, and a user's program runs one launch at a time on one
// OS thread (user_runtime_cpu.cpp sets them before its blocks run), so here
// they are read-only views of two variables: a local of the same name
// shadows them as it would shadow CUDA's.
#pragma once

#include "warpviz/trace.h"

namespace warpviz::user {
inline Dim3 running_grid_dim, running_block_dim;
}  // namespace warpviz::user

inline const warpviz::Dim3& warpviz_launch_grid_dim = warpviz::user::running_grid_dim;
inline const warpviz::Dim3& warpviz_launch_block_dim = warpviz::user::running_block_dim;
