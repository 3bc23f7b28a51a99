// The part of a user program's runtime that both backends share
// (user_launch.h): where the parent wants things, the named arrays, the
// crash and time-limit reports, one trace file per launch, and the request
// of a kernels-only file.
//
// [SECTION] Where the parent wants things
// [SECTION] Named arrays
// [SECTION] Crash and hang reports
// [SECTION] Launches
// [SECTION] The kernel-only request
#include <cxxabi.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>

#include "user_runtime_internal.h"
#include "warpviz/input_spec.h"
#include "warpviz/run_progress.h"
#include "warpviz/scenario.h"
#include "warpviz/trace_io.h"
#include "warpviz/user_launch.h"
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

// ============================================================================
// [SECTION] Named arrays
// ============================================================================
// A fixed table, so the signal handler can read it.

struct Allocation {
  unsigned char* base = nullptr;
  size_t bytes = 0;
  unsigned char* map = nullptr;  // the CPU backend's mapping, guard page included
  size_t map_bytes = 0;
  char name[64] = {};
  int line = 0;
  DType dtype = DType::U32;
  bool typed = false;
};

constexpr size_t kMaxAllocations = 4096;
Allocation g_allocations[kMaxAllocations];
size_t g_allocation_count = 0;

Allocation* find_allocation(const void* ptr) {
  for (size_t i = 0; i < g_allocation_count; ++i)
    if (g_allocations[i].base == ptr) return &g_allocations[i];
  return nullptr;
}

