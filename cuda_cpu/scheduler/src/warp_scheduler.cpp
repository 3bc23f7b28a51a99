// The CPU emulator's scheduler: one fiber per CUDA thread, warps brought
// together at collectives.
//
// [SECTION] Thread state
// [SECTION] Grouping lanes at a collective
// [SECTION] Shared-memory accesses
// [SECTION] Running one block
// [SECTION] Public entry points
#include "warpviz/warp_scheduler.h"

#include <algorithm>
#include <new>
#include <atomic>
#include <bit>
#include <boost/context/fiber.hpp>
#include <sys/mman.h>
#include <unistd.h>
#include <csetjmp>
#include <csignal>
#include <cctype>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "fiber_switch.h"
#include "kept_threads.h"
#include "grid_turns.h"
#include "warpviz/bank_model.h"
#include "warpviz/lane_output_buffer.h"
#include "warpviz/run_progress.h"
#include "warpviz/warp_rules.h"

// AddressSanitizer must be told of every switch between the scheduler's stack
// and a fiber's: otherwise an exception thrown on a fiber's stack makes it
// give up tracking stacks ("ignoring requested __asan_handle_no_return") and
// false reports may follow. Boost.Context annotates only its ucontext fibers.
#if defined(__SANITIZE_ADDRESS__)
#define WARPVIZ_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WARPVIZ_ASAN_FIBERS 1
#endif
#endif
#if defined(WARPVIZ_ASAN_FIBERS)
#include <sanitizer/common_interface_defs.h>
#endif

namespace ctx = boost::context;

namespace warpviz::emu {

namespace {

// Room in a trace for `more` steps of `more_bytes` encoded bytes, and when it
// must grow, for `expected` steps in all. A big trace grows into a buffer of
// huge pages (TraceSteps::reserve_bytes): filling hundreds of MB page by page
// costs a fault per 4 KiB (slow on a VM); and each time it doubles, the kernel
// zeroes and the copy fills the whole new buffer, so a launch that can guess
// its size grows once.
void make_room(TraceSteps& steps, size_t more, size_t more_bytes, size_t expected) {
  const size_t need = steps.size() + more, need_bytes = steps.encoded_bytes() + more_bytes;
  if (need <= steps.capacity() && need_bytes <= steps.arena_capacity()) return;
  const size_t target = std::max({need, steps.size() * 2, expected});
  const size_t per_step = need_bytes / std::max<size_t>(need, 1) + 1;
  steps.reserve(target - steps.size());
  steps.reserve_bytes(std::max({need_bytes, steps.arena_capacity() * 2, target * per_step}));
}

// A trace lists a block's steps warp by warp; (warp, seq) is unique in a block.
bool step_order(const TraceStep& a, const TraceStep& b) {
  return a.warp != b.warp ? a.warp < b.warp : a.seq < b.seq;
}

// Appends a block's steps, sorted into step_order, to the trace: encoded
// first into `encoded` (reused), so that the trace grows by their exact size.
// The sort moves indices, not the 800-byte steps.
void append_steps(TraceSteps& steps, const std::vector<TraceStep>& block_steps, TraceSteps& encoded,
                  std::vector<uint32_t>& order, size_t expected) {
  order.resize(block_steps.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return step_order(block_steps[a], block_steps[b]); });
  encoded.clear();
  for (uint32_t i : order) encoded.push_back(block_steps[i]);
  make_room(steps, encoded.size(), encoded.encoded_bytes(), expected);
  steps.append(encoded);
}

}  // namespace

bool RecordFilter::wants(uint32_t block, uint32_t warp) const {
  if (!blocks.empty() && std::find(blocks.begin(), blocks.end(), block) == blocks.end()) return false;
  if (!warps.empty() && std::find(warps.begin(), warps.end(), warp) == warps.end()) return false;
  return true;
}

namespace {

std::string hex_mask(uint32_t mask) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", mask);
  return buf;
}

// ============================================================================
// [SECTION] Thread state
// ============================================================================

// AtCondition: at a cuda::barrier or cuda::pipeline wait (wait_until), until its test passes.
enum class ThreadState : uint8_t { Ready, AtWarpOp, AtBarrier, AtGridBarrier, AtCondition, Exited };

// What a lane touches at every warp operation comes first, in one cache line:
// a block's 256 lanes in turn touch more than the L1 cache holds.
struct alignas(64) EmuThread {
  ctx::fiber fiber;      // the CUDA thread's own context
  ctx::fiber scheduler;  // where the thread returns to when it waits
  uint64_t arrival = 0;  // when it reached its current wait, for fair forcing
  WarpOpResult result;
  ThreadState state = ThreadState::Exited;
  // The meeting point (converged_access_point) it last came to, and how
  // many times in a row, with no warp operation or barrier between.
  uint32_t same_site_meetings = 0;
  uint32_t last_site = 0;
  WarpOpRequest request;
  ThreadCoords coords;
  // The fiber's stack, and AddressSanitizer's fake stack while it is switched out.
  const void* stack_bottom = nullptr;
  size_t stack_size = 0;
  void* asan_fake_stack = nullptr;
  bool (*until)(const void*) = nullptr;  // AtCondition's test and its argument
  const void* until_arg = nullptr;
};

thread_local EmuThread* t_current = nullptr;
// Where land_memory_fault jumps: the running block's scheduler loop.
thread_local sigjmp_buf* t_fault_landing = nullptr;
class BlockRun;
thread_local const BlockRun* t_block_run = nullptr;  // the block running on this thread
// The block whose round a waiting thread may hand on to the round's next
// thread itself (BlockRun::next_in_round); null: back to the scheduler.
thread_local BlockRun* t_handoff_block = nullptr;
// Set by a thread that switches straight to another: the one the arriving
// thread must give its context to. Null when the scheduler switched.
thread_local EmuThread* t_handed_from = nullptr;
thread_local uint64_t t_arrival_clock = 0;
thread_local uint64_t t_block_runs = 0;  // blocks started on this OS thread (block_barrier_epoch)
thread_local bool t_cooperative = false;  // this OS thread runs a block of a cooperative launch
// The running block's kernel printf output, and whether a lane is adding to it
// now (a signal handler then leaves it alone).
thread_local LaneOutputBuffer* t_lane_output = nullptr;
thread_local volatile bool t_lane_output_busy = false;
std::atomic<RunProgress*> g_progress{nullptr};  // count_progress_in's record, null: none

#if defined(WARPVIZ_ASAN_FIBERS)
constexpr bool kKeepsFibers = false;
#else
constexpr bool kKeepsFibers = true;
#endif

// Lanes stack only kernel frames and the recording layer; 64 KiB is plenty and
// keeps a 1024-thread block at 64 MiB of (mostly untouched) stack.
constexpr size_t kFiberStackBytes = 64 * 1024 + 5 * 64;

// The scheduler's own stack (the OS thread's), as AddressSanitizer reports it
// when a fiber first starts.
thread_local const void* t_scheduler_stack_bottom = nullptr;
thread_local size_t t_scheduler_stack_size = 0;

// Around each switch: `before` names the stack about to run (a null `fake_save`
// when the fiber leaving ends for good), `after` runs on the stack arrived at.
#if defined(WARPVIZ_ASAN_FIBERS)
void before_switch(void** fake_save, const void* bottom, size_t size) {
  __sanitizer_start_switch_fiber(fake_save, bottom, size);
}
void after_switch(void* fake, const void** old_bottom, size_t* old_size) {
  __sanitizer_finish_switch_fiber(fake, old_bottom, old_size);
}
#else
void before_switch(void**, const void*, size_t) {}
void after_switch(void*, const void**, size_t*) {}
#endif

// Fiber stacks, in chunks mapped for them alone: malloc's memory would be
// backed by 2 MiB pages in a program run with glibc.malloc.hugetlb (the runner
// sets it for a program's big arrays), where a lane touches a few 4 KiB pages
// of its stack (264 blocks of 1024 lanes passed 17 GiB). No guard pages
// between them: a cooperative launch holds 270 000 stacks at once, and a
// mapping each would pass the kernel's limit on mappings (65 530).
class FiberStackPool {
 public:
  explicit FiberStackPool(size_t stack_bytes)
      : page_(size_t(sysconf(_SC_PAGESIZE))), usable_((stack_bytes + page_ - 1) / page_ * page_) {}
  FiberStackPool(const FiberStackPool&) = delete;
  FiberStackPool& operator=(const FiberStackPool&) = delete;
  ~FiberStackPool() {
    // exit() in a kernel runs this thread's thread_local destructors on a
    // lane's stack, one of ours: the process is ending, so they stay mapped.
    const char* here = reinterpret_cast<const char*>(__builtin_frame_address(0));
    for (const auto& [base, bytes] : chunks_)
      if (here >= static_cast<const char*>(base) && here < static_cast<const char*>(base) + bytes) return;
    for (const auto& [base, bytes] : chunks_) munmap(base, bytes);
  }
  ctx::stack_context allocate() {
    if (free_.empty()) grow();
    char* low = free_.back();
    free_.pop_back();
    ctx::stack_context sctx;
    sctx.size = usable_;
    sctx.sp = low + usable_;  // stacks grow down from here
    return sctx;
  }
  void deallocate(ctx::stack_context& sctx) noexcept { free_.push_back(static_cast<char*>(sctx.sp) - sctx.size); }

