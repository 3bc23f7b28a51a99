// See copy_back_log.h. The limits and the hash are the reference capture's,
// so that both sides keep the same copies.
#include "copy_back_log.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace warpviz::user {

namespace {

constexpr size_t kKeepOneBytes = 64 * 1024;   // a copy kept whole is at most this
constexpr size_t kKeepAllBytes = 256 * 1024;  // and the run keeps at most this in all

struct CopyBackLog {
  std::mutex lock;
  bool opened = false;
  FILE* log = nullptr;
  FILE* data = nullptr;
  unsigned long seq = 0;
  size_t kept = 0;
};

CopyBackLog& copy_back_log() {
  static CopyBackLog log;
  return log;
}

uint64_t fnv1a64(const unsigned char* bytes, size_t count) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < count; ++i) hash = (hash ^ bytes[i]) * 0x100000001b3ull;
  return hash;
}

}  // namespace

void log_copy_back(const char* api, const void* host, size_t bytes) {
  CopyBackLog& log = copy_back_log();
  std::lock_guard<std::mutex> hold(log.lock);
  if (!log.opened) {
    log.opened = true;
    const char* log_path = std::getenv("WARPVIZ_D2H_LOG");
    const char* data_path = std::getenv("WARPVIZ_D2H_DATA");
    log.log = log_path ? std::fopen(log_path, "w") : nullptr;
    log.data = log.log && data_path ? std::fopen(data_path, "wb") : nullptr;
  }
  if (log.log) {
    const bool keep = log.data && bytes <= kKeepOneBytes && log.kept + bytes <= kKeepAllBytes;
    std::fprintf(log.log, "%lu %s %zu %016" PRIx64 " %d\n", log.seq, api, bytes,
                 fnv1a64(static_cast<const unsigned char*>(host), bytes), keep ? 1 : 0);
    std::fflush(log.log);
    if (keep) {
      std::fwrite(host, 1, bytes, log.data);
      std::fflush(log.data);
      log.kept += bytes;
    }
  }
  ++log.seq;
}

}  // namespace warpviz::user
