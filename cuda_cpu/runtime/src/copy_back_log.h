// The program's copies back from the device, logged as the corpus's H200
// references log them (scripts/corpus/d2h_capture.c): one line a copy,
// "seq api bytes fnv1a64 kept", and the bytes of small copies kept whole, so
// tests/corpus/check_corpus.py compares the CPU's copied-back arrays with the
// GPU's bit for bit. Off unless WARPVIZ_D2H_LOG names the log file
// (WARPVIZ_D2H_DATA the kept bytes' file).
#pragma once

#include <cstddef>

namespace warpviz::user {

// Logs one copy of `bytes` bytes now at `host` (after the copy), under the
// runtime call's name ("cudaMemcpy", "cudaMemcpyAsync", "cudaMemcpyFromSymbol").
void log_copy_back(const char* api, const void* host, size_t bytes);

}  // namespace warpviz::user
