// warpviz: the pre-NVTX3 include path; the same API.
#pragma once
#include "nvtx3/nvToolsExtCuda.h"
