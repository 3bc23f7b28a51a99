// The host-side API scenario kernels use to get their input, launch and save
// outputs: host memory and the CPU emulator here; the GPU backend provides the
// same API over cudaMalloc and real launches.
#pragma once

#if defined(__CUDACC__)
#error "warpviz: the CUDA session (GPU recording) is not part of this build yet"
#else
#include "warpviz/host_session.h"
#endif
