// warpviz: on the CPU backend this CUDA header is the emulator's warp matrix API (wmma_fragment.h).
#pragma once
#include "warpviz/user_prelude.h"
#include "warpviz/wmma_fragment.h"
