// Value types of trace values. Values are stored as exact bits (uint64_t) beside
// their DType, so a NaN payload or a -0.0 survives every round trip.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace warpviz {

enum class DType : uint8_t { I32 = 0, U32 = 1, F32 = 2, F64 = 3, I64 = 4, U64 = 5 };

constexpr int kDTypeCount = 6;

const char* dtype_name(DType t);                       // "i32", "u32", "f32", "f64", "i64", "u64"
std::optional<DType> parse_dtype(std::string_view name);
int dtype_bytes(DType t);                               // 4 or 8
inline bool dtype_is_64bit(DType t) { return dtype_bytes(t) == 8; }
inline bool dtype_is_float(DType t) { return t == DType::F32 || t == DType::F64; }

// Bits kept in a uint64_t: 32-bit types use the low word, the high word is zero.
uint64_t mask_to_width(DType t, uint64_t bits);

// "0x" + 8 lowercase hex digits for 32-bit types, 16 for 64-bit ones.
std::string format_hex(DType t, uint64_t bits);
// Parses "0x..." (or bare hex); nullopt when malformed or too wide for the type.
std::optional<uint64_t> parse_hex(DType t, std::string_view text);

// Human form: decimal for integers, shortest round-trip decimal for floats,
// "nan(0x7fffffff)" for NaNs so the payload stays visible, "-0" for negative zero.
std::string format_value(DType t, uint64_t bits);
// Parses a decimal (or "nan", "inf", "-inf") into the type's bits; nullopt when it
// does not fit the type.
std::optional<uint64_t> parse_value(DType t, std::string_view text);

}  // namespace warpviz
