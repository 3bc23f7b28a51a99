// The CUDA runtime of a user's program on the CPU backend (user_runtime.h):
// "device" memory with guard pages, and launches run in the emulator. What
// both backends share is in user_runtime_common.cpp.
//
// [SECTION] Device memory
// [SECTION] Launches
// [SECTION] The rest of the runtime API
#include "warpviz/user_runtime.h"

#include <atomic>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "copy_back_log.h"
#include "cuda_graphs_cpu.h"
#include "runtime_objects.h"
#include "user_runtime_internal.h"
#include "warpviz/launch_dims.h"
#include "warpviz/cooperative_launch.h"

// Defined (weak) by the compiler plugin in a translation unit with an atomic
// call that can see the order blocks run in; null otherwise.
extern "C" const char __warpviz_order_dependent_atomic[] __attribute__((weak));
// Defined (weak) in every unit the plugin compiled device code of: without
// it the program's atomics were never judged.
extern "C" const char __warpviz_atomics_judged[] __attribute__((weak));
// The linker's bounds of the executable's data and bss: `__device__` variables.
extern "C" char __data_start[], _end[];
// Set while a launch's blocks run on several OS threads: read by every atomic
// function (atomics.h) and by dynamic_shared_memory (each worker's own area).
extern "C" {
bool __warpviz_blocks_concurrent = false;
}

