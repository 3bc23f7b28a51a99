// What both backends' Session share: the resolved scenario's parameters and
// the trace and record filter a run writes into.
#pragma once

#include <string>

#include "warpviz/scenario.h"
#include "warpviz/trace.h"
#include "warpviz/warp_scheduler.h"

namespace warpviz {

class SessionBase {
 public:
  SessionBase(const ResolvedScenario& scenario, const emu::RecordFilter& filter, Trace& trace)
      : scenario_(scenario), filter_(filter), trace_(trace) {}

  DType dtype() const { return scenario_.dtype; }
  const std::string& param(const std::string& name) const { return scenario_.params.get(name); }
  int64_t param_int(const std::string& name) const { return scenario_.params.get_int(name); }
  uint32_t param_mask(const std::string& name) const { return scenario_.params.get_mask(name); }

 protected:
  const ResolvedScenario& scenario_;
  // A copy: callers pass temporaries (launch_filter(0) in a user's program),
  // which a reference outlived (ASan: stack-use-after-scope).
  const emu::RecordFilter filter_;
  Trace& trace_;
};

}  // namespace warpviz
