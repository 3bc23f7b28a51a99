// The host-side API scenario kernels use to get their input, launch and save
// outputs: host memory and the CPU emulator here; the GPU backend provides the
// same API over cudaMalloc and real launches. With it comes the declaration a
// kernel file registers its scenarios with (scenario_decl.h).
#pragma once

#if defined(__CUDACC__)
#include "warpviz/cuda_session.h"
#else
#include "warpviz/host_session.h"
#endif
#include "warpviz/scenario_decl.h"
