// cuBLAS(Lt) on OpenBLAS and the runtime API around it, as a user's program
// sees them on the CPU backend: small programs compiled against the kit and
// run in a child process, each checking itself against a naive loop or the
// documented value and printing what it found.
#include <catch2/catch.hpp>
#include <stdlib.h>

#include <string>

#include "temp_dir.h"
#include "warpviz/user_file.h"

using namespace warpviz;
using namespace warpviz::user;
using warpviz::testing_support::TempDir;

namespace {

FileRun run_program(const std::string& source, double time_limit_s = 60.0) {
  TempDir dir("cublas");
  FileRequest request;
  request.path = dir.write("program.cu", source).string();
  request.backend = FileBackend::Cpu;
  request.time_limit_s = time_limit_s;
  return run_user_file(request);
}

bool says(const FileRun& run, const std::string& text) {
  return run.program_output.find(text) != std::string::npos;
}

// Sgemm over every transpose pair, with leading dimensions past the rows and
// alpha, beta not 1 and 0. Small integers keep every sum exact in float, so
// OpenBLAS's order of summation cannot matter and the check is equality; the
// rows of C past m (its padding) must stay as they were.
const char* kSgemmProgram = R"(
#include <cublas_v2.h>
#include <cstdio>
#include <vector>

// Column-major element (r, c) of a matrix with leading dimension ld.
float at(const std::vector<float>& m, int r, int c, int ld) { return m[r + c * ld]; }

int check(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, const char* name) {
  const int m = 5, n = 3, k = 4;
  const int a_rows = ta == CUBLAS_OP_N ? m : k, a_cols = ta == CUBLAS_OP_N ? k : m;
  const int b_rows = tb == CUBLAS_OP_N ? k : n, b_cols = tb == CUBLAS_OP_N ? n : k;
  const int lda = a_rows + 2, ldb = b_rows + 1, ldc = m + 3;
  std::vector<float> A(lda * a_cols), B(ldb * b_cols), C(ldc * n);
  for (size_t i = 0; i < A.size(); ++i) A[i] = float(int(i % 7) - 3);
  for (size_t i = 0; i < B.size(); ++i) B[i] = float(int(i % 5) - 2);
  for (size_t i = 0; i < C.size(); ++i) C[i] = float(int(i % 3) + 1);
  const float alpha = 2.0f, beta = -1.0f;
  std::vector<float> expected = C;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int p = 0; p < k; ++p) {
        const float a = ta == CUBLAS_OP_N ? at(A, i, p, lda) : at(A, p, i, lda);
        const float b = tb == CUBLAS_OP_N ? at(B, p, j, ldb) : at(B, j, p, ldb);
        sum += a * b;
      }
      expected[i + j * ldc] = alpha * sum + beta * C[i + j * ldc];
    }
  float *dA, *dB, *dC;
  cudaMalloc(&dA, A.size() * 4); cudaMalloc(&dB, B.size() * 4); cudaMalloc(&dC, C.size() * 4);
  cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), B.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dC, C.data(), C.size() * 4, cudaMemcpyHostToDevice);
  const cublasStatus_t s = cublasSgemm(h, ta, tb, m, n, k, &alpha, dA, lda, dB, ldb, &beta, dC, ldc);
  cudaMemcpy(C.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (size_t i = 0; i < C.size(); ++i) wrong += C[i] != expected[i];
  printf("sgemm %s status %d wrong %d\n", name, int(s), wrong);
  return wrong;
}

int main() {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
  int wrong = check(h, CUBLAS_OP_N, CUBLAS_OP_N, "NN") + check(h, CUBLAS_OP_T, CUBLAS_OP_N, "TN") +
              check(h, CUBLAS_OP_N, CUBLAS_OP_T, "NT") + check(h, CUBLAS_OP_T, CUBLAS_OP_T, "TT");
  // cuBLAS's argument checks: lda below the rows of A, a negative size.
  float x = 0, one = 1;
  printf("lda too small: %d\n",
         int(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 1, 1, &one, &x, 3, &x, 1, &one, &x, 4)));
  printf("negative m: %d\n", int(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 1, 1, &one, &x, 1, &x, 1, &one, &x, 1)));
  cublasDestroy(h);
  return wrong ? 1 : 0;
}
)";

