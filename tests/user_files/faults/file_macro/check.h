// Included from beside its file: __FILE__ is "check.h" as nvcc names it when
// the .cu is named without a folder, "file_macro/check.h" when with one.
#pragma once
inline const char* where_check_is() { return __FILE__; }
