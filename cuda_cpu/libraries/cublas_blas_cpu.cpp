// cuBLAS's level-1 and level-2 routines, the double GEMMs and the vector and
// matrix copies of a user's program on the CPU backend (cublas_v2.h), done by
// OpenBLAS's CBLAS functions. cuBLAS and CBLAS agree on column-major storage,
// strides (a negative increment walks the vector from its far end) and what
// n <= 0 does, so the arguments pass through; only the index routines differ
// (cuBLAS counts from 1). The results are OpenBLAS's, not the GPU's bits
// (docs/floats.md).
//
// [SECTION] CBLAS by name
// [SECTION] Level 1
// [SECTION] Level 2
// [SECTION] Double GEMMs
// [SECTION] Copies
#include <cstddef>
#include <cstring>

#include "cublas_v2.h"
#include "openblas.h"
#include "warpviz/user_launch.h"

namespace {

// ============================================================================
// [SECTION] CBLAS by name
// ============================================================================

// CBLAS's enums (cblas.h).
constexpr int kCblasColMajor = 102;
constexpr int kCblasNoTrans = 111;
constexpr int kCblasTrans = 112;

int cblas_transpose(cublasOperation_t op) { return op == CUBLAS_OP_N ? kCblasNoTrans : kCblasTrans; }
bool valid_op(cublasOperation_t op) { return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C; }

// The CBLAS function `name` of type F, looked up once per call site.
template <typename F>
F cblas(const char* name, const char* caller) {
  return reinterpret_cast<F>(warpviz::user::openblas_function(name, caller));
}

#define WARPVIZ_CBLAS(type, name, caller)                               \
  static const auto name = cblas<type>(#name, caller);                  \
  ::warpviz::user::begin_library_launch()

}  // namespace

// ============================================================================
// [SECTION] Level 1
// ============================================================================

cublasStatus_t cublasSaxpy(cublasHandle_t handle, int n, const float* alpha, const float* x, int incx, float* y,
                           int incy) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(void (*)(int, float, const float*, int, float*, int), cblas_saxpy, "cublasSaxpy");
  cblas_saxpy(n, *alpha, x, incx, y, incy);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDaxpy(cublasHandle_t handle, int n, const double* alpha, const double* x, int incx, double* y,
                           int incy) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(void (*)(int, double, const double*, int, double*, int), cblas_daxpy, "cublasDaxpy");
  cblas_daxpy(n, *alpha, x, incx, y, incy);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSdot(cublasHandle_t handle, int n, const float* x, int incx, const float* y, int incy,
                          float* result) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!result) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0) return *result = 0, CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(float (*)(int, const float*, int, const float*, int), cblas_sdot, "cublasSdot");
  *result = cblas_sdot(n, x, incx, y, incy);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDdot(cublasHandle_t handle, int n, const double* x, int incx, const double* y, int incy,
                          double* result) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!result) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0) return *result = 0, CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(double (*)(int, const double*, int, const double*, int), cblas_ddot, "cublasDdot");
  *result = cblas_ddot(n, x, incx, y, incy);
  return CUBLAS_STATUS_SUCCESS;
}

// nrm2 and asum read a vector with a positive increment only; else 0.
cublasStatus_t cublasSnrm2(cublasHandle_t handle, int n, const float* x, int incx, float* result) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!result) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0 || incx <= 0) return *result = 0, CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(float (*)(int, const float*, int), cblas_snrm2, "cublasSnrm2");
  *result = cblas_snrm2(n, x, incx);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDnrm2(cublasHandle_t handle, int n, const double* x, int incx, double* result) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!result) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0 || incx <= 0) return *result = 0, CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(double (*)(int, const double*, int), cblas_dnrm2, "cublasDnrm2");
  *result = cblas_dnrm2(n, x, incx);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSasum(cublasHandle_t handle, int n, const float* x, int incx, float* result) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!result) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0 || incx <= 0) return *result = 0, CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(float (*)(int, const float*, int), cblas_sasum, "cublasSasum");
  *result = cblas_sasum(n, x, incx);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDasum(cublasHandle_t handle, int n, const double* x, int incx, double* result) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!result) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0 || incx <= 0) return *result = 0, CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(double (*)(int, const double*, int), cblas_dasum, "cublasDasum");
  *result = cblas_dasum(n, x, incx);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSscal(cublasHandle_t handle, int n, const float* alpha, float* x, int incx) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0 || incx <= 0) return CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(void (*)(int, float, float*, int), cblas_sscal, "cublasSscal");
  cblas_sscal(n, *alpha, x, incx);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDscal(cublasHandle_t handle, int n, const double* alpha, double* x, int incx) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0 || incx <= 0) return CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(void (*)(int, double, double*, int), cblas_dscal, "cublasDscal");
  cblas_dscal(n, *alpha, x, incx);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasScopy(cublasHandle_t handle, int n, const float* x, int incx, float* y, int incy) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(void (*)(int, const float*, int, float*, int), cblas_scopy, "cublasScopy");
  cblas_scopy(n, x, incx, y, incy);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDcopy(cublasHandle_t handle, int n, const double* x, int incx, double* y, int incy) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(void (*)(int, const double*, int, double*, int), cblas_dcopy, "cublasDcopy");
  cblas_dcopy(n, x, incx, y, incy);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSswap(cublasHandle_t handle, int n, float* x, int incx, float* y, int incy) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(void (*)(int, float*, int, float*, int), cblas_sswap, "cublasSswap");
  cblas_sswap(n, x, incx, y, incy);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDswap(cublasHandle_t handle, int n, double* x, int incx, double* y, int incy) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(void (*)(int, double*, int, double*, int), cblas_dswap, "cublasDswap");
  cblas_dswap(n, x, incx, y, incy);
  return CUBLAS_STATUS_SUCCESS;
}

