// The CUDA runtime of a user's program on the CPU backend (user_runtime.h):
// "device" memory with guard pages, launches run in the emulator and written
// out one trace per launch, and a crash report a parent process can read.
//
// [SECTION] Where the parent wants things
// [SECTION] Device memory
// [SECTION] Crash and hang reports
// [SECTION] Launches
// [SECTION] The kernel-only request
// [SECTION] The rest of the runtime API
#include "warpviz/user_runtime.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <vector>

#include "warpviz/trace_io.h"
#include "warpviz/user_driver.h"
#include "warpviz/version.h"

namespace warpviz::user {

namespace {

// ============================================================================
// [SECTION] Where the parent wants things
// ============================================================================

// WARPVIZ_USER_OUT: the folder for launch traces and the fault report; unset
// when someone runs the compiled program by hand (then nothing is recorded).
const char* out_dir() {
  static const char* dir = std::getenv("WARPVIZ_USER_OUT");
  return dir && *dir ? dir : nullptr;
}

std::string out_path(const std::string& name) { return std::string(out_dir()) + "/" + name; }

// The fault report: opened before anything can go wrong, written with write(2)
// from a signal handler.
int g_fault_fd = -1;

void write_fault(const char* text) {
  if (g_fault_fd < 0) return;
  const size_t n = std::strlen(text);
  ssize_t written = ::write(g_fault_fd, text, n);
  (void)written;
}

// Ends the program with a report the parent shows as the run's error.
[[noreturn]] void fail(const char* kind, const std::string& message, int exit_code) {
  std::fflush(stdout);
  const std::string line = std::string(kind) + "\n" + message + "\n";
  write_fault(line.c_str());
  if (!out_dir()) std::fprintf(stderr, "warpviz: %s\n", message.c_str());
  std::_Exit(exit_code);
}

// ============================================================================
// [SECTION] Device memory
// ============================================================================
// Each allocation ends at a page the process may not touch, so a write past
// its end stops the program at once (and the crash report names the array)
// instead of corrupting its neighbour quietly as it might on a GPU.

struct Allocation {
  unsigned char* base = nullptr;  // what cudaMalloc returned
  size_t bytes = 0;
  unsigned char* map = nullptr;  // the whole mapping, guard page included
  size_t map_bytes = 0;
  char name[64] = {};
  int line = 0;
  DType dtype = DType::U32;
  bool typed = false;
};

constexpr size_t kMaxAllocations = 4096;
Allocation g_allocations[kMaxAllocations];  // fixed, so the signal handler can read it
size_t g_allocation_count = 0;

size_t page_size() {
  static const size_t p = size_t(sysconf(_SC_PAGESIZE));
  return p;
}

Allocation* find_allocation(const void* ptr) {
  for (size_t i = 0; i < g_allocation_count; ++i)
    if (g_allocations[i].base == ptr) return &g_allocations[i];
  return nullptr;
}

void* guarded_alloc(size_t bytes) {
  if (g_allocation_count == kMaxAllocations) return nullptr;
  const size_t page = page_size();
  // 16-byte granules keep float4/int4 loads aligned; the block ends at the guard.
  const size_t rounded = (std::max<size_t>(bytes, 1) + 15) & ~size_t(15);
  const size_t data_pages = (rounded + page - 1) / page;
  const size_t map_bytes = (data_pages + 1) * page;
  void* m = mmap(nullptr, map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return nullptr;
  auto* map = static_cast<unsigned char*>(m);
  mprotect(map + data_pages * page, page, PROT_NONE);
  Allocation& a = g_allocations[g_allocation_count++];
  a = Allocation{};
  a.map = map;
  a.map_bytes = map_bytes;
  a.base = map + data_pages * page - rounded;
  a.bytes = bytes;
  return a.base;
}

void guarded_free(void* ptr) {
  for (size_t i = 0; i < g_allocation_count; ++i)
    if (g_allocations[i].base == ptr) {
      munmap(g_allocations[i].map, g_allocations[i].map_bytes);
      g_allocations[i] = g_allocations[--g_allocation_count];
      return;
    }
}

// ============================================================================
// [SECTION] Crash and hang reports
// ============================================================================

std::atomic<const char*> g_running_kernel{nullptr};

// Async-signal-safe formatting: decimal and hex into a fixed buffer.
struct FaultText {
  char buf[1024];
  size_t len = 0;
  void add(const char* s) {
    while (*s && len + 1 < sizeof buf) buf[len++] = *s++;
    buf[len] = 0;
  }
  void add_u(unsigned long long v) {
    char tmp[24];
    int n = 0;
    do tmp[n++] = char('0' + v % 10); while ((v /= 10) && n < 23);
    while (n && len + 1 < sizeof buf) buf[len++] = tmp[--n];
    buf[len] = 0;
  }
  void add_hex(unsigned long long v) {
    add("0x");
    char tmp[17];
    int n = 0;
    do tmp[n++] = "0123456789abcdef"[v & 15]; while ((v >>= 4) && n < 16);
    while (n && len + 1 < sizeof buf) buf[len++] = tmp[--n];
    buf[len] = 0;
  }
};

// "pc 0x401234": the parent turns it into file:line with addr2line.
void describe_where(FaultText& t, void* context) {
  if (const char* k = g_running_kernel.load()) {
    t.add(" in kernel ");
    t.add(k);
  }
  if (const emu::ThreadCoords* c = emu::current_thread_or_null()) {
    t.add(", block (");
    t.add_u(c->block_idx.x), t.add(","), t.add_u(c->block_idx.y), t.add(","), t.add_u(c->block_idx.z);
    t.add("), thread (");
    t.add_u(c->thread_idx.x), t.add(","), t.add_u(c->thread_idx.y), t.add(","), t.add_u(c->thread_idx.z);
    t.add(") = warp ");
    t.add_u(c->warp);
    t.add(", lane ");
    t.add_u(c->lane);
  }
#if defined(__x86_64__)
  if (context) {
    const auto* uc = static_cast<const ucontext_t*>(context);
    t.add("\npc ");
    t.add_hex((unsigned long long)uc->uc_mcontext.gregs[REG_RIP]);
  }
#else
  (void)context;
#endif
}

void describe_address(FaultText& t, const void* addr) {
  const auto* p = static_cast<const unsigned char*>(addr);
  for (size_t i = 0; i < g_allocation_count; ++i) {
    const Allocation& a = g_allocations[i];
    if (p >= a.base + a.bytes && p < a.map + a.map_bytes) {
      t.add(": ");
      t.add_u((unsigned long long)(p - (a.base + a.bytes)));
      t.add(" bytes past the end of ");
      if (a.name[0]) {
        t.add("`");
        t.add(a.name);
        t.add("`");
      } else {
        t.add("an allocation");
      }
      t.add(" (");
      t.add_u(a.bytes);
      t.add(" bytes");
      if (a.line > 0) {
        t.add(", cudaMalloc on line ");
        t.add_u((unsigned long long)a.line);
      }
      t.add(")");
      return;
    }
  }
  if ((uintptr_t)addr < 4096) t.add(": a null pointer");
}

void on_fatal_signal(int sig, siginfo_t* info, void* context) {
  FaultText t;
  t.add("crash\n");
  t.add(sig == SIGSEGV ? "an invalid memory access (SIGSEGV)"
        : sig == SIGBUS ? "an invalid memory access (SIGBUS)"
        : sig == SIGFPE ? "an arithmetic error such as an integer division by zero (SIGFPE)"
        : sig == SIGILL ? "an illegal instruction (SIGILL)"
                        : "an abort (SIGABRT)");
  if (sig == SIGSEGV || sig == SIGBUS) {
    t.add(" at ");
    t.add_hex((unsigned long long)info->si_addr);
    describe_address(t, info->si_addr);
  }
  describe_where(t, context);
  t.add("\n");
  write_fault(t.buf);
  signal(sig, SIG_DFL);
  raise(sig);
}

// The parent's "where are you?" before it stops a run past its time limit.
void on_where(int, siginfo_t*, void* context) {
  FaultText t;
  t.add("where\nrunning");
  describe_where(t, context);
  t.add("\n");
  write_fault(t.buf);
}

void install_handlers() {
  static char alt_stack[64 * 1024];
  stack_t ss{};
  ss.ss_sp = alt_stack;
  ss.ss_size = sizeof alt_stack;
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_sigaction = on_fatal_signal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
  sa.sa_sigaction = on_where;
  sigaction(SIGUSR1, &sa, nullptr);
}

// Set up before main(): the report file and the handlers.
struct RuntimeStart {
  RuntimeStart() {
    if (!out_dir()) return;
    g_fault_fd = ::open(out_path("fault.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    install_handlers();
    // Kernel printf and the host's output interleave in program order.
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
  }
} g_runtime_start;

// ============================================================================
// [SECTION] Launches
// ============================================================================

cudaError_t g_last_error = cudaSuccess;
int g_launch_count = 0;
constexpr int kMaxRecordedLaunches = 256;
Trace g_last_trace;
std::string g_last_trace_file;
// One fixed buffer, so a file-scope `extern __shared__` pointer, set once at
// start-up, stays right for every launch. The H200's largest opt-in block.
constexpr size_t kMaxDynamicShared = 227 * 1024;
alignas(128) unsigned char g_dynamic_shared[kMaxDynamicShared];

emu::RecordFilter record_filter() {
  emu::RecordFilter f;
  if (const char* m = std::getenv("WARPVIZ_USER_MAX_STEPS")) f.max_steps = std::strtoull(m, nullptr, 10);
  else f.max_steps = 200000;
  return f;
}

// After a launch, every named allocation as the kernel left it (a whole
// program's arrays: named after the variable cudaMalloc filled).
std::vector<TraceOutput> snapshot_allocations() {
  constexpr size_t kMaxElements = size_t(1) << 20;
  std::vector<TraceOutput> outs;
  for (size_t i = 0; i < g_allocation_count; ++i) {
    const Allocation& a = g_allocations[i];
    if (!a.name[0]) continue;
    TraceOutput o;
    o.name = a.name;
    o.dtype = a.typed ? a.dtype : DType::U32;
    const size_t width = dtype_bytes(o.dtype);
    const size_t n = std::min(a.bytes / width, kMaxElements);
    o.bits.resize(n);
    for (size_t e = 0; e < n; ++e) {
      uint64_t v = 0;
      std::memcpy(&v, a.base + e * width, width);
      o.bits[e] = v;
    }
    outs.push_back(std::move(o));
  }
  return outs;
}

void write_launch_index(int index, const Trace& trace, const std::string& file) {
  nlohmann::json j;
  j["index"] = index;
  j["kernel"] = trace.meta.params.count("kernel") ? trace.meta.params.at("kernel") : "";
  j["file"] = file;
  j["steps"] = trace.steps.size();
  j["grid"] = {trace.meta.grid.x, trace.meta.grid.y, trace.meta.grid.z};
  j["block"] = {trace.meta.block.x, trace.meta.block.y, trace.meta.block.z};
  std::ofstream(out_path("launches.jsonl"), std::ios::app) << j.dump() << "\n";
}

void save_last_trace() {
  if (!out_dir() || g_last_trace_file.empty()) return;
  save_trace(g_last_trace, out_path(g_last_trace_file));
}

bool valid_launch(Dim3 grid, Dim3 block, size_t shared) {
  if (grid.count() == 0 || block.count() == 0 || block.count() > 1024) return false;
  if (block.x > 1024 || block.y > 1024 || block.z > 64) return false;
  if (grid.y > 65535 || grid.z > 65535 || grid.x > 0x7fffffffu) return false;
  return shared <= kMaxDynamicShared;
}

}  // namespace

void run_launch(const char* kernel_name, Dim3 grid, Dim3 block, size_t shared_bytes,
                const std::function<void()>& thread_body) {
  // A launch a GPU refuses runs nothing and leaves an error for cudaGetLastError.
  if (!valid_launch(grid, block, shared_bytes)) {
    g_last_error = cudaErrorInvalidConfiguration;
    std::fprintf(stderr,
                 "warpviz: launch of %s with grid (%u,%u,%u), block (%u,%u,%u), %zu shared bytes is invalid on "
                 "sm_90; it did not run (cudaGetLastError: cudaErrorInvalidConfiguration)\n",
                 kernel_name, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared_bytes);
    return;
  }
  const int index = g_launch_count++;
  std::memset(g_dynamic_shared, 0, shared_bytes);

  Trace trace;
  trace.meta.scenario = std::getenv("WARPVIZ_USER_NAME") ? std::getenv("WARPVIZ_USER_NAME") : kernel_name;
  trace.meta.params["kernel"] = kernel_name;
  trace.meta.params["launch"] = std::to_string(index);
  trace.meta.params["shared"] = std::to_string(shared_bytes);
  trace.meta.grid = grid;
  trace.meta.block = block;
  trace.meta.backend = "cpu";
  trace.meta.device = "CPU emulator (sm_90 rules)";
  trace.meta.compute_capability = "9.0";
  trace.meta.tool_version = tool_version();
  emu::RecordFilter filter = record_filter();
  if (index >= kMaxRecordedLaunches) filter.blocks = {0xfffffffeu};  // runs, records nothing

  g_running_kernel = kernel_name;
  try {
    emu::launch_grid(grid, block, thread_body, filter, trace);
  } catch (const emu::DeadlockError& e) {
    fail("deadlock", std::string("kernel `") + kernel_name + "`: " + e.what(), 3);
  } catch (const std::exception& e) {
    fail("kernel-error", std::string("kernel `") + kernel_name + "`: " + e.what(), 3);
  }
  g_running_kernel = nullptr;
  if (!trace.steps.empty()) trace.meta.dtype = trace.steps.front().dtype;
  trace.outputs = snapshot_allocations();
  if (!trace.outputs.empty() && trace.steps.empty()) trace.meta.dtype = trace.outputs.front().dtype;

  if (!out_dir() || index >= kMaxRecordedLaunches) return;
  g_last_trace = std::move(trace);
  g_last_trace_file = "launch-" + std::to_string(index) + ".wvt";
  save_last_trace();
  write_launch_index(index, g_last_trace, g_last_trace_file);
}

void* dynamic_shared_memory() { return g_dynamic_shared; }

void name_allocation(const void* ptr, const std::string& name) {
  if (Allocation* a = find_allocation(ptr)) {
    std::snprintf(a->name, sizeof a->name, "%s", name.c_str());
  }
}

// cudaMalloc(&d_out, ...) through the prelude's macro: the variable's name,
// the line and the element type for the outputs.
void name_allocation_from_call(const void* ptr, const char* expression, int line, int dtype) {
  Allocation* a = find_allocation(ptr);
  if (!a) return;
  std::string name = expression;
  name.erase(std::remove_if(name.begin(), name.end(), [](char c) { return c == ' '; }), name.end());
  if (name.rfind("(void**)", 0) == 0) name = name.substr(8);
  if (!name.empty() && name[0] == '&') name = name.substr(1);
  const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '[' || c == ']';
  });
  std::snprintf(a->name, sizeof a->name, "%s", plain ? name.c_str() : "");
  a->line = line;
  if (dtype >= 0) {
    a->dtype = DType(dtype);
    a->typed = true;
  }
}

// ============================================================================
// [SECTION] The kernel-only request
// ============================================================================

[[noreturn]] void request_error(const std::string& message) { fail("request", message, 2); }

const KernelRequest& kernel_request() {
  static const KernelRequest request = [] {
    KernelRequest r;
    const char* path = std::getenv("WARPVIZ_USER_REQUEST");
    if (!path || !*path) return r;
    nlohmann::json j;
    try {
      std::ifstream in(path);
      j = nlohmann::json::parse(in);
      auto dim = [&](const char* key, Dim3& d) {
        if (!j.contains(key)) return;
        const auto& a = j.at(key);
        d = Dim3{a.at(0).get<uint32_t>(), a.at(1).get<uint32_t>(), a.at(2).get<uint32_t>()};
      };
      dim("grid", r.grid);
      dim("block", r.block);
      r.shared = j.value("shared", size_t(0));
      auto pairs = [&](const char* key, std::vector<std::pair<std::string, std::string>>& out) {
        if (!j.contains(key)) return;
        for (const auto& item : j.at(key)) out.emplace_back(item.at(0).get<std::string>(), item.at(1).get<std::string>());
      };
      pairs("inputs", r.inputs);
      pairs("args", r.args);
      pairs("lens", r.lens);
    } catch (const std::exception& e) {
      fail("request", std::string("internal: the run request could not be read: ") + e.what(), 2);
    }
    return r;
  }();
  return request;
}

void check_request_names(const std::vector<std::string>& param_names) {
  const KernelRequest& r = kernel_request();
  std::string valid;
  for (const auto& n : param_names) valid += (valid.empty() ? "" : ", ") + n;
  auto check = [&](const std::vector<std::pair<std::string, std::string>>& list, const char* option) {
    for (const auto& [name, value] : list) {
      if (name.empty()) continue;
      if (std::find(param_names.begin(), param_names.end(), name) == param_names.end())
        request_error(std::string(option) + " " + name + "=" + value + ": the kernel has no parameter `" + name +
                      "` (its parameters: " + (valid.empty() ? "none" : valid) + ")");
    }
  };
  check(r.inputs, "--input");
  check(r.args, "--arg");
  check(r.lens, "--len");
}

void record_outputs(std::vector<TraceOutput> outputs) {
  if (g_last_trace_file.empty()) return;
  g_last_trace.outputs = std::move(outputs);
  if (!g_last_trace.outputs.empty() && g_last_trace.steps.empty()) g_last_trace.meta.dtype = g_last_trace.outputs.front().dtype;
  save_last_trace();
}

}  // namespace warpviz::user

// ============================================================================
// [SECTION] The rest of the runtime API
// ============================================================================

using warpviz::user::g_last_error;

namespace {
cudaError_t set_error(cudaError_t e) {
  if (e != cudaSuccess) g_last_error = e;
  return e;
}
}  // namespace

cudaError_t cudaMalloc(void** ptr, size_t bytes) {
  if (!ptr) return set_error(cudaErrorInvalidValue);
  *ptr = warpviz::user::guarded_alloc(bytes);
  return *ptr ? cudaSuccess : set_error(cudaErrorMemoryAllocation);
}
cudaError_t cudaMallocManaged(void** ptr, size_t bytes, unsigned) { return cudaMalloc(ptr, bytes); }
cudaError_t cudaMallocHost(void** ptr, size_t bytes) { return cudaMalloc(ptr, bytes); }
cudaError_t cudaHostAlloc(void** ptr, size_t bytes, unsigned) { return cudaMalloc(ptr, bytes); }
cudaError_t cudaFree(void* ptr) {
  if (ptr) warpviz::user::guarded_free(ptr);
  return cudaSuccess;
}
cudaError_t cudaFreeHost(void* ptr) { return cudaFree(ptr); }
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  if (int(kind) < 0 || int(kind) > 4) return set_error(cudaErrorInvalidMemcpyDirection);
  if (bytes && (!dst || !src)) return set_error(cudaErrorInvalidValue);
  if (bytes) std::memmove(dst, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy(dst, src, bytes, kind);
}
cudaError_t cudaMemset(void* dst, int value, size_t bytes) {
  if (bytes && !dst) return set_error(cudaErrorInvalidValue);
  if (bytes) std::memset(dst, value, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* dst, int value, size_t bytes, cudaStream_t) { return cudaMemset(dst, value, bytes); }
cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
cudaError_t cudaDeviceReset() { return cudaSuccess; }
cudaError_t cudaThreadSynchronize() { return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  if (stream) *stream = nullptr;
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaGetLastError() {
  const cudaError_t e = g_last_error;
  g_last_error = cudaSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError() { return g_last_error; }

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
    default: return "cudaErrorUnknown";
  }
}
// The CUDA runtime's own wording.
const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    default: return "unknown error";
  }
}