// Strided batches, cuBLASLt's bias and GELU epilogues (the tanh form) and
// TF32 rounding of the inputs.
const char* kBatchedLtTf32Program = R"(
#include <cublas_v2.h>
#include <cublasLt.h>
#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  cublasHandle_t h;
  cublasCreate(&h);
  // Two 2x2 products in one call: C_b = A_b B_b.
  float A[8] = {1, 2, 3, 4,  0, 1, 1, 0};  // column-major [[1,3],[2,4]] and [[0,1],[1,0]]
  float B[8] = {1, 0, 0, 1,  5, 6, 7, 8};
  float C[8] = {};
  const float one = 1, zero = 0;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, A, 2, 4, B, 2, 4, &zero, C, 2, 4, 2);
  printf("batched %g %g %g %g | %g %g %g %g\n", C[0], C[1], C[2], C[3], C[4], C[5], C[6], C[7]);

  // D (3x2) = gelu(A^T B + bias), A stored 2x3, B 2x2.
  cublasLtHandle_t lt;
  cublasLtCreate(&lt);
  float LA[6] = {1, -1, 0.5f, 2, -3, 1}, LB[4] = {1, 2, -1, 0.5f}, bias[3] = {0.25f, -0.5f, 1}, D[6] = {};
  cublasLtMatmulDesc_t desc;
  cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t t = CUBLAS_OP_T, n = CUBLAS_OP_N;
  cublasLtEpilogue_t e = CUBLASLT_EPILOGUE_GELU_BIAS;
  const float* bias_ptr = bias;
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t);
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &n, sizeof n);
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &e, sizeof e);
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias_ptr, sizeof bias_ptr);
  cublasLtMatrixLayout_t la, lb, ld;
  cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, 2, 3, 2);
  cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, 2, 2, 2);
  cublasLtMatrixLayoutCreate(&ld, CUDA_R_32F, 3, 2, 3);
  cublasLtMatmulPreference_t pref;
  cublasLtMatmulPreferenceCreate(&pref);
  cublasLtMatmulHeuristicResult_t heuristic;
  int found = 0;
  cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, ld, ld, pref, 1, &heuristic, &found);
  const cublasStatus_t s = cublasLtMatmul(lt, desc, &one, LA, la, LB, lb, &zero, D, ld, D, ld, &heuristic.algo,
                                          nullptr, 0, 0);
  double worst = 0;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 3; ++i) {
      double x = bias[i];
      for (int p = 0; p < 2; ++p) x += LA[p + i * 2] * LB[p + j * 2];
      const double g = 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
      worst = std::fmax(worst, std::fabs(g - D[i + j * 3]));
    }
  printf("lt found %d status %d worst %s\n", found, int(s), worst < 1e-5 ? "small" : "LARGE");

  // TF32 keeps 10 fraction bits, rounding to nearest with ties away from zero:
  // 1 + 2^-12 becomes 1, the tie 1 + 2^-11 becomes 1 + 2^-10.
  float a1 = 1.0f + std::ldexp(1.0f, -12), a2 = 1.0f + std::ldexp(1.0f, -11), b1 = 1, c1 = 0, c2 = 0;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &one, &a1, 1, &b1, 1, &zero, &c1, 1);
  printf("fp32 %.10f\n", c1);
  cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &one, &a1, 1, &b1, 1, &zero, &c1, 1);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &one, &a2, 1, &b1, 1, &zero, &c2, 1);
  printf("tf32 %.10f %.10f\n", c1, c2);
  return 0;
}
)";

}  // namespace

