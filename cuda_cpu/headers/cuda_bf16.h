// warpviz: on the CPU backend this CUDA header is the emulator's 16-bit floats (half_types.h).
#pragma once
#include "warpviz/user_prelude.h"
#include "warpviz/half_types.h"
