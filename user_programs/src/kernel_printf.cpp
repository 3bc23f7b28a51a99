// printf for a user's file (warpviz/kernel_printf.h): the host's goes to the C
// library; a kernel's is formatted here and held by the emulator per lane.
#include "warpviz/kernel_printf.h"

#include <cstdarg>
#include <cstring>
#include <string>

#include "warpviz/warp_scheduler.h"

#undef printf

namespace {

// The arguments a format consumes: each conversion, and each `*` width or
// precision; `%%` none.
int arguments_parsed(const char* format) {
  int count = 0;
  for (const char* p = format; *p; ++p) {
    if (*p != '%') continue;
    ++p;
    if (*p == '%') continue;
    for (; *p && !std::strchr("diouxXeEfFgGaAcspn", *p); ++p)
      if (*p == '*') ++count;
    if (!*p) break;
    ++count;
  }
  return count;
}

}  // namespace

int warpviz_printf(const char* format, ...) {
  namespace emu = warpviz::emu;
  va_list args;
  va_start(args, format);
  if (!emu::in_emulated_thread()) {
    const int n = std::vprintf(format, args);
    va_end(args);
    return n;
  }
  if (!format) {
    va_end(args);
    return -1;
  }
  va_list again;
  va_copy(again, args);
  char small[512];
  const int n = std::vsnprintf(small, sizeof small, format, args);
  va_end(args);
  if (n < 0) {
    va_end(again);
    return -2;  // the Programming Guide's "internal error"
  }
  if (size_t(n) < sizeof small) {
    emu::write_lane_output(std::string_view(small, size_t(n)));
  } else {
    std::string text(size_t(n) + 1, '\0');
    std::vsnprintf(text.data(), text.size(), format, again);
    text.resize(size_t(n));
    emu::write_lane_output(text);
  }
  va_end(again);
  return arguments_parsed(format);
}
