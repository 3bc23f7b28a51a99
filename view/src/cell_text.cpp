// A value as one line of a lane cell: see cell_text.h.
#include "warpviz/view/cell_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "warpviz/view/lane_view.h"

namespace warpviz::view {

namespace {

const std::string kMark = "\u2026";  // one character, in the app's font atlas (collect_glyphs.cmake)

bool is_hex(const std::string& text) { return text.rfind("0x", 0) == 0; }

// A shared-memory address as the lane view writes it: "@" and a byte offset.
bool is_address(const std::string& text) {
  return text.size() > 1 && text[0] == '@' && text.find_first_not_of("0123456789", 1) == std::string::npos;
}

// A whole finite decimal number ("12.8", "-1e-05"): its value in *out.
bool parse_decimal(const std::string& text, double* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (!end || *end != '\0' || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

// `v` to `digits` significant digits, as %g writes it but with a short
// exponent: 123456 at 4 is "1.235e5", not "1.235e+05".
std::string significant(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  std::string text = buf;
  const size_t e = text.find('e');
  if (e == std::string::npos) return text;
  std::string exponent = text.substr(e + 1);
  const bool negative = exponent[0] == '-';
  exponent.erase(0, exponent.find_first_not_of("+-"));
  exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
  return text.substr(0, e) + "e" + (negative ? "-" : "") + exponent;
}

// Floats this large show their whole-number digits, not an exponent: a dot
// product's 10724 reads as "10724", and in a narrow cell as "10.7k", where
// four significant digits made it "1.072e4" and then "1e4".
constexpr double kWholeDigitsFrom = 1e4, kWholeDigitsBelow = 1e7;

bool shows_whole_digits(double v) { return std::fabs(v) >= kWholeDigitsFrom && std::fabs(v) < kWholeDigitsBelow; }

// `v` rounded to a whole number, as "%.0f" writes it.
std::string whole_number(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

// `v` in thousands or millions with at most `decimals` decimals: "10.72k".
std::string with_suffix(double v, int decimals) {
  const bool millions = std::fabs(v) >= 999500;  // 999.5k rounds to 1000k: say 1M
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f%s", decimals, v / (millions ? 1e6 : 1e3), millions ? "M" : "k");
  return buf;
}

// The longest shortened form of `text` in at most `chars` characters, ""
// when none is honest (shorten_value's rules, with significant() for decimals).
std::string shortened_in(const std::string& text, size_t chars) {
  double v = 0;
  if (!is_hex(text) && text.find_first_of(".e") != std::string::npos && parse_decimal(text, &v)) {
    if (shows_whole_digits(v)) {
      for (int decimals = 2; decimals >= 0; --decimals) {
        const std::string s = with_suffix(v, decimals);
        if (utf8_length(s) <= chars) return s;
      }
      return {};
    }
    for (int digits = kCellSignificantDigits; digits >= 1; --digits) {
      const std::string s = significant(v, digits);
      if (utf8_length(s) <= chars) return s;
    }
    return {};
  }
  return shorten_value(text, chars);
}

}  // namespace

CellText cell_text(const std::string& value, DType dtype, float width_px, float glyph_width_px) {
  // No glyph width: no limit. A negative or NaN width: no room at all.
  const bool unlimited = !(glyph_width_px > 0) || std::isinf(width_px / glyph_width_px);
  const float chars = width_px / glyph_width_px;
  const size_t max_chars = unlimited ? std::numeric_limits<size_t>::max() : chars >= 1 ? size_t(chars) : 0;

  // An address is never cut (a cut one names another word): where "@128"
  // does not fit, its number alone, marked; then nothing.
  if (is_address(value)) {
    if (value.size() <= max_chars) return {value, false};
    if (value.size() - 1 <= max_chars) return {value.substr(1), true};
    return {std::string(), true};
  }

  // A float's digits past the fixed count go first, whatever the width.
  std::string text = value;
  bool shortened = false;
  double v = 0;
  if (dtype_is_float(dtype) && !is_hex(value) && parse_decimal(value, &v)) {
    const std::string capped = shows_whole_digits(v) ? whole_number(v) : significant(v, kCellSignificantDigits);
    double back = 0;
    if (parse_decimal(capped, &back) && back != v) {
      text = capped;
      shortened = true;
    } else if (back == v && utf8_length(capped) < utf8_length(value)) {
      text = capped;  // the same value, written shorter: "1e-5" for "1e-05"
    }
  }
  const bool marked_hex = is_hex(value);  // shorten_value marks hex bits itself, in front
  if (utf8_length(text) + (shortened ? 1 : 0) <= max_chars) return {shortened ? text + kMark : text, shortened};
  if (max_chars == 0) return {std::string(), true};

  // Too wide: fewer characters, the mark included where it fits.
  if (marked_hex) return {shorten_value(text, max_chars), true};
  if (max_chars >= 2) {
    const std::string fewer = shortened_in(text, max_chars - 1);
    if (!fewer.empty()) return {fewer + kMark, true};
  }
  // No room for the text mark: the corner mark alone says it.
  if (shortened && utf8_length(text) <= max_chars) return {text, true};
  return {shortened_in(text, max_chars), true};
}

CellText fewest_cell_text(const std::string& value, DType dtype) {
  const size_t length = utf8_length(value);
  for (size_t chars = 1; chars < length; ++chars) {
    CellText fewer = cell_text(value, dtype, float(chars), 1.0f);
    if (!fewer.text.empty()) return fewer;
  }
  // Nothing shorter is honest ("-12" has no one-character form): all of it.
  return cell_text(value, dtype, 0.0f, 0.0f);
}

std::string exact_value_text(DType dtype, uint64_t bits) {
  if (mask_to_width(dtype, bits) != bits) return format_hex(DType::U64, bits);
  return format_value(dtype, bits) + " (" + format_hex(dtype, bits) + ")";
}

}  // namespace warpviz::view
