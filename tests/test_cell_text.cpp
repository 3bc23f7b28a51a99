// view::cell_text: one line per cell, a fixed number of significant digits for
// floats, a mark whenever something was dropped; exact_value_text for tooltips.
#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <cmath>

#include "warpviz/dtype.h"
#include "warpviz/view/cell_text.h"
#include "warpviz/view/lane_view.h"

using namespace warpviz;
using namespace warpviz::view;

namespace {

const std::string kMark = "\u2026";
constexpr float kGlyph = 10.0f;  // px per character in these tests

// The cell text of f32 `v` as the lane view formats it, `chars` characters wide.
CellText f32_cell(float v, int chars) {
  return cell_text(value_text(DType::F32, std::bit_cast<uint32_t>(v), false), DType::F32, chars * kGlyph, kGlyph);
}

}  // namespace

TEST_CASE("a float with more significant digits than a cell shows is cut to four and marked", "[view][cell_text]") {
  // 7.87f and 5.72f sums read back as 7.8699994 and 5.7200003: never two lines.
  const CellText sum = f32_cell(7.8699994f, 12);
  CHECK(sum.text == "7.87" + kMark);
  CHECK(sum.shortened);
  CHECK(sum.text.find('\n') == std::string::npos);
  CHECK(f32_cell(5.7200003f, 12).text == "5.72" + kMark);
  CHECK(f32_cell(-123.45f, 12).text == "-123.5" + kMark);
}

TEST_CASE("a large float shows its whole-number digits, then thousands, never a bare exponent", "[view][cell_text]") {
  // A dot product's 10724 showed as "1e4" at 1600x900 beside 10320 in full.
  const CellText whole = f32_cell(10724.0f, 8);
  CHECK(whole.text == "10724");
  CHECK_FALSE(whole.shortened);
  const CellText fraction = f32_cell(10724.25f, 8);
  CHECK(fraction.text == "10724" + kMark);
  CHECK(fraction.shortened);
  const CellText narrow = f32_cell(10724.0f, 4);
  CHECK(narrow.text == "11k" + kMark);
  CHECK(narrow.shortened);
  CHECK(f32_cell(-52128.5f, 12).text == "-52128" + kMark);  // halves round to even, as %.0f does
  CHECK(f32_cell(2.5e7f, 12).text == "2.5e7");              // past the whole digits: the exponent again
}

TEST_CASE("a float that fits whole is shown whole and unmarked", "[view][cell_text]") {
  const CellText plain = f32_cell(12.8f, 8);
  CHECK(plain.text == "12.8");
  CHECK_FALSE(plain.shortened);
  CHECK(f32_cell(-9.5f, 4).text == "-9.5");
  CHECK_FALSE(f32_cell(0.0f, 1).shortened);
}

TEST_CASE("a narrow cell shows 12.8 as 13 with a mark and never as a bare 13", "[view][cell_text]") {
  const CellText three = f32_cell(12.8f, 3);
  CHECK(three.text == "13" + kMark);
  CHECK(three.shortened);
  // Two characters: no room for the text mark; shortened says the corner mark is due.
  const CellText two = f32_cell(12.8f, 2);
  CHECK(two.text == "13");
  CHECK(two.shortened);
}

TEST_CASE("the text never has more characters than the cell holds", "[view][cell_text]") {
  for (float v : {7.8699994f, -123.45f, 12.8f, 1e-5f, 123456.7f, -0.333333343f}) {
    for (int chars = 0; chars <= 12; ++chars) {
      const CellText c = f32_cell(v, chars);
      CHECK(utf8_length(c.text) <= size_t(chars));
      CHECK(c.text.find('\n') == std::string::npos);
      // Unmarked text is the value itself, not a rounding of it.
      if (!c.shortened) CHECK(float(std::stod(c.text)) == v);
    }
  }
}