namespace warpviz::user {

namespace {

// ============================================================================
// [SECTION] Device memory
// ============================================================================
// Each allocation ends at a page the process may not touch, so a write past
// its end stops the program at once (and the crash report names the array)
// instead of corrupting its neighbour quietly as it might on a GPU.

size_t page_size() {
  static const size_t p = size_t(sysconf(_SC_PAGESIZE));
  return p;
}

constexpr size_t kHugePageFrom = size_t(8) << 20;

void* guarded_alloc(size_t bytes) {
  const size_t page = page_size();
  // 16-byte granules keep float4/int4 loads aligned; the block ends at the guard.
  const size_t rounded = (std::max<size_t>(bytes, 1) + 15) & ~size_t(15);
  const size_t data_pages = (rounded + page - 1) / page;
  const size_t map_bytes = (data_pages + 1) * page;
  void* m = mmap(nullptr, map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return nullptr;
  auto* map = static_cast<unsigned char*>(m);
  mprotect(map + data_pages * page, page, PROT_NONE);
  // Big arrays in 2 MiB pages where the kernel allows it: a program's first
  // touch of gigabytes cost a fault per 4 KiB page (a sixth of a run's time).
  if (map_bytes >= kHugePageFrom) madvise(map, data_pages * page, MADV_HUGEPAGE);
  unsigned char* base = map + data_pages * page - rounded;
  if (!register_allocation(base, bytes, map, map_bytes)) {
    munmap(map, map_bytes);
    return nullptr;
  }
  return base;
}

void guarded_free(void* ptr) {
  const TakenAllocation t = take_allocation(ptr);
  if (t.map) munmap(t.map, t.map_bytes);
}

// ============================================================================
// [SECTION] Launches
// ============================================================================

cudaError_t g_last_error = cudaSuccess;
// An illegal address in a kernel loses the context, as on a GPU. The launch
// itself returns at once; the fault is found by the next call that waits for
// the device (a cudaMemcpy, a synchronize; cudaGetLastError just after the
// launch still says success, as on the H200). From then on every call that
// uses the context returns it, until cudaDeviceReset (here a fresh context;
// an H100 answered cudaErrorDevicesUnavailable after it). No launch runs after the
// fault: on a GPU they queue behind the faulted one and never start.
cudaError_t g_sticky_error = cudaSuccess;
bool g_fault_unseen = false;

// What a call that waits for the device returns first.
cudaError_t wait_for_device() {
  if (g_fault_unseen) {
    g_fault_unseen = false;
    g_sticky_error = g_last_error = cudaErrorIllegalAddress;
  }
  return g_sticky_error;
}

// One fixed area, so a file-scope `extern __shared__` pointer, set once at
// start-up, stays right for every launch: the H200's largest opt-in block.
constexpr size_t kMaxDynamicShared = kMaxDynamicSharedBytes;

size_t round_to_pages(size_t bytes) { return (bytes + page_size() - 1) / page_size() * page_size(); }

unsigned char* map_dynamic_shared_area() {
  const size_t bytes = round_to_pages(kMaxDynamicShared) + page_size();
  void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) fail("kernel-error", "cannot map the dynamic shared memory area", 3);
  mprotect(static_cast<unsigned char*>(m) + round_to_pages(kMaxDynamicShared), page_size(), PROT_NONE);
  return static_cast<unsigned char*>(m);
}

// The program's own area, mapped on first use (a file-scope pointer may ask
// before main), with a guard page past the largest size. Blocks run one after
// another use it; a launch whose blocks run on several OS threads gives each
// worker an area of its own (WorkerSharedArea).
unsigned char* dynamic_shared_area() {
  static unsigned char* const area = map_dynamic_shared_area();
  return area;
}

// A file-scope `extern __shared__` pointer took the program's area before any
// launch: every block must then use that one area, one block at a time, from
// its start.
std::atomic<bool> g_shared_pointer_at_file_scope{false};

// The GPU allocates a block's shared memory in units of 128 bytes and faults
// on an access past them (an H200 stops llm.c's layernorm_backward kernel 10
// writing one word past its dynamic shared memory with "an illegal memory
// access"). The launch's bytes, rounded up to that unit, end where the guard
// page begins, so such an access faults here too. Their start moves with the
// size, except for a program that keeps a file-scope pointer to the area.
constexpr size_t kSharedAllocationUnit = 128;

unsigned char* open_dynamic_shared(unsigned char* area, size_t bytes) {
  const size_t all = round_to_pages(kMaxDynamicShared);
  const size_t used = (bytes + kSharedAllocationUnit - 1) / kSharedAllocationUnit * kSharedAllocationUnit;
  const size_t offset = g_shared_pointer_at_file_scope.load() ? 0 : all - used;
  const size_t first_page = offset / page_size() * page_size();
  const size_t open_end = offset == 0 ? round_to_pages(bytes) : all;
  if (first_page > 0) mprotect(area, first_page, PROT_NONE);
  if (open_end > first_page) mprotect(area + first_page, open_end - first_page, PROT_READ | PROT_WRITE);
  if (open_end < all) mprotect(area + open_end, all - open_end, PROT_NONE);
  std::memset(area + offset, 0, bytes);
  set_dynamic_shared_area(area + offset, bytes, area + all + page_size());
  return area + offset;
}

// The running launch, as a worker thread sizes its own area by it.
std::atomic<uint64_t> g_launch_serial{0};
std::atomic<size_t> g_launch_shared_bytes{0};
struct WorkerSharedArea {
  unsigned char* area = nullptr;
  unsigned char* open = nullptr;  // the launch's bytes in it
  uint64_t sized_for = 0;  // the launch it was opened for
  ~WorkerSharedArea() {
    if (area) munmap(area, round_to_pages(kMaxDynamicShared) + page_size());
  }
};
thread_local WorkerSharedArea t_worker_shared;

// The running launch's bytes in the program's area.
unsigned char* g_dynamic_shared_open = nullptr;

void size_dynamic_shared(size_t bytes) {
  g_launch_shared_bytes = bytes;
  g_launch_serial.fetch_add(1);
  g_dynamic_shared_open = open_dynamic_shared(dynamic_shared_area(), bytes);
}

// What the runner found (WARPVIZ_USER_BLOCKS_APART), read once: "1" nothing
// shared, "atomics" only atomic calls the plugin judges, else blocks in order.
// `because` is the atomic call (or the missing plugin) that keeps them in order.
struct BlocksApart {
  bool apart = false;
  const char* because = nullptr;
};
const BlocksApart& blocks_apart() {
  static const BlocksApart found = [] {
    const char* v = std::getenv("WARPVIZ_USER_BLOCKS_APART");
    if (!v) return BlocksApart{};
    if (std::strcmp(v, "atomics") != 0) return BlocksApart{std::strcmp(v, "1") == 0, nullptr};
    if (!__warpviz_atomics_judged)
      return BlocksApart{false, "atomic calls (built without the device-semantics plugin, which judges them)"};
    return BlocksApart{__warpviz_order_dependent_atomic == nullptr, __warpviz_order_dependent_atomic};
  }();
  return found;
}

// Whether this program's blocks may run on every core: the runner found no
// device code that lets blocks see one another (block_sharing_in_device_code),
// or nothing but atomic calls, and the compiler plugin found none of those
// that can see the order blocks run in (atomic_order.cpp).
bool blocks_may_run_apart() { return blocks_apart().apart && !g_shared_pointer_at_file_scope.load(); }

}  // namespace

size_t allowed_dynamic_shared(const void* function);  // below, with the other function attributes

namespace {
cudaError_t run_any_launch(const char* kernel_name, Dim3 grid, Dim3 block, size_t shared_bytes,
                           const std::function<void()>& thread_body, bool cooperative, const void* function) {
  if (emu::in_emulated_thread()) {
    const char* parent = running_kernel_name();
    fail("request",
         std::string("kernel `") + (parent ? parent : "?") + "` launches `" + kernel_name +
             "` from device code (dynamic parallelism, nvcc -rdc=true): the CPU emulator runs launches from host "
             "code only; run the program with --backend cuda",
         2);
  }
  // A launch a GPU refuses runs nothing and leaves an error for cudaGetLastError.
  std::string refused = launch_config_error(grid, block, shared_bytes);
  // Past 48 KiB a kernel takes only what cudaFuncSetAttribute allowed it.
  if (refused.empty() && shared_bytes > 48 * 1024 && shared_bytes > allowed_dynamic_shared(function))
    refused = "cudaErrorInvalidValue: invalid argument (" + std::to_string(shared_bytes) +
              " bytes of dynamic shared memory; past 49152 a kernel needs cudaFuncSetAttribute(kernel, "
              "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) first, and this one allows " +
              std::to_string(allowed_dynamic_shared(function)) + ")";
  if (!refused.empty()) {
    g_last_error = refused.starts_with("cudaErrorInvalidValue") ? cudaErrorInvalidValue : cudaErrorInvalidConfiguration;
    std::fprintf(stderr, "warpviz: launch of %s did not run: %s\n", kernel_name, refused.c_str());
    return g_last_error;
  }
  if (g_sticky_error != cudaSuccess) return g_last_error = g_sticky_error;
  if (g_fault_unseen) return cudaSuccess;  // queued behind the faulted launch
  if (cooperative) {
    const uint64_t resident = uint64_t(max_active_blocks_per_sm(int(block.count()), shared_bytes)) * kSmCount;
    if (grid.count() > resident) {
      std::fprintf(stderr,
                   "warpviz: cooperative launch of %s did not run: cudaErrorCooperativeLaunchTooLarge: %llu blocks, "
                   "an H200 holds at most %llu of %u threads at once\n",
                   kernel_name, (unsigned long long)grid.count(), (unsigned long long)resident, unsigned(block.count()));
      return g_last_error = cudaErrorCooperativeLaunchTooLarge;
    }
  }
  const int index = begin_launch();
  size_dynamic_shared(shared_bytes);
  // Blocks on every core where they cannot see one another; else one after
  // another, as the crash and hang reports then name the one running thread.
  unsigned workers = 1;
  if (!cooperative && blocks_may_run_apart()) {
    try {
      workers = unsigned(std::min<uint64_t>(emu::emulator_threads(), grid.count()));
    } catch (const std::exception& e) {  // a WARPVIZ_EMU_THREADS that is no count
      fail("kernel-error", e.what(), 3);
    }
  }
  __warpviz_blocks_concurrent = workers > 1;
  Trace trace;
  set_running_kernel(kernel_name);
  running_grid_dim = grid;  // the user file's gridDim and blockDim (launch_dims.h)
  running_block_dim = block;
  emu::LaunchStats stats;
  const auto started = std::chrono::steady_clock::now();
  try {
    // A kernel whose blocks may share anything runs them on one OS thread
    // (workers is 1), where atomics are plain read-modify-writes.
    if (cooperative)
      stats = run_cooperative_grid(grid, block, shared_bytes, thread_body, launch_filter(index), trace);
    else
      stats = emu::launch_grid(grid, block, thread_body, launch_filter(index), trace, workers);
  } catch (const emu::IllegalAddress&) {
    // The fault's report is written (fault.txt, "illegal-address"); the
    // program goes on to find the error at its next call.
    g_fault_unseen = true;
  } catch (const std::exception& e) {
    __warpviz_blocks_concurrent = false;
    fail("kernel-error", std::string("kernel `") + kernel_name + "`: " + e.what(), 3);
  }
  set_running_kernel(nullptr);
  __warpviz_blocks_concurrent = false;
  note_launch_work(stats, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), workers,
                   cooperative ? nullptr : blocks_apart().because);
  finish_launch(index, kernel_name, grid, block, shared_bytes, "cpu", "CPU emulator (sm_90 rules)", std::move(trace),
                [](void* host, const void* device, size_t bytes) { std::memcpy(host, device, bytes); });
  return cudaSuccess;
}
}  // namespace