// CBLAS's i?amax/i?amin count from 0 (OpenBLAS has the amin ones too).
cublasStatus_t cublasIsamax(cublasHandle_t handle, int n, const float* x, int incx, int* result) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!result) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0 || incx <= 0) return *result = 0, CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(size_t (*)(int, const float*, int), cblas_isamax, "cublasIsamax");
  *result = int(cblas_isamax(n, x, incx)) + 1;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasIdamax(cublasHandle_t handle, int n, const double* x, int incx, int* result) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!result) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0 || incx <= 0) return *result = 0, CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(size_t (*)(int, const double*, int), cblas_idamax, "cublasIdamax");
  *result = int(cblas_idamax(n, x, incx)) + 1;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasIsamin(cublasHandle_t handle, int n, const float* x, int incx, int* result) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!result) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0 || incx <= 0) return *result = 0, CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(size_t (*)(int, const float*, int), cblas_isamin, "cublasIsamin");
  *result = int(cblas_isamin(n, x, incx)) + 1;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasIdamin(cublasHandle_t handle, int n, const double* x, int incx, int* result) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!result) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0 || incx <= 0) return *result = 0, CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(size_t (*)(int, const double*, int), cblas_idamin, "cublasIdamin");
  *result = int(cblas_idamin(n, x, incx)) + 1;
  return CUBLAS_STATUS_SUCCESS;
}

// ============================================================================
// [SECTION] Level 2
// ============================================================================

namespace {
// cuBLAS's checks for gemv and ger (its documentation's lists).
cublasStatus_t check_matrix_vector(int m, int n, int lda, int incx, int incy) {
  if (m < 0 || n < 0 || incx == 0 || incy == 0 || lda < (m > 1 ? m : 1)) return CUBLAS_STATUS_INVALID_VALUE;
  return CUBLAS_STATUS_SUCCESS;
}
}  // namespace

cublasStatus_t cublasSgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const float* alpha,
                           const float* A, int lda, const float* x, int incx, const float* beta, float* y, int incy) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!valid_op(trans) || !alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  if (const cublasStatus_t s = check_matrix_vector(m, n, lda, incx, incy); s != CUBLAS_STATUS_SUCCESS) return s;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(void (*)(int, int, int, int, float, const float*, int, const float*, int, float, float*, int),
                cblas_sgemv, "cublasSgemv");
  cblas_sgemv(kCblasColMajor, cblas_transpose(trans), m, n, *alpha, A, lda, x, incx, *beta, y, incy);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const double* alpha,
                           const double* A, int lda, const double* x, int incx, const double* beta, double* y,
                           int incy) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!valid_op(trans) || !alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  if (const cublasStatus_t s = check_matrix_vector(m, n, lda, incx, incy); s != CUBLAS_STATUS_SUCCESS) return s;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(void (*)(int, int, int, int, double, const double*, int, const double*, int, double, double*, int),
                cblas_dgemv, "cublasDgemv");
  cblas_dgemv(kCblasColMajor, cblas_transpose(trans), m, n, *alpha, A, lda, x, incx, *beta, y, incy);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSger(cublasHandle_t handle, int m, int n, const float* alpha, const float* x, int incx,
                          const float* y, int incy, float* A, int lda) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
  if (const cublasStatus_t s = check_matrix_vector(m, n, lda, incx, incy); s != CUBLAS_STATUS_SUCCESS) return s;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(void (*)(int, int, int, float, const float*, int, const float*, int, float*, int), cblas_sger,
                "cublasSger");
  cblas_sger(kCblasColMajor, m, n, *alpha, x, incx, y, incy, A, lda);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDger(cublasHandle_t handle, int m, int n, const double* alpha, const double* x, int incx,
                          const double* y, int incy, double* A, int lda) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
  if (const cublasStatus_t s = check_matrix_vector(m, n, lda, incx, incy); s != CUBLAS_STATUS_SUCCESS) return s;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(void (*)(int, int, int, double, const double*, int, const double*, int, double*, int), cblas_dger,
                "cublasDger");
  cblas_dger(kCblasColMajor, m, n, *alpha, x, incx, y, incy, A, lda);
  return CUBLAS_STATUS_SUCCESS;
}

// ============================================================================
// [SECTION] Double GEMMs
// ============================================================================