 private:
  static constexpr size_t kStacksPerChunk = 64;
  void grow() {
    const size_t bytes = usable_ * kStacksPerChunk;
    void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    madvise(m, bytes, MADV_NOHUGEPAGE);
    chunks_.emplace_back(m, bytes);
    free_.reserve(free_.size() + kStacksPerChunk);
    for (size_t i = kStacksPerChunk; i-- > 0;) free_.push_back(static_cast<char*>(m) + i * usable_);
  }
  size_t page_, usable_;
  std::vector<std::pair<void*, size_t>> chunks_;
  std::vector<char*> free_;  // each stack's lowest usable byte
};

// This OS thread's fiber stacks, kept while it lives: a block run after
// another on the same thread (a worker's next block, the main thread's next
// launch, a kept cooperative thread's next launch) reuses stacks already
// mapped and touched instead of faulting in new ones.
FiberStackPool& thread_fiber_stacks() {
  static thread_local FiberStackPool stacks(kFiberStackBytes);
  return stacks;
}

// The pool's stacks, each noted in its thread for before_switch.
struct NotedStack {
  FiberStackPool* pool;
  EmuThread* thread;
  ctx::stack_context allocate() {
    ctx::stack_context sctx = pool->allocate();
    thread->stack_bottom = static_cast<const char*>(sctx.sp) - sctx.size;
    thread->stack_size = sctx.size;
    return sctx;
  }
  void deallocate(ctx::stack_context& sctx) noexcept { pool->deallocate(sctx); }
};

inline EmuThread* next_in_round(EmuThread& stopping);

// Whoever switched to `self` left its own context behind: a thread that
// handed on keeps it as its fiber; the scheduler's is where `self` returns.
void take_arriving_context(EmuThread* self, ctx::fiber&& from) {
  if (EmuThread* const handed = t_handed_from) {
    handed->fiber = std::move(from);
    t_handed_from = nullptr;
  } else {
    self->scheduler = std::move(from);
  }
}

// Switches from `self` to `next`, which then takes on self's way back to
// the scheduler, or to the scheduler when `next` is null. Returns the context
// that switched back to self. One call site for both: the lane resumed
// returns through the same code this one called through (fiber_switch.h).
__attribute__((always_inline)) inline ctx::fiber hand_on(EmuThread* self, EmuThread* next) {
  ctx::fiber* to = &self->scheduler;
  if (next) {
    next->scheduler = std::move(self->scheduler);
    t_current = next;
    t_handed_from = self;
    to = &next->fiber;
  }
  return switch_to(std::move(*to));
}

__attribute__((always_inline)) inline void suspend_current_thread(ThreadState waiting_state) {
  EmuThread* self = t_current;
  self->state = waiting_state;
  self->arrival = ++t_arrival_clock;
  // The round's next thread, straight from this one: one switch where the
  // scheduler between them made two (a warp's 32 lanes meet at every
  // shuffle). The order the threads run in is the scheduler's own.
  EmuThread* const next = t_handoff_block ? next_in_round(*self) : nullptr;
  if (!next) before_switch(&self->asan_fake_stack, t_scheduler_stack_bottom, t_scheduler_stack_size);
  ctx::fiber from = hand_on(self, next);
  // ASan's fibers (and only they) never hand on: the scheduler switched here.
  if (!next) after_switch(self->asan_fake_stack, &t_scheduler_stack_bottom, &t_scheduler_stack_size);
  t_current = self;
  take_arriving_context(self, std::move(from));
}

// ============================================================================
// [SECTION] Grouping lanes at a collective
// ============================================================================

// Lanes of one warp that wait at the same call: same op, line and mask (and for
// a watch the same variable: `if (a) WARPVIZ_WATCH(x); else WARPVIZ_WATCH(y);`
// on one line is two watches).
struct PendingGroup {
  uint32_t lanes = 0;  // bit per lane waiting here
  Op op = Op::ShflIdx;
  uint32_t line = 0;
  uint32_t mask = 0;
  uint64_t first_arrival = 0;
  const WarpOpRequest* first = nullptr;  // the first lane's request
};

// Shared accesses, watches and converged access points have no mask: they
// wait until nothing else of the warp can complete, the lowest line first.
bool waits_for_convergence(const PendingGroup& g) {
  return op_is_shared(g.op) || op_is_watch(g.op) || g.first->site != 0;
}

bool same_watch(const WarpOpRequest& a, const WarpOpRequest& b) {
  return a.dtype == b.dtype && a.args.b == b.args.b && a.args.width == b.args.width && a.args.c == b.args.c;
}

// Whether two lanes' requests wait at the same call (one PendingGroup).
bool same_call(const WarpOpRequest& a, const WarpOpRequest& b) {
  return a.op == b.op && a.line == b.line && a.mask == b.mask && a.site == b.site &&
         (a.op != Op::Watch || same_watch(a, b));
}

// A warp's lanes as the scheduler tracks them between its looks: which live,
// which wait at a warp operation, and whether all of those wait at the same
// call (the usual case: a converged warp at a shuffle). Kept as lanes stop, so
// that such a warp's group is known without a pass over its 32 threads.
// Lanes are compared with the key lane when the scheduler looks, not as they
// stop: a lane's request was written just before it stopped, and reading it
// back at once stalled on store forwarding.
struct WarpLanes {
  uint32_t live = 0;       // lanes that have not exited
  uint32_t waiting = 0;    // lanes in ThreadState::AtWarpOp
  uint32_t unchecked = 0;  // waiting lanes not yet compared with the key lane
  uint8_t key_lane = 0;    // one waiting lane; with `one_call`, every checked one waits at its call
  bool one_call = true;    // false: the waiting lanes may wait at several calls
};

class BlockRun {
 public:
  BlockRun(Dim3 grid, Dim3 block, const std::function<void()>& body, const RecordFilter& filter,
           LaunchStats& stats)
      : grid_(grid),
        block_(block),
        body_(body),
        filter_(filter),
        stats_(stats),
        stacks_(&thread_fiber_stacks()),
        threads_(block.count()),
        warp_count_(uint32_t((block.count() + kWarpSize - 1) / kWarpSize)),
        warp_seq_(warp_count_),
        warp_ran_(warp_count_, 1),
        records_shared_(warp_count_, 0),
        warp_lanes_(warp_count_) {}
  ~BlockRun() { retire_parked_fibers(); }
  BlockRun(const BlockRun&) = delete;
  BlockRun& operator=(const BlockRun&) = delete;

  // Runs one block, appending its recorded steps to `steps` in completion
  // order until `room` of them are there; returns whether any were dropped
  // for want of room. The caller sorts them and adds them to the trace
  // (encoded: TraceSteps). Rethrows what a thread threw.
  bool run(Dim3 block_idx, uint32_t block_linear, std::vector<TraceStep>& steps, size_t room);

 private:
  void run_with_landing(Dim3 block_idx, uint32_t block_linear);
  void run_threads(Dim3 block_idx, uint32_t block_linear);
  void start_threads(Dim3 block_idx, uint32_t block_linear);
  void resume(EmuThread& t);
  void start_next_thread();
  // The next thread that has not started, with a fiber to start it: one
  // kept from an earlier block, else a new one.
  EmuThread& make_next_thread();
  // The fibers that ran the last block's threads to their end and stay,
  // waiting to run threads of the next (parked_).
  void collect_parked_fibers();
  // Lets every kept fiber end (as the BlockRun does).
  void retire_parked_fibers();
  // What the scheduler notes of a thread that stopped (waits or ended).
  inline void note_stopped(const EmuThread& t);

 public:
  // The thread after `stopping` in this round, which `stopping` switches to
  // itself (suspend_current_thread); null: the round is over.
  EmuThread* next_in_round(EmuThread& stopping) {
    note_stopped(stopping);
    if (running_at_ < running_.size()) return &threads_[running_[running_at_++]];
    // While threads start (every one before any waiting one is resumed),
    // the next to start: a thread that stops starts it itself, where the
    // scheduler between them switched twice.
    if (next_unstarted_ < threads_.size() && running_.empty() && !error_) return &make_next_thread();
    return nullptr;
  }

 private:
  uint32_t live_lanes(uint32_t warp) const;
  int collect_groups(uint32_t warp, PendingGroup* groups) const;
  bool complete_ready_groups(uint32_t warp);
  void force_earliest_group();
  void complete_group(uint32_t warp, const PendingGroup& group);
  // Performs the access; a 16-byte load's bytes 8-15 (no LaneRecord field) go to loaded_high.
  void complete_shared_access(uint32_t warp, uint32_t lanes, TraceStep& step, uint64_t (&loaded_high)[kWarpSize]);
  bool release_barrier();
  bool release_grid_barrier();
  void flush_output(uint32_t warp, uint32_t lanes);
  void flush_all_output();
  bool release_conditions();
  void count_barrier_passed() {
    ++unpublished_.barriers;
    ++barriers_passed_;
  }
  // The progress record (run_progress.h) is a page every worker and the
  // runner share: a write to it at every switch kept its cache line moving
  // between cores (16 % of a barrier-heavy launch). Counts go there in lots.
  void count_switch() {
    if (++unpublished_.switches >= kSwitchesPerPublish) publish_progress();
  }
  void publish_progress() {
    if (progress_) {
      progress_->switches.fetch_add(unpublished_.switches, std::memory_order_relaxed);
      progress_->threads_done.fetch_add(unpublished_.threads_done, std::memory_order_relaxed);
      progress_->barriers_passed.fetch_add(unpublished_.barriers, std::memory_order_relaxed);
    }
    unpublished_ = {};
  }
  static constexpr uint32_t kSwitchesPerPublish = 64;
  struct {
    uint32_t switches = 0, threads_done = 0, barriers = 0;
  } unpublished_;

