// cuBLAS and cuBLASLt of a user's program on the CPU backend (cublas_v2.h,
// cublasLt.h): float GEMMs done by OpenBLAS's cblas_sgemm on the host, in
// cuBLAS's column-major terms, which CBLAS takes as they are.
//
// OpenBLAS is opened with dlopen at the first GEMM, so a program that only
// creates a handle (every llm.c dev/cuda program does, in common.h) runs
// without it, and one that multiplies without it gets a clear message.
//
// [SECTION] OpenBLAS
// [SECTION] TF32 inputs
// [SECTION] The GEMM every entry point comes to
// [SECTION] cuBLAS
// [SECTION] cuBLASLt
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "warpviz/user_launch.h"

#include "cublasLt.h"
#include "cublas_v2.h"
#include "openblas.h"
#include "runtime_objects.h"

namespace {

// ============================================================================
// [SECTION] OpenBLAS
// ============================================================================

// CBLAS's enums (cblas.h): row/column order and transposition.
constexpr int kCblasColMajor = 102;
constexpr int kCblasNoTrans = 111;
constexpr int kCblasTrans = 112;
using CblasSgemm = void (*)(int order, int transa, int transb, int m, int n, int k, float alpha, const float* a,
                            int lda, const float* b, int ldb, float beta, float* c, int ldc);

}  // namespace

namespace warpviz::user {

// WARPVIZ_OPENBLAS names another library file (the tests point it at a missing one).
void* openblas_function(const char* symbol, const char* caller) {
  static void* const lib = [caller]() -> void* {
    const char* override_path = std::getenv("WARPVIZ_OPENBLAS");
    const char* path = override_path && *override_path ? override_path : "libopenblas.so.0";
    // OpenBLAS starts its threads as it loads; they inherit this mask, so the
    // parent's SIGUSR1 ("where are you?") reaches the thread that runs kernels.
    sigset_t usr1, previous;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &usr1, &previous);
    void* opened = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    if (!opened)
      fail("request",
           std::string(caller) + ": cuBLAS runs on OpenBLAS on the CPU backend, and " + path + " could not be loaded (" +
               dlerror() + "); install Debian's libopenblas0 (apt-get install libopenblas-dev)",
           2);
    std::fprintf(stderr, "warpviz: cuBLAS runs on OpenBLAS on the CPU; its results are not the GPU's bits\n");
    return opened;
  }();
  void* found = dlsym(lib, symbol);
  if (!found)
    fail("request",
         std::string(caller) + ": cuBLAS runs on OpenBLAS on the CPU backend, and the OpenBLAS loaded has no " + symbol,
         2);
  return found;
}

}  // namespace warpviz::user

