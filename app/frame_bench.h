// --bench-frames N: the frame-time benchmark. Renders N frames of the
// animation playing (every panel open, vsync off, a fixed 1/60 s step so
// every machine draws the same frames) and prints the wall time, the time
// spent building the UI and submitting it, the app thread's CPU time (the
// goal's figure) and the CPU time of the rest of the process (under Mesa's
// llvmpipe, the rasteriser threads: a GPU's work on a real driver).
#pragma once

#include "frame_target.h"

namespace warpviz::app {

// Prints the figures to stdout; returns main's exit status.
int run_bench(FrameContext& frame, int frames);

}  // namespace warpviz::app
