// warpviz: NVTX's C++ API, its common part: scoped ranges and marks that do
// nothing, as no profiler watches a CPU run.
#pragma once
#include <string>

#include "nvToolsExt.h"

namespace nvtx3 {
inline namespace v1 {
struct domain {
  struct global {};
};
class message {
 public:
  message(const char*) {}
  message(const std::string&) {}
};
struct rgb {
  rgb(uint8_t, uint8_t, uint8_t) {}
};
struct argb {
  argb(uint8_t, uint8_t, uint8_t, uint8_t) {}
};
struct color {
  template <typename C>
  color(C) {}
};
struct category {
  explicit category(uint32_t) {}
};
class event_attributes {
 public:
  template <typename... Args>
  explicit event_attributes(Args&&...) {}
};
template <typename D = domain::global>
class scoped_range_in {
 public:
  template <typename... Args>
  explicit scoped_range_in(Args&&...) {}
  scoped_range_in(const scoped_range_in&) = delete;
  scoped_range_in& operator=(const scoped_range_in&) = delete;
};
using scoped_range = scoped_range_in<domain::global>;
template <typename D = domain::global>
class unique_range_in {
 public:
  template <typename... Args>
  explicit unique_range_in(Args&&...) {}
};
using unique_range = unique_range_in<domain::global>;
template <typename D = domain::global, typename... Args>
inline void mark_in(Args&&...) {}
template <typename... Args>
inline void mark(Args&&...) {}
}  // namespace v1
}  // namespace nvtx3

#define NVTX3_FUNC_RANGE()
#define NVTX3_FUNC_RANGE_IN(D)
