// Math and integer intrinsics, GPU min/max rules, vector types and the CUDA
// headers real code includes: one line per case, "name value" in hex.
#include <cuda_profiler_api.h>
#include <device_functions.h>
#include <math_constants.h>
#include <vector_types.h>
#include <cmath>
#include <cstdio>

__device__ float f(unsigned bits) { return __uint_as_float(bits); }
__device__ void put(const char* name, unsigned long long bits) { printf("%s %llx\n", name, bits); }
__device__ void put_f(const char* name, float v) { put(name, __float_as_uint(v)); }

__global__ void cases(const float* zeros) {
  const float pz = zeros[0], nz = -zeros[0], nan = f(0x7fc00000), nan2 = f(0x7fa00001);
  put("brevll", __brevll(0x0123456789abcdefull));
  put("popcll", __popcll(~0ull));
  put("clzll_0", __clzll(0));
  put("clzll_1", __clzll(1));
  put("ffsll_0", __ffsll(0));
  put("ffsll_256", __ffsll(0x100));
  put("umulhi", __umulhi(0xffffffffu, 0xffffffffu));
  put("mulhi", unsigned(__mulhi(-1, 1)));
  put("mul24", unsigned(__mul24(0x00ffffff, 2)));
  put("umul24", __umul24(0x01000003u, 5u));
  put("sad", __sad(-3, 4, 10u));
  put("byte_perm", __byte_perm(0x33221100u, 0x77665544u, 0x0123u));
  put("byte_perm_y", __byte_perm(0x33221100u, 0x77665544u, 0x7654u));
  put("funnelshift_l", __funnelshift_l(0x80000000u, 1u, 1u));
  put("funnelshift_lc", __funnelshift_lc(0x80000000u, 1u, 40u));
  put("funnelshift_r", __funnelshift_r(3u, 1u, 4u));
  put("funnelshift_rc", __funnelshift_rc(3u, 1u, 33u));
  put("hadd_int_max", unsigned(__hadd(0x7fffffff, 0x7fffffff)));
  put("hadd_neg", unsigned(__hadd(-1, -2)));
  put("rhadd", unsigned(__rhadd(1, 2)));
  put("dp4a_u", __dp4a(0x01020304u, 0x01010101u, 10u));
  put("dp4a_s", unsigned(__dp4a(0xff, 0x02, 0)));
  put("dp2a_lo_u", __dp2a_lo(0x00030002u, 0x11110504u, 1u));
  put("dp2a_hi_s", unsigned(__dp2a_hi(int(0xfffe0003), int(0x02ff1111), 0)));
  put("vadd4", __vadd4(0x01020304u, 0xff010101u));
  put("vaddss2", __vaddss2(0x7fff8000u, 0x00010001u));
  put("vsubus4", __vsubus4(0x10051005u, 0x20012001u));
  put("vabsdiffu4", __vabsdiffu4(0x10203040u, 0x40302010u));
  put("vsads2", __vsads2(0x0001ffffu, 0xffff0001u));
  put("vcmpgts4", __vcmpgts4(0x7f80017fu, 0x80017f00u));
  put("vsetltu2", __vsetltu2(0x0001ffffu, 0xffff0001u));
  put("vnegss2", __vnegss2(0x80000001u));
  put("vhaddu4", __vhaddu4(0xff0301ffu, 0x01010201u));
  const long long before = clock64();
  put("clock64_counts_up", clock64() >= before);
  put("f2i_rn_tie", unsigned(__float2int_rn(2.5f)));
  put("f2i_rn_tie_up", unsigned(__float2int_rn(3.5f)));
  put("f2i_rd", unsigned(__float2int_rd(-1.5f)));
  put("f2i_ru", unsigned(__float2int_ru(-1.5f)));
  put("f2i_saturate", unsigned(__float2int_rz(3e9f)));
  put("f2i_nan", unsigned(__float2int_rz(nan)));
  put("f2u_negative", __float2uint_rz(-1.0f));
  put("f2ll_saturate", (unsigned long long)__float2ll_rz(1e20f));
  put_f("fadd_rn_tie", __fadd_rn(1.0f, f(0x33800000)));
  put_f("fadd_ru", __fadd_ru(1.0f, f(0x33800000)));
  put_f("fadd_rz", __fadd_rz(1.0f, f(0x33800000)));
  put_f("fadd_rd_neg", __fadd_rd(-1.0f, f(0xb3800000)));
  put_f("fmul_ru", __fmul_ru(f(0x3f800001), f(0x3f800001)));
  put_f("fmul_rn", __fmul_rn(f(0x3f800001), f(0x3f800001)));
  put_f("fdiv_rd", __fdiv_rd(1.0f, 3.0f));
  put_f("frcp_ru", __frcp_ru(3.0f));
  put_f("fsqrt_rd", __fsqrt_rd(2.0f));
  put_f("fsqrt_ru", __fsqrt_ru(2.0f));
  put_f("fdividef_huge", __fdividef(1.0f, f(0x7f000000)));  // 2^127
  put_f("fdividef", __fdividef(6.0f, 3.0f));
  put_f("rsqrtf_4", rsqrtf(4.0f));
  put_f("saturatef", __saturatef(nan));
  put_f("fmaxf_nz_pz", fmaxf(nz, pz));
  put_f("fmaxf_pz_nz", fmaxf(pz, nz));
  put_f("fminf_pz_nz", fminf(pz, nz));
  put_f("fminf_nan_nan", fminf(nan, nan2));
  put_f("fmaxf_nan_ninf", fmaxf(nan, f(0xff800000)));
  put_f("std_fmaxf", std::fmaxf(nz, pz));
  put_f("max_float", max(nz, pz));
  put("fmax_double", __double_as_longlong(fmax(-0.0 * zeros[1], 0.0 * zeros[1])));
  put("min_mixed", min(-1, 1u));
  put("max_long", (unsigned long long)max(long(-5), long(3)));
  put("double_hi", unsigned(__double2hiint(1.0)));
  put("pi_f", __float_as_uint(CUDART_PI_F));
  put("inf_f", __float_as_uint(CUDART_INF_F));
  put("cudacc_ver", __CUDACC_VER_MAJOR__ >= 9);
#if __CUDA_ARCH__ >= 900
  put("cuda_arch", __CUDA_ARCH__);
#endif
  put("align_float4", sizeof(float4) * 100 + alignof(float4));
  put("align_float3", sizeof(float3) * 100 + alignof(float3));
  put("align_longlong2", sizeof(longlong2) * 100 + alignof(longlong2));
  put("align_char3", sizeof(char3) * 100 + alignof(char3));
  put("align_short4", sizeof(short4) * 100 + alignof(short4));
  put("align_double4", sizeof(double4) * 100 + alignof(double4));
  put("align_uchar4", sizeof(uchar4) * 100 + alignof(uchar4));
  put("make_float4_w", __float_as_uint(make_float4(1, 2, 3, 4).w));
  float4 sum4 = make_float4(1, 2, 3, 4);
  const float4 old4 = atomicAdd(&sum4, make_float4(10, 20, 30, 40));
  put("atomic_float4", __float_as_uint(sum4.w) + __float_as_uint(old4.w));
  // The scoped forms (sm_60+) do what the device-scope ones do.
  int counter = 5;
  const int old_block = atomicAdd_block(&counter, 3);
  const int old_system = atomicMax_system(&counter, 20);
  unsigned ticket = 7;
  const unsigned old_cas = atomicCAS_block(&ticket, 7u, 9u);
  put("atomic_scoped", unsigned(old_block * 10000 + old_system * 100 + counter) + (old_cas + ticket) * 1000000u);
}

// bool and __half ride the shuffles as CUDA's int overload carries them.
__global__ void shuffles(int* out) {
  const unsigned lane = threadIdx.x;
  const bool odd = lane & 1;
  out[lane] = __shfl_sync(0xffffffffu, odd, lane ^ 1);
  const short s = -short(lane);
  out[32 + lane] = __shfl_down_sync(0xffffffffu, s, 1);
}

int main() {
  float* zeros;
  cudaMalloc(&zeros, 2 * sizeof(float));
  cudaMemset(zeros, 0, 2 * sizeof(float));
  cudaProfilerStart();
  cases<<<1, 1>>>(zeros);
  cudaProfilerStop();
  int* out;
  cudaMalloc(&out, 64 * sizeof(int));
  shuffles<<<1, 32>>>(out);
  int host[64];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; ++i) printf("shfl%d %x\n", i, unsigned(host[i]));
  return 0;
}