namespace {

CblasSgemm openblas_sgemm(const char* caller) {
  static const CblasSgemm sgemm = reinterpret_cast<CblasSgemm>(warpviz::user::openblas_function("cblas_sgemm", caller));
  return sgemm;
}

[[noreturn]] void unsupported(const std::string& what) {
  warpviz::user::fail("request", what + " is not supported by warpviz's cuBLAS on the CPU backend", 2);
}

// ============================================================================
// [SECTION] TF32 inputs
// ============================================================================
// With TF32 math an H200's tensor cores read each float input with a 10-bit
// mantissa; the products are exact in float and summed in float. Rounding the
// inputs the same way brings OpenBLAS's sums to within float rounding of the
// GPU's, where plain float inputs differ from them by about 1e-3 relative.

// Round to nearest, ties away from zero, as cvt.rna.tf32.f32 does.
float round_to_tf32(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  if ((bits & 0x7f800000u) != 0x7f800000u) {  // Inf and NaN stay as they are
    bits += 0x1000u;
    bits &= 0xffffe000u;
  }
  std::memcpy(&x, &bits, 4);
  return x;
}

// The elements a column-major rows x cols matrix with leading dimension ld spans.
size_t spanned(int rows, int cols, int ld) { return cols == 0 || rows == 0 ? 0 : size_t(ld) * (cols - 1) + rows; }

const float* tf32_copy(const float* m, size_t count, std::vector<float>& store) {
  store.resize(count);
  for (size_t i = 0; i < count; ++i) store[i] = round_to_tf32(m[i]);
  return store.data();
}

// ============================================================================
// [SECTION] The GEMM every entry point comes to
// ============================================================================

struct Gemm {
  cublasOperation_t transa, transb;
  int m, n, k;
  float alpha, beta;
  const float* A;
  int lda;
  const float* B;
  int ldb;
  float* C;
  int ldc;
  bool tf32;
};

bool transposes(cublasOperation_t op) { return op != CUBLAS_OP_N; }

// cuBLAS's argument checks (its documentation's list for cublas<t>gemm).
cublasStatus_t check_gemm(cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, int lda, int ldb,
                          int ldc) {
  auto valid_op = [](cublasOperation_t op) { return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C; };
  if (!valid_op(transa) || !valid_op(transb) || m < 0 || n < 0 || k < 0) return CUBLAS_STATUS_INVALID_VALUE;
  const int a_rows = transposes(transa) ? k : m, b_rows = transposes(transb) ? n : k;
  if (lda < std::max(1, a_rows) || ldb < std::max(1, b_rows) || ldc < std::max(1, m))
    return CUBLAS_STATUS_INVALID_VALUE;
  return CUBLAS_STATUS_SUCCESS;
}

void run_gemm(const Gemm& g, const char* caller) {
  if (g.m == 0 || g.n == 0) return;
  const CblasSgemm sgemm = openblas_sgemm(caller);
  const float* A = g.A;
  const float* B = g.B;
  std::vector<float> a_store, b_store;
  if (g.tf32) {
    const bool ta = transposes(g.transa), tb = transposes(g.transb);
    A = tf32_copy(g.A, spanned(ta ? g.k : g.m, ta ? g.m : g.k, g.lda), a_store);
    B = tf32_copy(g.B, spanned(tb ? g.n : g.k, tb ? g.k : g.n, g.ldb), b_store);
  }
  // CUBLAS_OP_C is CUBLAS_OP_T for real matrices.
  sgemm(kCblasColMajor, transposes(g.transa) ? kCblasTrans : kCblasNoTrans,
        transposes(g.transb) ? kCblasTrans : kCblasNoTrans, g.m, g.n, g.k, g.alpha, A, g.lda, B, g.ldb, g.beta, g.C,
        g.ldc);
}

const char* type_name(cudaDataType t) {
  switch (t) {
    case CUDA_R_16F: return "CUDA_R_16F";
    case CUDA_R_16BF: return "CUDA_R_16BF";
    case CUDA_R_32F: return "CUDA_R_32F";
    case CUDA_R_64F: return "CUDA_R_64F";
    case CUDA_R_8I: return "CUDA_R_8I";
    case CUDA_R_32I: return "CUDA_R_32I";
    default: return "a complex or integer type";
  }
}

void require_float(const char* caller, cudaDataType a, cudaDataType b, cudaDataType c) {
  for (cudaDataType t : {a, b, c})
    if (t != CUDA_R_32F) unsupported(std::string(caller) + " with " + type_name(t) + " matrices (only CUDA_R_32F)");
}

}  // namespace

// ============================================================================
// [SECTION] cuBLAS
// ============================================================================

struct cublasContext {
  cublasMath_t math = CUBLAS_DEFAULT_MATH;
  cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
  cudaStream_t stream = nullptr;
};

namespace {

// The legacy GEMMs use TF32 when the handle's math mode asks for it.
bool tf32_math(cublasHandle_t h) { return (h->math & 0xf) == CUBLAS_TF32_TENSOR_OP_MATH; }

// "Device" and host memory are one here, so either pointer mode reads the same.
float scalar(const void* p) { return *static_cast<const float*>(p); }

bool tf32_compute(cublasComputeType_t t) { return t == CUBLAS_COMPUTE_32F_FAST_TF32; }

void require_float_compute(const char* caller, cublasComputeType_t t) {
  if (t != CUBLAS_COMPUTE_32F && t != CUBLAS_COMPUTE_32F_PEDANTIC && t != CUBLAS_COMPUTE_32F_FAST_TF32)
    unsupported(std::string(caller) + " with compute type " + std::to_string(int(t)) +
                " (only CUBLAS_COMPUTE_32F, _PEDANTIC and _FAST_TF32)");
}

// A pre-CUDA-11 compute type: CUDA_R_32F meant float arithmetic.
cublasComputeType_t legacy_compute(const char* caller, cudaDataType t) {
  if (t != CUDA_R_32F) unsupported(std::string(caller) + " with compute type " + type_name(t));
  return CUBLAS_COMPUTE_32F;
}

}  // namespace

