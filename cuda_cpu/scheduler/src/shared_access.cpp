// What the compiler plugin (cuda_cpu/compiler_plugin/shared_access.cpp)
// turns each load and store of a `__shared__` variable in a user's device
// code into. A recorded warp makes it as one warp-wide LDS/STS of the lanes
// converged there, as WARPVIZ_LOAD/WARPVIZ_STORE do (the step's address is
// the byte offset from the variable's start, so a 2-D tile's banks are the
// GPU's); any other access is made at once.
#include <cstdint>
#include <cstring>

#include "warpviz/warp_scheduler.h"

namespace {

using warpviz::DType;

// As record_host.h's shared_dtype: kind 0 unsigned or pointer, 1 signed, 2 float.
DType shared_dtype(unsigned bytes, unsigned kind) {
  if (bytes >= 8) return DType::U64;
  if (kind == 2 && bytes == 4) return DType::F32;
  if (kind == 1 && bytes == 4) return DType::I32;
  return DType::U32;
}

warpviz::emu::WarpOpRequest shared_request(warpviz::Op op, const void* at, const void* variable, unsigned bytes,
                                           unsigned kind, unsigned line) {
  warpviz::emu::WarpOpRequest r;
  r.op = op;
  r.line = line;
  r.mask = 0;  // no mask: the lanes converged at the access make it
  r.dtype = shared_dtype(bytes, kind);
  r.addr = uint32_t(static_cast<const unsigned char*>(at) - static_cast<const unsigned char*>(variable));
  r.bytes = uint8_t(bytes);
  r.shared = const_cast<void*>(at);
  return r;
}

}  // namespace

namespace warpviz::emu {

namespace {
// Around each access the emulator makes for the user's code: a fault lands
// in this file's memcpy or in the scheduler's, and the report says the
// user's line from this. Lanes of one warp at one access share the line.
struct AccessLine {
  explicit AccessLine(uint32_t line) { set_shared_access_line(line); }
  ~AccessLine() { set_shared_access_line(0); }
};
}  // namespace

void plain_shared_load(const void* at, unsigned bytes, unsigned line, uint64_t* bits) {
  const AccessLine making(line);
  std::memcpy(bits, at, bytes);
}

void plain_shared_store(void* at, unsigned bytes, unsigned line, uint64_t bits) {
  const AccessLine making(line);
  std::memcpy(at, &bits, bytes);
}

uint64_t shared_load(const void* at, const void* variable, unsigned bytes, unsigned kind, unsigned line) {
  uint64_t bits = 0;
  if (!records_shared_access()) {
    plain_shared_load(at, bytes, line, &bits);
    return bits;
  }
  const AccessLine making(line);
  return warp_collective(shared_request(Op::LoadShared, at, variable, bytes, kind, line)).value;
}

void shared_store(void* at, const void* variable, unsigned bytes, unsigned kind, unsigned line, uint64_t bits) {
  if (!records_shared_access()) {
    plain_shared_store(at, bytes, line, bits);
    return;
  }
  WarpOpRequest r = shared_request(Op::StoreShared, at, variable, bytes, kind, line);
  r.value = bits;
  const AccessLine making(line);
  warp_collective(r);
}

}  // namespace warpviz::emu

extern "C" unsigned long long __warpviz_shared_load(const void* at, const void* variable, unsigned bytes,
                                                    unsigned kind, unsigned line) {
  return warpviz::emu::shared_load(at, variable, bytes, kind, line);
}

extern "C" void __warpviz_shared_store(void* at, const void* variable, unsigned bytes, unsigned kind, unsigned line,
                                       unsigned long long bits) {
  warpviz::emu::shared_store(at, variable, bytes, kind, line, bits);
}