 public:
  // A cooperative launch's blocks wait at grid.sync() through `turns`.
  void set_grid_turns(GridTurns* turns) { turns_ = turns; }
  std::string describe_waits(const EmuThread* running) const;
  bool dropped() const { return dropped_; }
  // This block's stretch between barriers, unique on this OS thread.
  uint64_t barrier_epoch() const { return (run_serial_ << 32) | barriers_passed_; }

 private:
  RunProgress* progress_ = nullptr;  // g_progress as the block started

  Dim3 grid_, block_;
  const std::function<void()>& body_;
  const RecordFilter& filter_;
  LaunchStats& stats_;
  std::vector<TraceStep>* steps_ = nullptr;  // where this block's steps go
  size_t steps_end_ = 0;                     // steps_ may grow to this size
  bool dropped_ = false;
  FiberStackPool* stacks_;  // this OS thread's
  std::vector<EmuThread> threads_;
  uint32_t warp_count_;
  std::vector<uint32_t> warp_seq_;
  // Whether a lane of the warp ran since complete_ready_groups last looked at
  // it: what it decides depends on the warp's lanes alone, so a warp none of
  // whose lanes moved (all at __syncthreads while warp 0 shuffles) is skipped.
  std::vector<uint8_t> warp_ran_;
 public:
  // Whether the warp's shared accesses are recorded (records_shared_access).
  bool records_shared(uint32_t warp) const { return records_shared_[warp] != 0; }

 private:
  std::vector<uint8_t> records_shared_;
  std::vector<WarpLanes> warp_lanes_;
  std::vector<uint32_t> ready_, running_;
  size_t running_at_ = 0;  // the next of running_ to run in this round
  uint32_t next_unstarted_ = 0;  // threads from here on have not started (start_next_thread)
  uint32_t exited_ = 0;          // threads of the block that have ended
  uint32_t block_linear_ = 0;
  std::exception_ptr error_;
  LaneOutputBuffer output_;  // kernel printf, written at the warp's sync points
  TraceStep step_;  // scratch, reused for every collective
  GridTurns* turns_ = nullptr;
  // A fiber whose thread ended, and nothing was left to start, stays: the
  // next block's threads start on such fibers, where each new thread made,
  // entered, ended and freed a fiber (a third of a launch whose threads do
  // a few shuffles). Not under AddressSanitizer, whose fiber annotations
  // follow only the scheduler's switches.
  struct ParkedFiber {
    ctx::fiber fiber;
    const void* stack_bottom;
    size_t stack_size;
  };
  std::vector<ParkedFiber> parked_;
  bool retiring_ = false;  // a kept fiber woken now ends
  uint32_t at_condition_ = 0;  // threads in ThreadState::AtCondition
  uint64_t run_serial_ = 0;      // t_block_runs as this block started
  uint32_t barriers_passed_ = 0;  // by this block, grid barriers included
};

uint32_t BlockRun::live_lanes(uint32_t warp) const { return warp_lanes_[warp].live; }

int BlockRun::collect_groups(uint32_t warp, PendingGroup* groups) const {
  int count = 0;
  const size_t base = size_t(warp) * kWarpSize;
  for (uint32_t lane = 0; lane < kWarpSize && base + lane < threads_.size(); ++lane) {
    const EmuThread& t = threads_[base + lane];
    if (t.state != ThreadState::AtWarpOp) continue;
    const WarpOpRequest& r = t.request;
    int g = 0;
    while (g < count && !same_call(*groups[g].first, r)) ++g;
    if (g == count) {
      groups[count++] = PendingGroup{0, r.op, r.line, r.mask, t.arrival, &r};
    }
    groups[g].lanes |= 1u << lane;
    groups[g].first_arrival = std::min(groups[g].first_arrival, t.arrival);
  }
  return count;
}

// A group completes once every live lane its mask names has arrived. Lanes the
// mask names that exited count as inactive (reading them is undefined).
//
// A shared-memory access has no mask: it waits until nothing else of its warp
// can complete, and then the one at the lowest source line goes first. Lanes
// that skipped an `if` wait at the access after it until the lanes inside
// arrive there too, as the hardware reconverges after the branch; a loop's
// lanes finish the loop before the lanes that left it go on.
//
// A watch (WARPVIZ_WATCH) waits the same way, so that its lanes are the ones
// converged at its line, what __activemask() there gives on the GPU: after an
// `if` with a warp op or a watch inside, the lanes that skipped it wait for the
// others rather than being recorded as a step of their own.
bool BlockRun::complete_ready_groups(uint32_t warp) {
  WarpLanes& lanes = warp_lanes_[warp];
  if (lanes.waiting == 0) return false;
  const size_t base = size_t(warp) * kWarpSize;
  if (lanes.one_call && lanes.unchecked) {
    const WarpOpRequest& key = threads_[base + lanes.key_lane].request;
    for (uint32_t rest = lanes.unchecked; rest && lanes.one_call; rest &= rest - 1)
      lanes.one_call = same_call(key, threads_[base + std::countr_zero(rest)].request);
    lanes.unchecked = 0;
  }
  if (lanes.one_call) {
    // One group: what the pass below decides for a single group.
    const WarpOpRequest& r = threads_[base + lanes.key_lane].request;
    const PendingGroup group{lanes.waiting, r.op, r.line, r.mask, 0, &r};
    const uint32_t required = group.op == Op::ActiveMask ? 0u : group.mask & lanes.live;
    if (!waits_for_convergence(group) && (required & ~group.lanes) != 0) return false;
    complete_group(warp, group);
    return true;
  }
  PendingGroup groups[kWarpSize];
  const int count = collect_groups(warp, groups);
  if (count == 0) return false;
  const uint32_t live = live_lanes(warp);
  bool completed = false;
  int deferred = -1;
  for (int g = 0; g < count; ++g) {
    if (waits_for_convergence(groups[g])) {
      if (deferred < 0 || groups[g].line < groups[deferred].line) deferred = g;
      continue;
    }
    // __activemask() has no mask: it sees whoever is converged here right now.
    const uint32_t required = groups[g].op == Op::ActiveMask ? 0u : groups[g].mask & live;
    if ((required & ~groups[g].lanes) == 0) {
      complete_group(warp, groups[g]);
      completed = true;
    }
  }
  if (!completed && deferred >= 0) {
    // Lanes spinning at converged points on a low line (a lock another lane
    // of the warp holds) would starve the lanes further on for ever; the GPU
    // lets those make progress too. A group passed over for long goes first.
    if (groups[deferred].first->site != 0) {
      constexpr uint64_t kPassedOver = 64 * kWarpSize;
      for (int g = 0; g < count; ++g)
        if (groups[g].first_arrival + kPassedOver < t_arrival_clock &&
            groups[g].first_arrival < groups[deferred].first_arrival &&
            waits_for_convergence(groups[g]))
          deferred = g;
    }
    complete_group(warp, groups[deferred]);
    completed = true;
  }
  return completed;
}

// Nothing can move: some lane waits for lanes that are elsewhere (a barrier, a
// different call). Undefined by spec; complete the oldest group with the lanes
// that did arrive, and let the rules mark the missing ones' reads undefined.
void BlockRun::force_earliest_group() {
  uint32_t best_warp = 0;
  PendingGroup best;
  best.first_arrival = UINT64_MAX;
  for (uint32_t w = 0; w < warp_count_; ++w) {
    PendingGroup groups[kWarpSize];
    const int count = collect_groups(w, groups);
    for (int g = 0; g < count; ++g)
      if (groups[g].first_arrival < best.first_arrival) {
        best = groups[g];
        best_warp = w;
      }
  }
  if (best.first_arrival == UINT64_MAX) {
    for (const EmuThread& t : threads_)
      if (t.state == ThreadState::AtCondition)
        throw std::runtime_error("deadlock: in block " + std::to_string(block_linear_) +
                                 ", threads wait at a cuda::barrier or cuda::pipeline wait (the first on line " +
                                 std::to_string(t.request.line) +
                                 ") that no thread left can complete (too few arrivals for its expected count?)");
    throw std::logic_error("warpviz emulator: threads are stuck but none waits at a warp op");
  }
  complete_group(best_warp, best);
}

