#include "warpviz/view/output_table.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace warpviz::view {

std::string output_cell_text(DType dtype, uint64_t bits, bool hex) {
  return hex ? format_hex(dtype, bits) : format_value(dtype, bits);
}

std::vector<std::string> widest_cell_texts(DType dtype, bool hex) {
  if (hex) return {format_hex(dtype, ~uint64_t(0))};  // fixed width: "0x" + 8 or 16 digits
  switch (dtype) {
    case DType::I32: return {format_value(dtype, 0x80000000u)};  // -2147483648
    case DType::U32: return {format_value(dtype, 0xffffffffu)};  // 4294967295
    case DType::I64: return {format_value(dtype, uint64_t(1) << 63)};
    case DType::U64: return {format_value(dtype, ~uint64_t(0))};
    case DType::F32:
      // Shortest round-trip decimals: nine digits, a sign and a two-digit
      // exponent at most; a NaN shows its bits.
      return {"-1.23456789e-38", format_value(dtype, 0xffffffffu)};
    case DType::F64: return {"-1.2345678901234567e-308", format_value(dtype, ~uint64_t(0))};
  }
  return {format_hex(DType::U64, ~uint64_t(0))};
}

float widest_cell_width(const std::vector<uint64_t>& bits, DType dtype, bool hex, const TextMeasure& measure) {
  float widest = 0;
  if (bits.size() > kMeasuredOutputLimit) {
    for (const std::string& text : widest_cell_texts(dtype, hex)) widest = std::max(widest, measure(text));
    return widest;
  }
  for (uint64_t b : bits) widest = std::max(widest, measure(output_cell_text(dtype, b, hex)));
  return widest;
}

OutputTableLayout output_table_layout(float widest, float available, float index_width, float cell_padding,
                                      int max_per_row) {
  OutputTableLayout layout;
  layout.column_width = std::ceil(widest);
  const float cell = layout.column_width + 2 * cell_padding;
  const float room = available - index_width - 2 * cell_padding;
  const int fits = cell > 0 ? int(std::floor(room / cell)) : max_per_row;
  layout.per_row = std::clamp(fits, 1, std::max(1, max_per_row));
  return layout;
}

}  // namespace warpviz::view
