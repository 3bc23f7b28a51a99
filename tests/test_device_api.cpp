// The device-side CUDA API a user's file calls (device_math.h, half_types.h,
// vector_types.h, the shim headers): small files under user_files/device_api
// print "name value" lines, and each value is checked against what CUDA's
// documentation defines or what the H200 measured
// (tests/h200_probes/plain_cpp_semantics.out).
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <sstream>
#include <string>

#include "warpviz/user_file.h"

using namespace warpviz;
using namespace warpviz::user;

namespace {

// Prepare / Run: the file runs whole; its lines "name hex" become a map.
std::map<std::string, uint64_t> run_cases(const std::string& name) {
  FileRequest request;
  request.path = std::string(WARPVIZ_TEST_USER_FILES) + "/device_api/" + name;
  const FileRun run = run_user_file(request);
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  std::map<std::string, uint64_t> values;
  std::istringstream lines(run.program_output);
  std::string key, hex;
  while (lines >> key >> hex) {
    try {
      values[key] = std::stoull(hex, nullptr, 16);
    } catch (const std::exception&) {  // the CLI's own lines: not cases
    }
  }
  return values;
}

struct Case {
  const char* name;
  uint64_t expected;
  const char* why;
};

void check_cases(const std::map<std::string, uint64_t>& values, std::initializer_list<Case> cases) {
  for (const Case& c : cases) {
    INFO(c.name << ": " << c.why);
    REQUIRE(values.count(c.name) == 1);
    CHECK(values.at(c.name) == c.expected);
  }
}

}  // namespace

TEST_CASE("float to half and bfloat16: nearest even, ties, subnormals, overflow, NaN", "[device_api][half]") {
  const auto v = run_cases("half_rounding.cu");
  check_cases(v, {
      {"h_one", 0x3c00, "1.0 is exponent 15, mantissa 0"},
      {"h_tie_even_down", 0x3c00, "1 + 2^-11 is halfway between 0x3c00 and 0x3c01: the even one"},
      {"h_tie_even_up", 0x3c02, "1 + 3*2^-11 is halfway between 0x3c01 and 0x3c02: the even one"},
      {"h_max", 0x7bff, "65504 is the largest finite half"},
      {"h_below_overflow_tie", 0x7bff, "just below 65520 rounds down to 65504"},
      {"h_overflow_tie", 0x7c00, "65520 is halfway to 2^16; 0x7bff is odd, so it rounds to infinity"},
      {"h_overflow_rz", 0x7bff, "toward zero never reaches infinity"},
      {"h_overflow_rn", 0x7c00, "1e10 overflows to +inf"},
      {"h_min_subnormal", 0x0001, "2^-24 is the smallest subnormal"},
      {"h_subnormal_tie", 0x0000, "2^-25 is halfway between 0 and 2^-24: zero is even"},
      {"h_subnormal_up", 0x0001, "0.75 * 2^-24 is nearer 2^-24"},
      {"h_min_normal", 0x0400, "2^-14 is the smallest normal"},
      {"h_neg_subnormal", 0x8001, "the sign is kept"},
      {"h_neg_zero", 0x8000, "-0 stays -0"},
      {"h_nan", 0x7fff, "a NaN becomes the canonical NaN"},
      {"h_inf", 0xfc00, "-inf"},
      {"h_rd", 0x3c00, "just above 1 + 2^-11, rounded down"},
      {"h_ru", 0x3c01, "just above 1, rounded up"},
      {"h2f_subnormal", 0x33800000, "half 0x0001 is 2^-24 exactly"},
      {"h2f_max", 0x477fe000, "65504.0f"},
      {"h2f_neg_inf", 0xff800000, "-inf"},
      {"b_one", 0x3f80, "bfloat16 is a float's top 16 bits"},
      {"b_tie_even_down", 0x3f80, "1 + 2^-8 is halfway: the even one"},
      {"b_tie_even_up", 0x3f82, "1 + 3*2^-8 is halfway: the even one"},
      {"b_above_tie", 0x3f81, "one float ulp above the tie rounds up"},
      {"b_overflow", 0x7f80, "FLT_MAX rounds up to +inf"},
      {"b_overflow_rz", 0x7f7f, "toward zero: the largest finite bfloat16"},
      {"b_nan", 0x7fff, "a NaN becomes the canonical NaN"},
      {"b_subnormal_tie", 0x0000, "a float subnormal halfway between 0 and 0x0001"},
      {"b_subnormal_tie_up", 0x0002, "halfway between 0x0001 and 0x0002: the even one"},
      {"b2f", 0x40490000, "widening is exact"},
  });
}