namespace {
cublasStatus_t check_dgemm(cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, int lda, int ldb,
                           int ldc) {
  if (!valid_op(transa) || !valid_op(transb) || m < 0 || n < 0 || k < 0) return CUBLAS_STATUS_INVALID_VALUE;
  const int a_rows = transa != CUBLAS_OP_N ? k : m, b_rows = transb != CUBLAS_OP_N ? n : k;
  auto at_least_one = [](int v) { return v > 1 ? v : 1; };
  if (lda < at_least_one(a_rows) || ldb < at_least_one(b_rows) || ldc < at_least_one(m))
    return CUBLAS_STATUS_INVALID_VALUE;
  return CUBLAS_STATUS_SUCCESS;
}

using CblasDgemm = void (*)(int, int, int, int, int, int, double, const double*, int, const double*, int, double,
                            double*, int);
}  // namespace

cublasStatus_t cublasDgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           int k, const double* alpha, const double* A, int lda, const double* B, int ldb,
                           const double* beta, double* C, int ldc) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (const cublasStatus_t s = check_dgemm(transa, transb, m, n, k, lda, ldb, ldc); s != CUBLAS_STATUS_SUCCESS)
    return s;
  if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(CblasDgemm, cblas_dgemm, "cublasDgemm");
  cblas_dgemm(kCblasColMajor, cblas_transpose(transa), cblas_transpose(transb), m, n, k, *alpha, A, lda, B, ldb,
              *beta, C, ldc);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const double* alpha, const double* A, int lda,
                                         long long strideA, const double* B, int ldb, long long strideB,
                                         const double* beta, double* C, int ldc, long long strideC, int batchCount) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (const cublasStatus_t s = check_dgemm(transa, transb, m, n, k, lda, ldb, ldc); s != CUBLAS_STATUS_SUCCESS)
    return s;
  if (!alpha || !beta || batchCount < 0) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  WARPVIZ_CBLAS(CblasDgemm, cblas_dgemm, "cublasDgemmStridedBatched");
  for (int b = 0; b < batchCount; ++b)
    cblas_dgemm(kCblasColMajor, cblas_transpose(transa), cblas_transpose(transb), m, n, k, *alpha, A + b * strideA,
                lda, B + b * strideB, ldb, *beta, C + b * strideC, ldc);
  return CUBLAS_STATUS_SUCCESS;
}

// ============================================================================
// [SECTION] Copies
// ============================================================================
// Host and "device" memory are one address space here: each is a strided copy.

namespace {
cublasStatus_t copy_vector(int n, int elem_size, const void* x, int incx, void* y, int incy) {
  if (n < 0 || elem_size <= 0 || incx <= 0 || incy <= 0) return CUBLAS_STATUS_INVALID_VALUE;
  if (n > 0 && (!x || !y)) return CUBLAS_STATUS_INVALID_VALUE;
  const auto* from = static_cast<const unsigned char*>(x);
  auto* to = static_cast<unsigned char*>(y);
  for (int i = 0; i < n; ++i)
    std::memmove(to + size_t(i) * incy * elem_size, from + size_t(i) * incx * elem_size, size_t(elem_size));
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t copy_matrix(int rows, int cols, int elem_size, const void* A, int lda, void* B, int ldb) {
  if (rows < 0 || cols < 0 || elem_size <= 0 || lda <= 0 || ldb <= 0 || lda < rows || ldb < rows)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (rows > 0 && cols > 0 && (!A || !B)) return CUBLAS_STATUS_INVALID_VALUE;
  const auto* from = static_cast<const unsigned char*>(A);
  auto* to = static_cast<unsigned char*>(B);
  for (int c = 0; c < cols; ++c)
    std::memmove(to + size_t(c) * ldb * elem_size, from + size_t(c) * lda * elem_size, size_t(rows) * elem_size);
  return CUBLAS_STATUS_SUCCESS;
}
}  // namespace

cublasStatus_t cublasSetVector(int n, int elemSize, const void* x, int incx, void* y, int incy) {
  return copy_vector(n, elemSize, x, incx, y, incy);
}
cublasStatus_t cublasGetVector(int n, int elemSize, const void* x, int incx, void* y, int incy) {
  return copy_vector(n, elemSize, x, incx, y, incy);
}
cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb) {
  return copy_matrix(rows, cols, elemSize, A, lda, B, ldb);
}
cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb) {
  return copy_matrix(rows, cols, elemSize, A, lda, B, ldb);
}
cublasStatus_t cublasSetVectorAsync(int n, int elemSize, const void* x, int incx, void* y, int incy, cudaStream_t) {
  return copy_vector(n, elemSize, x, incx, y, incy);
}
cublasStatus_t cublasGetVectorAsync(int n, int elemSize, const void* x, int incx, void* y, int incy, cudaStream_t) {
  return copy_vector(n, elemSize, x, incx, y, incy);
}
cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb,
                                    cudaStream_t) {
  return copy_matrix(rows, cols, elemSize, A, lda, B, ldb);
}
cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb,
                                    cudaStream_t) {
  return copy_matrix(rows, cols, elemSize, A, lda, B, ldb);
}
