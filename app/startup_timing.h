// Start-up timing: with WARPVIZ_STARTUP_TIMES set, the app prints to stderr
// how long after the kernel started the process (exec, not main) each
// start-up phase ended. The "open a trace to first frame" goal is measured
// with it, so the time to load the program and its libraries counts too.
#pragma once

namespace warpviz::app {

// "startup:   123.4 ms  WHAT" when WARPVIZ_STARTUP_TIMES is set; nothing
// otherwise. The first call is taken as main's start; the time from exec to
// it comes from /proc/self/stat (10 ms resolution; 0 where /proc is missing).
void startup_phase(const char* what);

}  // namespace warpviz::app