cudaError_t cudaGetDeviceCount(int* count) {
  if (count) *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  if (device) *device = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : set_error(cudaErrorInvalidDevice); }

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (!prop) return set_error(cudaErrorInvalidValue);
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  *prop = cudaDeviceProp{};
  std::snprintf(prop->name, sizeof prop->name, "warpviz CPU emulator (sm_90 rules)");
  prop->totalGlobalMem = size_t(4) << 30;
  prop->sharedMemPerBlock = 48 * 1024;
  prop->sharedMemPerBlockOptin = 227 * 1024;
  prop->sharedMemPerMultiprocessor = 228 * 1024;
  prop->regsPerBlock = 65536;
  prop->regsPerMultiprocessor = 65536;
  prop->warpSize = 32;
  prop->memPitch = size_t(1) << 31;
  prop->maxThreadsPerBlock = 1024;
  prop->maxThreadsDim[0] = 1024, prop->maxThreadsDim[1] = 1024, prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 0x7fffffff, prop->maxGridSize[1] = 65535, prop->maxGridSize[2] = 65535;
  prop->clockRate = 1980000;
  prop->totalConstMem = 65536;
  prop->major = 9;
  prop->minor = 0;
  prop->multiProcessorCount = 132;
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->memoryClockRate = 3201000;
  prop->memoryBusWidth = 6144;
  prop->l2CacheSize = 60 * 1024 * 1024;
  prop->concurrentKernels = 1;
  prop->managedMemory = 1;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  cudaDeviceProp p;
  if (!value) return set_error(cudaErrorInvalidValue);
  if (const cudaError_t e = cudaGetDeviceProperties(&p, device); e != cudaSuccess) return e;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    default: return set_error(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }

// Events time the host's wall clock: the emulator's time, not a GPU's.
struct CUevent_st {
  std::chrono::steady_clock::time_point at;
};
cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (!event) return set_error(cudaErrorInvalidValue);
  *event = new CUevent_st{std::chrono::steady_clock::now()};
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned) { return cudaEventCreate(event); }
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  if (!event) return set_error(cudaErrorInvalidValue);
  event->at = std::chrono::steady_clock::now();
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms || !start || !end) return set_error(cudaErrorInvalidValue);
  *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}
