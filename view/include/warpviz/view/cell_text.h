// What a lane cell shows of a value: one line, never two. A float shows at
// most kCellSignificantDigits significant digits, so a row of sums reads at
// one size ("7.87…" for 7.8699994); a cell too narrow for that shows fewer.
// Whatever is dropped is marked: a trailing "…" on a decimal, a leading "…"
// on hex bits (their low digits stay, where a shuffle's change shows), and
// `shortened` for the panel's corner mark, which stays even where the text
// mark does not fit. The tooltip shows exact_value_text.
#pragma once

#include <cstdint>
#include <string>

#include "warpviz/dtype.h"

namespace warpviz::view {

constexpr int kCellSignificantDigits = 4;

struct CellText {
  std::string text;        // "" when not even one digit fits: the colour and the tooltip still tell
  bool shortened = false;  // text is not the whole value
};

// `value` is value_text's form of a value of `dtype`; the cell is width_px
// wide and a character at most glyph_width_px (the widest of the digits, '.',
// '-' and '…' at the size it is drawn). A glyph width of 0 or less (or NaN)
// means no width limit; a width below one glyph (negative, NaN) leaves no room.
CellText cell_text(const std::string& value, DType dtype, float width_px, float glyph_width_px);

// The fewest characters that still say something of the value ("7…", "101",
// "…a"), for a cell too narrow for even one character at its smallest
// readable size: the panel draws these smaller rather than leave the cell
// empty, which would read as no value. Never "" for a non-empty value.
CellText fewest_cell_text(const std::string& value, DType dtype);

// The exact value for a tooltip: the shortest decimal that reads back to the
// same bits, and the bits in hex: "7.8699994 (0x40fbd70a)". Integers:
// "-3 (0xfffffffd)". Bits wider than a 32-bit type show as 64-bit hex only.
std::string exact_value_text(DType dtype, uint64_t bits);

}  // namespace warpviz::view