TEST_CASE("cublasSgemm: transposes, leading dimensions, alpha and beta against a naive loop", "[cublas]") {
  const FileRun run = run_program(kSgemmProgram);
  INFO(run.message << "\n" << run.compiler_output << run.program_output);
  REQUIRE(run.outcome == FileOutcome::Ok);
  for (const char* pair : {"NN", "TN", "NT", "TT"})
    CHECK(says(run, std::string("sgemm ") + pair + " status 0 wrong 0"));
  CHECK(says(run, "lda too small: 7"));  // CUBLAS_STATUS_INVALID_VALUE
  CHECK(says(run, "negative m: 7"));
  // Said once, on stderr, however many GEMMs ran.
  const std::string notice = "cuBLAS runs on OpenBLAS on the CPU; its results are not the GPU's bits";
  const size_t first = run.program_output.find(notice);
  CHECK(first != std::string::npos);
  CHECK(run.program_output.find(notice, first + 1) == std::string::npos);
}

TEST_CASE("cuBLAS: strided batches, cuBLASLt bias and GELU epilogue, TF32 inputs", "[cublas]") {
  const FileRun run = run_program(kBatchedLtTf32Program);
  INFO(run.message << "\n" << run.compiler_output << run.program_output);
  REQUIRE(run.outcome == FileOutcome::Ok);
  // [[1,3],[2,4]] I and [[0,1],[1,0]] [[5,7],[6,8]] = [[6,8],[5,7]], column-major.
  CHECK(says(run, "batched 1 2 3 4 | 6 5 8 7"));
  CHECK(says(run, "lt found 1 status 0 worst small"));
  CHECK(says(run, "fp32 1.0002441406"));
  CHECK(says(run, "tf32 1.0000000000 1.0009765625"));
}

// Level 1 and 2 and the double GEMM, as cuBLAS defines them (1-based
// indices, strides, the copies' leading dimensions), against naive loops.
// Small integers keep every sum exact, so equality is the check.
const char* kLevelOneTwoProgram = R"(
#include <cublas_v2.h>
#include <cmath>
#include <cstdio>