TEST_CASE("hex bits keep their low digits behind the mark", "[view][cell_text]") {
  const CellText hex = cell_text("0x40fbd70a", DType::F32, 5 * kGlyph, kGlyph);
  CHECK(hex.text == kMark + "d70a");
  CHECK(hex.shortened);
  const CellText whole = cell_text("0x40fbd70a", DType::F32, 10 * kGlyph, kGlyph);
  CHECK(whole.text == "0x40fbd70a");  // hex is exact: no significant-digit cut
  CHECK_FALSE(whole.shortened);
}

TEST_CASE("integers are never cut while they fit and are marked when they do not", "[view][cell_text]") {
  CHECK(cell_text("496", DType::I32, 3 * kGlyph, kGlyph).text == "496");
  CHECK_FALSE(cell_text("496", DType::I32, 3 * kGlyph, kGlyph).shortened);
  const CellText big = cell_text("1234567", DType::I32, 5 * kGlyph, kGlyph);
  CHECK(big.text == "1.2M" + kMark);
  CHECK(big.shortened);
  const CellText none = cell_text("-12", DType::I32, 2 * kGlyph, kGlyph);
  CHECK(none.text.empty());  // nothing honest fits
  CHECK(none.shortened);
}

TEST_CASE("a negative or NaN width leaves no room and says the value was cut", "[view][cell_text]") {
  for (float width : {-5.0f, std::nanf("")}) {
    const CellText none = cell_text("496", DType::I32, width, kGlyph);
    CHECK(none.text.empty());
    CHECK(none.shortened);
  }
}

TEST_CASE("no glyph width means no width limit", "[view][cell_text]") {
  CHECK(cell_text("1234567", DType::I32, 1, 0).text == "1234567");
  CHECK(cell_text("7.8699994", DType::F32, 1, -1).text == "7.87" + kMark);
}

TEST_CASE("a shared-memory address is never cut: its number alone where the @ does not fit", "[view][cell_text]") {
  // At 1024x600 the bank scenario's 32 addresses all showed a bare "…".
  CHECK(cell_text("@128", DType::U32, 4 * kGlyph, kGlyph).text == "@128");
  CHECK_FALSE(cell_text("@128", DType::U32, 4 * kGlyph, kGlyph).shortened);
  const CellText number = cell_text("@128", DType::U32, 3 * kGlyph, kGlyph);
  CHECK(number.text == "128");
  CHECK(number.shortened);
  CHECK(cell_text("@128", DType::U32, 2 * kGlyph, kGlyph).text.empty());
  // Drawn smaller, the whole number: never "1…" or "…".
  CHECK(fewest_cell_text("@3968", DType::U32).text == "3968");
}

TEST_CASE("the fewest characters of a value are never an empty cell", "[view][cell_text]") {
  // Where not one character fits, the panel draws these smaller: each says
  // something of the value, and is marked when it is not all of it.
  CHECK(fewest_cell_text("12.8", DType::F32).text == "13");
  CHECK(fewest_cell_text("12.8", DType::F32).shortened);
  CHECK(fewest_cell_text("0x40fbd70a", DType::F32).text == kMark + "a");
  CHECK(fewest_cell_text("1234567", DType::I32).text == "1M");
  const CellText whole = fewest_cell_text("-12", DType::I32);  // no shorter honest form
  CHECK(whole.text == "-12");
  CHECK_FALSE(whole.shortened);
  CHECK(fewest_cell_text("7", DType::I32).text == "7");
  for (const char* value : {"7.8699994", "-0.333333343", "1e-05", "0xffffffff", "-2147483648", "496"}) {
    INFO(value);
    const CellText fewest = fewest_cell_text(value, DType::F32);
    CHECK_FALSE(fewest.text.empty());
    CHECK(utf8_length(fewest.text) <= utf8_length(value));
  }
}

TEST_CASE("the tooltip's exact value is the round-trip decimal and the bits", "[view][cell_text]") {
  CHECK(exact_value_text(DType::F32, std::bit_cast<uint32_t>(7.8699994f)) == "7.8699994 (0x40fbd709)");
  CHECK(exact_value_text(DType::I32, 0xfffffffdu) == "-3 (0xfffffffd)");
  CHECK(exact_value_text(DType::I32, 0x100000000ull) == "0x0000000100000000");
}
