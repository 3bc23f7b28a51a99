// What the CPU runtime's stream calls (user_runtime_cpu.cpp) ask of stream
// capture (cuda_graphs_cpu.cpp): a stream is an object of its own, and while
// it captures, its copies, memsets, event records and waits become nodes and
// edges of a graph instead of being done.
#pragma once

#include "warpviz/user_runtime.h"

namespace warpviz::user {

cudaStream_t create_stream();
void destroy_stream(cudaStream_t stream);

// Each returns the call's result once it has captured the work, and is asked
// only when stream_is_capturing(stream) (user_runtime.h).
cudaError_t capture_memcpy(cudaStream_t stream, void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
cudaError_t capture_memset(cudaStream_t stream, void* dst, int value, size_t bytes);
cudaError_t capture_event_record(cudaEvent_t event, cudaStream_t stream);
// A wait on an event recorded in a capture joins `stream` to that capture
// (a fork); returns false when the event belongs to no capture.
bool capture_event_wait(cudaStream_t stream, cudaEvent_t event);

}  // namespace warpviz::user