TEST_CASE("half and bfloat16 arithmetic: one rounding to nearest even per operation", "[device_api][half]") {
  const auto v = run_cases("half_rounding.cu");
  check_cases(v, {
      {"hadd_tie", 0x3c00, "1 + 2^-11 ties to 1.0"},
      {"hadd_tie_up", 0x3c02, "1 + 2^-10 + 2^-11 ties to 1 + 2^-9"},
      {"hmul", 0x3c02, "(1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 rounds to 1 + 2^-9"},
      {"hfma_exact", 0x0010, "fused: (1 + 2^-10)^2 - (1 + 2^-9) is 2^-20, 16 subnormal ulps"},
      {"hadd_overflow", 0x7c00, "65504 + 65504 overflows to +inf"},
      {"hmul_underflow", 0x0000, "2^-14 * 2^-14 = 2^-28 is below half the smallest subnormal"},
      {"hadd_nan", 0x7fff, "inf + -inf is the canonical NaN"},
      {"hmax_zeros", 0x0000, "__hmax: +0 is greater than -0"},
      {"hmin_zeros", 0x8000, "__hmin: -0 is less than +0"},
      {"hmax_nan", 0x3c00, "__hmax: a NaN operand gives the other"},
      {"operators", 0x4200, "1 * 2 + 1 = 3.0 with the __half operators"},
      {"hlt_nan", 0, "ordered comparisons with a NaN are false"},
      {"hne_nan_operator", 1, "operator!= is the unordered __hneu"},
      {"badd_tie", 0x3f80, "bfloat16 1 + 2^-8 ties to 1.0"},
      {"bmul", 0x3f82, "(1 + 2^-7)^2 = 1 + 2^-6 + 2^-14 rounds to 1 + 2^-6"},
      {"bpair_sum_low", 0x4000, "the pair's halves add on their own: 1 + 1"},
      {"bpair_sum_high", 0x4080, "2 + 2"},
      {"atomic_add_half", 0x4000, "atomicAdd on a __half: 1 + 1 = 2"},
      {"shfl_half2", 0x40003c00, "a __half2 travels a shuffle as its 32 bits, x in the low half"},
      {"sizes", 244, "__half is 2 bytes, __half2 4, __nv_bfloat162 4-aligned"},
  });
}