cublasStatus_t cublasCreate(cublasHandle_t* handle) {
  if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
  *handle = warpviz::user::make_runtime_object<cublasContext>();
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDestroy(cublasHandle_t handle) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  warpviz::user::destroy_runtime_object(handle);
  return CUBLAS_STATUS_SUCCESS;
}
// CUDA 13.0's cuBLAS, as on the H200 the references were taken on.
cublasStatus_t cublasGetVersion(cublasHandle_t handle, int* version) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!version) return CUBLAS_STATUS_INVALID_VALUE;
  *version = 130000;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->stream = stream;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetStream(cublasHandle_t handle, cudaStream_t* stream) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!stream) return CUBLAS_STATUS_INVALID_VALUE;
  *stream = handle->stream;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->math = mode;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t* mode) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->math;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetPointerMode(cublasHandle_t handle, cublasPointerMode_t mode) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->pointer_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetPointerMode(cublasHandle_t handle, cublasPointerMode_t* mode) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->pointer_mode;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetWorkspace(cublasHandle_t handle, void*, size_t) {
  return handle ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

const char* cublasGetStatusName(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}
const char* cublasGetStatusString(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
    case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
    case CUBLAS_STATUS_LICENSE_ERROR: return "error detected trying to check the license";
  }
  return "unknown error";
}

cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           int k, const float* alpha, const float* A, int lda, const float* B, int ldb,
                           const float* beta, float* C, int ldc) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (const cublasStatus_t s = check_gemm(transa, transb, m, n, k, lda, ldb, ldc); s != CUBLAS_STATUS_SUCCESS)
    return s;
  if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  warpviz::user::begin_library_launch();  // a kernel on a GPU: --launches counts it
  run_gemm({transa, transb, m, n, k, *alpha, *beta, A, lda, B, ldb, C, ldc, tf32_math(handle)}, "cublasSgemm");
  return CUBLAS_STATUS_SUCCESS;
}

namespace {
cublasStatus_t strided_batched(const char* caller, cublasOperation_t transa,
                               cublasOperation_t transb, int m, int n, int k, float alpha, const float* A, int lda,
                               long long strideA, const float* B, int ldb, long long strideB, float beta, float* C,
                               int ldc, long long strideC, int batchCount, bool tf32) {
  if (const cublasStatus_t s = check_gemm(transa, transb, m, n, k, lda, ldb, ldc); s != CUBLAS_STATUS_SUCCESS)
    return s;
  if (batchCount < 0) return CUBLAS_STATUS_INVALID_VALUE;
  warpviz::user::begin_library_launch();  // a kernel on a GPU: --launches counts it
  for (int b = 0; b < batchCount; ++b)
    run_gemm({transa, transb, m, n, k, alpha, beta, A + b * strideA, lda, B + b * strideB, ldb, C + b * strideC, ldc,
              tf32},
             caller);
  return CUBLAS_STATUS_SUCCESS;
}
}  // namespace

cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const float* alpha, const float* A, int lda,
                                         long long strideA, const float* B, int ldb, long long strideB,
                                         const float* beta, float* C, int ldc, long long strideC, int batchCount) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  return strided_batched("cublasSgemmStridedBatched", transa, transb, m, n, k, *alpha, A, lda, strideA, B,
                         ldb, strideB, *beta, C, ldc, strideC, batchCount, tf32_math(handle));
}

