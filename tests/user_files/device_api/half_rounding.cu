// 16-bit floats through cuda_fp16.h and cuda_bf16.h: one line per case,
// "name bits" in hex (test_device_api.cpp knows each expected value).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstring>

__device__ float f(unsigned bits) { return __uint_as_float(bits); }
__device__ __half h(unsigned short bits) { return __ushort_as_half(bits); }
__device__ __nv_bfloat16 b(unsigned short bits) { return __ushort_as_bfloat16(bits); }
__device__ void put(const char* name, unsigned bits) { printf("%s %x\n", name, bits); }
__device__ void put_h(const char* name, __half v) { put(name, __half_as_ushort(v)); }
__device__ void put_b(const char* name, __nv_bfloat16 v) { put(name, __bfloat16_as_ushort(v)); }

__global__ void cases() {
  // float -> half, nearest even
  put_h("h_one", __float2half(1.0f));
  put_h("h_tie_even_down", __float2half(f(0x3f801000)));  // 1 + 2^-11
  put_h("h_tie_even_up", __float2half(f(0x3f803000)));    // 1 + 3 * 2^-11
  put_h("h_max", __float2half(65504.0f));
  put_h("h_below_overflow_tie", __float2half(f(0x477fefff)));
  put_h("h_overflow_tie", __float2half(65520.0f));
  put_h("h_overflow_rz", __float2half_rz(1e10f));
  put_h("h_overflow_rn", __float2half_rn(1e10f));
  put_h("h_min_subnormal", __float2half(f(0x33800000)));  // 2^-24
  put_h("h_subnormal_tie", __float2half(f(0x33000000)));  // 2^-25
  put_h("h_subnormal_up", __float2half(f(0x33400000)));   // 3 * 2^-26
  put_h("h_min_normal", __float2half(f(0x38800000)));     // 2^-14
  put_h("h_neg_subnormal", __float2half(f(0xb3800000)));
  put_h("h_neg_zero", __float2half(-0.0f));
  put_h("h_nan", __float2half(f(0x7fc00000)));
  put_h("h_inf", __float2half(f(0xff800000)));
  put_h("h_rd", __float2half_rd(f(0x3f801001)));
  put_h("h_ru", __float2half_ru(f(0x3f800001)));
  // half -> float, exact
  put("h2f_subnormal", __float_as_uint(__half2float(h(0x0001))));
  put("h2f_max", __float_as_uint(__half2float(h(0x7bff))));
  put("h2f_neg_inf", __float_as_uint(__half2float(h(0xfc00))));
  // half arithmetic: one rounding each
  put_h("hadd_tie", __hadd(h(0x3c00), h(0x1000)));  // 1 + 2^-11
  put_h("hadd_tie_up", __hadd(h(0x3c01), h(0x1000)));
  put_h("hmul", __hmul(h(0x3c01), h(0x3c01)));     // 1 + 2^-9 + 2^-20
  put_h("hfma_exact", __hfma(h(0x3c01), h(0x3c01), h(0xbc02)));  // 2^-20
  put_h("hadd_overflow", __hadd(h(0x7bff), h(0x7bff)));
  put_h("hmul_underflow", __hmul(h(0x0400), h(0x0400)));
  put_h("hadd_nan", __hadd(h(0x7c00), h(0xfc00)));
  put_h("hmax_zeros", __hmax(h(0x8000), h(0x0000)));
  put_h("hmin_zeros", __hmin(h(0x0000), h(0x8000)));
  put_h("hmax_nan", __hmax(h(0x7e00), h(0x3c00)));
  put_h("operators", h(0x3c00) * h(0x4000) + h(0x3c00));  // 1*2+1 = 3
  put("hlt_nan", __hlt(h(0x7e00), h(0x3c00)));
  put("hne_nan_operator", h(0x7e00) != h(0x7e00));
  // bfloat16
  put_b("b_one", __float2bfloat16(1.0f));
  put_b("b_tie_even_down", __float2bfloat16(f(0x3f808000)));
  put_b("b_tie_even_up", __float2bfloat16(f(0x3f818000)));
  put_b("b_above_tie", __float2bfloat16(f(0x3f808001)));
  put_b("b_overflow", __float2bfloat16(f(0x7f7fffff)));
  put_b("b_overflow_rz", __float2bfloat16_rz(f(0x7f7fffff)));
  put_b("b_nan", __float2bfloat16(f(0xffc00001)));
  put_b("b_subnormal_tie", __float2bfloat16(f(0x00008000)));
  put_b("b_subnormal_tie_up", __float2bfloat16(f(0x00018000)));
  put_b("badd_tie", __hadd(b(0x3f80), b(0x3b80)));  // 1 + 2^-8
  put_b("bmul", __hmul(b(0x3f81), b(0x3f81)));      // 1 + 2^-6 + 2^-14
  put("b2f", __float_as_uint(__bfloat162float(b(0x4049))));
  __nv_bfloat162 pair = __halves2bfloat162(b(0x3f80), b(0x4000));
  put("bpair_sum_low", __bfloat16_as_ushort(__low2bfloat16(pair + pair)));
  put("bpair_sum_high", __bfloat16_as_ushort(__high2bfloat16(pair + pair)));
  __half acc = h(0x3c00);
  atomicAdd(&acc, h(0x3c00));  // the generic atomicAdd with __half's +
  put_h("atomic_add_half", acc);
  __half2 shuffled = __shfl_xor_sync(0xffffffffu, make_half2(h(0x3c00), h(0x4000)), 0);
  put("shfl_half2", __half_as_ushort(shuffled.x) | (unsigned(__half_as_ushort(shuffled.y)) << 16));
  put("sizes", unsigned(sizeof(__half) * 100 + sizeof(__half2) * 10 + alignof(__nv_bfloat162)));
}

int main() {
  cases<<<1, 1>>>();
  cudaDeviceSynchronize();
  return 0;
}
