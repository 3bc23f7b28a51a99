/* Preloaded into a corpus program built with `nvcc -cudart shared` on a GPU
 * machine (scripts/corpus-reference.sh): every copy from device to host is
 * logged with its size and an FNV-1a 64 hash, and small ones are kept whole,
 * so the CPU emulator's copied-back arrays can be compared with the H200's
 * bit for bit, not only the program's PASS line.
 *
 * WARPVIZ_D2H_LOG   text file, one line per copy: "seq api bytes hash kept"
 * WARPVIZ_D2H_DATA  the kept copies' bytes, one after another
 *
 * A copy is kept whole when it is at most KEEP_ONE bytes and the run has kept
 * less than KEEP_ALL so far; the hash covers every copy. Async copies are
 * waited for (their stream synchronised) before hashing: the timing changes,
 * the bytes do not. */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { KEEP_ONE = 64 * 1024, KEEP_ALL = 256 * 1024 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE* log_file;
static FILE* data_file;
static unsigned long seq;
static size_t kept_total;

static uint64_t fnv1a64(const unsigned char* p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

static void* next_symbol(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (!f) {
    fprintf(stderr, "d2h_capture: %s not found (was the program built with -cudart shared?)\n", name);
    abort();
  }
  return f;
}

/* cudaMemcpyDefault decides by the pointers: a device (or managed) source
 * written into host memory is a copy back. */
static int is_copy_back(const void* dst, const void* src, enum cudaMemcpyKind kind) {
  if (kind == cudaMemcpyDeviceToHost) return 1;
  if (kind != cudaMemcpyDefault) return 0;
  struct cudaPointerAttributes a_src, a_dst;
  if (cudaPointerGetAttributes(&a_src, src) != cudaSuccess) { cudaGetLastError(); return 0; }
  if (cudaPointerGetAttributes(&a_dst, dst) != cudaSuccess) { cudaGetLastError(); return 0; }
  const int src_dev = a_src.type == cudaMemoryTypeDevice || a_src.type == cudaMemoryTypeManaged;
  const int dst_host = a_dst.type == cudaMemoryTypeHost || a_dst.type == cudaMemoryTypeUnregistered;
  return src_dev && dst_host;
}

static void record(const char* api, const void* dst, size_t bytes) {
  pthread_mutex_lock(&lock);
  if (!log_file) {
    const char* l = getenv("WARPVIZ_D2H_LOG");
    const char* d = getenv("WARPVIZ_D2H_DATA");
    log_file = l ? fopen(l, "w") : NULL;
    data_file = d ? fopen(d, "wb") : NULL;
  }
  if (log_file) {
    const int keep = data_file && bytes <= KEEP_ONE && kept_total + bytes <= KEEP_ALL;
    fprintf(log_file, "%lu %s %zu %016" PRIx64 " %d\n", seq, api, bytes,
            fnv1a64((const unsigned char*)dst, bytes), keep);
    fflush(log_file);
    if (keep) {
      fwrite(dst, 1, bytes, data_file);
      fflush(data_file);
      kept_total += bytes;
    }
  }
  ++seq;
  pthread_mutex_unlock(&lock);
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind) {
  static cudaError_t (*real)(void*, const void*, size_t, enum cudaMemcpyKind);
  if (!real) real = (cudaError_t(*)(void*, const void*, size_t, enum cudaMemcpyKind))next_symbol("cudaMemcpy");
  const cudaError_t r = real(dst, src, count, kind);
  if (r == cudaSuccess && is_copy_back(dst, src, kind)) record("cudaMemcpy", dst, count);
  return r;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind, cudaStream_t s) {
  static cudaError_t (*real)(void*, const void*, size_t, enum cudaMemcpyKind, cudaStream_t);
  if (!real)
    real = (cudaError_t(*)(void*, const void*, size_t, enum cudaMemcpyKind, cudaStream_t))next_symbol(
        "cudaMemcpyAsync");
  const cudaError_t r = real(dst, src, count, kind, s);
  if (r == cudaSuccess && is_copy_back(dst, src, kind)) {
    /* A copy inside stream capture (CUDA graphs) has not happened yet. */
    enum cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
    cudaStreamIsCapturing(s, &capturing);
    if (capturing == cudaStreamCaptureStatusNone && cudaStreamSynchronize(s) == cudaSuccess)
      record("cudaMemcpyAsync", dst, count);
  }
  return r;
}

cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind) {
  static cudaError_t (*real)(void*, const void*, size_t, size_t, enum cudaMemcpyKind);
  if (!real)
    real = (cudaError_t(*)(void*, const void*, size_t, size_t, enum cudaMemcpyKind))next_symbol(
        "cudaMemcpyFromSymbol");
  const cudaError_t r = real(dst, symbol, count, offset, kind);
  if (r == cudaSuccess) record("cudaMemcpyFromSymbol", dst, count);
  return r;
}