cublasStatus_t cublasSgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                  int n, int k, const float* alpha, const float* const A[], int lda,
                                  const float* const B[], int ldb, const float* beta, float* const C[], int ldc,
                                  int batchCount) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (const cublasStatus_t s = check_gemm(transa, transb, m, n, k, lda, ldb, ldc); s != CUBLAS_STATUS_SUCCESS)
    return s;
  if (!alpha || !beta || batchCount < 0) return CUBLAS_STATUS_INVALID_VALUE;
  warpviz::user::begin_library_launch();  // a kernel on a GPU: --launches counts it
  for (int b = 0; b < batchCount; ++b)
    run_gemm({transa, transb, m, n, k, *alpha, *beta, A[b], lda, B[b], ldb, C[b], ldc, tf32_math(handle)},
             "cublasSgemmBatched");
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                            int k, const void* alpha, const void* A, cudaDataType Atype, int lda, const void* B,
                            cudaDataType Btype, int ldb, const void* beta, void* C, cudaDataType Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  require_float("cublasGemmEx", Atype, Btype, Ctype);
  require_float_compute("cublasGemmEx", computeType);
  if (const cublasStatus_t s = check_gemm(transa, transb, m, n, k, lda, ldb, ldc); s != CUBLAS_STATUS_SUCCESS)
    return s;
  if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  warpviz::user::begin_library_launch();  // a kernel on a GPU: --launches counts it
  run_gemm({transa, transb, m, n, k, scalar(alpha), scalar(beta), static_cast<const float*>(A), lda,
            static_cast<const float*>(B), ldb, static_cast<float*>(C), ldc,
            tf32_compute(computeType) || tf32_math(handle)},
           "cublasGemmEx");
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const void* alpha, const void* A, cudaDataType Atype,
                                          int lda, long long strideA, const void* B, cudaDataType Btype, int ldb,
                                          long long strideB, const void* beta, void* C, cudaDataType Ctype, int ldc,
                                          long long strideC, int batchCount, cublasComputeType_t computeType,
                                          cublasGemmAlgo_t) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  require_float("cublasGemmStridedBatchedEx", Atype, Btype, Ctype);
  require_float_compute("cublasGemmStridedBatchedEx", computeType);
  if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  return strided_batched("cublasGemmStridedBatchedEx", transa, transb, m, n, k, scalar(alpha),
                         static_cast<const float*>(A), lda, strideA, static_cast<const float*>(B), ldb, strideB,
                         scalar(beta), static_cast<float*>(C), ldc, strideC, batchCount,
                         tf32_compute(computeType) || tf32_math(handle));
}

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                            int k, const void* alpha, const void* A, cudaDataType Atype, int lda, const void* B,
                            cudaDataType Btype, int ldb, const void* beta, void* C, cudaDataType Ctype, int ldc,
                            cudaDataType computeType, cublasGemmAlgo_t algo) {
  return cublasGemmEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype, ldc,
                      legacy_compute("cublasGemmEx", computeType), algo);
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const void* alpha, const void* A, cudaDataType Atype,
                                          int lda, long long strideA, const void* B, cudaDataType Btype, int ldb,
                                          long long strideB, const void* beta, void* C, cudaDataType Ctype, int ldc,
                                          long long strideC, int batchCount, cudaDataType computeType,
                                          cublasGemmAlgo_t algo) {
  return cublasGemmStridedBatchedEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype, ldb,
                                    strideB, beta, C, Ctype, ldc, strideC, batchCount,
                                    legacy_compute("cublasGemmStridedBatchedEx", computeType), algo);
}

// ============================================================================
// [SECTION] cuBLASLt
// ============================================================================

struct cublasLtContext {};

struct cublasLtMatmulDescOpaque_t {
  cublasComputeType_t compute;
  cudaDataType_t scale;
  cublasOperation_t transa = CUBLAS_OP_N, transb = CUBLAS_OP_N;
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  const float* bias = nullptr;
};

struct cublasLtMatrixLayoutOpaque_t {
  cudaDataType type;
  uint64_t rows, cols;
  int64_t ld;
  int32_t order = CUBLASLT_ORDER_COL;
  int32_t batch_count = 1;
  int64_t batch_stride = 0;
};

struct cublasLtMatmulPreferenceOpaque_t {};

