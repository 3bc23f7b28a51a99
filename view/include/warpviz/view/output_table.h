// The outputs table at the foot of the scenario panel: how many values a row
// holds and how wide a column is, so that no value is ever cut ("0x4722d8ad"
// shown as "1193466" read as a different number). Plain C++: the panel passes
// ImGui's text measure in, the tests pass a fixed-pitch one.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "warpviz/dtype.h"

namespace warpviz::view {

using TextMeasure = std::function<float(std::string_view)>;

// What a value cell shows: the value as its dtype, or its bits as hex (H).
std::string output_cell_text(DType dtype, uint64_t bits, bool hex);

// The widest text a value of `dtype` can format to (decimal or hex), e.g.
// "-2147483648" for i32: the column width for outputs too long to measure.
std::vector<std::string> widest_cell_texts(DType dtype, bool hex);

// Outputs up to this many values are measured value by value; longer ones
// take the dtype's widest text, so a frame never formats a million values.
constexpr size_t kMeasuredOutputLimit = 4096;

// The width of the widest cell text of `bits`.
float widest_cell_width(const std::vector<uint64_t>& bits, DType dtype, bool hex, const TextMeasure& measure);

struct OutputTableLayout {
  int per_row = 1;          // values in a row, at least 1
  float column_width = 0;   // a value column's content width: the widest value fits
};

// Up to `max_per_row` columns of `widest` width (plus `cell_padding` on each
// side) after the index column, as many as fit in `available`; never fewer
// than one (the table scrolls sideways when even one does not fit).
OutputTableLayout output_table_layout(float widest, float available, float index_width, float cell_padding,
                                      int max_per_row = 8);

}  // namespace warpviz::view