cudaError_t run_launch(const char* kernel_name, Dim3 grid, Dim3 block, size_t shared_bytes,
                       const std::function<void()>& thread_body, const void* function) {
  return run_any_launch(kernel_name, grid, block, shared_bytes, thread_body, false, function);
}
cudaError_t run_cooperative_launch(const char* kernel_name, Dim3 grid, Dim3 block, size_t shared_bytes,
                                   const std::function<void()>& thread_body) {
  return run_any_launch(kernel_name, grid, block, shared_bytes, thread_body, true, nullptr);
}

unsigned char* running_dynamic_shared_area() {
  return g_dynamic_shared_open ? g_dynamic_shared_open : dynamic_shared_area();
}

void* dynamic_shared_memory() {
  if (!emu::in_emulated_thread()) {
    g_shared_pointer_at_file_scope = true;  // host code keeps this pointer
    return dynamic_shared_area();
  }
  if (!__warpviz_blocks_concurrent)
    return g_dynamic_shared_open ? g_dynamic_shared_open : dynamic_shared_area();
  // A worker's own area, opened at its first block of the launch.
  WorkerSharedArea& mine = t_worker_shared;
  const uint64_t launch = g_launch_serial.load(std::memory_order_relaxed);
  if (mine.sized_for != launch) {
    if (!mine.area) mine.area = map_dynamic_shared_area();
    mine.open = open_dynamic_shared(mine.area, g_launch_shared_bytes.load(std::memory_order_relaxed));
    mine.sized_for = launch;
  }
  return mine.open;
}

// ============================================================================
// [SECTION] Address spaces (__isShared, __isGlobal, __isLocal)
// ============================================================================

namespace {
// The executable's thread_local block, where every `__shared__` variable (a
// thread_local here) of the running block lives: on x86-64 it ends at the
// thread pointer, rounded to its alignment.
size_t executable_tls_bytes() {
  static const size_t bytes = [] {
    size_t found = 0;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* out) {
          // The first object listed is the executable itself.
          for (int i = 0; i < info->dlpi_phnum; ++i)
            if (info->dlpi_phdr[i].p_type == PT_TLS) {
              const size_t align = std::max<size_t>(info->dlpi_phdr[i].p_align, 1);
              *static_cast<size_t*>(out) = (info->dlpi_phdr[i].p_memsz + align - 1) / align * align;
            }
          return 1;
        },
        &found);
    return found;
  }();
  return bytes;
}

bool in_area(const void* p, const unsigned char* area, size_t bytes) {
  const auto* c = static_cast<const unsigned char*>(p);
  return area && c >= area && c < area + bytes;
}
}  // namespace

