// warpviz: on the CPU backend this CUDA header is the emulator's runtime and built-ins.
// The groups themselves are warpviz/cooperative_groups_rec.h (in the prelude);
// cudaLaunchCooperativeKernel and the occupancy queries are declared here.
#pragma once
#include "warpviz/user_prelude.h"
#include "warpviz/cooperative_launch.h"