void BlockRun::complete_group(uint32_t warp, const PendingGroup& group) {
  const size_t base = size_t(warp) * kWarpSize;
  WarpLanes& warp_lanes = warp_lanes_[warp];
  warp_lanes.waiting &= ~group.lanes;
  warp_lanes.unchecked &= ~group.lanes;
  // The lanes left waiting may be at one call or several: unknown until none waits.
  warp_lanes.one_call = warp_lanes.waiting == 0;
  if (group.first->site != 0) {  // a converged access point: the lanes go on together
    for (uint32_t lanes = group.lanes; lanes; lanes &= lanes - 1) {
      const uint32_t i = uint32_t(base + std::countr_zero(lanes));
      threads_[i].state = ThreadState::Ready;
      ready_.push_back(i);
    }
    return;
  }
  // A step the trace keeps is made where it is kept; any other in scratch.
  bool keep = false;
  if (filter_.wants(block_linear_, warp)) {
    keep = steps_->size() < steps_end_;
    dropped_ |= !keep;
  }
  TraceStep& step = keep ? steps_->emplace_back() : (step_ = TraceStep{});
  const int first_lane = std::countr_zero(group.lanes);
  const WarpOpRequest& first = threads_[base + first_lane].request;
  step.block = block_linear_;
  step.warp = warp;
  step.seq = warp_seq_[warp]++;
  step.line = group.line;
  step.mask = group.mask;
  step.op = group.op;
  step.dtype = first.dtype;
  step.args = first.args;
  step.step_flags = first.step_flags;

  bool per_lane_operand = false;
  for (uint32_t lanes = group.lanes; lanes; lanes &= lanes - 1) {
    const int lane = std::countr_zero(lanes);
    const WarpOpRequest& r = threads_[base + lane].request;
    LaneRecord& rec = step.lanes[lane];
    rec.flags = kLaneActive;
    rec.in = r.value;
    rec.addr = r.addr;
    rec.bytes = r.bytes;
    if (r.args.b != first.args.b) per_lane_operand = true;
  }
  // A shuffle's b is a register: lanes may pass different srcLane values.
  if (per_lane_operand && op_is_shuffle(step.op)) {
    step.step_flags |= kStepPerLaneOperand;
    for (uint32_t lanes = group.lanes; lanes; lanes &= lanes - 1) {
      const int lane = std::countr_zero(lanes);
      step.lanes[lane].addr = uint32_t(threads_[base + lane].request.args.b);
    }
  }

  // A watch's mask is the lanes that ran it, as __activemask() there gives.
  if (op_is_watch(step.op)) step.mask = group.lanes;

  uint64_t loaded_high[kWarpSize] = {};
  if (op_is_shared(step.op))
    complete_shared_access(warp, group.lanes, step, loaded_high);
  else
    rules::apply_step(step);

  for (uint32_t lanes = group.lanes; lanes; lanes &= lanes - 1) {
    const int lane = std::countr_zero(lanes);
    EmuThread& t = threads_[base + lane];
    const LaneRecord& rec = step.lanes[lane];
    t.result = WarpOpResult{rec.out, rec.ok(), rec.undefined(), loaded_high[lane]};
    t.state = ThreadState::Ready;
    ready_.push_back(uint32_t(base + lane));
  }
  stats_.warp_ops += 1;
  stats_.lane_ops += uint64_t(std::popcount(group.lanes));
  // The group's lanes meet here (so do lanes that have ended): what they
  // printed before it comes out now, as the GPU's converged warp prints it.
  if (output_.holds(warp)) flush_output(warp, group.lanes | ~live_lanes(warp));
}

// ============================================================================
// [SECTION] Shared-memory accesses
// ============================================================================

// One LDS/STS of the lanes converged at it. The step's mask is those lanes
// (they ran it; the instruction takes no mask). A same-word store race, as the
// H200 settles it: the instruction's phases (the whole warp up to 32-bit
// stores, half-warps for 64-bit, quarter-warps for 128-bit: the bank model's
// docs/warp-rules.md#wavefronts rule 1) land one after another, and within a phase the lowest lane's
// value survives (docs/warp-rules.md#store-races, case (b) of docs/warp-rules.md#cases saw the latter for 32-bit stores; the GPU tests
// found a 64-bit store of every lane to one word keeps lane 16's, a 128-bit
// one lane 24's). So: phases in order, each in descending lane order. Loads
// read memory at this moment, after every earlier access of the warp.
void BlockRun::complete_shared_access(uint32_t warp, uint32_t lanes, TraceStep& step,
                                      uint64_t (&loaded_high)[kWarpSize]) {
  const size_t base = size_t(warp) * kWarpSize;
  step.mask = lanes;
  if (step.op == Op::StoreShared) {
    const int phase_lanes = shared_phase_lanes(threads_[base + std::countr_zero(lanes)].request.bytes);
    for (int phase = 0; phase < kWarpSize; phase += phase_lanes) {
      for (int lane = phase + phase_lanes - 1; lane >= phase; --lane) {
        if (!((lanes >> lane) & 1u)) continue;
        const WarpOpRequest& r = threads_[base + lane].request;
        uint8_t bytes[16];
        std::memcpy(bytes, &r.value, 8);
        std::memcpy(bytes + 8, &r.value_high, 8);
        std::memcpy(r.shared, bytes, r.bytes);
      }
    }
  }
  for (uint32_t rest = lanes; rest; rest &= rest - 1) {
    const int lane = std::countr_zero(rest);
    EmuThread& t = threads_[base + lane];
    LaneRecord& rec = step.lanes[lane];
    rec.flags = uint8_t(kLaneActive | kLaneOk);  // no predicate: ok means "defined"
    rec.src = -1;
    rec.out = 0;
    if (step.op == Op::LoadShared) {
      uint8_t bytes[16] = {};
      std::memcpy(bytes, t.request.shared, t.request.bytes);
      std::memcpy(&rec.out, bytes, 8);
      std::memcpy(&loaded_high[lane], bytes + 8, 8);
      rec.in = 0;
    }
  }
}

bool BlockRun::release_barrier() {
  size_t live = 0, waiting = 0;
  for (const EmuThread& t : threads_) {
    if (t.state == ThreadState::Exited) continue;
    ++live;
    if (t.state == ThreadState::AtBarrier) ++waiting;
  }
  // Exited threads do not hold up __syncthreads (sm_70+).
  if (live == 0 || waiting != live) return false;
  flush_all_output();
  count_barrier_passed();
  for (uint32_t i = 0; i < threads_.size(); ++i)
    if (threads_[i].state == ThreadState::AtBarrier) {
      threads_[i].state = ThreadState::Ready;
      ready_.push_back(i);
    }
  return true;
}

// Threads at wait_until whose test now passes go on. None can pass while no
// other thread moves: when nothing else can, they wait forever (a GPU hangs).
bool BlockRun::release_conditions() {
  if (at_condition_ == 0) return false;  // the usual case: no scan
  bool released = false;
  for (uint32_t i = 0; i < threads_.size(); ++i) {
    EmuThread& t = threads_[i];
    if (t.state != ThreadState::AtCondition || !t.until(t.until_arg)) continue;
    t.state = ThreadState::Ready;
    ready_.push_back(i);
    --at_condition_;
    released = true;
  }
  return released;
}

// Every live thread waits at grid.sync(): the block's turn passes to the next
// block until the whole grid has arrived. Threads of a block that waits at
// both barriers at once never meet (a GPU hangs): reported as a deadlock.
bool BlockRun::release_grid_barrier() {
  size_t live = 0, at_grid = 0, at_block = 0;
  uint32_t line = 0;
  for (const EmuThread& t : threads_) {
    if (t.state == ThreadState::Exited) continue;
    ++live;
    if (t.state == ThreadState::AtGridBarrier) {
      if (!at_grid++) line = t.request.line;
    }
    at_block += t.state == ThreadState::AtBarrier;
  }
  if (at_grid == 0) return false;
  if (at_block != 0 && at_block + at_grid == live)
    throw std::runtime_error("deadlock: in block " + std::to_string(block_linear_) + ", " + std::to_string(at_grid) +
                             " threads wait at grid.sync() (line " + std::to_string(line) + ") and " +
                             std::to_string(at_block) + " at __syncthreads(); neither barrier can open");
  if (at_grid != live) return false;
  flush_all_output();  // before the block gives up its turn
  count_barrier_passed();
  const bool go_on = turns_ && turns_->arrive(block_linear_, line);
  for (uint32_t i = 0; i < threads_.size(); ++i)
    if (threads_[i].state == ThreadState::AtGridBarrier) {
      threads_[i].state = ThreadState::Ready;
      threads_[i].result.ok = go_on;
      ready_.push_back(i);
    }
  return true;
}

void BlockRun::flush_output(uint32_t warp, uint32_t lanes) {
  t_lane_output_busy = true;
  output_.flush(warp, lanes);
  t_lane_output_busy = false;
}

void BlockRun::flush_all_output() {
  t_lane_output_busy = true;
  output_.flush_all();
  t_lane_output_busy = false;
}

// Who waits for the running thread: the threads at a barrier (it needs every
// live thread, the running one too) and the lanes of its warp at a warp
// operation whose mask names it. Lanes waiting only for each other (all
// arrived, the step not yet taken) or for another warp are no part of it.
// Empty when none waits for it, or when no thread runs (the scheduler itself
// was interrupted: it is making progress).
std::string BlockRun::describe_waits(const EmuThread* running) const {
  if (!running) return {};
  auto coords = [](const ThreadCoords& c) {
    return "thread (" + std::to_string(c.thread_idx.x) + "," + std::to_string(c.thread_idx.y) + "," +
           std::to_string(c.thread_idx.z) + ") (warp " + std::to_string(c.warp) + ", lane " + std::to_string(c.lane) +
           ")";
  };
  auto lane_list = [](uint32_t lanes) {
    std::string s;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (!((lanes >> lane) & 1u)) continue;
      int last = lane;
      while (last + 1 < kWarpSize && ((lanes >> (last + 1)) & 1u)) ++last;
      s += (s.empty() ? "" : ",") + std::to_string(lane) + (last > lane ? "-" + std::to_string(last) : "");
      lane = last;
    }
    return s;
  };
  std::string msg;
  size_t at_barrier = 0;
  const EmuThread* first_at_barrier = nullptr;
  for (const EmuThread& t : threads_)
    if (t.state == ThreadState::AtBarrier) {
      if (!first_at_barrier) first_at_barrier = &t;
      ++at_barrier;
    }
  size_t at_grid = 0, at_condition = 0;
  for (const EmuThread& t : threads_) at_grid += t.state == ThreadState::AtGridBarrier;
  for (const EmuThread& t : threads_) at_condition += t.state == ThreadState::AtCondition;
  if (at_condition)
    msg += std::to_string(at_condition) + " thread" + (at_condition == 1 ? "" : "s") +
           " wait at a cuda::barrier or cuda::pipeline" + (at_grid || first_at_barrier ? "; " : "");
  if (at_grid)
    msg += std::to_string(at_grid) + " thread" + (at_grid == 1 ? "" : "s") + " wait at grid.sync()" +
           (first_at_barrier ? "; " : "");
  if (first_at_barrier)
    msg += std::to_string(at_barrier) + " thread" + (at_barrier == 1 ? "" : "s") +
           " wait at __syncthreads() (the first, " + coords(first_at_barrier->coords) + ", on line " +
           std::to_string(first_at_barrier->request.line) + ")";
  {
    const uint32_t w = running->coords.warp;
    PendingGroup groups[kWarpSize];
    const int count = collect_groups(w, groups);
    for (int g = 0; g < count; ++g) {
      const uint32_t missing = groups[g].mask & ~groups[g].lanes;
      if (!((missing >> running->coords.lane) & 1u)) continue;
      msg += std::string(msg.empty() ? "" : "; ") + "warp " + std::to_string(w) + " lanes " +
             lane_list(groups[g].lanes) + " wait at " + op_name(groups[g].op) + " on line " +
             std::to_string(groups[g].line);
      if (missing) msg += " for lanes " + lane_list(missing) + " (named by its mask " + hex_mask(groups[g].mask) + ")";
    }
  }
  return msg;
}

