// Reading and writing traces: the compact binary form (.wvt) and the JSON form.
// Every failure is a TraceFileError whose message names the problem and the file.
#pragma once

#include <iosfwd>
#include <stdexcept>
#include <string>

#include "warpviz/trace.h"

namespace warpviz {

// Binary format version written by this build. Readers accept 1 to this
// (2 added TraceMeta::measurements).
constexpr uint32_t kTraceBinaryVersion = 2;
// JSON "version" field written by this build.
constexpr int kTraceJsonVersion = 1;

class TraceFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Binary form. Layout (little-endian) is documented in trace_binary.cpp.
void write_trace_binary(const Trace& trace, std::ostream& out);
Trace read_trace_binary(std::istream& in, const std::string& name_for_errors);

// JSON form (schema in README.md, "Trace JSON").
std::string trace_to_json(const Trace& trace, int indent = 1);
Trace trace_from_json(const std::string& text, const std::string& name_for_errors);

// By file name: ".json" selects JSON, anything else the binary form.
// Loading sniffs the content (magic bytes or '{'), not the name.
void save_trace(const Trace& trace, const std::string& path);
Trace load_trace(const std::string& path);

}  // namespace warpviz