bool is_shared_address(const void* p) {
  const auto* tp = static_cast<const unsigned char*>(__builtin_thread_pointer());
  if (in_area(p, tp - executable_tls_bytes(), executable_tls_bytes())) return true;
  // A launch's bytes sit at the end of its area (open_dynamic_shared).
  const size_t area_bytes = round_to_pages(kMaxDynamicShared);
  return in_area(p, dynamic_shared_area(), area_bytes) || in_area(p, t_worker_shared.area, area_bytes);
}

bool is_local_address(const void* p) { return emu::on_running_thread_stack(p); }

bool is_global_address(const void* p) {
  if (is_shared_address(p) || is_local_address(p)) return false;
  // cudaMalloc'd memory, and `__device__` variables: the executable's data.
  const char* c = static_cast<const char*>(p);
  return points_into_allocation(p) || (c >= __data_start && c < _end);
}

}  // namespace warpviz::user

// A load or store through a pointer the compiler plugin derived from an
// `extern __shared__` array's (cuda_cpu/compiler_plugin/shared_access.cpp):
// recorded as a shared access when the address is still shared memory (the
// pointer may have been set to global memory since), else made at once.
extern "C" unsigned long long __warpviz_shared_pointer_load(const void* at, const void* array, unsigned bytes,
                                                            unsigned kind, unsigned line) {
  if (warpviz::user::is_shared_address(at) && warpviz::user::is_shared_address(array))
    return warpviz::emu::shared_load(at, array, bytes, kind, line);
  uint64_t bits = 0;
  warpviz::emu::plain_shared_load(at, bytes, line, &bits);
  return bits;
}

extern "C" void __warpviz_shared_pointer_store(void* at, const void* array, unsigned bytes, unsigned kind,
                                               unsigned line, unsigned long long bits) {
  if (warpviz::user::is_shared_address(at) && warpviz::user::is_shared_address(array)) {
    warpviz::emu::shared_store(at, array, bytes, kind, line, bits);
    return;
  }
  warpviz::emu::plain_shared_store(at, bytes, line, bits);
}

// ============================================================================
// [SECTION] The rest of the runtime API
// ============================================================================

using warpviz::user::g_last_error;
using warpviz::user::g_sticky_error;
using warpviz::user::wait_for_device;

namespace {
cudaError_t set_error(cudaError_t e) {
  if (e != cudaSuccess) g_last_error = e;
  return e;
}
}  // namespace

