// The human-readable table of a trace: a header, then per step one row per lane.
#pragma once

#include <iosfwd>

#include "warpviz/trace.h"

namespace warpviz {

struct DumpOptions {
  bool hex = false;          // show values as hex bits instead of decimal
  bool active_only = false;  // hide lanes that did not execute the step
};

void dump_trace(const Trace& trace, std::ostream& out, const DumpOptions& options = {});

}  // namespace warpviz
