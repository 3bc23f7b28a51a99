// warpviz: on the CPU backend this CUDA header is the emulator's runtime and built-ins.
#pragma once
#include "warpviz/user_prelude.h"
// CUDA's own include guards: code tests them to know the runtime is declared.
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__
#endif
#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__
#endif
#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__
#endif