cudaError_t cudaMalloc(void** ptr, size_t bytes) {
  if (const cudaError_t lost = wait_for_device()) return lost;
  if (!ptr) return set_error(cudaErrorInvalidValue);
  *ptr = warpviz::user::guarded_alloc(bytes);
  return *ptr ? cudaSuccess : set_error(cudaErrorMemoryAllocation);
}
cudaError_t cudaMallocManaged(void** ptr, size_t bytes, unsigned) { return cudaMalloc(ptr, bytes); }
namespace {
// Pinned host allocations, start and end, for cudaPointerGetAttributes.
std::map<const char*, const char*>& pinned_host_allocations() {
  static std::map<const char*, const char*> allocations;
  return allocations;
}
std::mutex g_pinned_mutex;
cudaError_t pinned_alloc(void** ptr, size_t bytes) {
  const cudaError_t e = cudaMalloc(ptr, bytes);
  if (e == cudaSuccess && *ptr) {
    std::lock_guard<std::mutex> lock(g_pinned_mutex);
    const char* start = static_cast<const char*>(*ptr);
    pinned_host_allocations()[start] = start + bytes;
  }
  return e;
}
}  // namespace
cudaError_t cudaMallocHost(void** ptr, size_t bytes) { return pinned_alloc(ptr, bytes); }
cudaError_t cudaHostAlloc(void** ptr, size_t bytes, unsigned) { return pinned_alloc(ptr, bytes); }
cudaError_t cudaFree(void* ptr) {
  if (const cudaError_t lost = wait_for_device()) return lost;
  if (ptr) {
    {
      std::lock_guard<std::mutex> lock(g_pinned_mutex);
      pinned_host_allocations().erase(static_cast<const char*>(ptr));
    }
    warpviz::user::guarded_free(ptr);
  }
  return cudaSuccess;
}
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  if (!attributes) return set_error(cudaErrorInvalidValue);
  *attributes = cudaPointerAttributes{cudaMemoryTypeUnregistered, 0, nullptr, nullptr};
  if (!ptr) return cudaSuccess;
  bool pinned = false;
  {
    std::lock_guard<std::mutex> lock(g_pinned_mutex);
    const char* p = static_cast<const char*>(ptr);
    auto it = pinned_host_allocations().upper_bound(p);
    pinned = it != pinned_host_allocations().begin() && p < (--it)->second;
  }
  if (pinned || warpviz::user::points_into_allocation(ptr)) {
    // One memory here: the device's pointer and the host's are the same.
    attributes->type = pinned ? cudaMemoryTypeHost : cudaMemoryTypeDevice;
    attributes->devicePointer = const_cast<void*>(ptr);
    attributes->hostPointer = const_cast<void*>(ptr);
  }
  return cudaSuccess;
}
cudaError_t cudaFreeHost(void* ptr) { return cudaFree(ptr); }
cudaError_t cudaMallocAsync(void** ptr, size_t bytes, cudaStream_t) { return cudaMalloc(ptr, bytes); }
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t) { return cudaFree(ptr); }
namespace {
// Copies back, logged for the corpus's comparisons (copy_back_log.h).
cudaError_t copy(const char* api, void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  if (const cudaError_t lost = wait_for_device()) return lost;
  if (int(kind) < 0 || int(kind) > 4) return set_error(cudaErrorInvalidMemcpyDirection);
  if (bytes && (!dst || !src)) return set_error(cudaErrorInvalidValue);
  if (bytes) std::memmove(dst, src, bytes);
  const bool back = kind == cudaMemcpyDeviceToHost ||
                    (kind == cudaMemcpyDefault && warpviz::user::points_into_allocation(src) &&
                     !warpviz::user::points_into_allocation(dst));
  if (back) warpviz::user::log_copy_back(api, dst, bytes);
  return cudaSuccess;
}
}  // namespace
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  return copy("cudaMemcpy", dst, src, bytes, kind);
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  if (warpviz::user::stream_is_capturing(stream))
    return set_error(warpviz::user::capture_memcpy(stream, dst, src, bytes, kind));
  return copy("cudaMemcpyAsync", dst, src, bytes, kind);
}
cudaError_t cudaMemset(void* dst, int value, size_t bytes) {
  if (const cudaError_t lost = wait_for_device()) return lost;
  if (bytes && !dst) return set_error(cudaErrorInvalidValue);
  if (bytes) std::memset(dst, value, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* dst, int value, size_t bytes, cudaStream_t stream) {
  if (warpviz::user::stream_is_capturing(stream))
    return set_error(warpviz::user::capture_memset(stream, dst, value, bytes));
  return cudaMemset(dst, value, bytes);
}
cudaError_t cudaDeviceSynchronize() { return wait_for_device(); }
cudaError_t cudaDeviceReset() {
  g_sticky_error = g_last_error = cudaSuccess;  // a new context
  warpviz::user::g_fault_unseen = false;
  return cudaSuccess;
}
cudaError_t cudaThreadSynchronize() { return wait_for_device(); }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return wait_for_device(); }
cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  if (!stream) return set_error(cudaErrorInvalidValue);
  *stream = warpviz::user::create_stream();  // an object of its own, for stream capture
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  warpviz::user::destroy_stream(stream);
  return cudaSuccess;
}
cudaError_t cudaGetLastError() {
  const cudaError_t e = g_last_error;
  g_last_error = g_sticky_error;  // a sticky error stays
  return e;
}
cudaError_t cudaPeekAtLastError() { return g_last_error; }

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorCudartUnloading: return "cudaErrorCudartUnloading";
    case cudaErrorProfilerDisabled: return "cudaErrorProfilerDisabled";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidPitchValue: return "cudaErrorInvalidPitchValue";
    case cudaErrorInvalidSymbol: return "cudaErrorInvalidSymbol";
    case cudaErrorInvalidHostPointer: return "cudaErrorInvalidHostPointer";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidTexture: return "cudaErrorInvalidTexture";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInsufficientDriver: return "cudaErrorInsufficientDriver";
    case cudaErrorDevicesUnavailable: return "cudaErrorDevicesUnavailable";
    case cudaErrorMissingConfiguration: return "cudaErrorMissingConfiguration";
    case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidKernelImage: return "cudaErrorInvalidKernelImage";
    case cudaErrorNoKernelImageForDevice: return "cudaErrorNoKernelImageForDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorIllegalState: return "cudaErrorIllegalState";
    case cudaErrorSymbolNotFound: return "cudaErrorSymbolNotFound";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
    case cudaErrorPeerAccessAlreadyEnabled: return "cudaErrorPeerAccessAlreadyEnabled";
    case cudaErrorPeerAccessNotEnabled: return "cudaErrorPeerAccessNotEnabled";
    case cudaErrorContextIsDestroyed: return "cudaErrorContextIsDestroyed";
    case cudaErrorAssert: return "cudaErrorAssert";
    case cudaErrorHardwareStackError: return "cudaErrorHardwareStackError";
    case cudaErrorIllegalInstruction: return "cudaErrorIllegalInstruction";
    case cudaErrorMisalignedAddress: return "cudaErrorMisalignedAddress";
    case cudaErrorInvalidAddressSpace: return "cudaErrorInvalidAddressSpace";
    case cudaErrorInvalidPc: return "cudaErrorInvalidPc";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorCooperativeLaunchTooLarge: return "cudaErrorCooperativeLaunchTooLarge";
    case cudaErrorNotPermitted: return "cudaErrorNotPermitted";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    case cudaErrorStreamCaptureUnsupported: return "cudaErrorStreamCaptureUnsupported";
    case cudaErrorStreamCaptureInvalidated: return "cudaErrorStreamCaptureInvalidated";
    case cudaErrorStreamCaptureUnmatched: return "cudaErrorStreamCaptureUnmatched";
    case cudaErrorStreamCaptureUnjoined: return "cudaErrorStreamCaptureUnjoined";
    case cudaErrorUnknown: return "cudaErrorUnknown";
  }
  return "cudaErrorUnknown";
}
// The CUDA runtime's own wording.
const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorCudartUnloading: return "driver shutting down";
    case cudaErrorProfilerDisabled: return "profiler disabled while using external profiling tool";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidPitchValue: return "invalid pitch argument";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidHostPointer: return "invalid host pointer";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidTexture: return "invalid texture reference";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInsufficientDriver: return "CUDA driver version is insufficient for CUDA runtime version";
    case cudaErrorDevicesUnavailable: return "CUDA-capable device(s) is/are busy or unavailable";
    case cudaErrorMissingConfiguration: return "__global__ function call is not configured";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidKernelImage: return "device kernel image is invalid";
    case cudaErrorNoKernelImageForDevice: return "no kernel image is available for execution on the device";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorIllegalState: return "the operation cannot be performed in the present state";
    case cudaErrorSymbolNotFound: return "named symbol not found";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorPeerAccessAlreadyEnabled: return "peer access is already enabled";
    case cudaErrorPeerAccessNotEnabled: return "peer access has not been enabled";
    case cudaErrorContextIsDestroyed: return "context is destroyed";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorHardwareStackError: return "hardware stack error";
    case cudaErrorIllegalInstruction: return "an illegal instruction was encountered";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorInvalidAddressSpace: return "operation not supported on global/shared address space";
    case cudaErrorInvalidPc: return "invalid program counter";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
    case cudaErrorNotPermitted: return "operation not permitted";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorStreamCaptureUnsupported: return "operation not permitted when stream is capturing";
    case cudaErrorStreamCaptureInvalidated: return "operation failed due to a previous error during capture";
    case cudaErrorStreamCaptureUnmatched: return "capture was not initiated in this stream";
    case cudaErrorStreamCaptureUnjoined: return "capturing stream has unjoined work";
    case cudaErrorUnknown: return "unknown error";
  }
  return "unrecognized error code";
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
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, size_t bytes) {
  if (dst_device != 0 || src_device != 0) return set_error(cudaErrorInvalidDevice);
  return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice);
}
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t bytes,
                                cudaStream_t) {
  return cudaMemcpyPeer(dst, dst_device, src, src_device, bytes);
}
// A device is not its own peer: CUDA answers 0 for (0, 0), and refuses to
// enable peer access to itself.
cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device) {
  if (!can_access) return set_error(cudaErrorInvalidValue);
  if (device != 0 || peer_device != 0) return set_error(cudaErrorInvalidDevice);
  *can_access = 0;
  return cudaSuccess;
}
cudaError_t cudaDeviceEnablePeerAccess(int, unsigned) { return set_error(cudaErrorInvalidDevice); }
cudaError_t cudaDeviceDisablePeerAccess(int) { return set_error(cudaErrorInvalidDevice); }
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp*) {
  if (!device) return set_error(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

// The figures an H200 (GH100, 132 SMs) reports; the CUDA Programming
// Guide's table for compute capability 9.0 gives the per-SM and per-block
// limits. The emulator enforces the launch limits (launch_config_error).
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (!prop) return set_error(cudaErrorInvalidValue);
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  cudaDeviceProp& p = *prop;
  p = cudaDeviceProp{};
  std::snprintf(p.name, sizeof p.name, "NVIDIA H200");
  p.totalGlobalMem = size_t(143771) << 20;  // nvidia-smi's 143771 MiB
  p.sharedMemPerBlock = 48 * 1024;
  p.regsPerBlock = 65536;
  p.warpSize = 32;
  p.memPitch = 2147483647;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsDim[0] = 1024, p.maxThreadsDim[1] = 1024, p.maxThreadsDim[2] = 64;
  p.maxGridSize[0] = 0x7fffffff, p.maxGridSize[1] = 65535, p.maxGridSize[2] = 65535;
  p.totalConstMem = 65536;
  p.major = 9;
  p.minor = 0;
  p.textureAlignment = 512;
  p.texturePitchAlignment = 32;
  p.multiProcessorCount = 132;
  p.integrated = 0;
  p.canMapHostMemory = 1;
  p.maxTexture1D = 131072;
  p.maxTexture1DMipmap = 32768;
  p.maxTexture2D[0] = 131072, p.maxTexture2D[1] = 65536;
  p.maxTexture3D[0] = p.maxTexture3D[1] = p.maxTexture3D[2] = 16384;
  p.maxTextureCubemap = 32768;
  p.surfaceAlignment = 512;
  p.concurrentKernels = 1;
  p.ECCEnabled = 1;
  p.asyncEngineCount = 3;
  p.unifiedAddressing = 1;
  p.memoryBusWidth = 6144;  // six HBM3e stacks of 1024 bits
  p.l2CacheSize = 50 * 1024 * 1024;
  p.maxThreadsPerMultiProcessor = 2048;
  p.streamPrioritiesSupported = 1;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  p.sharedMemPerMultiprocessor = 228 * 1024;
  p.regsPerMultiprocessor = 65536;
  p.managedMemory = 1;
  p.concurrentManagedAccess = 1;
  p.computePreemptionSupported = 1;
  p.canUseHostPointerForRegisteredMem = 1;
  p.cooperativeLaunch = 1;
  p.sharedMemPerBlockOptin = 227 * 1024;
  p.maxBlocksPerMultiProcessor = 32;
  p.reservedSharedMemPerBlock = 1024;
  p.hostRegisterSupported = 1;
  p.memoryPoolsSupported = 1;
  p.ipcEventSupported = 1;
  p.clusterLaunch = 1;
  p.unifiedFunctionPointers = 1;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  cudaDeviceProp p;
  if (!value) return set_error(cudaErrorInvalidValue);
  if (const cudaError_t e = cudaGetDeviceProperties(&p, device); e != cudaSuccess) return e;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = int(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: *value = int(p.totalConstMem); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxPitch: *value = int(p.memPitch); break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = 1980000; break;  // kHz: the H200's boost clock
    case cudaDevAttrTextureAlignment: *value = int(p.textureAlignment); break;
    case cudaDevAttrGpuOverlap: *value = 1; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrKernelExecTimeout: *value = 0; break;
    case cudaDevAttrIntegrated: *value = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrComputeMode: *value = cudaComputeModeDefault; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrEccEnabled: *value = p.ECCEnabled; break;
    case cudaDevAttrPciBusId: *value = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: *value = p.pciDeviceID; break;
    case cudaDevAttrPciDomainId: *value = p.pciDomainID; break;
    case cudaDevAttrTccDriver: *value = p.tccDriver; break;
    case cudaDevAttrMemoryClockRate: *value = 2619000; break;  // kHz
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrStreamPrioritiesSupported: *value = p.streamPrioritiesSupported; break;
    case cudaDevAttrGlobalL1CacheSupported: *value = p.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: *value = p.localL1CacheSupported; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = int(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrIsMultiGpuBoard: *value = p.isMultiGpuBoard; break;
    case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
    case cudaDevAttrComputePreemptionSupported: *value = p.computePreemptionSupported; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = int(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = int(p.reservedSharedMemPerBlock); break;
    case cudaDevAttrClusterLaunch: *value = p.clusterLaunch; break;
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
  *event = warpviz::user::make_runtime_object<CUevent_st>(std::chrono::steady_clock::now());
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned) { return cudaEventCreate(event); }
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (g_sticky_error) return g_sticky_error;  // recording waits for nothing
  if (!event) return set_error(cudaErrorInvalidValue);
  if (warpviz::user::stream_is_capturing(stream)) return set_error(warpviz::user::capture_event_record(event, stream));
  event->at = std::chrono::steady_clock::now();
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) { return wait_for_device(); }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (const cudaError_t lost = wait_for_device()) return lost;
  if (!ms || !start || !end) return set_error(cudaErrorInvalidValue);
  *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  warpviz::user::destroy_runtime_object(event);
  return cudaSuccess;
}

// Work finishes before these calls return on the emulator: nothing is ever pending.
cudaError_t cudaEventQuery(cudaEvent_t event) {
  if (const cudaError_t lost = wait_for_device()) return lost;
  return event ? cudaSuccess : set_error(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned) { return cudaStreamCreate(stream); }
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned, int) { return cudaStreamCreate(stream); }
cudaError_t cudaStreamQuery(cudaStream_t) { return wait_for_device(); }
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned) {
  if (event && warpviz::user::capture_event_wait(stream, event)) return cudaSuccess;  // joins a capture
  return event ? cudaSuccess : set_error(cudaErrorInvalidResourceHandle);
}
// sm_90's stream priorities: 0 (least) to -5 (greatest).
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return cudaSuccess;
}