int main() {
  cublasHandle_t h;
  cublasCreate(&h);
  const int n = 6;
  float hx[n] = {1, -4, 2, 7, -7, 3}, hy[n] = {2, 1, 0, -1, 5, 4};
  float *x, *y;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&y, sizeof hy);
  cublasSetVector(n, sizeof(float), hx, 1, x, 1);
  cublasSetVector(n, sizeof(float), hy, 1, y, 1);
  float dot = 0, asum = 0, nrm = 0;
  cublasSdot(h, n, x, 1, y, 1, &dot);
  cublasSasum(h, n, x, 1, &asum);
  int amax = -1, amin = -1, none = -1;
  cublasIsamax(h, n, x, 1, &amax);  // |7| at index 4 (1-based) comes before |-7|
  cublasIsamin(h, n, x, 1, &amin);
  cublasIsamax(h, 0, x, 1, &none);
  float three_four[2] = {3, 4}, *v;
  cudaMalloc(&v, sizeof three_four);
  cudaMemcpy(v, three_four, sizeof three_four, cudaMemcpyHostToDevice);
  cublasSnrm2(h, 2, v, 1, &nrm);
  printf("dot %g asum %g amax %d amin %d empty %d nrm2 %g\n", dot, asum, amax, amin, none, nrm);

  const float two = 2;
  cublasSaxpy(h, n, &two, x, 1, y, 1);  // y += 2x
  cublasSscal(h, 3, &two, x, 2);        // every other element of x doubled
  float gx[n], gy[n];
  cublasGetVector(n, sizeof(float), x, 1, gx, 1);
  cublasGetVector(n, sizeof(float), y, 1, gy, 1);
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    if (gy[i] != hy[i] + 2 * hx[i]) ++wrong;
    if (gx[i] != (i % 2 == 0 ? 2 * hx[i] : hx[i])) ++wrong;
  }
  printf("axpy and strided scal: %d wrong\n", wrong);

  // y = 2 A^T x - y with A 3 x 2 stored with leading dimension 4.
  const int m = 3, k = 2, lda = 4;
  float hA[lda * k] = {1, 2, 3, 99, -1, 0, 5, 99};
  float *A, *gv, *xv;
  cudaMalloc(&A, sizeof hA);
  cudaMalloc(&gv, 2 * sizeof(float));
  cudaMalloc(&xv, 3 * sizeof(float));
  cublasSetMatrix(m, k, sizeof(float), hA, lda, A, lda);
  float hxv[3] = {1, 1, 2}, hgv[2] = {10, 20};
  cudaMemcpy(xv, hxv, sizeof hxv, cudaMemcpyHostToDevice);
  cudaMemcpy(gv, hgv, sizeof hgv, cudaMemcpyHostToDevice);
  const float minus_one = -1;
  cublasSgemv(h, CUBLAS_OP_T, m, k, &two, A, lda, xv, 1, &minus_one, gv, 1);
  float out[2];
  cudaMemcpy(out, gv, sizeof out, cudaMemcpyDeviceToHost);
  printf("gemv %g %g\n", out[0], out[1]);  // 2*(1+2+6)-10 = 8, 2*(-1+0+10)-20 = -2

  // C = A B in doubles, 2 x 2 x 2.
  double hda[4] = {1, 2, 3, 4}, hdb[4] = {5, 6, 7, 8}, hdc[4] = {0, 0, 0, 0};
  double *da, *db, *dc;
  cudaMalloc(&da, sizeof hda);
  cudaMalloc(&db, sizeof hdb);
  cudaMalloc(&dc, sizeof hdc);
  cudaMemcpy(da, hda, sizeof hda, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hdb, sizeof hdb, cudaMemcpyHostToDevice);
  const double one = 1, zero = 0;
  cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, da, 2, db, 2, &zero, dc, 2);
  cudaMemcpy(hdc, dc, sizeof hdc, cudaMemcpyDeviceToHost);
  printf("dgemm %g %g %g %g\n", hdc[0], hdc[1], hdc[2], hdc[3]);  // column-major: 23 34 31 46
  printf("bad stride: %d\n", int(cublasSetVector(n, sizeof(float), hx, 0, x, 1)));
  cublasDestroy(h);
  return 0;
}
)";

TEST_CASE("cuBLAS level 1 and 2, Dgemm and the vector and matrix copies, against naive loops", "[cublas]") {
  const FileRun run = run_program(kLevelOneTwoProgram);
  INFO(run.message << "\n" << run.program_output);
  REQUIRE(run.ok());
  CHECK(says(run, "dot -32 asum 24 amax 4 amin 1 empty 0 nrm2 5\n"));
  CHECK(says(run, "axpy and strided scal: 0 wrong\n"));
  CHECK(says(run, "gemv 8 -2\n"));
  CHECK(says(run, "dgemm 23 34 31 46\n"));
  CHECK(says(run, "bad stride: 7\n"));  // CUBLAS_STATUS_INVALID_VALUE
}

// NVTX ranges and marks (profilers' annotations) compile, link without
// -lnvToolsExt's library and change nothing in the run.
const char* kNvtxProgram = R"(
#include <nvToolsExt.h>
#include <nvtx3/nvToolsExtCuda.h>
#include <nvtx3/nvtx3.hpp>
#include <cstdio>

__global__ void fill(int* out) { out[threadIdx.x] = threadIdx.x * 3; }

int main() {
  nvtxNameOsThreadA(0, "main");
  nvtxRangePushA("setup");
  int* d;
  cudaMalloc(&d, 32 * sizeof(int));
  nvtxEventAttributes_t attr = {};
  attr.version = NVTX_VERSION;
  attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attr.colorType = NVTX_COLOR_ARGB;
  attr.color = 0xff00ff00u;
  attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attr.message.ascii = "launch";
  nvtxRangePushEx(&attr);
  {
    nvtx3::scoped_range r{"fill"};
    fill<<<1, 32>>>(d);
  }
  nvtxRangePop();
  const nvtxRangeId_t id = nvtxRangeStartA("copy");
  int h[32];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  nvtxRangeEnd(id);
  nvtxMarkA("done");
  nvtxRangePop();
  printf("h[31] = %d\n", h[31]);
  return 0;
}
)";