namespace {

// Copies an attribute the size of `T` from the caller's buffer.
template <class T>
cublasStatus_t read_attribute(T& to, const void* buf, size_t size) {
  if (!buf || size != sizeof(T)) return CUBLAS_STATUS_INVALID_VALUE;
  std::memcpy(&to, buf, sizeof(T));
  return CUBLAS_STATUS_SUCCESS;
}

// The tanh form cuBLASLt's GELU epilogue computes.
float gelu_tanh(float x) {
  const float s = std::sqrt(2.0f / float(M_PI));
  return 0.5f * x * (1.0f + std::tanh(s * (x + 0.044715f * x * x * x)));
}

bool epilogue_adds_bias(cublasLtEpilogue_t e) {
  return e == CUBLASLT_EPILOGUE_BIAS || e == CUBLASLT_EPILOGUE_GELU_BIAS || e == CUBLASLT_EPILOGUE_RELU_BIAS;
}

void check_epilogue(cublasLtEpilogue_t e) {
  switch (e) {
    case CUBLASLT_EPILOGUE_DEFAULT:
    case CUBLASLT_EPILOGUE_BIAS:
    case CUBLASLT_EPILOGUE_GELU:
    case CUBLASLT_EPILOGUE_GELU_BIAS:
    case CUBLASLT_EPILOGUE_RELU:
    case CUBLASLT_EPILOGUE_RELU_BIAS: return;
    default:
      unsupported("cublasLtMatmul with epilogue " + std::to_string(int(e)) +
                  " (DEFAULT, BIAS, GELU, GELU_BIAS, RELU and RELU_BIAS are)");
  }
}

// Bias (one value per row of D), then the activation, on one matrix of D.
void apply_epilogue(const cublasLtMatmulDescOpaque_t& d, float* D, uint64_t rows, uint64_t cols, int64_t ld) {
  const bool gelu = d.epilogue == CUBLASLT_EPILOGUE_GELU || d.epilogue == CUBLASLT_EPILOGUE_GELU_BIAS;
  const bool relu = d.epilogue == CUBLASLT_EPILOGUE_RELU || d.epilogue == CUBLASLT_EPILOGUE_RELU_BIAS;
  const bool bias = epilogue_adds_bias(d.epilogue);
  if (!gelu && !relu && !bias) return;
  for (uint64_t j = 0; j < cols; ++j)
    for (uint64_t i = 0; i < rows; ++i) {
      float& v = D[i + j * ld];
      if (bias) v += d.bias[i];
      if (gelu) v = gelu_tanh(v);
      if (relu) v = v > 0.0f ? v : 0.0f;
    }
}

}  // namespace

