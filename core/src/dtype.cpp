// Value types: names, widths, and the exact text forms of trace values.
//
// Sections:
//   names and widths
//   hex form        format_hex / parse_hex
//   human form      format_value / parse_value
#include "warpviz/dtype.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <system_error>

namespace warpviz {

namespace {

constexpr uint64_t kLowWord = 0xffffffffull;

template <typename T>
T from_bits(uint64_t bits) {
  if constexpr (sizeof(T) == 4) {
    return std::bit_cast<T>(static_cast<uint32_t>(bits));
  } else {
    return std::bit_cast<T>(bits);
  }
}

template <typename T>
uint64_t to_bits(T value) {
  if constexpr (sizeof(T) == 4) {
    return std::bit_cast<uint32_t>(value);
  } else {
    return std::bit_cast<uint64_t>(value);
  }
}

std::string hex_digits(uint64_t bits, int digits) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s(size_t(digits), '0');
  for (int i = digits - 1; i >= 0; --i, bits >>= 4) s[size_t(i)] = kDigits[bits & 0xf];
  return s;
}

int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A leading '+' is accepted for symmetry with '-'; std::from_chars rejects it.
std::string_view strip_plus(std::string_view text) {
  if (text.size() >= 2 && text[0] == '+' && text[1] != '+' && text[1] != '-')
    text.remove_prefix(1);
  return text;
}

template <typename Int>
std::string format_int(uint64_t bits) {
  // Two's complement narrowing: the low bits reinterpreted as the signed type.
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, static_cast<Int>(bits));
  return std::string(buf, r.ptr);
}

template <typename Int>
std::optional<uint64_t> parse_int(std::string_view text) {
  text = strip_plus(text);
  Int v{};
  auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nullopt;
  if constexpr (sizeof(Int) == 4) {
    return uint64_t(static_cast<uint32_t>(v));
  } else {
    return static_cast<uint64_t>(v);
  }
}

template <typename Float>
std::string format_float(uint64_t bits) {
  const Float v = from_bits<Float>(bits);
  if (std::isnan(v)) return "nan(0x" + hex_digits(bits, sizeof(Float) * 2) + ")";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  if (v == 0) return std::signbit(v) ? "-0" : "0";
  char buf[64];
  // Shortest decimal that reads back to the same bits (to_chars without precision).
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// from_chars reports ERANGE both for overflow and for underflow to zero. The
// decimal exponent of the first significant digit tells them apart: an ERANGE
// with a negative one can only be an underflow.
bool decimal_is_tiny(std::string_view text) {
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  bool seen_nonzero = false, after_point = false;
  int64_t int_digits = 0, zeros_after_point = 0;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') { after_point = true; continue; }
    if (c < '0' || c > '9') break;
    if (!seen_nonzero) {
      if (c != '0') seen_nonzero = true;
      else if (after_point) ++zeros_after_point;
    }
    if (!after_point && seen_nonzero) ++int_digits;
  }
  if (!seen_nonzero) return true;
  // Decimal exponent of the first nonzero digit, before the "e" part.
  const int64_t lead = int_digits > 0 ? int_digits - 1 : -(zeros_after_point + 1);
  int64_t exp = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool neg = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) neg = text[i++] == '-';
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
      if (exp < 1'000'000'000) exp = exp * 10 + (text[i] - '0');  // saturate: sign is what matters
    if (neg) exp = -exp;
  }
  return lead + exp < 0;
}

template <typename Float>
std::optional<uint64_t> parse_float(std::string_view text) {
  text = strip_plus(text);
  // "nan(0x...)" is format_value's own NaN form: take the bits exactly.
  if (text.size() > 6 && text.substr(0, 4) == "nan(" && text.back() == ')') {
    auto inner = text.substr(4, text.size() - 5);
    if (inner.size() < 3 || inner[0] != '0' || (inner[1] != 'x' && inner[1] != 'X'))
      return std::nullopt;
    auto bits = parse_hex(sizeof(Float) == 4 ? DType::U32 : DType::U64, inner);
    if (!bits || !std::isnan(from_bits<Float>(*bits))) return std::nullopt;
    return bits;
  }
  if (text.empty()) return std::nullopt;
  Float v{};
  // Parsing straight into Float rounds the decimal once, to nearest binary32 for f32
  // (going through double would round twice).
  auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ptr != text.data() + text.size()) return std::nullopt;
  if (r.ec == std::errc::result_out_of_range) {
    if (!decimal_is_tiny(text)) return std::nullopt;  // too large for the type
    v = text[0] == '-' ? -Float(0) : Float(0);
  } else if (r.ec != std::errc()) {
    return std::nullopt;
  }
  return to_bits(v);
}

}  // namespace

// ---- names and widths -------------------------------------------------------

const char* dtype_name(DType t) {
  switch (t) {
    case DType::I32: return "i32";
    case DType::U32: return "u32";
    case DType::F32: return "f32";
    case DType::F64: return "f64";
    case DType::I64: return "i64";
    case DType::U64: return "u64";
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view name) {
  for (int i = 0; i < kDTypeCount; ++i) {
    auto t = static_cast<DType>(i);
    if (name == dtype_name(t)) return t;
  }
  return std::nullopt;
}

int dtype_bytes(DType t) {
  switch (t) {
    case DType::F64:
    case DType::I64:
    case DType::U64: return 8;
    default: return 4;
  }
}

uint64_t mask_to_width(DType t, uint64_t bits) {
  return dtype_is_64bit(t) ? bits : (bits & kLowWord);
}

// ---- hex form ---------------------------------------------------------------

std::string format_hex(DType t, uint64_t bits) {
  return "0x" + hex_digits(mask_to_width(t, bits), dtype_bytes(t) * 2);
}

std::optional<uint64_t> parse_hex(DType t, std::string_view text) {
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    text.remove_prefix(2);
  if (text.empty()) return std::nullopt;
  const uint64_t limit = dtype_is_64bit(t) ? ~uint64_t(0) : kLowWord;
  uint64_t v = 0;
  for (char c : text) {
    int d = hex_digit_value(c);
    if (d < 0) return std::nullopt;
    if (v > (limit >> 4)) return std::nullopt;  // the next digit would overflow the type
    v = (v << 4) | uint64_t(d);
  }
  return v;
}

// ---- human form -------------------------------------------------------------

std::string format_value(DType t, uint64_t bits) {
  switch (t) {
    case DType::I32: return format_int<int32_t>(bits);
    case DType::U32: return format_int<uint32_t>(bits);
    case DType::I64: return format_int<int64_t>(bits);
    case DType::U64: return format_int<uint64_t>(bits);
    case DType::F32: return format_float<float>(bits);
    case DType::F64: return format_float<double>(bits);
  }
  return format_hex(DType::U64, bits);
}

std::optional<uint64_t> parse_value(DType t, std::string_view text) {
  switch (t) {
    case DType::I32: return parse_int<int32_t>(text);
    case DType::U32: return parse_int<uint32_t>(text);
    case DType::I64: return parse_int<int64_t>(text);
    case DType::U64: return parse_int<uint64_t>(text);
    case DType::F32: return parse_float<float>(text);
    case DType::F64: return parse_float<double>(text);
  }
  return std::nullopt;
}

}  // namespace warpviz