namespace {
// The limits' defaults on an H200 (the CUDA runtime API's cudaDeviceGetLimit):
// 1 KiB of stack a thread, a 1 MiB printf FIFO, an 8 MiB malloc heap.
size_t g_limits[7] = {1024, 1 << 20, 8 << 20, 2, 2048, 32, 0};
}  // namespace
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  if (int(limit) < 0 || int(limit) > 6) return set_error(cudaErrorInvalidValue);
  g_limits[limit] = value;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  if (!value) return set_error(cudaErrorInvalidValue);
  if (int(limit) < 0 || int(limit) > 6) return set_error(cudaErrorInvalidValue);
  *value = g_limits[limit];
  return cudaSuccess;
}
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  if (free_bytes) *free_bytes = p.totalGlobalMem;
  if (total_bytes) *total_bytes = p.totalGlobalMem;
  return cudaSuccess;
}
// CUDA 13.0, as on the H200 the corpus's references come from.
cudaError_t cudaDriverGetVersion(int* version) {
  if (!version) return set_error(cudaErrorInvalidValue);
  *version = 13000;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) {
  if (!version) return set_error(cudaErrorInvalidValue);
  *version = 13000;
  return cudaSuccess;
}
cudaError_t cudaSetDeviceFlags(unsigned) { return cudaSuccess; }
// Host and "device" memory are one address space here.
cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned) {
  if (!device || !host) return set_error(cudaErrorInvalidValue);
  *device = host;
  return cudaSuccess;
}

