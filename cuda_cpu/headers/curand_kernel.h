// warpviz: cuRAND's device API on the CPU backend (warpviz/curand_device.h);
// as CUDA's curand_kernel.h does, it brings the host API (curand.h) too.
#pragma once
#include "warpviz/user_prelude.h"
#include "curand.h"
#include "warpviz/curand_device.h"
