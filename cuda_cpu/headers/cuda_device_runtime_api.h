// warpviz: on the CPU backend this CUDA header is the emulator's runtime and built-ins.
#pragma once
#include "warpviz/user_prelude.h"
