// libFuzzer target: the JSON trace reader. Every failure must be a
// TraceFileError; a trace that loads must survive trace_to_json -> read exactly
// (only a NaN measurement is compared as "any NaN": the JSON form writes it as
// null, documented in trace_json.cpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <typeinfo>

#include "fuzz_common.h"
#include "warpviz/trace_io.h"

using namespace warpviz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Trace first;
  try {
    first = trace_from_json(text, "fuzz.json");
  } catch (const TraceFileError&) {
    return 0;  // the documented failure
  } catch (const std::exception& e) {
    fuzz::finding(std::string("trace_from_json threw ") + typeid(e).name() + ": " + e.what());
  }
  const std::string written = trace_to_json(first, 0);
  Trace second;
  try {
    second = trace_from_json(written, "round-trip.json");
  } catch (const std::exception& e) {
    fuzz::finding(std::string("the written JSON does not read back: ") + e.what());
  }
  if (const std::string diff = fuzz::trace_difference(first, second, true); !diff.empty())
    fuzz::finding("JSON round trip changed " + diff);
  if (trace_to_json(second, 0) != written) fuzz::finding("JSON round trip: the second write differs from the first");
  return 0;
}