// ============================================================================
// [SECTION] Running one block
// ============================================================================

void BlockRun::collect_parked_fibers() {
  for (EmuThread& t : threads_)
    if (t.state == ThreadState::Exited && t.fiber) parked_.push_back({std::move(t.fiber), t.stack_bottom, t.stack_size});
}

void BlockRun::retire_parked_fibers() {
  collect_parked_fibers();
  retiring_ = true;
  EmuThread* const was_current = t_current;
  for (ParkedFiber& kept : parked_) {
    // It wakes as the thread of a slot of its own, finds retiring_ and ends.
    EmuThread slot;
    t_current = &slot;
    t_handed_from = nullptr;
    ctx::fiber back = switch_to(std::move(kept.fiber));
    static_cast<void>(back);  // the ended fiber hands back nothing
  }
  parked_.clear();
  t_current = was_current;
  retiring_ = false;
}

void BlockRun::start_threads(Dim3 block_idx, uint32_t block_linear) {
  collect_parked_fibers();
  block_linear_ = block_linear;
  at_condition_ = 0;
  run_serial_ = ++t_block_runs;
  barriers_passed_ = 0;
  std::fill(warp_seq_.begin(), warp_seq_.end(), 0u);
  const bool room = steps_ && steps_->size() < steps_end_;
  for (uint32_t w = 0; w < warp_count_; ++w) {
    const size_t lanes = std::min<size_t>(kWarpSize, threads_.size() - size_t(w) * kWarpSize);
    warp_lanes_[w] = WarpLanes{lanes == kWarpSize ? ~0u : (1u << lanes) - 1u, 0, 0, 0, true};
    records_shared_[w] = filter_.shared_memory && room && filter_.wants(block_linear, w);
  }
  ready_.clear();
  uint32_t linear = 0;
  for (uint32_t z = 0; z < block_.z; ++z)
    for (uint32_t y = 0; y < block_.y; ++y)
      for (uint32_t x = 0; x < block_.x; ++x, ++linear) {
        EmuThread& t = threads_[linear];
        t.coords = ThreadCoords{Dim3{x, y, z}, block_idx, block_, grid_, linear, block_linear,
                                linear % kWarpSize, linear / kWarpSize};
        t.state = ThreadState::Ready;
        t.last_site = 0;
        t.same_site_meetings = 0;
      }
  next_unstarted_ = 0;
  exited_ = 0;
  stats_.threads += threads_.size();
}

// A fiber for the next thread that has not started. When its thread ends
// without ever waiting, the same fiber goes on with the thread after it, in
// the order the threads would have started anyway: a kernel with no barrier
// or warp operation runs its block on one fiber, a call per thread, instead
// of a fiber made, entered and left per thread (90 % of such a launch).
void BlockRun::start_next_thread() { resume(make_next_thread()); }

EmuThread& BlockRun::make_next_thread() {
  EmuThread& first = threads_[next_unstarted_++];
  if (!parked_.empty()) {
    ParkedFiber& kept = parked_.back();
    first.fiber = std::move(kept.fiber);
    first.stack_bottom = kept.stack_bottom;
    first.stack_size = kept.stack_size;
    parked_.pop_back();
    return first;
  }
  first.fiber = ctx::fiber(std::allocator_arg, NotedStack{stacks_, &first}, [this, &first](ctx::fiber&& from) {
    after_switch(nullptr, &t_scheduler_stack_bottom, &t_scheduler_stack_size);
    EmuThread* t = &first;
    // Started by the scheduler, or by the thread before it (next_in_round).
    take_arriving_context(t, std::move(from));
    for (;;) {
      try {
        body_();
      } catch (const std::exception&) {
        // Boost's forced_unwind is no std::exception, so stack unwinding passes.
        if (!error_) error_ = std::current_exception();
      }
      t->state = ThreadState::Exited;
      warp_lanes_[t->coords.warp].live &= ~(1u << t->coords.lane);
      ++exited_;
      // A warp whose lanes have all ended has reached its last sync point.
      if (output_.holds(t->coords.warp) && live_lanes(t->coords.warp) == 0) flush_output(t->coords.warp, 0xffffffffu);
      ++unpublished_.threads_done;
      if (next_unstarted_ == threads_.size() || error_) {
        if (error_ || !kKeepsFibers) break;
        // Nothing left to start: the fiber stops as its ended thread (whose
        // slot keeps its context, collect_parked_fibers) and is woken to run
        // a thread of a later block, which is t_current then, or to end.
        ctx::fiber from = hand_on(t, t_handoff_block ? next_in_round(*t) : nullptr);
        t = t_current;
        take_arriving_context(t, std::move(from));
        if (retiring_) break;
        warp_ran_[t->coords.warp] = 1;
        continue;
      }
      EmuThread* next = &threads_[next_unstarted_++];
      next->scheduler = std::move(t->scheduler);
      next->stack_bottom = t->stack_bottom;
      next->stack_size = t->stack_size;
      t = next;
      t_current = t;
      warp_ran_[t->coords.warp] = 1;
      count_switch();
    }
    before_switch(nullptr, t_scheduler_stack_bottom, t_scheduler_stack_size);
    return std::move(t->scheduler);
  });
  return first;
}

__attribute__((always_inline)) inline void BlockRun::note_stopped(const EmuThread& t) {
  warp_ran_[t.coords.warp] = 1;
  if (t.state == ThreadState::AtWarpOp) {
    WarpLanes& lanes = warp_lanes_[t.coords.warp];
    const uint32_t bit = 1u << t.coords.lane;
    if (lanes.waiting == 0) {
      lanes.key_lane = uint8_t(t.coords.lane);
      lanes.one_call = true;
    } else if (!(lanes.waiting & bit)) {
      lanes.unchecked |= bit;
    }
    lanes.waiting |= bit;
  }
  ++stats_.context_switches;
  at_condition_ += t.state == ThreadState::AtCondition;
  count_switch();
}

void BlockRun::resume(EmuThread& t) {
  t_current = &t;
  t_handed_from = nullptr;
  void* scheduler_fake_stack = nullptr;
  before_switch(&scheduler_fake_stack, t.stack_bottom, t.stack_size);
  ctx::fiber back = switch_to(std::move(t.fiber));
  after_switch(scheduler_fake_stack, nullptr, nullptr);
  // The fiber may have gone on to later threads (start_next_thread, or a
  // thread that handed on): it belongs to the one it stopped in.
  EmuThread& stopped = *t_current;
  stopped.fiber = std::move(back);
  t_current = nullptr;
  note_stopped(stopped);
}

__attribute__((always_inline)) inline EmuThread* next_in_round(EmuThread& stopping) { return t_handoff_block->next_in_round(stopping); }

bool BlockRun::run(Dim3 block_idx, uint32_t block_linear, std::vector<TraceStep>& steps, size_t room) {
  struct Current {
    explicit Current(BlockRun* r) {
      t_block_run = r;
#if !defined(WARPVIZ_ASAN_FIBERS)
      t_handoff_block = r;  // ASan's fiber annotations follow the scheduler's switches only
#endif
    }
    ~Current() {
      t_block_run = nullptr;
      t_handoff_block = nullptr;
    }
  } current(this);
  steps_ = &steps;
  steps_end_ = room > SIZE_MAX - steps.size() ? SIZE_MAX : steps.size() + room;
  dropped_ = false;
  error_ = nullptr;
  output_.reset(warp_count_);
  struct HeldOutput {
    BlockRun* run;
    explicit HeldOutput(BlockRun* r) : run(r) { t_lane_output = &r->output_; }
    // The block's end, or its error: nothing printed stays held.
    ~HeldOutput() {
      run->flush_all_output();
      t_lane_output = nullptr;
    }
  } held_output(this);
  progress_ = g_progress.load(std::memory_order_relaxed);
  run_with_landing(block_idx, block_linear);
  publish_progress();
  if (error_) std::rethrow_exception(error_);
  if (progress_) progress_->blocks_done.fetch_add(1, std::memory_order_relaxed);
  return dropped_;
}