// "&d_out" and "(void**)&d_out" name d_out; anything fancier names nothing.
std::string variable_name(const char* expression) {
  std::string name = expression ? expression : "";
  name.erase(std::remove_if(name.begin(), name.end(), [](char c) { return c == ' '; }), name.end());
  if (name.rfind("(void**)", 0) == 0) name = name.substr(8);
  if (!name.empty() && name[0] == '&') name = name.substr(1);
  const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '[' || c == ']';
  });
  return plain ? name : "";
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
  if (const uint32_t line = emu::spinning_line()) {
    t.add("\nspin line ");
    t.add_u(line);
  }
  if (const uint32_t line = emu::shared_access_line()) {
    t.add("\naccess line ");
    t.add_u(line);
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

// Each OS thread's own: blocks that run on several threads have an area each.
thread_local const unsigned char* g_shared_base = nullptr;
thread_local size_t g_shared_bytes = 0;
thread_local const unsigned char* g_shared_end = nullptr;

void describe_address(FaultText& t, const void* addr) {
  const auto* p = static_cast<const unsigned char*>(addr);
  if (g_shared_base && p >= g_shared_base + g_shared_bytes && p < g_shared_end) {
    t.add(": ");
    t.add_u((unsigned long long)(p - (g_shared_base + g_shared_bytes)));
    t.add(" bytes past the end of the dynamic shared memory (extern __shared__, ");
    t.add_u(g_shared_bytes);
    t.add(" bytes: the launch's third <<< >>> argument, --shared BYTES for a kernels-only file)");
    return;
  }
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

// Whether a lane's fault already ended a launch (the report says the first).
std::atomic<bool> g_fault_landed{false};

// The fault's record for the runner: its kind on the first line, then what
// happened, where the address points and where the thread was.
void write_fault_report(const char* kind, const char* what, int sig, siginfo_t* info, void* context) {
  FaultText t;
  t.add(kind);
  t.add("\n");
  t.add(what);
  if (sig == SIGSEGV || sig == SIGBUS) {
    t.add(" at ");
    t.add_hex((unsigned long long)info->si_addr);
    describe_address(t, info->si_addr);
  }
  describe_where(t, context);
  t.add("\n");
  write_fault(t.buf);
}

void on_fatal_signal(int sig, siginfo_t* info, void* context) {
  // A lane's invalid access: on a GPU, an illegal address that ends the
  // launch and leaves the program cudaErrorIllegalAddress at its next call
  // that waits for the device. Said here (the runner adds the line) and the
  // program goes on. Blocks on other workers may fault too: the first is
  // reported.
  if ((sig == SIGSEGV || sig == SIGBUS) && emu::current_thread_or_null() && emu::lands_memory_faults()) {
    if (!g_fault_landed.exchange(true))
      write_fault_report("illegal-address", "an invalid memory access", sig, info, context);
    emu::land_memory_fault();
  }
  // A crash elsewhere is an error the GPU's program would get back and then
  // exit on: what its host printed comes out. (A crash in host code keeps
  // stdio's buffer, as the real program does.) Then what the kernel printed,
  // as a GPU's printf buffer does at the failing synchronisation.
  if (emu::current_thread_or_null()) std::fflush(stdout);
  emu::flush_lane_output_to_fd(STDOUT_FILENO);
  write_fault_report("crash",
                     sig == SIGSEGV  ? "an invalid memory access (SIGSEGV)"
                     : sig == SIGBUS ? "an invalid memory access (SIGBUS)"
                     : sig == SIGFPE ? "an arithmetic error such as an integer division by zero (SIGFPE)"
                     : sig == SIGILL ? "an illegal instruction (SIGILL)"
                                     : "an abort (SIGABRT)",
                     sig, info, context);
  signal(sig, SIG_DFL);
  raise(sig);
}

// The parent's "where are you?" before it stops a run past its time limit.
// Besides the running thread: who in its block waits for it (the makings of
// a deadlock). That part allocates; the thread it interrupts is looping in
// the user's kernel, not inside malloc, and the parent kills the program
// after a grace period if this ever hangs.
void on_where(int, siginfo_t*, void* context) {
  // The run is about to be stopped: what it printed comes out, so that the
  // user sees how far it got (a risk only if it was stopped inside stdio,
  // and it ends now anyway).
  std::fflush(stdout);
  emu::flush_lane_output_to_fd(STDOUT_FILENO);
  FaultText t;
  t.add("where\nrunning");
  describe_where(t, context);
  t.add("\n");
  write_fault(t.buf);
  const std::string waits = emu::describe_waiting_threads();
  if (!waits.empty()) write_fault(("waiting " + waits + "\n").c_str());
}

// The runner's progress record (run_progress.h), mapped when it made one.
RunProgress* g_progress = nullptr;

void map_progress_record() {
  const int fd = ::open(out_path(RunProgress::kFileName).c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st {};
  void* map = MAP_FAILED;
  if (fstat(fd, &st) == 0 && size_t(st.st_size) >= sizeof(RunProgress))
    map = mmap(nullptr, sizeof(RunProgress), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return;
  auto* record = static_cast<RunProgress*>(map);
  if (record->magic != RunProgress::kMagic || record->version != RunProgress::kVersion) return;
  g_progress = record;
  emu::count_progress_in(record);
}

// A launch begins (its name) or ends (null), as the progress record shows it.
void note_launch_in_progress(const char* kernel) {
  if (!g_progress) return;
  if (!kernel) {
    g_progress->in_launch.store(0, std::memory_order_relaxed);
    g_progress->launches_finished.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  // A seqlock: odd while the name changes, so the reader never takes half of two names.
  g_progress->kernel_writes.fetch_add(1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  std::snprintf(g_progress->kernel, sizeof g_progress->kernel, "%s", kernel);
  std::atomic_thread_fence(std::memory_order_release);
  g_progress->kernel_writes.fetch_add(1, std::memory_order_relaxed);
  g_progress->launches_started.fetch_add(1, std::memory_order_relaxed);
  g_progress->in_launch.store(1, std::memory_order_relaxed);
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

// exit() from a kernel would end the run as a success; on a GPU it cannot
// even be called there, so it is the kernel's error.
void on_exit_in_kernel() {
  if (const char* k = g_running_kernel.load())
    fail("kernel-error",
         std::string("kernel `") + k +
             "` called exit(): a kernel cannot end the program (nvcc rejects it: calling a __host__ function "
             "from a __global__ function is not allowed); return from the kernel instead",
         3);
}

// Set up before main(): the report file and the handlers.
struct RuntimeStart {
  RuntimeStart() {
    std::atexit(on_exit_in_kernel);
    if (!out_dir()) return;
    g_fault_fd = ::open(out_path("fault.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    install_handlers();
    map_progress_record();
    // Kernel printf goes through stdout too, so the two interleave in program
    // order either way. Line by line unless the runner says the output ends
    // in a file, where a real program's stdout is fully buffered (what an
    // abort in host code loses then is lost on the GPU's machine too).
    const char* buffered = std::getenv("WARPVIZ_USER_STDOUT_BUFFERED");
    if (!buffered || std::string(buffered) != "1") std::setvbuf(stdout, nullptr, _IOLBF, 0);
  }
} g_runtime_start;

// ============================================================================
// [SECTION] Launches
// ============================================================================

int g_launch_count = 0;
constexpr int kMaxRecordedLaunches = 256;
Trace g_last_trace;
std::string g_last_trace_file;

// After a launch, every named array as the kernel left it.
std::vector<TraceOutput> snapshot_allocations(const std::function<void(void*, const void*, size_t)>& read) {
  constexpr size_t kMaxElements = size_t(1) << 20;
  std::vector<TraceOutput> outs;
  for (size_t i = 0; i < g_allocation_count; ++i) {
    const Allocation& a = g_allocations[i];
    if (!a.name[0]) continue;
    TraceOutput o;
    o.name = a.name;
    o.dtype = a.typed ? a.dtype : DType::U32;
    const size_t width = size_t(dtype_bytes(o.dtype));
    const size_t n = std::min(a.bytes / width, kMaxElements);
    std::vector<unsigned char> bytes(n * width);
    if (n) read(bytes.data(), a.base, n * width);
    o.bits.resize(n);
    for (size_t e = 0; e < n; ++e) {
      uint64_t v = 0;
      std::memcpy(&v, bytes.data() + e * width, width);
      o.bits[e] = v;
    }
    outs.push_back(std::move(o));
  }
  return outs;
}

struct LaunchWork {
  bool noted = false;
  emu::LaunchStats stats;
  double seconds = 0;
  unsigned workers = 1;
  const char* in_order_because = nullptr;
};
LaunchWork g_launch_work;  // the launch being finished; taken by write_launch_index

void write_launch_index(int index, const Trace& trace, const std::string& file) {
  nlohmann::json j;
  j["index"] = index;
  j["kernel"] = trace.meta.params.count("kernel") ? trace.meta.params.at("kernel") : "";
  j["file"] = file;
  j["steps"] = trace.steps.size();
  j["grid"] = {trace.meta.grid.x, trace.meta.grid.y, trace.meta.grid.z};
  j["block"] = {trace.meta.block.x, trace.meta.block.y, trace.meta.block.z};
  if (g_launch_work.noted) {
    j["lane_ops"] = g_launch_work.stats.lane_ops;
    j["warp_ops"] = g_launch_work.stats.warp_ops;
    j["threads"] = g_launch_work.stats.threads;
    j["seconds"] = g_launch_work.seconds;
    j["workers"] = g_launch_work.workers;
    if (g_launch_work.in_order_because) j["in_order_because"] = g_launch_work.in_order_because;
  }
  g_launch_work = LaunchWork{};
  std::ofstream(out_path("launches.jsonl"), std::ios::app) << j.dump() << "\n";
}

void save_last_trace() {
  if (!out_dir() || g_last_trace_file.empty()) return;
  save_trace(g_last_trace, out_path(g_last_trace_file));
}

}  // namespace

[[noreturn]] void fail(const char* kind, const std::string& message, int exit_code) {
  std::fflush(stdout);
  emu::flush_lane_output_to_fd(STDOUT_FILENO);
  const std::string line = std::string(kind) + "\n" + message + "\n";
  write_fault(line.c_str());
  if (!out_dir()) std::fprintf(stderr, "warpviz: %s\n", message.c_str());
  std::_Exit(exit_code);
}

void set_running_kernel(const char* name) {
  g_running_kernel = name;
  note_launch_in_progress(name);
}

const char* running_kernel_name() { return g_running_kernel.load(); }

void note_launch_work(const emu::LaunchStats& stats, double seconds, unsigned workers, const char* in_order_because) {
  g_launch_work = LaunchWork{true, stats, seconds, workers, in_order_because};
}

void set_dynamic_shared_area(const void* base, size_t bytes, const void* end) {
  g_shared_base = static_cast<const unsigned char*>(base);
  g_shared_bytes = bytes;
  g_shared_end = static_cast<const unsigned char*>(end);
}

bool register_allocation(void* base, size_t bytes, void* map, size_t map_bytes) {
  if (g_allocation_count == kMaxAllocations) return false;
  Allocation& a = g_allocations[g_allocation_count++];
  a = Allocation{};
  a.base = static_cast<unsigned char*>(base);
  a.bytes = bytes;
  a.map = static_cast<unsigned char*>(map);
  a.map_bytes = map_bytes;
  return true;
}

bool points_into_allocation(const void* p) {
  const auto* byte = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < g_allocation_count; ++i)
    if (byte >= g_allocations[i].base && byte < g_allocations[i].base + std::max<size_t>(g_allocations[i].bytes, 1))
      return true;
  return false;
}

TakenAllocation take_allocation(const void* base) {
  for (size_t i = 0; i < g_allocation_count; ++i)
    if (g_allocations[i].base == base) {
      TakenAllocation t{g_allocations[i].map, g_allocations[i].map_bytes, true};
      g_allocations[i] = g_allocations[--g_allocation_count];
      return t;
    }
  return {};
}

void note_allocation(const void* ptr, size_t bytes, const char* name, int line, int dtype) {
  Allocation* a = find_allocation(ptr);
  if (!a) {  // a GPU allocation: the table learns of it here
    if (!register_allocation(const_cast<void*>(ptr), bytes, nullptr, 0)) return;
    a = &g_allocations[g_allocation_count - 1];
  }
  const std::string n = line > 0 ? variable_name(name) : std::string(name ? name : "");
  std::snprintf(a->name, sizeof a->name, "%s", n.c_str());
  a->line = line;
  if (dtype >= 0) {
    a->dtype = DType(dtype);
    a->typed = true;
  }
}

void forget_allocation(const void* ptr) { take_allocation(ptr); }

// `--launches N`: the program ends as its launch N+1 begins, its output
// flushed, as if done: what it did with launch N's results is kept (a
// benchmark loop after the checks never starts).
namespace {
int g_library_launches = 0;  // begin_library_launch's

void stop_at_launch_limit() {
  const char* limit = std::getenv("WARPVIZ_USER_MAX_LAUNCHES");
  const unsigned long max_launches = limit ? std::strtoul(limit, nullptr, 10) : 0;
  if (max_launches > 0 && unsigned(g_launch_count + g_library_launches) >= max_launches) {
    if (out_dir()) std::ofstream(out_path("launch_limit.txt")) << max_launches << "\n";
    std::fflush(nullptr);
    std::cout.flush();
    std::cerr.flush();
    std::_Exit(0);
  }
}
}  // namespace

int begin_launch() {
  stop_at_launch_limit();
  return g_launch_count++;
}

void begin_library_launch() {
  stop_at_launch_limit();
  ++g_library_launches;
}

// The program's launches together record at most this many times a launch's
// --max-steps: a benchmark loop of big launches would otherwise write (and
// the runner read back) a full trace for each, gigabytes that nobody steps
// through. Launches past it run unrecorded and keep no file, as those past
// kMaxRecordedLaunches do; trace_budget.txt tells the runner from where.
// The arrays' snapshots count too: a launch with no warp operation records
// no step but copies every named array (sortingNetworks: 16 MB a launch, 158
// launches).
constexpr uint64_t kProgramStepsPerLaunchLimit = 2;
constexpr uint64_t kProgramTraceBytes = uint64_t(256) << 20;
uint64_t g_steps_recorded = 0;
uint64_t g_trace_bytes = 0;
int g_unrecorded_from = -1;

emu::RecordFilter launch_filter(int index) {
  emu::RecordFilter f;
  const char* m = std::getenv("WARPVIZ_USER_MAX_STEPS");
  f.max_steps = m ? std::strtoull(m, nullptr, 10) : 200000;
  const char* memory = std::getenv("WARPVIZ_USER_RECORD_MEMORY");
  f.shared_memory = !memory || std::strcmp(memory, "none") != 0;
  const uint64_t budget = kProgramStepsPerLaunchLimit * f.max_steps;
  if (g_unrecorded_from < 0 &&
      ((g_steps_recorded > 0 && g_steps_recorded >= budget) || g_trace_bytes >= kProgramTraceBytes)) {
    g_unrecorded_from = index;
    if (out_dir())
      std::ofstream(out_path("trace_budget.txt")) << index << " " << g_steps_recorded << " " << g_trace_bytes << "\n";
  }
  if (index >= kMaxRecordedLaunches || g_unrecorded_from >= 0) f.blocks = {0xfffffffeu};  // runs, records nothing
  return f;
}

void finish_launch(int index, const char* kernel_name, Dim3 grid, Dim3 block, size_t shared, const char* backend,
                   const char* device, Trace trace, const std::function<void(void*, const void*, size_t)>& read) {
  trace.meta.scenario = std::getenv("WARPVIZ_USER_NAME") ? std::getenv("WARPVIZ_USER_NAME") : kernel_name;
  trace.meta.params["kernel"] = kernel_name;
  trace.meta.params["launch"] = std::to_string(index);
  trace.meta.params["shared"] = std::to_string(shared);
  trace.meta.grid = grid;
  trace.meta.block = block;
  trace.meta.backend = backend;
  trace.meta.device = device;
  if (trace.meta.compute_capability.empty()) trace.meta.compute_capability = "9.0";  // the emulator's rules
  trace.meta.tool_version = tool_version();
  // Past the recorded launches nothing is kept: no copy of every allocation
  // (a benchmark loop launches thousands of times).
  if (!out_dir() || index >= kMaxRecordedLaunches) return;
  if (g_unrecorded_from >= 0 && index >= g_unrecorded_from) return;
  g_steps_recorded += trace.steps.size();
  trace.outputs = snapshot_allocations(read);
  if (!trace.steps.empty()) trace.meta.dtype = trace.steps.front().dtype;
  else if (!trace.outputs.empty()) trace.meta.dtype = trace.outputs.front().dtype;
  g_last_trace = std::move(trace);
  g_last_trace_file = "launch-" + std::to_string(index) + ".wvt";
  save_last_trace();
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(out_path(g_last_trace_file), ec);
  if (!ec) g_trace_bytes += bytes;
  write_launch_index(index, g_last_trace, g_last_trace_file);
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
      pairs("sets", r.sets);
      r.list_scenarios = j.value("list_scenarios", false);
      r.scenario = j.value("scenario", std::string());
      r.scenario_input = j.value("scenario_input", std::string());
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


std::string spelled_type(const char* mangled, bool const_pointee) {
  int status = 0;
  char* d = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string name = status == 0 && d ? d : mangled;
  std::free(d);
  // typeid spells "int const*"; the source says "const int*".
  if (const_pointee && name.size() > 7 && name.compare(name.size() - 7, 7, " const*") == 0)
    name = "const " + name.substr(0, name.size() - 7) + "*";
  return name;
}

namespace {
const std::string* find_named(const std::vector<std::pair<std::string, std::string>>& list, const std::string& name) {
  for (const auto& [k, v] : list)
    if (k == name) return &v;
  return nullptr;
}
}  // namespace

std::vector<uint64_t> array_start_bits(const ParamDecl& decl, bool input, DType dtype, size_t threads,
                                       const std::string& type) {
  const KernelRequest& req = kernel_request();
  const std::string name = decl.name;
  size_t count = threads;
  if (const std::string* len = find_named(req.lens, name)) {
    const auto n = parse_value(DType::U64, *len);
    if (!n || *n == 0 || *n > (uint64_t(1) << 28))
      request_error("--len " + name + "=" + *len + ": a length is a whole number from 1 to 268435456");
    count = size_t(*n);
  }
  const std::string* spec = find_named(req.inputs, name);
  if (!spec && input) spec = find_named(req.inputs, "");
  if (!spec && !input) return std::vector<uint64_t>(count, 0);
  try {
    return make_input_values(parse_input_spec(spec ? *spec : "iota"), dtype, count);
  } catch (const std::exception& e) {
    request_error("--input for `" + name + "` (" + type + ", " + std::to_string(count) + " elements): " + e.what());
  }
}

uint64_t scalar_bits(const ParamDecl& decl, DType as, const std::string& type) {
  const KernelRequest& req = kernel_request();
  const std::string name = decl.name;
  const std::string* text = find_named(req.args, name);
  std::string given = text ? *text : decl.default_text ? decl.default_text : "";
  if (given.empty())
    request_error("the kernel's parameter `" + name + "` (" + type + ") needs a value: --arg " + name + "=VALUE");
  // Default arguments are C++ literals: 1.5f, 32u, 10L.
  while (!text && given.size() > 1 && std::string("fFuUlL").find(given.back()) != std::string::npos &&
         given.compare(0, 2, "0x") != 0)
    given.pop_back();
  const auto bits = parse_value(as, given);
  if (!bits)
    request_error("--arg " + name + "=" + given + ": not a value of type " + type +
                  (text ? "" : " (the kernel's default argument; give --arg " + name + "=VALUE)"));
  return *bits;
}

void unsupported_parameter(const ParamDecl& decl, const std::string& type, bool pointer) {
  request_error("parameter `" + std::string(decl.name) + "` is " + type +
                (pointer ? ": a kernel-only file fills arrays of int, unsigned, float, double, long long and "
                           "unsigned long long; write a main() to pass anything else"
                         : ": a kernel-only file takes pointers and numbers; write a main() to pass anything else"));
}

void write_scenario_list() {
  if (!out_dir()) return;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ScenarioSpec& spec : scenario_specs()) {
    nlohmann::ordered_json params = nlohmann::ordered_json::array();
    for (const ParamSpec& p : spec.params) {
      nlohmann::ordered_json j{{"name", p.name}, {"default", p.default_value}, {"help", p.help}};
      if (!p.choices.empty()) j["choices"] = p.choices;
      if (p.kind == ParamKind::Int) j["range"] = {p.min, p.max};
      params.push_back(j);
    }
    list.push_back({{"name", spec.name}, {"summary", spec.summary}, {"kernel", spec.kernel},
                    {"default_input", spec.default_input}, {"params", params}});
  }
  std::ofstream(out_path("scenarios.json")) << list.dump(1) << "\n";
}

void save_scenario_trace(Trace trace) {
  if (!out_dir()) return;
  const int index = begin_launch();
  trace.meta.params["kernel"] = trace.meta.scenario;
  trace.meta.params["launch"] = std::to_string(index);
  g_last_trace = std::move(trace);
  g_last_trace_file = "launch-" + std::to_string(index) + ".wvt";
  save_last_trace();
  write_launch_index(index, g_last_trace, g_last_trace_file);
}

void record_outputs(std::vector<TraceOutput> outputs) {
  if (g_last_trace_file.empty()) return;
  g_last_trace.outputs = std::move(outputs);
  if (!g_last_trace.outputs.empty() && g_last_trace.steps.empty())
    g_last_trace.meta.dtype = g_last_trace.outputs.front().dtype;
  save_last_trace();
}

}  // namespace warpviz::user
