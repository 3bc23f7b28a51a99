// Scenario inputs: iota, ones, const:X, random:SEED, values:a,b,..., bits:hex,...
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "warpviz/dtype.h"

namespace warpviz {

struct InputSpec {
  enum class Kind { Iota, Ones, Const, Random, Values, Bits };
  Kind kind = Kind::Iota;
  std::string text;                // as given
  std::vector<std::string> items;  // const: one item; values/bits: each item
  uint64_t seed = 0;
};

extern const char* const kInputSpecForms;  // "iota, ones, const:X, random:SEED, ..."

// Throws ScenarioError naming the valid forms.
InputSpec parse_input_spec(std::string_view text);

// `count` values of `dtype`. values:/bits: must give exactly `count` items.
// random: i32 in [-9, 9], u32 in [0, 18], floats in [-10, 10) with two
// decimals, all from std::mt19937_64 (identical on every platform).
std::vector<uint64_t> make_input_values(const InputSpec& spec, DType dtype, size_t count);

}  // namespace warpviz