TEST_CASE("NVTX ranges and marks compile and change nothing", "[cublas][runtime]") {
  const FileRun run = run_program(kNvtxProgram);
  INFO(run.message << "\n" << run.program_output);
  REQUIRE(run.ok());
  CHECK(says(run, "h[31] = 93\n"));
  CHECK(run.launches.size() == 1);
}

TEST_CASE("cuBLAS without OpenBLAS: handles work, a GEMM stops with a message (exit 2)", "[cublas]") {
  ::setenv("WARPVIZ_OPENBLAS", "/nonexistent/libopenblas.so.0", 1);
  const FileRun handles_only = run_program(R"(
#include <cublas_v2.h>
#include <cstdio>
int main() { cublasHandle_t h; printf("create %d\n", int(cublasCreate(&h))); return int(cublasDestroy(h)); }
)");
  const FileRun gemm = run_program(R"(
#include <cublas_v2.h>
int main() {
  cublasHandle_t h; cublasCreate(&h);
  float a = 1, b = 1, c = 0, one = 1, zero = 0;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &one, &a, 1, &b, 1, &zero, &c, 1);
  return 0;
}
)");
  ::unsetenv("WARPVIZ_OPENBLAS");
  INFO(handles_only.message << handles_only.program_output);
  CHECK(handles_only.outcome == FileOutcome::Ok);
  CHECK(says(handles_only, "create 0"));
  INFO(gemm.message << gemm.program_output);
  CHECK(gemm.outcome == FileOutcome::RequestError);
  CHECK(gemm.exit_code == 2);
  CHECK(gemm.message.find("cublasSgemm: cuBLAS runs on OpenBLAS") != std::string::npos);
  CHECK(gemm.message.find("libopenblas-dev") != std::string::npos);
}

TEST_CASE("cuBLAS: half-precision matrices are refused by name", "[cublas]") {
  const FileRun run = run_program(R"(
#include <cublas_v2.h>
int main() {
  cublasHandle_t h; cublasCreate(&h);
  short a = 0, b = 0; float c = 0, one = 1, zero = 0;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &one, &a, CUDA_R_16F, 1, &b, CUDA_R_16F, 1, &zero, &c,
               CUDA_R_32F, 1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  return 0;
}
)");
  INFO(run.message << run.program_output);
  CHECK(run.outcome == FileOutcome::RequestError);
  CHECK(run.message.find("cublasGemmEx with CUDA_R_16F matrices") != std::string::npos);
}

TEST_CASE("cudaGetDeviceProperties and cudaDeviceGetAttribute: an H200", "[cublas][runtime]") {
  const FileRun run = run_program(R"(
#include <cstdio>
int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("name %s\n", p.name);
  printf("cc %d.%d sms %d threads/sm %d warp %d\n", p.major, p.minor, p.multiProcessorCount,
         p.maxThreadsPerMultiProcessor, p.warpSize);
  printf("shared/sm %zu optin %zu block %zu reserved %zu\n", p.sharedMemPerMultiprocessor, p.sharedMemPerBlockOptin,
         p.sharedMemPerBlock, p.reservedSharedMemPerBlock);
  printf("blocks/sm %d regs/sm %d regs/block %d\n", p.maxBlocksPerMultiProcessor, p.regsPerMultiprocessor,
         p.regsPerBlock);
  int sms, optin, major, clock;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0);
  printf("attr sms %d optin %d major %d clock %d\n", sms, optin, major, clock);
  printf("device 1: %s\n", cudaGetErrorName(cudaGetDeviceProperties(&p, 1)));
  return 0;
}
)");
  INFO(run.message << "\n" << run.compiler_output << run.program_output);
  REQUIRE(run.outcome == FileOutcome::Ok);
  CHECK(says(run, "name NVIDIA H200\n"));  // as the corpus's H200 references print it
  CHECK(says(run, "cc 9.0 sms 132 threads/sm 2048 warp 32"));
  // The Programming Guide's compute capability 9.0 limits: 228 KiB an SM, 227 KiB a block with the opt-in.
  CHECK(says(run, "shared/sm 233472 optin 232448 block 49152 reserved 1024"));
  CHECK(says(run, "blocks/sm 32 regs/sm 65536 regs/block 65536"));
  CHECK(says(run, "attr sms 132 optin 232448 major 9 clock 1980000"));
  CHECK(says(run, "device 1: cudaErrorInvalidDevice"));
}

