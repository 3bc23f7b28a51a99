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
#include <bit>
#include <boost/context/fiber.hpp>
#include <boost/context/pooled_fixedsize_stack.hpp>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>

#include "warpviz/bank_model.h"
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

enum class ThreadState : uint8_t { Ready, AtWarpOp, AtBarrier, Exited };

struct EmuThread {
  ctx::fiber fiber;      // the CUDA thread's own context
  ctx::fiber scheduler;  // where the thread returns to when it waits
  // The fiber's stack, and AddressSanitizer's fake stack while it is switched out.
  const void* stack_bottom = nullptr;
  size_t stack_size = 0;
  void* asan_fake_stack = nullptr;
  ThreadCoords coords;
  ThreadState state = ThreadState::Exited;
  WarpOpRequest request;
  WarpOpResult result;
  uint64_t arrival = 0;  // when it reached its current wait, for fair forcing
};

thread_local EmuThread* t_current = nullptr;
class BlockRun;
thread_local const BlockRun* t_block_run = nullptr;  // the block running on this thread
thread_local uint64_t t_arrival_clock = 0;

// Lanes stack only kernel frames and the recording layer; 64 KiB is plenty and
// keeps a 1024-thread block at 64 MiB of (mostly untouched) stack.
constexpr size_t kFiberStackBytes = 64 * 1024;

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

// The pool's stacks, each noted in its thread for before_switch.
struct NotedStack {
  ctx::pooled_fixedsize_stack* pool;
  EmuThread* thread;
  ctx::stack_context allocate() {
    ctx::stack_context sctx = pool->allocate();
    thread->stack_bottom = static_cast<const char*>(sctx.sp) - sctx.size;
    thread->stack_size = sctx.size;
    return sctx;
  }
  void deallocate(ctx::stack_context& sctx) noexcept { pool->deallocate(sctx); }
};