// A lane's memory fault lands here (land_memory_fault), and the block ends
// with it, as the launch does on a GPU. A frame of its own, holding nothing
// but the landing, so that the jump back finds its registers as they were.
__attribute__((noinline)) void BlockRun::run_with_landing(Dim3 block_idx, uint32_t block_linear) {
  sigjmp_buf landing;
  struct Landing {
    explicit Landing(sigjmp_buf* at) { t_fault_landing = at; }
    ~Landing() { t_fault_landing = nullptr; }
  } landing_here(&landing);
  if (sigsetjmp(landing, 0) != 0) {
    // The handler ran with its signal blocked; the jump did not restore the mask.
    sigset_t faults;
    sigemptyset(&faults);
    sigaddset(&faults, SIGSEGV);
    sigaddset(&faults, SIGBUS);
    pthread_sigmask(SIG_UNBLOCK, &faults, nullptr);
    EmuThread* faulted = t_current;
    t_current = nullptr;
    set_shared_access_line(0);  // the jump passed the access's own reset
    // The faulted lane's hold on this scheduler is the context the jump left:
    // let it go unresumed (a fiber resumes what it holds as it is destroyed).
    // Its own stack stays with it, never to run again.
    if (faulted) static_cast<void>(new ctx::fiber(std::move(faulted->scheduler)));
    std::string where = "an illegal memory access";
    if (faulted)
      where += " by thread (" + std::to_string(faulted->coords.thread_idx.x) + "," +
               std::to_string(faulted->coords.thread_idx.y) + "," + std::to_string(faulted->coords.thread_idx.z) +
               ") of block " + std::to_string(block_linear_);
    throw IllegalAddress(where);
  }
  run_threads(block_idx, block_linear);
}

__attribute__((noinline)) void BlockRun::run_threads(Dim3 block_idx, uint32_t block_linear) {
  start_threads(block_idx, block_linear);
  for (;;) {
    // Every thread starts, in order, before any that waits is resumed.
    while (next_unstarted_ < threads_.size()) start_next_thread();
    while (!ready_.empty()) {
      running_.swap(ready_);
      running_at_ = 0;
      // Each thread resumed here may hand on to the ones after it itself.
      while (running_at_ < running_.size()) resume(threads_[running_[running_at_++]]);
      running_.clear();
    }
    // Every thread ended (a block without barriers ends on its first round):
    // nothing waits, so nothing is left to look for.
    if (exited_ == threads_.size()) break;
    bool progressed = false;
    for (uint32_t w = 0; w < warp_count_; ++w)
      if (warp_ran_[w]) {
        warp_ran_[w] = 0;
        progressed |= complete_ready_groups(w);
      }
    if (progressed) continue;
    if (release_conditions()) continue;
    if (release_barrier()) continue;
    if (release_grid_barrier()) continue;
    if (exited_ == threads_.size()) break;
    // Lanes wait at a warp op for lanes parked elsewhere (at __syncthreads,
    // say). The H200 lets such a shuffle go on without them (the missing
    // lanes read as 0) rather than hang, and so does the emulator.
    force_earliest_group();
  }
}

// The steps a launch will have recorded at its end, guessed from the blocks
// done so far (blocks tend to record alike), at most `limit`; 0: no guess yet.
size_t expected_steps(size_t first, size_t now, uint64_t blocks_done, uint64_t blocks, size_t limit) {
  if (blocks_done == 0 || now == first) return 0;
  const double per_block = double(now - first) / double(blocks_done);
  const double guess = double(first) + per_block * double(blocks) * 1.02 + 1;
  return guess >= double(limit) ? limit : size_t(guess);
}

Dim3 block_index(const Dim3& grid, uint64_t linear) {
  return Dim3{uint32_t(linear % grid.x), uint32_t(linear / grid.x % grid.y),
              uint32_t(linear / (uint64_t(grid.x) * grid.y))};
}

void add_stats(LaunchStats& total, const LaunchStats& part) {
  total.threads += part.threads;
  total.warp_ops += part.warp_ops;
  total.lane_ops += part.lane_ops;
  total.context_switches += part.context_switches;
}

// One block after another on the calling thread: each block's steps are
// sorted and then go into the trace.
LaunchStats run_blocks_in_order(Dim3 grid, Dim3 block, const std::function<void()>& body,
                                const RecordFilter& filter, Trace& trace) {
  LaunchStats stats;
  BlockRun run(grid, block, body, filter, stats);
  const uint64_t blocks = grid.count();
  const size_t launch_first = trace.steps.size();
  std::vector<TraceStep> block_steps;  // reused block after block
  TraceSteps block_encoded;
  std::vector<uint32_t> block_order;
  for (uint64_t linear = 0; linear < blocks; ++linear) {
    const size_t first_step = trace.steps.size();
    const size_t expected = expected_steps(launch_first, first_step, linear, blocks, filter.max_steps);
    const size_t room = filter.max_steps > first_step ? filter.max_steps - first_step : 0;
    block_steps.clear();
    bool dropped = false;
    try {
      dropped = run.run(block_index(grid, linear), uint32_t(linear), block_steps, room);
    } catch (...) {
      if (run.dropped()) trace.overflow = true;
      append_steps(trace.steps, block_steps, block_encoded, block_order, expected);
      throw;
    }
    if (dropped) trace.overflow = true;
    append_steps(trace.steps, block_steps, block_encoded, block_order, expected);
  }
  return stats;
}

// A worker OS thread's own signal stack: a fault handler installed with
// SA_ONSTACK (the user runtime's crash report) then still runs when a block's
// fiber overflowed its stack. sigaltstack is per thread; the main thread's is
// its own business. The stack the thread had (ASan maps one per thread and
// unmaps whatever is current when the thread ends) is put back as the thread
// exits, before our bytes are freed.
namespace {
struct WorkerSignalStack {
  std::vector<char> bytes;
  stack_t previous{};
  bool installed = false;
  void install() {
    if (installed) return;
    bytes.resize(64 * 1024);
    stack_t ss{};
    ss.ss_sp = bytes.data();
    ss.ss_size = bytes.size();
    installed = sigaltstack(&ss, &previous) == 0;
  }
  ~WorkerSignalStack() {
    if (installed) sigaltstack(&previous, nullptr);
  }
};
}  // namespace

void give_this_thread_a_signal_stack() {
  static thread_local WorkerSignalStack stack;
  stack.install();
}

// SIGUSR1, the time limit's "where are you?" sent to the process, blocked or
// let through on the calling thread.
void where_signal_on_this_thread(int how) {
  sigset_t where;
  sigemptyset(&where);
  sigaddset(&where, SIGUSR1);
  pthread_sigmask(how, &where, nullptr);
}

// Blocks spread over worker threads, each worker taking the next block not
// yet taken. A block's steps are kept apart, in completion order, and joined
// to the trace in block order as soon as every earlier block has joined, so
// the trace is exactly the one-thread trace: the same cut at max_steps (the
// first steps in completion order of the block that fills the trace) and the
// same sort. The first block (in block order) that throws ends the launch,
// as it would on one thread; blocks after it that already ran did their
// writes to global memory, which one thread would not have done.
// A block records only what could still be kept: the room left by the
// earlier blocks that have finished. Once the first blocks fill the trace,
// the rest record nothing, as on one thread, and their steps cost no memory.
class ParallelLaunch {
 public:
  ParallelLaunch(Dim3 grid, Dim3 block, const std::function<void()>& body, const RecordFilter& filter,
                 Trace& trace)
      : grid_(grid), block_(block), body_(body), filter_(filter), trace_(trace), blocks_(grid.count()) {
    // Every block may add at most what is left at the start.
    room_ = filter.max_steps > trace.steps.size() ? filter.max_steps - trace.steps.size() : 0;
    first_ = trace.steps.size();
  }

  LaunchStats run(unsigned workers) {
    std::vector<LaunchStats> stats(workers);
    // Blocks are taken in runs of consecutive ones: a lock or two per run
    // instead of per block (a million small blocks spent a tenth of their
    // time there), while each worker still gets a few hundred runs to even
    // out the end.
    blocks_per_take_ = std::clamp<uint64_t>(blocks_ / (uint64_t(workers) * 256), 1, kMaxBlocksPerTake);
    // The time limit's "where are you?" must reach a thread that runs a
    // block, not this one waiting in join: it is blocked here while the
    // workers (who inherit the mask) let it through.
    sigset_t before;
    sigset_t where;
    sigemptyset(&where);
    sigaddset(&where, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &where, &before);
    // Threads kept from launch to launch (kept_threads.h); those started
    // take every block.
    bool no_threads = false;
    KeptThreads::instance().run(
        workers,
        [this, &stats](uint32_t w) {
          give_this_thread_a_signal_stack();
          where_signal_on_this_thread(SIG_UNBLOCK);
          work(stats[w]);
        },
        [&no_threads](uint32_t started) { no_threads = started == 0; });
    if (no_threads) {
      pthread_sigmask(SIG_SETMASK, &before, nullptr);
      work(stats[0]);
    }
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
    LaunchStats total;
    for (const LaunchStats& s : stats) add_stats(total, s);
    if (error_) std::rethrow_exception(error_);
    return total;
  }

 private:
  // The steps of a run of consecutive blocks, one after another in block order.
  struct BlockSteps {
    std::vector<TraceStep> steps;   // completion order, block after block
    std::vector<uint32_t> order;    // indices into steps, block by block, each block's by step_order
    TraceSteps encoded;             // steps in `order`, encoded here rather than under the join's lock
    uint64_t blocks = 0;            // how many blocks of the run ran (up to the one that threw)
    bool dropped = false;
    std::exception_ptr error;
  };