TEST_CASE("runtime calls: queries, limits, function attributes, occupancy, error strings", "[cublas][runtime]") {
  const FileRun run = run_program(R"(
#include <cstdio>
__global__ void k(float* x) { x[threadIdx.x] = 1; }
__device__ int counter[4];
int main() {
  cudaEvent_t e; cudaEventCreate(&e); cudaEventRecord(e);
  cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  printf("event %d stream %d wait %d\n", int(cudaEventQuery(e)), int(cudaStreamQuery(s)),
         int(cudaStreamWaitEvent(s, e, 0)));
  size_t heap = 0;
  cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
  printf("heap default %zu\n", heap);
  cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20);
  cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
  printf("heap set %zu\n", heap);
  cudaFuncAttributes before, after;
  cudaFuncGetAttributes(&before, k);
  printf("optin %d\n", int(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024)));
  printf("too much %d\n", int(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 228 * 1024)));
  cudaGetLastError();
  cudaFuncGetAttributes(&after, k);
  printf("dynamic shared %d -> %d, max threads %d\n", before.maxDynamicSharedSizeBytes,
         after.maxDynamicSharedSizeBytes, after.maxThreadsPerBlock);
  int b1024, b256, b256_shared, b32;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b1024, k, 1024, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b256, k, 256, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b256_shared, k, 256, 100 * 1024);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b32, k, 32, 0);
  printf("occupancy %d %d %d %d\n", b1024, b256, b256_shared, b32);
  int grid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&grid, &block, k, 0, 0);
  printf("potential grid %d block %d\n", grid, block);
  float* pinned = nullptr;
  printf("host alloc %d\n", int(cudaMallocHost(&pinned, 64)));
  pinned[0] = 3;
  int values[4] = {1, 2, 3, 4}, back[4] = {};
  cudaMemcpyToSymbol(counter, values, sizeof values);
  cudaMemcpyFromSymbol(back, counter, sizeof back);
  printf("symbol %d %d pinned %g\n", back[0], back[3], pinned[0]);
  printf("free %d\n", int(cudaFreeHost(pinned)));
  printf("%s: %s\n", cudaGetErrorName(cudaErrorLaunchFailure), cudaGetErrorString(cudaErrorLaunchFailure));
  printf("%d %s\n", int(cudaErrorMisalignedAddress), cudaGetErrorString(cudaErrorMisalignedAddress));
  printf("%d %s\n", int(cudaErrorInvalidResourceHandle), cudaGetErrorString(cudaErrorInvalidResourceHandle));
  return 0;
}
)");
  INFO(run.message << "\n" << run.compiler_output << run.program_output);
  REQUIRE(run.outcome == FileOutcome::Ok);
  CHECK(says(run, "event 0 stream 0 wait 0"));  // the emulator's work is done when a call returns
  CHECK(says(run, "heap default 8388608"));
  CHECK(says(run, "heap set 67108864"));
  CHECK(says(run, "optin 0"));
  CHECK(says(run, "too much 1"));  // past 227 KiB: cudaErrorInvalidValue
  CHECK(says(run, "dynamic shared 49152 -> 102400, max threads 1024"));
  // 64 warps an SM: 2 blocks of 1024, 8 of 256; 228 KiB of shared memory holds
  // 2 blocks of 100 KiB (+1 KiB reserved each); one-warp blocks stop at 32 an SM.
  CHECK(says(run, "occupancy 2 8 2 32"));
  CHECK(says(run, "potential grid 264 block 1024"));
  CHECK(says(run, "host alloc 0"));
  CHECK(says(run, "symbol 1 4 pinned 3\nfree 0"));
  CHECK(says(run, "cudaErrorLaunchFailure: unspecified launch failure"));
  CHECK(says(run, "716 misaligned address"));
  CHECK(says(run, "400 invalid resource handle"));
}

