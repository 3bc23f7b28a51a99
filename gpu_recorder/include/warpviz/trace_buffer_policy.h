// How the GPU backend sizes a scenario launch's trace buffer, and how a test
// or WARPVIZ_TRACE_BUFFER_STEPS forces one too small. Plain C++, header-only:
// the scenarios' CUDA objects (cuda_session.h) and the tests both read it, and
// the static library that would otherwise hold it is linked before them.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>

#include "warpviz/backends.h"

namespace warpviz {

// A first try of first_steps_per_warp slots per recorded warp, rerun with four
// times as many while a warp overflows, up to last_steps_per_warp, past which
// the trace is marked `overflow` (its steps a prefix of each warp's).
struct TraceBufferPolicy {
  uint32_t first_steps_per_warp = 32;
  uint32_t last_steps_per_warp = 2048;
  // Poison the buffer, put a guard region after it, and after every launch
  // check that the device wrote nothing outside what the layout allows (a
  // CudaError names what it touched).
  bool guard = false;
};

namespace detail {

struct TraceBufferPolicyState {
  std::mutex mutex;
  bool read_environment = false;
  TraceBufferPolicy policy;
  std::string error;  // a WARPVIZ_TRACE_BUFFER_STEPS that is no valid size
  std::atomic<uint64_t> guard_checks{0};
};

inline TraceBufferPolicyState& trace_buffer_policy_state() {
  static TraceBufferPolicyState state;
  return state;
}

constexpr uint32_t kMaxForcedStepsPerWarp = 1u << 20;

// WARPVIZ_TRACE_BUFFER_STEPS=N: exactly N slots, no rerun, guarded.
inline void read_trace_buffer_environment(TraceBufferPolicyState& state) {
  state.read_environment = true;
  const char* text = std::getenv("WARPVIZ_TRACE_BUFFER_STEPS");
  if (!text || !*text) return;
  char* end = nullptr;
  const unsigned long long steps = std::strtoull(text, &end, 10);
  if (*end != '\0' || text[0] < '0' || text[0] > '9' || steps < 1 || steps > kMaxForcedStepsPerWarp) {
    state.error = std::string("WARPVIZ_TRACE_BUFFER_STEPS='") + text + "' is not a number of step slots from 1 to " +
                  std::to_string(kMaxForcedStepsPerWarp);
    return;
  }
  state.policy.first_steps_per_warp = state.policy.last_steps_per_warp = uint32_t(steps);
  state.policy.guard = true;
}

}  // namespace detail

// The policy in force. It starts from the environment: with
// WARPVIZ_TRACE_BUFFER_STEPS=N every launch gets exactly N slots per warp, no
// rerun, and a guarded buffer: a recorder forced to overflow, for tests and
// compute-sanitizer. A value that is not a number from 1 to 1048576 throws
// BackendUnavailable (the CLI's exit 2) when a scenario runs.
inline TraceBufferPolicy trace_buffer_policy() {
  detail::TraceBufferPolicyState& state = detail::trace_buffer_policy_state();
  std::lock_guard lock(state.mutex);
  if (!state.read_environment) detail::read_trace_buffer_environment(state);
  if (!state.error.empty()) throw BackendUnavailable(state.error);
  return state.policy;
}

// Replaces it (tests); first >= 1 and last >= first, else std::invalid_argument.
inline void set_trace_buffer_policy(const TraceBufferPolicy& policy) {
  if (policy.first_steps_per_warp < 1 || policy.last_steps_per_warp < policy.first_steps_per_warp)
    throw std::invalid_argument("a trace buffer policy needs 1 <= first_steps_per_warp <= last_steps_per_warp");
  detail::TraceBufferPolicyState& state = detail::trace_buffer_policy_state();
  std::lock_guard lock(state.mutex);
  state.read_environment = true;
  state.error.clear();
  state.policy = policy;
}

// Launches whose guarded buffer was checked and found intact, in this process.
inline uint64_t trace_buffer_guard_checks() { return detail::trace_buffer_policy_state().guard_checks.load(); }
inline void count_trace_buffer_guard_check() { ++detail::trace_buffer_policy_state().guard_checks; }

}  // namespace warpviz