cublasStatus_t cublasLtCreate(cublasLtHandle_t* handle) {
  if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
  *handle = warpviz::user::make_runtime_object<cublasLtContext>();
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  warpviz::user::destroy_runtime_object(handle);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* desc, cublasComputeType_t computeType,
                                        cudaDataType_t scaleType) {
  if (!desc) return CUBLAS_STATUS_INVALID_VALUE;
  *desc = warpviz::user::make_runtime_object<cublasLtMatmulDescOpaque_t>(computeType, scaleType);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc) {
  warpviz::user::destroy_runtime_object(desc);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attr,
                                              const void* buf, size_t size) {
  if (!desc) return CUBLAS_STATUS_INVALID_VALUE;
  switch (attr) {
    case CUBLASLT_MATMUL_DESC_COMPUTE_TYPE: return read_attribute(desc->compute, buf, size);
    case CUBLASLT_MATMUL_DESC_SCALE_TYPE: return read_attribute(desc->scale, buf, size);
    case CUBLASLT_MATMUL_DESC_TRANSA: return read_attribute(desc->transa, buf, size);
    case CUBLASLT_MATMUL_DESC_TRANSB: return read_attribute(desc->transb, buf, size);
    case CUBLASLT_MATMUL_DESC_EPILOGUE: return read_attribute(desc->epilogue, buf, size);
    case CUBLASLT_MATMUL_DESC_BIAS_POINTER: return read_attribute(desc->bias, buf, size);
    default: unsupported("cublasLtMatmulDescSetAttribute with attribute " + std::to_string(int(attr)));
  }
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* layout, cudaDataType type, uint64_t rows,
                                          uint64_t cols, int64_t ld) {
  if (!layout) return CUBLAS_STATUS_INVALID_VALUE;
  *layout = warpviz::user::make_runtime_object<cublasLtMatrixLayoutOpaque_t>(type, rows, cols, ld);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout) {
  warpviz::user::destroy_runtime_object(layout);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attr,
                                                const void* buf, size_t size) {
  if (!layout) return CUBLAS_STATUS_INVALID_VALUE;
  switch (attr) {
    case CUBLASLT_MATRIX_LAYOUT_TYPE: return read_attribute(layout->type, buf, size);
    case CUBLASLT_MATRIX_LAYOUT_ORDER: return read_attribute(layout->order, buf, size);
    case CUBLASLT_MATRIX_LAYOUT_ROWS: return read_attribute(layout->rows, buf, size);
    case CUBLASLT_MATRIX_LAYOUT_COLS: return read_attribute(layout->cols, buf, size);
    case CUBLASLT_MATRIX_LAYOUT_LD: return read_attribute(layout->ld, buf, size);
    case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT: return read_attribute(layout->batch_count, buf, size);
    case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET: return read_attribute(layout->batch_stride, buf, size);
  }
  return CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t* pref) {
  if (!pref) return CUBLAS_STATUS_INVALID_VALUE;
  *pref = warpviz::user::make_runtime_object<cublasLtMatmulPreferenceOpaque_t>();
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref) {
  warpviz::user::destroy_runtime_object(pref);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t, const void* buf,
                                                    size_t) {
  return pref && buf ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc,
                                              cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                              cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                              cublasLtMatmulPreference_t pref, int requestedAlgoCount,
                                              cublasLtMatmulHeuristicResult_t heuristicResultsArray[],
                                              int* returnAlgoCount) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!desc || !Adesc || !Bdesc || !Cdesc || !Ddesc || !pref || requestedAlgoCount < 1 || !heuristicResultsArray ||
      !returnAlgoCount)
    return CUBLAS_STATUS_INVALID_VALUE;
  heuristicResultsArray[0] = cublasLtMatmulHeuristicResult_t{};
  heuristicResultsArray[0].state = CUBLAS_STATUS_SUCCESS;
  heuristicResultsArray[0].wavesCount = 1.0f;
  *returnAlgoCount = 1;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void* alpha, const void* A,
                              cublasLtMatrixLayout_t Adesc, const void* B, cublasLtMatrixLayout_t Bdesc,
                              const void* beta, const void* C, cublasLtMatrixLayout_t Cdesc, void* D,
                              cublasLtMatrixLayout_t Ddesc, const cublasLtMatmulAlgo_t*, void*, size_t,
                              cudaStream_t) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!desc || !Adesc || !Bdesc || !Cdesc || !Ddesc || !alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  require_float("cublasLtMatmul", Adesc->type, Bdesc->type, Ddesc->type);
  require_float("cublasLtMatmul", Cdesc->type, CUDA_R_32F, CUDA_R_32F);
  require_float_compute("cublasLtMatmul", desc->compute);
  for (const cublasLtMatrixLayoutOpaque_t* l : {Adesc, Bdesc, Cdesc, Ddesc})
    if (l->order != CUBLASLT_ORDER_COL) unsupported("cublasLtMatmul with a layout that is not CUBLASLT_ORDER_COL");
  check_epilogue(desc->epilogue);
  if (epilogue_adds_bias(desc->epilogue) && !desc->bias) return CUBLAS_STATUS_INVALID_VALUE;
  const bool ta = transposes(desc->transa), tb = transposes(desc->transb);
  const uint64_t m = Ddesc->rows, n = Ddesc->cols, k = ta ? Adesc->rows : Adesc->cols;
  // op(A) is m x k, op(B) k x n, C and D m x n.
  if ((ta ? Adesc->cols : Adesc->rows) != m || (tb ? Bdesc->cols : Bdesc->rows) != k ||
      (tb ? Bdesc->rows : Bdesc->cols) != n || Cdesc->rows != m || Cdesc->cols != n)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m > uint64_t(INT32_MAX) || n > uint64_t(INT32_MAX) || k > uint64_t(INT32_MAX))
    unsupported("cublasLtMatmul with a dimension over 2^31 - 1");
  const float a = scalar(alpha), b = scalar(beta);
  warpviz::user::begin_library_launch();  // a kernel on a GPU: --launches counts it
  for (int batch = 0; batch < Ddesc->batch_count; ++batch) {
    const float* Ab = static_cast<const float*>(A) + batch * Adesc->batch_stride;
    const float* Bb = static_cast<const float*>(B) + batch * Bdesc->batch_stride;
    const float* Cb = static_cast<const float*>(C) + batch * Cdesc->batch_stride;
    float* Db = static_cast<float*>(D) + batch * Ddesc->batch_stride;
    // D = alpha op(A) op(B) + beta C: C is copied into D first when they differ.
    if (Cb != Db && b != 0.0f)
      for (uint64_t j = 0; j < n; ++j) std::memmove(Db + j * Ddesc->ld, Cb + j * Cdesc->ld, m * sizeof(float));
    if (const cublasStatus_t s = check_gemm(desc->transa, desc->transb, int(m), int(n), int(k), int(Adesc->ld),
                                            int(Bdesc->ld), int(Ddesc->ld));
        s != CUBLAS_STATUS_SUCCESS)
      return s;
    run_gemm({desc->transa, desc->transb, int(m), int(n), int(k), a, b, Ab, int(Adesc->ld), Bb, int(Bdesc->ld), Db,
              int(Ddesc->ld), tf32_compute(desc->compute)},
             "cublasLtMatmul");
    apply_epilogue(*desc, Db, m, n, Ddesc->ld);
  }
  return CUBLAS_STATUS_SUCCESS;
}