TEST_CASE("dynamic shared memory past 48 KiB needs cudaFuncSetAttribute, as on the GPU", "[cublas][runtime]") {
  const FileRun run = run_program(R"(
#include <cstdio>
__global__ void fill(int* out) {
  extern __shared__ int buffer[];
  buffer[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = buffer[31 - threadIdx.x];
}
int main() {
  int* out;
  cudaMalloc(&out, 32 * sizeof(int));
  fill<<<1, 32, 64 * 1024>>>(out);
  printf("without: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaFuncSetAttribute(fill, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  fill<<<1, 32, 64 * 1024>>>(out);
  int host[32];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("with: %s, out[0] %d\n", cudaGetErrorName(cudaGetLastError()), host[0]);
  return 0;
}
)");
  INFO(run.message << "\n" << run.compiler_output << run.program_output);
  REQUIRE(run.outcome == FileOutcome::Ok);
  CHECK(says(run, "without: cudaErrorInvalidValue"));
  CHECK(says(run, "past 49152 a kernel needs cudaFuncSetAttribute"));
  CHECK(says(run, "with: cudaSuccess, out[0] 31"));
}

TEST_CASE("pitched memory: cudaMallocPitch, cudaMemcpy2D and cudaMemset2D keep to their rows", "[cublas][runtime]") {
  const FileRun run = run_program(R"(
#include <cstdio>
int main() {
  unsigned char* d;
  size_t pitch = 0;
  cudaMallocPitch(&d, &pitch, 10, 3);
  printf("pitch ok %d\n", int(pitch >= 10));
  cudaMemset2D(d, pitch, 0xee, pitch, 3);    // every byte of the three rows
  cudaMemset2D(d, pitch, 7, 10, 3);          // only each row's first 10
  unsigned char host[4][10];
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 10; ++c) host[r][c] = (unsigned char)(r * 10 + c);
  // Rows 0 and 2 of the host array (20 bytes apart) to rows 0 and 1 of d, 4 bytes of each.
  cudaMemcpy2D(d, pitch, &host[0][0], 20, 4, 2, cudaMemcpyHostToDevice);
  unsigned char back[3][12];
  cudaMemcpy2D(back, 12, d, pitch, 12, 3, cudaMemcpyDeviceToHost);
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 12; ++c) printf(" %d", back[r][c]);
    printf("\n");
  }
  printf("wide %s\n", cudaGetErrorName(cudaMemcpy2D(back, 12, d, pitch, 13, 1, cudaMemcpyDeviceToHost)));
  return 0;
}
)");
  INFO(run.message << "\n" << run.compiler_output << run.program_output);
  REQUIRE(run.outcome == FileOutcome::Ok);
  CHECK(says(run, "pitch ok 1"));
  CHECK(says(run, " 0 1 2 3 7 7 7 7 7 7 238 238\n"));
  CHECK(says(run, " 20 21 22 23 7 7 7 7 7 7 238 238\n"));
  CHECK(says(run, " 7 7 7 7 7 7 7 7 7 7 238 238\n"));
  CHECK(says(run, "wide cudaErrorInvalidPitchValue"));  // a row wider than the destination's pitch
}
