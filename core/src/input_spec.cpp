#include "warpviz/input_spec.h"

#include <bit>
#include <random>

#include "warpviz/scenario.h"

namespace warpviz {

const char* const kInputSpecForms =
    "iota, ones, const:X, random:SEED, values:a,b,... (decimal), bits:hex,hex,... (exact bits)";

namespace {

std::vector<std::string> split_items(std::string_view list) {
  std::vector<std::string> items;
  size_t start = 0;
  for (;;) {
    const size_t comma = list.find(',', start);
    std::string item(list.substr(start, comma == std::string_view::npos ? list.npos : comma - start));
    // Spaces around items are a typing convenience, not part of a value.
    const size_t first = item.find_first_not_of(' ');
    const size_t last = item.find_last_not_of(' ');
    items.push_back(first == std::string::npos ? std::string() : item.substr(first, last - first + 1));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

[[noreturn]] void bad_input(const std::string& why) {
  throw ScenarioError("invalid --input: " + why + " (valid forms: " + kInputSpecForms + ")");
}

// An integer index as a value of the type: iota's lane/element number.
uint64_t index_value(DType dtype, uint64_t index) {
  switch (dtype) {
    case DType::F32: return std::bit_cast<uint32_t>(float(index));
    case DType::F64: return std::bit_cast<uint64_t>(double(index));
    default: return mask_to_width(dtype, index);
  }
}

uint64_t random_value(DType dtype, std::mt19937_64& rng) {
  const uint64_t r = rng();
  switch (dtype) {
    case DType::I32:
    case DType::I64: return mask_to_width(dtype, uint64_t(int64_t(r % 19) - 9));
    case DType::U32:
    case DType::U64: return r % 19;
    // Two decimals in [-10, 10): readable, and sums that round visibly in f32.
    case DType::F32: return std::bit_cast<uint32_t>(float(double(int64_t(r % 2000) - 1000) / 100.0));
    case DType::F64: return std::bit_cast<uint64_t>(double(int64_t(r % 2000) - 1000) / 100.0);
  }
  return 0;
}

}  // namespace

InputSpec parse_input_spec(std::string_view text) {
  InputSpec spec;
  spec.text = std::string(text);
  const size_t colon = text.find(':');
  const std::string_view head = text.substr(0, colon);
  const std::string_view rest = colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
  const bool has_rest = colon != std::string_view::npos;
  if (head == "iota" && !has_rest) {
    spec.kind = InputSpec::Kind::Iota;
  } else if (head == "ones" && !has_rest) {
    spec.kind = InputSpec::Kind::Ones;
  } else if (head == "const" && has_rest && !rest.empty()) {
    spec.kind = InputSpec::Kind::Const;
    spec.items.emplace_back(rest);
  } else if (head == "random" && has_rest) {
    spec.kind = InputSpec::Kind::Random;
    const auto seed = parse_value(DType::U64, rest);
    if (!seed) bad_input("random:SEED needs a non-negative integer seed, got '" + std::string(rest) + "'");
    spec.seed = *seed;
  } else if (head == "values" && has_rest && !rest.empty()) {
    spec.kind = InputSpec::Kind::Values;
    spec.items = split_items(rest);
  } else if (head == "bits" && has_rest && !rest.empty()) {
    spec.kind = InputSpec::Kind::Bits;
    spec.items = split_items(rest);
    // A token that is no hex at all is named now, before a count mismatch would hide it.
    for (size_t i = 0; i < spec.items.size(); ++i)
      if (!parse_hex(DType::U64, spec.items[i]))
        bad_input("bits: item " + std::to_string(i) + " '" + spec.items[i] +
                  "' is not a hex bit pattern (hex digits, optionally 0x-prefixed, at most 16)");
  } else {
    bad_input("'" + std::string(text) + "' is not an input spec");
  }
  return spec;
}

std::vector<uint64_t> make_input_values(const InputSpec& spec, DType dtype, size_t count) {
  std::vector<uint64_t> values(count);
  switch (spec.kind) {
    case InputSpec::Kind::Iota:
      for (size_t i = 0; i < count; ++i) values[i] = index_value(dtype, i);
      break;
    case InputSpec::Kind::Ones:
      for (auto& v : values) v = index_value(dtype, 1);
      break;
    case InputSpec::Kind::Const: {
      const auto v = parse_value(dtype, spec.items[0]);
      if (!v) bad_input("'" + spec.items[0] + "' is not a " + dtype_name(dtype) + " value");
      for (auto& x : values) x = *v;
      break;
    }
    case InputSpec::Kind::Random: {
      std::mt19937_64 rng(spec.seed);
      for (auto& v : values) v = random_value(dtype, rng);
      break;
    }
    case InputSpec::Kind::Values:
    case InputSpec::Kind::Bits: {
      const bool bits = spec.kind == InputSpec::Kind::Bits;
      if (spec.items.size() != count)
        bad_input(std::string(bits ? "bits:" : "values:") + " gave " + std::to_string(spec.items.size()) +
                  " values; this scenario needs exactly " + std::to_string(count));
      for (size_t i = 0; i < count; ++i) {
        const auto v = bits ? parse_hex(dtype, spec.items[i]) : parse_value(dtype, spec.items[i]);
        if (!v)
          bad_input("item " + std::to_string(i) + " '" + spec.items[i] + "' is not " +
                    (bits ? "a hex bit pattern of " : "a decimal ") + dtype_name(dtype) +
                    (bits ? "" : " value"));
        values[i] = *v;
      }
      break;
    }
  }
  return values;
}

}  // namespace warpviz