void suspend_current_thread(ThreadState waiting_state) {
  EmuThread* self = t_current;
  self->state = waiting_state;
  self->arrival = ++t_arrival_clock;
  before_switch(&self->asan_fake_stack, t_scheduler_stack_bottom, t_scheduler_stack_size);
  self->scheduler = std::move(self->scheduler).resume();
  after_switch(self->asan_fake_stack, &t_scheduler_stack_bottom, &t_scheduler_stack_size);
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

bool same_watch(const WarpOpRequest& a, const WarpOpRequest& b) {
  return a.dtype == b.dtype && a.args.b == b.args.b && a.args.width == b.args.width && a.args.c == b.args.c;
}

class BlockRun {
 public:
  BlockRun(Dim3 grid, Dim3 block, const std::function<void()>& body, const RecordFilter& filter,
           Trace& trace, LaunchStats& stats)
      : grid_(grid),
        block_(block),
        body_(body),
        filter_(filter),
        trace_(trace),
        stats_(stats),
        stacks_(kFiberStackBytes, 64),
        threads_(block.count()),
        warp_count_(uint32_t((block.count() + kWarpSize - 1) / kWarpSize)),
        warp_seq_(warp_count_) {}

  void run(Dim3 block_idx, uint32_t block_linear);

 private:
  void start_threads(Dim3 block_idx, uint32_t block_linear);
  void resume(EmuThread& t);
  uint32_t live_lanes(uint32_t warp) const;
  int collect_groups(uint32_t warp, PendingGroup* groups) const;
  bool complete_ready_groups(uint32_t warp);
  void force_earliest_group();
  void complete_group(uint32_t warp, const PendingGroup& group);
  // Performs the access; a 16-byte load's bytes 8-15 (no LaneRecord field) go to loaded_high.
  void complete_shared_access(uint32_t warp, uint32_t lanes, TraceStep& step, uint64_t (&loaded_high)[kWarpSize]);
  bool release_barrier();

 public:
  std::string describe_waits() const;

 private:

  Dim3 grid_, block_;
  const std::function<void()>& body_;
  const RecordFilter& filter_;
  Trace& trace_;
  LaunchStats& stats_;
  ctx::pooled_fixedsize_stack stacks_;
  std::vector<EmuThread> threads_;
  uint32_t warp_count_;
  std::vector<uint32_t> warp_seq_;
  std::vector<uint32_t> ready_, running_;
  uint32_t block_linear_ = 0;
  std::exception_ptr error_;
  TraceStep step_;  // scratch, reused for every collective
};

uint32_t BlockRun::live_lanes(uint32_t warp) const {
  uint32_t live = 0;
  const size_t base = size_t(warp) * kWarpSize;
  for (uint32_t lane = 0; lane < kWarpSize && base + lane < threads_.size(); ++lane)
    if (threads_[base + lane].state != ThreadState::Exited) live |= 1u << lane;
  return live;
}

int BlockRun::collect_groups(uint32_t warp, PendingGroup* groups) const {
  int count = 0;
  const size_t base = size_t(warp) * kWarpSize;
  for (uint32_t lane = 0; lane < kWarpSize && base + lane < threads_.size(); ++lane) {
    const EmuThread& t = threads_[base + lane];
    if (t.state != ThreadState::AtWarpOp) continue;
    const WarpOpRequest& r = t.request;
    int g = 0;
    while (g < count && !(groups[g].op == r.op && groups[g].line == r.line && groups[g].mask == r.mask &&
                          (r.op != Op::Watch || same_watch(*groups[g].first, r))))
      ++g;
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
  PendingGroup groups[kWarpSize];
  const int count = collect_groups(warp, groups);
  if (count == 0) return false;
  const uint32_t live = live_lanes(warp);
  bool completed = false;
  int deferred = -1;
  for (int g = 0; g < count; ++g) {
    if (op_is_shared(groups[g].op) || op_is_watch(groups[g].op)) {
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
  if (best.first_arrival == UINT64_MAX)
    throw std::logic_error("warpviz emulator: threads are stuck but none waits at a warp op");
  complete_group(best_warp, best);
}

void BlockRun::complete_group(uint32_t warp, const PendingGroup& group) {
  TraceStep& step = step_;
  step = TraceStep{};
  const size_t base = size_t(warp) * kWarpSize;
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

  if (filter_.wants(block_linear_, warp)) {
    if (trace_.steps.size() < filter_.max_steps)
      trace_.steps.push_back(step);
    else
      trace_.overflow = true;
  }
}

// ============================================================================
// [SECTION] Shared-memory accesses
// ============================================================================

// One LDS/STS of the lanes converged at it. The step's mask is those lanes
// (they ran it; the instruction takes no mask). A same-word store race, as the
// H200 settles it: the instruction's phases (the whole warp up to 32-bit
// stores, half-warps for 64-bit, quarter-warps for 128-bit: the bank model's
// §4.2 rule 1) land one after another, and within a phase the lowest lane's
// value survives (§4.1, §7 (b) saw the latter for 32-bit stores; the GPU tests
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
  for (uint32_t i = 0; i < threads_.size(); ++i)
    if (threads_[i].state == ThreadState::AtBarrier) {
      threads_[i].state = ThreadState::Ready;
      ready_.push_back(i);
    }
  return true;
}

// Who waits where: the threads at the barrier, and each warp's lanes waiting
// at a warp operation with the lanes they wait for. Empty when none waits.
std::string BlockRun::describe_waits() const {
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
  if (first_at_barrier)
    msg += std::to_string(at_barrier) + " thread" + (at_barrier == 1 ? "" : "s") +
           " wait at __syncthreads() (the first, " + coords(first_at_barrier->coords) + ", on line " +
           std::to_string(first_at_barrier->request.line) + ")";
  for (uint32_t w = 0; w < warp_count_; ++w) {
    PendingGroup groups[kWarpSize];
    const int count = collect_groups(w, groups);
    for (int g = 0; g < count; ++g) {
      const uint32_t missing = groups[g].mask & ~groups[g].lanes;
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

void BlockRun::start_threads(Dim3 block_idx, uint32_t block_linear) {
  block_linear_ = block_linear;
  std::fill(warp_seq_.begin(), warp_seq_.end(), 0u);
  ready_.clear();
  uint32_t linear = 0;
  for (uint32_t z = 0; z < block_.z; ++z)
    for (uint32_t y = 0; y < block_.y; ++y)
      for (uint32_t x = 0; x < block_.x; ++x, ++linear) {
        EmuThread& t = threads_[linear];
        t.coords = ThreadCoords{Dim3{x, y, z}, block_idx, block_, grid_, linear, block_linear,
                                linear % kWarpSize, linear / kWarpSize};
        t.state = ThreadState::Ready;
        t.fiber = ctx::fiber(std::allocator_arg, NotedStack{&stacks_, &t}, [this, &t](ctx::fiber&& scheduler) {
          after_switch(nullptr, &t_scheduler_stack_bottom, &t_scheduler_stack_size);
          t.scheduler = std::move(scheduler);
          try {
            body_();
          } catch (const std::exception&) {
            // Boost's forced_unwind is no std::exception, so stack unwinding passes.
            if (!error_) error_ = std::current_exception();
          }
          t.state = ThreadState::Exited;
          before_switch(nullptr, t_scheduler_stack_bottom, t_scheduler_stack_size);
          return std::move(t.scheduler);
        });
        ready_.push_back(linear);
      }
  stats_.threads += threads_.size();
}

void BlockRun::resume(EmuThread& t) {
  t_current = &t;
  void* scheduler_fake_stack = nullptr;
  before_switch(&scheduler_fake_stack, t.stack_bottom, t.stack_size);
  t.fiber = std::move(t.fiber).resume();
  after_switch(scheduler_fake_stack, nullptr, nullptr);
  t_current = nullptr;
  ++stats_.context_switches;
}

void BlockRun::run(Dim3 block_idx, uint32_t block_linear) {
  struct Current {
    explicit Current(const BlockRun* r) { t_block_run = r; }
    ~Current() { t_block_run = nullptr; }
  } current(this);
  const size_t first_step = trace_.steps.size();
  start_threads(block_idx, block_linear);
  for (;;) {
    while (!ready_.empty()) {
      running_.swap(ready_);
      for (uint32_t i : running_) resume(threads_[i]);
      running_.clear();
    }
    bool progressed = false;
    for (uint32_t w = 0; w < warp_count_; ++w) progressed |= complete_ready_groups(w);
    if (progressed) continue;
    if (release_barrier()) continue;
    bool any_live = false;
    for (const EmuThread& t : threads_) any_live |= t.state != ThreadState::Exited;
    if (!any_live) break;
    // Lanes wait at a warp op for lanes parked elsewhere (at __syncthreads,
    // say). The H200 lets such a shuffle go on without them (the missing
    // lanes read as 0) rather than hang, and so does the emulator.
    force_earliest_group();
  }
  // Steps were appended in completion order; a trace lists them warp by warp.
  std::stable_sort(trace_.steps.begin() + first_step, trace_.steps.end(),
                   [](const TraceStep& a, const TraceStep& b) {
                     return a.warp != b.warp ? a.warp < b.warp : a.seq < b.seq;
                   });
  if (error_) std::rethrow_exception(error_);
}

}  // namespace

// ============================================================================
// [SECTION] Public entry points
// ============================================================================

LaunchStats launch_grid(Dim3 grid, Dim3 block, const std::function<void()>& thread_body,
                        const RecordFilter& filter, Trace& trace) {
  if (grid.count() == 0 || block.count() == 0)
    throw std::invalid_argument("launch: grid and block must not be empty");
  if (block.count() > 1024)
    throw std::invalid_argument("launch: a block holds at most 1024 threads, not " +
                                std::to_string(block.count()));
  if (t_current) throw std::logic_error("launch: kernels cannot launch kernels in the emulator");
  LaunchStats stats;
  BlockRun run(grid, block, thread_body, filter, trace, stats);
  uint32_t linear = 0;
  for (uint32_t z = 0; z < grid.z; ++z)
    for (uint32_t y = 0; y < grid.y; ++y)
      for (uint32_t x = 0; x < grid.x; ++x, ++linear) run.run(Dim3{x, y, z}, linear);
  return stats;
}

bool in_emulated_thread() { return t_current != nullptr; }

const ThreadCoords* current_thread_or_null() noexcept { return t_current ? &t_current->coords : nullptr; }

std::string describe_waiting_threads() { return t_block_run ? t_block_run->describe_waits() : std::string(); }

const ThreadCoords& current_thread() {
  if (!t_current) throw std::logic_error("warpviz: CUDA built-ins used outside an emulated kernel");
  return t_current->coords;
}

WarpOpResult warp_collective(const WarpOpRequest& request) {
  if (!t_current) throw std::logic_error("warpviz: warp intrinsic called outside an emulated kernel");
  t_current->request = request;
  suspend_current_thread(ThreadState::AtWarpOp);
  return t_current->result;
}

void block_barrier(uint32_t line) {
  if (!t_current) throw std::logic_error("warpviz: __syncthreads called outside an emulated kernel");
  t_current->request.line = line;
  suspend_current_thread(ThreadState::AtBarrier);
}

}  // namespace warpviz::emu