TEST_CASE("integer intrinsics give the bits the CUDA Math API defines", "[device_api][intrinsics]") {
  const auto v = run_cases("intrinsics.cu");
  check_cases(v, {
      {"brevll", 0xf7b3d591e6a2c480ull, "0x0123456789abcdef with its 64 bits reversed"},
      {"popcll", 64, "every bit set"},
      {"clzll_0", 64, "no bit set: 64 leading zeros"},
      {"clzll_1", 63, ""},
      {"ffsll_0", 0, "no bit set: 0"},
      {"ffsll_256", 9, "bit 8, counted from 1"},
      {"umulhi", 0xfffffffe, "(2^32 - 1)^2 = 2^64 - 2^33 + 1"},
      {"mulhi", 0xffffffff, "-1 * 1: the high word of -1"},
      {"mul24", 0xfffffffe, "0xffffff is -1 in 24 bits, times 2"},
      {"umul24", 15, "only the low 24 bits: 3 * 5"},
      {"sad", 17, "|-3 - 4| + 10"},
      {"byte_perm", 0x00112233, "selector 0x0123 reverses x's bytes"},
      {"byte_perm_y", 0x77665544, "selectors 4..7 pick y's bytes"},
      {"funnelshift_l", 3, "1:0x80000000 << 1, high word"},
      {"funnelshift_lc", 0x80000000, "a shift past 32 clamps to 32: the low word"},
      {"funnelshift_r", 0x10000000, "1:3 >> 4, low word"},
      {"funnelshift_rc", 1, "a shift past 32 clamps to 32: the high word"},
      {"hadd_int_max", 0x7fffffff, "the average without overflow"},
      {"hadd_neg", 0xfffffffe, "(-1 + -2) >> 1 = -2"},
      {"rhadd", 2, "(1 + 2 + 1) >> 1"},
      {"dp4a_u", 20, "1 + 2 + 3 + 4 + 10"},
      {"dp4a_s", 0xfffffffe, "signed bytes: -1 * 2"},
      {"dp2a_lo_u", 24, "halves 2 and 3 times b's low bytes 4 and 5, plus 1: 8 + 15 + 1"},
      {"dp2a_hi_s", 0xfffffff9, "signed halves 3 and -2 times b's high bytes -1 and 2: -3 - 4 = -7"},
      {"clock64_counts_up", 1, "a later clock64() is not below an earlier one"},
      {"vadd4", 0x00030405, "bytes added with wrap-around: 0x01 + 0xff = 0x00"},
      {"vaddss2", 0x7fff8001, "halfwords with signed saturation: 0x7fff + 1 stays 0x7fff, -32768 + 1"},
      {"vsubus4", 0x00040004, "bytes with unsigned saturation: 0x10 - 0x20 = 0, 0x05 - 0x01 = 4"},
      {"vabsdiffu4", 0x30101030, "|0x40 - 0x10|, |0x30 - 0x20|, ... byte by byte"},
      {"vsads2", 4, "signed halfwords -1 vs 1 and 1 vs -1: 2 + 2, one sum"},
      {"vcmpgts4", 0xff0000ff, "signed bytes: 0x7f > 0x00, 0x01 > 0x7f no, -128 > 1 no, 0x7f > -128"},
      {"vsetltu2", 0x00010000, "unsigned halfwords: 0xffff < 0x0001 no, 0x0001 < 0xffff: 1"},
      {"vnegss2", 0x7fffffff, "-(-32768) saturates to 32767; -(1) = 0xffff"},
      {"vhaddu4", 0x80020180, "unsigned bytes averaged, truncated: (0xff + 1) / 2 = 0x80"},
  });
}

TEST_CASE("conversions saturate and rounding modes round as named", "[device_api][intrinsics]") {
  const auto v = run_cases("intrinsics.cu");
  check_cases(v, {
      {"f2i_rn_tie", 2, "2.5 ties to even"},
      {"f2i_rn_tie_up", 4, "3.5 ties to even"},
      {"f2i_rd", 0xfffffffe, "-1.5 down is -2"},
      {"f2i_ru", 0xffffffff, "-1.5 up is -1"},
      {"f2i_saturate", 0x7fffffff, "3e9 saturates to INT_MAX (H200 probe: int32_t(2^32) is 0x7fffffff)"},
      {"f2i_nan", 0, "NaN converts to 0"},
      {"f2u_negative", 0, "-1 to unsigned saturates to 0 (H200 probe: uint32_t(-1.0f) is 0)"},
      {"f2ll_saturate", 0x7fffffffffffffffull, "1e20 saturates to INT64_MAX"},
      {"fadd_rn_tie", 0x3f800000, "1 + 2^-24 ties to 1.0"},
      {"fadd_ru", 0x3f800001, "up: the next float"},
      {"fadd_rz", 0x3f800000, "toward zero: 1.0"},
      {"fadd_rd_neg", 0xbf800001, "-1 - 2^-24 down: away from zero"},
      {"fmul_ru", 0x3f800003, "(1 + 2^-23)^2 = 1 + 2^-22 + 2^-46, up"},
      {"fmul_rn", 0x3f800002, "to nearest: 1 + 2^-22"},
      {"fdiv_rd", 0x3eaaaaaa, "1/3 rounded down (0x3eaaaaab is nearest)"},
      {"frcp_ru", 0x3eaaaaab, "1/3 rounded up"},
      {"fsqrt_rd", 0x3fb504f3, "sqrt(2) = 1.41421356..., 0x3fb504f3 is just below"},
      {"fsqrt_ru", 0x3fb504f4, "and 0x3fb504f4 just above"},
      {"fdividef_huge", 0, "__fdividef with 2^126 < |y| < 2^128 gives 0 (Math API)"},
      {"fdividef", 0x40000000, "6 / 3"},
      {"rsqrtf_4", 0x3f000000, "1/sqrt(4) is exactly 0.5"},
      {"saturatef", 0, "__saturatef(NaN) is 0"},
  });
}

