// The CPU emulator's execution engine: every CUDA thread of a block runs as a
// fiber; warp collectives and __syncthreads suspend the fiber until the lanes
// they name have arrived, then warp_rules computes the results and the step is
// recorded.
//
// Blocks are independent, so a launch spreads them over OS threads (all cores
// by default); a block runs start to end on one OS thread, so `__shared__`
// variables (thread_local statics in emulated kernels) are one block's shared
// memory at a time. The trace is the same whatever the thread count.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "warpviz/run_progress.h"
#include "warpviz/trace.h"

namespace warpviz::emu {

// Which warps a launch records. Big launches record a subset to stay cheap.
struct RecordFilter {
  std::vector<uint32_t> blocks;  // empty: every block
  std::vector<uint32_t> warps;   // empty: every warp of a chosen block
  size_t max_steps = size_t(1) << 24;  // past this the trace is marked overflowed
  // Loads and stores of `__shared__` variables in a user's kernel (which the
  // compiler plugin turns into calls): recorded as warp-wide accesses in the
  // warps recorded, or made at once (--record-memory none).
  bool shared_memory = true;

  bool wants(uint32_t block, uint32_t warp) const;
};

struct ThreadCoords {
  Dim3 thread_idx, block_idx, block_dim, grid_dim;
  uint32_t linear_tid = 0;    // within the block
  uint32_t block_linear = 0;  // within the grid
  uint32_t lane = 0, warp = 0;
};

// What a lane brings to a warp collective.
struct WarpOpRequest {
  Op op = Op::ShflIdx;
  uint32_t line = 0;
  uint32_t mask = 0xffffffffu;
  DType dtype = DType::I32;
  OpArgs args;
  uint64_t value = 0;   // bits of the supplied value / predicate
  // Shared-memory ops: the element's byte offset from its array (the trace's
  // addr), its width, where it lives in host memory, and a store's bytes 8-15.
  uint32_t addr = 0;
  uint8_t bytes = 0;
  uint8_t step_flags = 0;  // StepFlag bits the step should carry
  void* shared = nullptr;
  uint64_t value_high = 0;
  // Non-zero: no operation, only a meeting point of the converged lanes
  // before a volatile access (converged_access_point); which one, within
  // the line.
  uint32_t site = 0;
};

struct WarpOpResult {
  uint64_t value = 0;
  bool ok = false;         // the op's predicate (shfl in-range, match_all pred)
  bool undefined = false;  // the result is undefined by spec
  uint64_t value_high = 0; // a 16-byte shared load's bytes 8-15
};

struct LaunchStats {
  uint64_t threads = 0;
  uint64_t warp_ops = 0;      // completed collectives, recorded or not
  uint64_t lane_ops = 0;      // sum of participating lanes over those collectives
  uint64_t context_switches = 0;
};

// Runs thread_body once per thread of the grid. Recorded steps are appended to
// `trace` (ordered by block, warp, seq); trace.overflow is set past max_steps.
// Exceptions thrown by a thread body are rethrown here after the block unwinds.
//
// `threads` OS threads run the blocks (0: emulator_threads()); the trace and
// stats are those of one thread, block after block. Blocks that share more
// than disjoint writes to global memory (atomics, a counter the last block
// reads) would see each other in a different order, so such code passes 1.
LaunchStats launch_grid(Dim3 grid, Dim3 block, const std::function<void()>& thread_body,
                        const RecordFilter& filter, Trace& trace, unsigned threads = 0);

// A cooperative launch (cudaLaunchCooperativeKernel): every block is resident
// at once, so that its threads may wait at grid_barrier() for the whole grid.
// Each block runs on an OS thread of its own, one at a time in block order
// (grid_turns.h): a block runs until its live threads all wait at the grid
// barrier or end, then the next. `on_switch(block, parking)` is called as a
// block gives up its turn and as it takes it back (for state blocks share on
// one thread). A grid barrier a block ended without reaching throws a
// deadlock, as the GPU would hang. The trace is ordered as launch_grid's.
constexpr uint64_t kMaxCooperativeBlocks = 132 * 32;  // an H200: 132 SMs, at most 32 blocks each
LaunchStats launch_grid_cooperative(Dim3 grid, Dim3 block, const std::function<void()>& thread_body,
                                    const RecordFilter& filter, Trace& trace,
                                    const std::function<void(uint32_t block, bool parking)>& on_switch = {});

// Counts every launch's progress into `record` from now on (null: stop):
// launch_grid sets its totals and start; blocks and threads done and fiber
// switches follow (run_progress.h). A user program's runtime points it at
// the record its runner reads.
void count_progress_in(RunProgress* record);

// The thread count launches use by default: set_emulator_threads's, else
// WARPVIZ_EMU_THREADS (1 to kMaxEmulatorThreads; anything else throws
// std::invalid_argument), else every core.
constexpr const char* kEmulatorThreadsEnv = "WARPVIZ_EMU_THREADS";
constexpr unsigned kMaxEmulatorThreads = 1024;
unsigned emulator_threads();
// 0 goes back to the default.
void set_emulator_threads(unsigned threads);

// --- Called from inside an emulated thread ---------------------------------
bool in_emulated_thread();
// Whether `p` is on the running emulated thread's own stack (its locals: CUDA's local memory).
bool on_running_thread_stack(const void* p);
const ThreadCoords& current_thread();
// The running emulated thread, or null outside one. Safe in a signal handler.
const ThreadCoords* current_thread_or_null() noexcept;

// A memory fault of a lane (SIGSEGV or SIGBUS in a kernel) ends its launch as
// an illegal address ends one on a GPU, and the program goes on: called from
// the fault's signal handler, land_memory_fault jumps back to the running
// block's scheduler, which ends the block with IllegalAddress; the launch
// throws it. The faulting lane's stack is abandoned. Returns (and nothing
// lands) outside an emulated thread, or in a build under AddressSanitizer,
// whose fiber bookkeeping a jump out of a signal handler would break
// (lands_memory_faults() says which).
struct IllegalAddress : std::runtime_error {
  using std::runtime_error::runtime_error;
};
bool lands_memory_faults() noexcept;
void land_memory_fault() noexcept;
// The threads of the running block that wait for the running thread, at
// __syncthreads, grid.sync() or a warp operation whose mask names it: what a
// time-limit report adds when that thread never arrives (a deadlock on a
// GPU). Empty when none waits for it or no emulated thread is running.
std::string describe_waiting_threads();
WarpOpResult warp_collective(const WarpOpRequest& request);
// A warp operation whose operands are all registers (a shuffle, vote, match,
// __reduce_*_sync, __syncwarp, a watch): warp_collective with the request's fields
// passed in registers and the result returned in them. The request built in
// the caller's frame was read back by warp_collective's copy right after its
// field-by-field stores, a load no store could forward to: a stall at every
// lane's every shuffle. Here the fields go straight into the lane's slot.
struct RegisterOpResult {
  uint64_t value;
  uint64_t flags;  // kRegisterOpOk, kRegisterOpUndefined: WarpOpResult's ok and undefined
};
constexpr uint64_t kRegisterOpOk = 1, kRegisterOpUndefined = 2;
RegisterOpResult warp_register_op(uint32_t op_and_dtype, uint32_t line, uint32_t mask, uint64_t value, int64_t b,
                                  int32_t width, uint32_t c = 0);
constexpr uint32_t register_op_code(Op op, DType dtype) { return uint32_t(op) | uint32_t(dtype) << 8; }
// Before a volatile load or store in a user's device code (the compiler
// plugin inserts the call): the lanes of the warp converged here meet, as a
// converged warp issues one instruction for all its lanes, and then each
// makes its access. So warp-synchronous code without __syncwarp (the unrolled
// volatile last-warp reduction, a warp's ping-pong buffer) sees the other
// lanes' stores as on the GPU. Nothing is recorded. Lanes that diverged meet
// at their own points, the lowest line first, as shared accesses do.
// Outside an emulated thread it does nothing.
void converged_access_point(uint32_t line, uint32_t site);
// Whether a load or store of a `__shared__` variable by the running thread is
// recorded (a warp-wide access, waiting for the lanes converged there): its
// warp is one the launch records (RecordFilter), the trace had room as its
// block began, and the filter records shared memory. False outside an
// emulated thread.
bool records_shared_access() noexcept;
// A load or store of `bytes` (1 to 8) at `at` in shared memory, `variable`'s
// offset `at - variable` recorded as the address: a warp-wide access where
// records_shared_access(), else made at once. `kind`: 0 unsigned or pointer,
// 1 signed, 2 float (the step's dtype). What the compiler plugin's calls
// (cuda_cpu/scheduler/src/shared_access.cpp) come to.
uint64_t shared_load(const void* at, const void* variable, unsigned bytes, unsigned kind, unsigned line);
void shared_store(void* at, const void* variable, unsigned bytes, unsigned kind, unsigned line, uint64_t bits);
// The same, never recorded: for an address that is not shared memory.
void plain_shared_load(const void* at, unsigned bytes, unsigned line, uint64_t* bits);
void plain_shared_store(void* at, unsigned bytes, unsigned line, uint64_t bits);
// The line of the shared access the emulator makes now for the running
// thread (or its warp), or 0: where a fault report says it was, the faulting
// code being the emulator's. Safe in a signal handler; a landed fault clears it.
uint32_t shared_access_line() noexcept;
void set_shared_access_line(uint32_t line) noexcept;
// The line of the meeting point the running thread spins at (it came back to
// it again and again with nothing between), or 0: where a time-limit report
// says it was when the interrupted code is the meeting itself. Safe in a
// signal handler.
uint32_t spinning_line() noexcept;
// Kernel printf's text: held until the lane's warp syncs, then written in the
// GPU's order (lane_output_buffer.h). Outside an emulated thread: stdout.
void write_lane_output(std::string_view text);
// What the running block holds, written to `fd` now: for a crash or a time
// limit. Safe in a signal handler; does nothing while the lane is appending.
void flush_lane_output_to_fd(int fd) noexcept;
void block_barrier(uint32_t line);
// Names the running block's stretch of code between two barriers: the same
// for all its threads until the next __syncthreads passes, and never the same
// for another stretch or another block run on this OS thread.
uint64_t block_barrier_epoch();
// Suspends the running thread until ready(arg) holds (at once if it does),
// while the block's other threads run: cuda::barrier's wait and a block-scope
// cuda::pipeline's consumer_wait. A wait nothing left can end throws a deadlock.
void wait_until(bool (*ready)(const void*), const void* arg, uint32_t line);
// grid.sync(): waits until every thread of the grid has arrived. Throws
// outside a cooperative launch (on a GPU the grid is not valid there).
void grid_barrier(uint32_t line);
// Whether the running emulated thread belongs to a cooperative launch.
bool in_cooperative_launch();

}  // namespace warpviz::emu
