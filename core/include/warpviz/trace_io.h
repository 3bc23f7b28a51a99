// Reading and writing traces: the compact binary form (.wvt) and the JSON form.
// Every failure is a TraceFileError whose message names the problem and the file.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>

#include "warpviz/trace.h"

namespace warpviz {

// Binary format version written by this build. Readers accept 1 to this
// (2 added TraceMeta::measurements, 3 the watch op, 4 the XXH3-64 checksum in
// place of FNV-1a 64).
constexpr uint32_t kTraceBinaryVersion = 4;
// The first binary version that may hold watch steps.
constexpr uint32_t kTraceBinaryWatchVersion = 3;
// The first binary version whose checksum is XXH3-64 (seed 0); older ones use FNV-1a 64.
constexpr uint32_t kTraceBinaryXxh3Version = 4;
// JSON "version" field written by this build. Readers accept 1 to this (2 added
// the watch op).
constexpr int kTraceJsonVersion = 2;
constexpr int kTraceJsonWatchVersion = 2;

class TraceFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The most bytes a trace file may have before reading gives up: a trace is read
// into memory whole, so a hostile or mistaken input (/dev/zero, a huge file) must
// stop with a clear error, not take the machine's memory.
constexpr uint64_t kDefaultMaxTraceBytes = uint64_t(1) << 30;  // 1 GiB
// The environment variable that raises (or lowers) the limit.
constexpr const char* kMaxTraceBytesEnv = "WARPVIZ_MAX_TRACE_BYTES";
// WARPVIZ_MAX_TRACE_BYTES when set, else kDefaultMaxTraceBytes. A malformed value
// is a TraceFileError (ignoring it silently would hide the typo).
uint64_t max_trace_bytes();
// "4096", "64K", "512M", "2G", "1T" (powers of 1024); nullopt for anything else,
// zero included.
std::optional<uint64_t> parse_byte_count(const std::string& text);

// Binary form. Layout (little-endian) is documented in trace_binary.cpp.
void write_trace_binary(const Trace& trace, std::ostream& out);
// Reads at most max_bytes from `in` (a pipe works: nothing is seeked).
Trace read_trace_binary(std::istream& in, const std::string& name_for_errors,
                        uint64_t max_bytes = max_trace_bytes());

// JSON form (schema in README.md, "Trace JSON").
std::string trace_to_json(const Trace& trace, int indent = 1);
Trace trace_from_json(const std::string& text, const std::string& name_for_errors);

// By file name: ".json" selects JSON, anything else the binary form. The file is
// replaced as write_file_replacing (file_write.h) does: mode and symlinks kept.
void save_trace(const Trace& trace, const std::string& path);
// Loading sniffs the content (magic bytes or '{'), not the name, so pipes and
// process substitutions work; "-" is standard input. At most max_bytes are read.
Trace load_trace(const std::string& path, uint64_t max_bytes = max_trace_bytes());

}  // namespace warpviz