TEST_CASE("fminf, fmaxf, min and max follow the H200, not x86's libm", "[device_api][minmax]") {
  const auto v = run_cases("intrinsics.cu");
  // plain_cpp_semantics.out: fminf/fmaxf over (+0, -0, 1, qNaN, NaN, -inf),
  // results 2 * (6a + b) and + 1.
  check_cases(v, {
      {"fmaxf_nz_pz", 0x00000000, "probe result 13: fmaxf(-0, +0) = +0"},
      {"fmaxf_pz_nz", 0x00000000, "probe result 3: fmaxf(+0, -0) = +0"},
      {"fminf_pz_nz", 0x80000000, "probe result 2: fminf(+0, -0) = -0"},
      {"fminf_nan_nan", 0x7fffffff, "probe result 44: two NaNs give the canonical NaN"},
      {"fmaxf_nan_ninf", 0xff800000, "probe result 47: a NaN operand gives the other"},
      {"std_fmaxf", 0x00000000, "std::fmaxf is the same rule"},
      {"max_float", 0x00000000, "CUDA's max(float, float) is fmaxf"},
      {"fmax_double", 0, "probe result 81: fmax(-0.0, +0.0) = +0"},
      {"min_mixed", 1, "min(int, unsigned) compares as unsigned: -1 is 0xffffffff"},
      {"max_long", 3, "max(long, long)"},
  });
}

TEST_CASE("vector types, constants and the CUDA headers real code includes", "[device_api][headers]") {
  const auto v = run_cases("intrinsics.cu");
  check_cases(v, {
      {"align_float4", 1616, "float4: 16 bytes, 16-aligned (one 16-byte load)"},
      {"align_float3", 1204, "float3: 12 bytes, aligned only to its float"},
      {"align_longlong2", 1616, "longlong2: 16 bytes, 16-aligned"},
      {"align_char3", 301, "char3: 3 bytes, 1-aligned"},
      {"align_short4", 808, "short4: 8 bytes, 8-aligned"},
      {"align_double4", 3216, "double4: 32 bytes, 16-aligned"},
      {"align_uchar4", 404, "uchar4: 4 bytes, 4-aligned"},
      {"make_float4_w", 0x40800000, "make_float4(1, 2, 3, 4).w is 4.0f"},
      {"atomic_float4", 0x42300000ull + 0x40800000ull, "sm_90's float4 atomicAdd: w becomes 44.0f, returns the old 4.0f"},
      {"atomic_scoped", 16000000ull + 50000 + 800 + 20,
       "atomicAdd_block 5+3 returns 5, atomicMax_system(8, 20) returns 8, atomicCAS_block 7->9 returns 7"},
      {"double_hi", 0x3ff00000, "the high word of 1.0"},
      {"pi_f", 0x40490fdb, "CUDART_PI_F is the float nearest pi"},
      {"inf_f", 0x7f800000, "CUDART_INF_F"},
      {"cudacc_ver", 1, "__CUDACC_VER_MAJOR__ >= 9 picks the __shfl_*_sync path, as under nvcc 13"},
      {"cuda_arch", 900, "device code is compiled for sm_90: __CUDA_ARCH__ is 900"},
  });
}

