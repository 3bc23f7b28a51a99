// An output array of a recorded launch as integers, for tests that check a
// user program's results element by element.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "warpviz/trace.h"

namespace warpviz::test {

// The elements of output `name`: unsigned where the array is u32, otherwise
// signed 32-bit values.
inline std::vector<int64_t> output_values(const Trace& t, const std::string& name) {
  const TraceOutput* out = t.output(name);
  REQUIRE(out != nullptr);
  std::vector<int64_t> v;
  for (uint64_t bits : out->bits)
    v.push_back(out->dtype == DType::U32 ? int64_t(uint32_t(bits)) : int64_t(int32_t(uint32_t(bits))));
  return v;
}

}  // namespace warpviz::test