  void work(LaunchStats& stats_out) {
    // Counted here and handed over at the end: the workers' counters side by
    // side in one vector would share cache lines, bumped at every switch.
    LaunchStats stats;
    struct HandOver {
      LaunchStats& from;
      LaunchStats& to;
      ~HandOver() { to = from; }
    } hand_over{stats, stats_out};
    try {
      BlockRun run(grid_, block_, body_, filter_, stats);
      for (;;) {
        const uint64_t first = next_block_.fetch_add(blocks_per_take_);
        if (first >= blocks_ || stop_.load()) return;
        const uint64_t end = std::min(blocks_, first + blocks_per_take_);
        BlockSteps done = spare_buffers();
        const size_t room = room_for(first);
        for (uint64_t linear = first; linear < end && !done.error; ++linear) {
          const size_t block_first = done.steps.size();
          // A block of the run may record what the ones before it left.
          const size_t block_room = room > block_first ? room - block_first : 0;
          try {
            done.dropped |= run.run(block_index(grid_, linear), uint32_t(linear), done.steps, block_room);
          } catch (...) {
            done.dropped |= run.dropped();
            done.error = std::current_exception();
          }
          ++done.blocks;
          const size_t block_end = done.steps.size();
          for (size_t i = block_first; i < block_end; ++i) done.order.push_back(uint32_t(i));
          std::sort(done.order.begin() + long(block_first), done.order.end(),
                    [&](uint32_t a, uint32_t b) { return step_order(done.steps[a], done.steps[b]); });
        }
        for (uint32_t i : done.order) done.encoded.push_back(done.steps[i]);
        if (done.error) stop_ = true;
        deliver(first, std::move(done));
      }
    } catch (...) {
      // Out of memory for the fibers or the steps: a launch error like any other.
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
      stop_ = true;
    }
  }

  // Joins the finished runs that are next in block order.
  void deliver(uint64_t first, BlockSteps&& done) {
    std::lock_guard<std::mutex> lock(mutex_);
    waiting_.emplace(first, std::move(done));
    for (auto it = waiting_.find(joined_); it != waiting_.end() && !error_; it = waiting_.find(joined_)) {
      join(it->second);
      joined_ += it->second.blocks;
      // Its buffers go to the next run: fresh ones each run would have the
      // allocator hand pages back and the kernel zero them again.
      // A big run's buffers are let go: kept, a few such would hold
      // gigabytes that no later run needs.
      if (spare_.size() < kMaxSpare && it->second.steps.capacity() <= kMaxSpareSteps) {
        it->second.steps.clear();
        it->second.order.clear();
        it->second.encoded.clear();
        spare_.push_back(std::move(it->second));
      }
      waiting_.erase(it);
    }
  }

  // What block `linear` may record: the launch's room less the steps of the
  // earlier blocks that finished (joined or waiting). One thread would give
  // it no more than that, since every earlier block's steps come first.
  size_t room_for(uint64_t linear) {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t used = trace_.steps.size() - first_;
    for (auto it = waiting_.begin(); it != waiting_.end() && it->first < linear && used < room_; ++it)
      used += it->second.steps.size();
    return used >= room_ ? 0 : room_ - used;
  }

  BlockSteps spare_buffers() {
    std::lock_guard<std::mutex> lock(mutex_);
    BlockSteps done;
    if (!spare_.empty()) {
      done.steps = std::move(spare_.back().steps);
      done.order = std::move(spare_.back().order);
      done.encoded = std::move(spare_.back().encoded);
      spare_.pop_back();
    }
    done.blocks = 0;
    return done;
  }

  void join(BlockSteps& done) {
    TraceSteps& steps = trace_.steps;
    const size_t room = filter_.max_steps > steps.size() ? filter_.max_steps - steps.size() : 0;
    const size_t keep = std::min(room, done.steps.size());
    if (done.dropped || keep < done.steps.size()) trace_.overflow = true;
    make_room(steps, keep, done.encoded.encoded_bytes(),
              expected_steps(first_, steps.size() + keep, joined_ + done.blocks, blocks_, filter_.max_steps));
    // The kept steps are the first `keep` to complete; the sorted order
    // filtered to them is their sorted order. The same steps encode to the
    // same bytes, so this is the one-thread trace byte for byte.
    if (keep == done.steps.size()) {
      steps.append(done.encoded);
    } else {
      for (uint32_t i : done.order)
        if (i < keep) steps.push_back(done.steps[i]);
    }
    if (done.error) error_ = done.error;
  }

  Dim3 grid_, block_;
  const std::function<void()>& body_;
  const RecordFilter& filter_;
  Trace& trace_;
  const uint64_t blocks_;
  size_t room_ = 0;
  size_t first_ = 0;  // the trace's steps before this launch
  std::atomic<uint64_t> next_block_{0};
  static constexpr uint64_t kMaxBlocksPerTake = 64;
  uint64_t blocks_per_take_ = 1;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;  // guards what follows, and trace_
  std::map<uint64_t, BlockSteps> waiting_;  // finished, not yet joined
  static constexpr size_t kMaxSpare = 64;
  static constexpr size_t kMaxSpareSteps = 4096;
  std::vector<BlockSteps> spare_;           // joined, their buffers kept
  uint64_t joined_ = 0;
  std::exception_ptr error_;
};

// Every block at once, each on an OS thread of its own (a block's fibers and
// `__shared__` statics are its thread's), taking turns (GridTurns) so that
// one runs at a time. The trace joins the blocks' steps in block order, as
// run_blocks_in_order would.
class CooperativeLaunch {
 public:
  CooperativeLaunch(Dim3 grid, Dim3 block, const std::function<void()>& body, const RecordFilter& filter,
                    Trace& trace, const std::function<void(uint32_t, bool)>& on_switch)
      : grid_(grid), block_(block), body_(body), filter_(filter), trace_(trace),
        turns_(grid.count(),
               [&on_switch](uint32_t b, bool parking) {
                 where_signal(parking ? SIG_BLOCK : SIG_UNBLOCK);
                 if (on_switch) on_switch(b, parking);
               }),
        blocks_(grid.count()), stats_(grid.count()) {}

  LaunchStats run() {
    // The time limit's "where are you?" (SIGUSR1, to the process) must reach
    // the thread of the running block: every other thread blocks it.
    sigset_t before;
    sigset_t where;
    sigemptyset(&where);
    sigaddset(&where, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &where, &before);
    struct Restore {
      sigset_t& mask;
      ~Restore() { pthread_sigmask(SIG_SETMASK, &mask, nullptr); }
    } restore{before};
    room_ = filter_.max_steps > trace_.steps.size() ? filter_.max_steps - trace_.steps.size() : 0;
    // Threads kept from launch to launch (kept_threads.h).
    KeptThreads::instance().run(
        uint32_t(blocks_.size()), [this](uint32_t b) { run_block(b); },
        [this](uint32_t started) {
          const std::exception_ptr start_error = std::make_exception_ptr(std::runtime_error(
              "a cooperative launch of " + std::to_string(blocks_.size()) +
              " blocks needs an OS thread per block; only " + std::to_string(started) + " could be started"));
          for (uint32_t rest = started; rest < blocks_.size(); ++rest) turns_.finish(rest, start_error);
        });
    LaunchStats total;
    for (const LaunchStats& s : stats_) add_stats(total, s);
    const size_t launch_first = trace_.steps.size();
    TraceSteps encoded;
    std::vector<uint32_t> order;
    for (uint32_t b = 0; b < blocks_.size(); ++b) {
      std::vector<TraceStep>& steps = blocks_[b].steps;
      const size_t room = filter_.max_steps > trace_.steps.size() ? filter_.max_steps - trace_.steps.size() : 0;
      if (blocks_[b].dropped || steps.size() > room) trace_.overflow = true;
      if (steps.size() > room) steps.resize(room);  // the first to complete are kept
      append_steps(trace_.steps, steps, encoded, order,
                   expected_steps(launch_first, trace_.steps.size(), b, blocks_.size(), filter_.max_steps));
    }
    if (std::exception_ptr e = turns_.error()) std::rethrow_exception(e);
    return total;
  }

 private:
  struct BlockSteps {
    std::vector<TraceStep> steps;
    bool dropped = false;
  };

  static void where_signal(int how) { where_signal_on_this_thread(how); }

  void run_block(uint32_t b) {
    std::exception_ptr error;
    give_this_thread_a_signal_stack();
    t_cooperative = true;
    try {
      if (turns_.start(b)) {
        BlockRun run(grid_, block_, body_, filter_, stats_[b]);
        run.set_grid_turns(&turns_);
        try {
          blocks_[b].dropped = run.run(block_index(grid_, b), b, blocks_[b].steps, room_);
        } catch (...) {
          blocks_[b].dropped = run.dropped();
          error = std::current_exception();
        }
      }
    } catch (...) {
      error = std::current_exception();  // no memory for the block's fibers
    }
    t_cooperative = false;
    turns_.finish(b, error);
  }

  Dim3 grid_, block_;
  const std::function<void()>& body_;
  const RecordFilter& filter_;
  Trace& trace_;
  GridTurns turns_;
  std::vector<BlockSteps> blocks_;
  std::vector<LaunchStats> stats_;
  size_t room_ = 0;
};

std::atomic<unsigned> g_emulator_threads{0};  // 0: the default