namespace warpviz::user {

namespace {
struct FunctionSettings {
  const void* function;
  int max_dynamic_shared;
  int carveout;
};
std::vector<FunctionSettings> g_function_settings;

FunctionSettings& settings_of(const void* function) {
  for (FunctionSettings& f : g_function_settings)
    if (f.function == function) return f;
  g_function_settings.push_back({function, 48 * 1024, -1});
  return g_function_settings.back();
}

// sm_90: 64 warps, 32 blocks and 228 KiB of shared memory an SM, of which each
// block also takes 1 KiB the system reserves.
constexpr int kWarpsPerSm = 64, kBlocksPerSm = 32;
constexpr size_t kSharedPerSm = 228 * 1024, kReservedPerBlock = 1024;

int blocks_per_sm(int block_size, size_t dynamic_shared) {
  const int warps = (block_size + 31) / 32;
  int blocks = std::min(kWarpsPerSm / warps, kBlocksPerSm);
  const size_t per_block = (dynamic_shared + kReservedPerBlock + 127) / 128 * 128;
  if (dynamic_shared > kMaxDynamicShared) return 0;
  return std::min<int>(blocks, int(kSharedPerSm / per_block));
}
}  // namespace

cudaError_t set_function_attribute(const void* function, cudaFuncAttribute attr, int value) {
  if (!function) return set_error(cudaErrorInvalidDeviceFunction);
  FunctionSettings& f = settings_of(function);
  switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize:
      if (value < 0 || size_t(value) > kMaxDynamicShared) return set_error(cudaErrorInvalidValue);
      f.max_dynamic_shared = value;
      return cudaSuccess;
    case cudaFuncAttributePreferredSharedMemoryCarveout:
      if (value < -1 || value > 100) return set_error(cudaErrorInvalidValue);
      f.carveout = value;
      return cudaSuccess;
    default: return cudaSuccess;  // cluster settings: the emulator runs no clusters apart
  }
}

