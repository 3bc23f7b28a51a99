// libFuzzer target: the binary trace reader (.wvt). Every failure must be a
// TraceFileError; a trace that loads must survive write -> read exactly.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <typeinfo>

#include <xxhash.h>

#include "fuzz_common.h"
#include "warpviz/trace_io.h"

using namespace warpviz;

namespace {

// The checksum a .wvt of `version` stores after its n bytes of body: XXH3-64
// (seed 0) from version 4 on, FNV-1a 64 before.
uint64_t wvt_checksum(uint32_t version, const uint8_t* p, size_t n) {
  return version >= 4 ? XXH3_64bits(p, n) : fuzz::fnv1a64(p, n);
}

void check(const std::string& bytes_in) {
  std::istringstream in(bytes_in);
  Trace first;
  try {
    // The limit just above the input: the reader's chunk stays small (fast), and
    // the limit itself is tested by test_trace_io.
    first = read_trace_binary(in, "fuzz.wvt", bytes_in.size() + 1);
  } catch (const TraceFileError&) {
    return;  // the documented failure
  } catch (const std::exception& e) {
    fuzz::finding(std::string("read_trace_binary threw ") + typeid(e).name() + ": " + e.what());
  }
  std::ostringstream out;
  write_trace_binary(first, out);
  const std::string bytes = out.str();
  std::istringstream again(bytes);
  Trace second;
  try {
    second = read_trace_binary(again, "round-trip.wvt", bytes.size() + 1);
  } catch (const std::exception& e) {
    fuzz::finding(std::string("the written trace does not read back: ") + e.what());
  }
  if (const std::string diff = fuzz::trace_difference(first, second); !diff.empty())
    fuzz::finding("binary round trip changed " + diff);
  std::ostringstream out2;
  write_trace_binary(second, out2);
  if (out2.str() != bytes) fuzz::finding("binary round trip: the second write differs from the first");
}

}  // namespace

// Each input is read twice: as it is, and with its header's file_size and its
// checksum made right, so that mutations of the body reach the parser instead
// of stopping at the checksum (which no mutation gets right by chance).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  check(bytes);
  constexpr size_t kHeader = 20, kChecksum = 8;
  if (size >= kHeader && std::memcmp(data, "WARPVIZT", 8) == 0) {
    // The last 8 bytes are taken as the checksum to replace.
    if (bytes.size() >= kHeader + kChecksum) bytes.resize(bytes.size() - kChecksum);
    const uint64_t total = bytes.size() + kChecksum;
    for (int i = 0; i < 8; ++i) bytes[12 + i] = char(uint8_t(total >> (8 * i)));
    // The checksum of the version the header names (an unknown one is refused before it matters).
    const uint32_t version = uint32_t(uint8_t(bytes[8])) | uint32_t(uint8_t(bytes[9])) << 8 |
                             uint32_t(uint8_t(bytes[10])) << 16 | uint32_t(uint8_t(bytes[11])) << 24;
    const uint64_t sum =
        wvt_checksum(version, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    for (int i = 0; i < 8; ++i) bytes.push_back(char(uint8_t(sum >> (8 * i))));
    check(bytes);
  }
  return 0;
}