TEST_CASE("umin, isfinite and the 16-bit types are global names, as CUDA's headers make them", "[device_api][headers]") {
  const auto v = run_cases("global_names.cu");
  check_cases(v, {
      {"umin", 3, "umin(7u, 3u)"},
      {"umax", 7, "umax(7u, 3u)"},
      {"llmin", 0xfffffffb, "llmin(-5, 2) is -5"},
      {"isfinite_inf", 0, "1/0 is infinite"},
      {"isnan_nan", 1, "0/0 is a NaN"},
      {"bf16_bits", 0x3fc0, "1.5 in bfloat16, through cublas_v2.h's include of cuda_bf16.h"},
      {"half_bits", 0x3e00, "1.5 in half"},
      {"host_isfinite", 1, "isfinite with no std:: in host code too"},
  });
}

TEST_CASE("bool and short shuffle as CUDA's int overload carries them", "[device_api][shuffle]") {
  const auto v = run_cases("intrinsics.cu");
  for (unsigned lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    // __shfl_sync(odd, lane ^ 1): the partner's parity, 0 or 1.
    CHECK(v.at("shfl" + std::to_string(lane)) == ((lane ^ 1u) & 1u));
    // __shfl_down_sync(-lane, 1): lane + 1's value sign-extended; lane 31 keeps its own.
    const int expected = -int(lane == 31 ? 31 : lane + 1);
    CHECK(v.at("shfl" + std::to_string(32 + lane)) == uint32_t(expected));
  }
}

TEST_CASE("__trap() ends the launch with a kernel error that names it", "[device_api][faults]") {
  FileRequest request;
  request.path = std::string(WARPVIZ_TEST_USER_FILES) + "/device_api/trap.cu";
  const FileRun run = run_user_file(request);
  INFO(run.message << run.program_output);
  CHECK(run.outcome == FileOutcome::KernelError);
  CHECK((run.message + run.program_output).find("__trap()") != std::string::npos);
}

TEST_CASE("mma.h: a 16x16x16 half tile with float accumulators, loaded and stored in both layouts",
          "[device_api][wmma]") {
  const auto v = run_cases("wmma_gemm.cu");
  // D(i,j) = 2 * sum_k (i - k)(k + j) + 0.5 * i * j: small integers and halves,
  // exact in half inputs and float sums whatever order the tensor core adds in.
  check_cases(v, {
      {"d0_0", 0xc51b0000, "2 * -1240 + 0 = -2480"},
      {"d3_5", 0xc51a8800, "2 * -1240 + 7.5 = -2472.5"},
      {"d15_15", 0x45970400, "2 * 2360 + 112.5 = 4832.5"},
      {"d15_0", 0x448c0000, "2 * 560 + 0 = 1120"},
      {"d7_12", 0xc46d8000, "2 * -496 + 42 = -950"},
      {"tf32", 0x3f802000, "1 + 2^-11 is a tie at tf32's 10 bits: away from zero"},
      {"tf32_below", 0x3f800000, "just below the tie: down"},
  });
}

TEST_CASE("__shfl_down without a mask is refused as nvcc refuses it for sm_90, naming the replacement",
          "[device_api][faults]") {
  FileRequest request;
  request.path = std::string(WARPVIZ_TEST_USER_FILES) + "/device_api/legacy_shfl.cu";
  const FileRun run = run_user_file(request);
  INFO(run.message << run.compiler_output);
  CHECK(run.outcome == FileOutcome::CompileError);
  bool named_at_user_line = false;
  for (const Diagnostic& d : run.diagnostics)
    if (d.severity == "error" && d.line == 4 && d.message.find("__shfl_down_sync(mask") != std::string::npos)
      named_at_user_line = true;
  CHECK(named_at_user_line);
}

TEST_CASE("a host variable named gridDim or blockDim shadows the built-in, as in CUDA", "[device_api][headers]") {
  const auto v = run_cases("dims_named.cu");
  check_cases(v, {
      {"first", 2323, "gridDim (2, 3), blockDim 32: 2 * 1000 + 32 * 10 + 3"},
      {"last", 2323, "every thread of the launch reads the same"},
      {"host_grid", 23, "the host's own dim3 gridDim(2, 3) is untouched"},
  });
}