size_t allowed_dynamic_shared(const void* function) {
  if (function) return size_t(settings_of(function).max_dynamic_shared);
  // A launch through kernel_call (a template kernel deduced from its
  // arguments, an overload picked by them) has no address to look up: the
  // most any kernel was allowed stands in, so a program that never opted in
  // is refused as on the GPU, and one that did runs.
  size_t most = 48 * 1024;
  for (const FunctionSettings& f : g_function_settings) most = std::max(most, size_t(f.max_dynamic_shared));
  return most;
}

cudaError_t function_attributes(cudaFuncAttributes* attr, const void* function) {
  if (!attr) return set_error(cudaErrorInvalidValue);
  if (!function) return set_error(cudaErrorInvalidDeviceFunction);
  const FunctionSettings& f = settings_of(function);
  *attr = cudaFuncAttributes{};
  attr->maxThreadsPerBlock = 1024;
  attr->ptxVersion = 90;
  attr->binaryVersion = 90;
  attr->maxDynamicSharedSizeBytes = f.max_dynamic_shared;
  attr->preferredShmemCarveout = f.carveout;
  return cudaSuccess;
}

cudaError_t max_active_blocks(int* blocks, int block_size, size_t dynamic_shared) {
  if (!blocks || block_size <= 0 || block_size > 1024) return set_error(cudaErrorInvalidValue);
  *blocks = blocks_per_sm(block_size, dynamic_shared);
  return cudaSuccess;
}

// The block size with the most resident warps an SM, the larger on a tie.
cudaError_t max_potential_block_size(int* min_grid_size, int* block_size, size_t dynamic_shared, int limit) {
  if (!min_grid_size || !block_size) return set_error(cudaErrorInvalidValue);
  const int top = limit > 0 && limit < 1024 ? limit : 1024;
  int best_size = 0, best_blocks = 0, best_warps = -1;
  for (int size = top; size > 0; size = size > 32 ? (size - 1) / 32 * 32 : 0) {
    const int blocks = blocks_per_sm(size, dynamic_shared);
    const int warps = blocks * ((size + 31) / 32);
    if (warps > best_warps) best_size = size, best_blocks = blocks, best_warps = warps;
  }
  *block_size = best_size;
  *min_grid_size = best_blocks * 132;
  return cudaSuccess;
}

}  // namespace warpviz::user

// Rows start 512 bytes apart at least (warpviz's choice, the texture alignment):
// a program must use the pitch it is given, as on a GPU.
cudaError_t cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
  if (!ptr || !pitch) return set_error(cudaErrorInvalidValue);
  *pitch = (std::max<size_t>(width, 1) + 511) / 512 * 512;
  return cudaMalloc(ptr, *pitch * height);
}
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind) {
  if (int(kind) < 0 || int(kind) > 4) return set_error(cudaErrorInvalidMemcpyDirection);
  if (width > dpitch || width > spitch) return set_error(cudaErrorInvalidPitchValue);
  if (width && height && (!dst || !src)) return set_error(cudaErrorInvalidValue);
  for (size_t row = 0; row < height && width; ++row)
    std::memmove(static_cast<unsigned char*>(dst) + row * dpitch, static_cast<const unsigned char*>(src) + row * spitch,
                 width);
  return cudaSuccess;
}
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
cudaError_t cudaMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height) {
  if (width > pitch) return set_error(cudaErrorInvalidPitchValue);
  if (width && height && !dst) return set_error(cudaErrorInvalidValue);
  for (size_t row = 0; row < height && width; ++row)
    std::memset(static_cast<unsigned char*>(dst) + row * pitch, value, width);
  return cudaSuccess;
}
cudaError_t cudaMemPrefetchAsync(const void* ptr, size_t, int, cudaStream_t) {
  return ptr ? cudaSuccess : set_error(cudaErrorInvalidValue);
}
cudaError_t cudaMemAdvise(const void* ptr, size_t, cudaMemoryAdvise, int) {
  return ptr ? cudaSuccess : set_error(cudaErrorInvalidValue);
}
cudaError_t cudaHostRegister(void* ptr, size_t, unsigned) {
  return ptr ? cudaSuccess : set_error(cudaErrorInvalidValue);
}
cudaError_t cudaHostUnregister(void* ptr) { return ptr ? cudaSuccess : set_error(cudaErrorInvalidValue); }
