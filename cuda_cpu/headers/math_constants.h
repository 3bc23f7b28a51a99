// warpviz: CUDA's math_constants.h names, as the nearest float/double to each
// constant (the values CUDA's own spellings round to).
#pragma once
#include "warpviz/user_prelude.h"

#define CUDART_INF_F __int_as_float(0x7f800000)
#define CUDART_NAN_F __int_as_float(0x7fffffff)
#define CUDART_MIN_DENORM_F __int_as_float(0x00000001)
#define CUDART_MAX_NORMAL_F __int_as_float(0x7f7fffff)
#define CUDART_NEG_ZERO_F __int_as_float(0x80000000)
#define CUDART_ZERO_F 0.0f
#define CUDART_ONE_F 1.0f
#define CUDART_SQRT_HALF_F float(M_SQRT1_2)
#define CUDART_SQRT_2_F float(M_SQRT2)
#define CUDART_PI_F float(M_PI)
#define CUDART_PIO2_F float(M_PI_2)
#define CUDART_PIO4_F float(M_PI_4)
#define CUDART_2_OVER_PI_F float(M_2_PI)
#define CUDART_L2E_F float(M_LOG2E)
#define CUDART_L2T_F float(3.32192809488736234787)
#define CUDART_LG2_F float(0.30102999566398119521)
#define CUDART_LGE_F float(M_LOG10E)
#define CUDART_LN2_F float(M_LN2)
#define CUDART_LNT_F float(M_LN10)
#define CUDART_INF __longlong_as_double(0x7ff0000000000000LL)
#define CUDART_NAN __longlong_as_double(0xfff8000000000000LL)
#define CUDART_NEG_ZERO __longlong_as_double(static_cast<long long>(0x8000000000000000ULL))
#define CUDART_MIN_DENORM __longlong_as_double(0x0000000000000001LL)
#define CUDART_ZERO 0.0
#define CUDART_ONE 1.0
#define CUDART_SQRT_HALF M_SQRT1_2
#define CUDART_SQRT_2 M_SQRT2
#define CUDART_PI M_PI
#define CUDART_PIO2 M_PI_2
#define CUDART_PIO4 M_PI_4
#define CUDART_2_OVER_PI M_2_PI
#define CUDART_L2E M_LOG2E
#define CUDART_LN2 M_LN2
#define CUDART_LNT M_LN10