TEST_CASE("cudaMallocAsync and cudaFreeAsync: memory a kernel on the stream fills", "[device_api][runtime]") {
  const auto v = run_cases("stream_ordered_alloc.cu");
  check_cases(v, {
      {"malloc_async", 0, "cudaSuccess"},
      {"free_async", 0, "cudaSuccess"},
      {"last", 93, "lane 31 wrote 3 * 31"},
  });
}

TEST_CASE("cudaPointerGetAttributes tells device, pinned and plain memory; cudaLaunchKernel needs no other header",
          "[device_api][runtime]") {
  const auto v = run_cases("pointer_attributes.cu");
  check_cases(v, {
      {"device_type", 2, "cudaMemoryTypeDevice, for a pointer inside a cudaMalloc"},
      {"device_pointer_same", 1, "the device pointer is the pointer asked about"},
      {"pinned_type", 1, "cudaMemoryTypeHost, for cudaMallocHost"},
      {"pinned_end_type", 1, "the last word of the pinned allocation"},
      {"stack_type", 0, "cudaMemoryTypeUnregistered, for a plain host pointer"},
      {"null_attributes", 1, "cudaErrorInvalidValue"},
      {"launch_kernel", 0, "cudaSuccess"},
      {"launched_value", 42, "2 * 21, from the kernel cudaLaunchKernel ran"},
  });
}

TEST_CASE("__isShared, __isGlobal and __isLocal by address; symbols by address; peers on a machine of one GPU",
          "[device_api][runtime]") {
  const auto v = run_cases("address_spaces.cu");
  // Bits: 1 shared, 2 global, 4 local, 8 constant.
  check_cases(v, {
      {"global_array", 2, "cudaMalloc'd memory is global"},
      {"static_shared", 1, "a __shared__ array"},
      {"dynamic_shared", 1, "extern __shared__ memory"},
      {"local", 4, "a local variable whose address is taken lives in local memory"},
      {"device_variable", 2, "a __device__ variable is global"},
      {"to_symbol", 0, "cudaMemcpyToSymbolAsync: cudaSuccess"},
      {"from_symbol", 0, "cudaMemcpyFromSymbolAsync: cudaSuccess"},
      {"symbol_first", 0xe, "10 + 4: threads 0-7 each added 4 to their element"},
      {"symbol_last", 0x15, "17 + 4"},
      {"symbol_address", 0, "cudaGetSymbolAddress: cudaSuccess"},
      {"symbol_bytes", 0x20, "cudaGetSymbolSize: 8 ints"},
      {"via_address_last", 0x15, "a copy through the symbol's address reads the same"},
      {"peer_copy", 0, "cudaMemcpyPeer from device 0 to device 0: cudaSuccess"},
      {"peer_copy_last", 0x15, "and it copied"},
      {"can_access_self", 0, "cudaDeviceCanAccessPeer(0, 0): cudaSuccess"},
      {"can_access_result", 0, "a device is not its own peer"},
      {"enable_self", 0x65, "cudaDeviceEnablePeerAccess(0) on device 0: cudaErrorInvalidDevice"},
      {"other_device", 0x65, "cudaMemcpyPeer to a device that does not exist: cudaErrorInvalidDevice"},
  });
}

TEST_CASE("__syncthreads_count, _and and _or reduce a predicate over the block, stretch by stretch",
          "[device_api][barrier]") {
  const auto v = run_cases("syncthreads_predicates.cu");
  // Bits: the count in 0-11, and 12, or 13, a second or of nothing 14, a second count 16 up.
  check_cases(v, {
      {"block0", 0x1003080, "128 multiples of 2 below 256, all below 256, thread 255 of an even block, 256 again"},
      {"block1", 0x1001056, "86 multiples of 3; an odd block: the or is 0"},
      {"block39", 0x1001007, "7 multiples of 41"},
      {"blocks_right", 40, "every block's word as the program computes it"},
  });
}
