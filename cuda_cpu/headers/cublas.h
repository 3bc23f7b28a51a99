// warpviz: cuBLAS on the CPU backend; this project offers the v2 API only
// (cublas_v2.h), the one that takes a handle.
#pragma once
#include "cublas_v2.h"
