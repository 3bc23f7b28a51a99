// warpviz: the pre-NVTX3 include path (-lnvToolsExt); the same API.
#pragma once
#include "nvtx3/nvToolsExt.h"