unsigned default_emulator_threads() {
  if (const char* text = std::getenv(kEmulatorThreadsEnv); text && *text) {
    char* end = nullptr;
    errno = 0;
    const unsigned long n = std::strtoul(text, &end, 10);
    if (errno != 0 || *end != 0 || n < 1 || n > kMaxEmulatorThreads || !std::isdigit(static_cast<unsigned char>(*text)))
      throw std::invalid_argument(std::string(kEmulatorThreadsEnv) + " must be a thread count from 1 to " +
                                  std::to_string(kMaxEmulatorThreads) + ", not '" + text + "'");
    return unsigned(n);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

// A launch begins: its totals, its start, nothing done yet.
void begin_progress(Dim3 grid, Dim3 block) {
  RunProgress* p = g_progress.load(std::memory_order_relaxed);
  if (!p) return;
  p->blocks_done.store(0, std::memory_order_relaxed);
  p->threads_done.store(0, std::memory_order_relaxed);
  p->blocks_total.store(grid.count(), std::memory_order_relaxed);
  p->threads_total.store(grid.count() * block.count(), std::memory_order_relaxed);
  const auto now = std::chrono::steady_clock::now().time_since_epoch();
  p->launch_start_ns.store(uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()),
                           std::memory_order_relaxed);
}

}  // namespace

// ============================================================================
// [SECTION] Public entry points
// ============================================================================

LaunchStats launch_grid(Dim3 grid, Dim3 block, const std::function<void()>& thread_body,
                        const RecordFilter& filter, Trace& trace, unsigned threads) {
  if (grid.count() == 0 || block.count() == 0)
    throw std::invalid_argument("launch: grid and block must not be empty");
  if (block.count() > 1024)
    throw std::invalid_argument("launch: a block holds at most 1024 threads, not " +
                                std::to_string(block.count()));
  if (t_current) throw std::logic_error("launch: kernels cannot launch kernels in the emulator");
  if (threads == 0) threads = emulator_threads();
  const unsigned workers = unsigned(std::min<uint64_t>(std::min(threads, kMaxEmulatorThreads), grid.count()));
  begin_progress(grid, block);
  if (workers <= 1) return run_blocks_in_order(grid, block, thread_body, filter, trace);
  return ParallelLaunch(grid, block, thread_body, filter, trace).run(workers);
}

LaunchStats launch_grid_cooperative(Dim3 grid, Dim3 block, const std::function<void()>& thread_body,
                                    const RecordFilter& filter, Trace& trace,
                                    const std::function<void(uint32_t block, bool parking)>& on_switch) {
  if (grid.count() == 0 || block.count() == 0)
    throw std::invalid_argument("launch: grid and block must not be empty");
  if (block.count() > 1024)
    throw std::invalid_argument("launch: a block holds at most 1024 threads, not " + std::to_string(block.count()));
  if (grid.count() > kMaxCooperativeBlocks)
    throw std::invalid_argument("launch: a cooperative grid of " + std::to_string(grid.count()) +
                                " blocks cannot be resident at once (at most " +
                                std::to_string(kMaxCooperativeBlocks) + ")");
  if (t_current) throw std::logic_error("launch: kernels cannot launch kernels in the emulator");
  begin_progress(grid, block);
  return CooperativeLaunch(grid, block, thread_body, filter, trace, on_switch).run();
}

bool in_cooperative_launch() { return t_current && t_cooperative; }

unsigned emulator_threads() {
  const unsigned set = g_emulator_threads.load();
  return set ? set : default_emulator_threads();
}

void set_emulator_threads(unsigned threads) { g_emulator_threads = std::min(threads, kMaxEmulatorThreads); }

bool in_emulated_thread() { return t_current != nullptr; }

uint64_t block_barrier_epoch() {
  if (!t_block_run) throw std::logic_error("warpviz: __syncthreads_count called outside an emulated kernel");
  return t_block_run->barrier_epoch();
}

bool on_running_thread_stack(const void* p) {
  const EmuThread* t = t_current;
  if (!t || !t->stack_bottom) return false;
  const char* c = static_cast<const char*>(p);
  return c >= static_cast<const char*>(t->stack_bottom) && c < static_cast<const char*>(t->stack_bottom) + t->stack_size;
}

const ThreadCoords* current_thread_or_null() noexcept { return t_current ? &t_current->coords : nullptr; }

bool lands_memory_faults() noexcept {
#if defined(WARPVIZ_ASAN_FIBERS)
  return false;
#else
  return true;
#endif
}

void land_memory_fault() noexcept {
  if (!lands_memory_faults() || !t_current || !t_fault_landing) return;
  siglongjmp(*t_fault_landing, 1);
}

void count_progress_in(RunProgress* record) { g_progress.store(record, std::memory_order_relaxed); }

std::string describe_waiting_threads() {
  return t_block_run ? t_block_run->describe_waits(t_current) : std::string();
}

const ThreadCoords& current_thread() {
  if (!t_current) throw std::logic_error("warpviz: CUDA built-ins used outside an emulated kernel");
  return t_current->coords;
}

WarpOpResult warp_collective(const WarpOpRequest& request) {
  if (!t_current) throw std::logic_error("warpviz: warp intrinsic called outside an emulated kernel");
  t_current->same_site_meetings = 0;
  t_current->request = request;
  suspend_current_thread(ThreadState::AtWarpOp);
  return t_current->result;
}

RegisterOpResult warp_register_op(uint32_t op_and_dtype, uint32_t line, uint32_t mask, uint64_t value, int64_t b,
                                  int32_t width, uint32_t c) {
  EmuThread* const self = t_current;
  if (!self) throw std::logic_error("warpviz: warp intrinsic called outside an emulated kernel");
  self->same_site_meetings = 0;
  // Every field set, one store each: zeroing the whole request first measured
  // slower. A field added to WarpOpRequest must be set here too.
  static_assert(sizeof(WarpOpRequest) == 72, "warp_register_op sets every field of WarpOpRequest");
  WarpOpRequest& r = self->request;
  r.op = Op(op_and_dtype & 0xff);
  r.dtype = DType(op_and_dtype >> 8);
  r.line = line;
  r.mask = mask;
  r.value = value;
  r.args.b = b;
  r.args.width = width;
  r.args.c = c;
  r.addr = 0;
  r.bytes = 0;
  r.step_flags = 0;
  r.shared = nullptr;
  r.value_high = 0;
  r.site = 0;
  suspend_current_thread(ThreadState::AtWarpOp);
  const WarpOpResult& res = t_current->result;
  return RegisterOpResult{res.value, (res.ok ? kRegisterOpOk : 0) | (res.undefined ? kRegisterOpUndefined : 0)};
}

constexpr uint32_t kSpinMeetings = 4096;

uint32_t spinning_line() noexcept {
  const EmuThread* t = t_current;
  return t && t->same_site_meetings >= kSpinMeetings ? t->request.line : 0;
}

void converged_access_point(uint32_t line, uint32_t site) {
  if (!t_current) return;
  // A lane that comes back to one point and nothing else, time after time,
  // spins (`while (flag == 0) {}`). Meeting there changes nothing more, and
  // would hide from the time limit a spin that never ends (a deadlock): past
  // kSpinMeetings it runs on alone until it reaches anything else.
  EmuThread& self = *t_current;
  if (self.last_site == site) {
    if (self.same_site_meetings >= kSpinMeetings) return;
    ++self.same_site_meetings;
  } else {
    self.last_site = site;
    self.same_site_meetings = 0;
  }
  WarpOpRequest& r = t_current->request;
  r = WarpOpRequest{};
  r.op = Op::SyncWarp;
  r.line = line;
  r.mask = 0;
  r.site = site == 0 ? 1 : site;
  suspend_current_thread(ThreadState::AtWarpOp);
}

void write_lane_output(std::string_view text) {
  if (!t_current || !t_lane_output) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  t_lane_output_busy = true;
  t_lane_output->append(t_current->coords.warp, t_current->coords.lane, text);
  t_lane_output_busy = false;
}

void flush_lane_output_to_fd(int fd) noexcept {
  if (t_lane_output && !t_lane_output_busy) t_lane_output->flush_all_to_fd(fd);
}

void grid_barrier(uint32_t line) {
  if (!t_current) throw std::logic_error("warpviz: grid.sync() called outside an emulated kernel");
  if (!t_cooperative)
    throw std::runtime_error("grid.sync() on line " + std::to_string(line) +
                             " in a launch that is not cooperative: a grid barrier needs every block resident at "
                             "once, which only cudaLaunchCooperativeKernel promises");
  t_current->request.line = line;
  suspend_current_thread(ThreadState::AtGridBarrier);
  // The launch was abandoned (another block failed, or a deadlock): unwind.
  if (!t_current->result.ok) throw std::runtime_error("the cooperative launch was abandoned");
}

namespace {
thread_local uint32_t t_shared_access_line = 0;
}  // namespace

uint32_t shared_access_line() noexcept { return t_shared_access_line; }
void set_shared_access_line(uint32_t line) noexcept { t_shared_access_line = line; }

bool records_shared_access() noexcept {
  return t_current && t_block_run && t_block_run->records_shared(t_current->coords.warp);
}

void block_barrier(uint32_t line) {
  if (!t_current) throw std::logic_error("warpviz: __syncthreads called outside an emulated kernel");
  t_current->same_site_meetings = 0;
  t_current->request.line = line;
  suspend_current_thread(ThreadState::AtBarrier);
}

void wait_until(bool (*ready)(const void*), const void* arg, uint32_t line) {
  if (!t_current) throw std::logic_error("warpviz: a cuda::barrier or cuda::pipeline wait outside an emulated kernel");
  if (ready(arg)) return;
  t_current->request.line = line;
  t_current->until = ready;
  t_current->until_arg = arg;
  suspend_current_thread(ThreadState::AtCondition);
}

}  // namespace warpviz::emu

// What the compiler plugin calls before a volatile access in a user's device
// code (cuda_cpu/compiler_plugin/converged_access.cpp).
extern "C" void __warpviz_converged_access(unsigned line, unsigned site) {
  warpviz::emu::converged_access_point(line, site);
}
