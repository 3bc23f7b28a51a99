// The trace the app opens with, from the command line: a lesson's first
// slide, a .cu file, a trace file or a scenario (the last one run, or
// warp_sum). Started before the window opens, so that a file loads and a
// kernel runs while GLFW and the GL context start, and finished once it is
// open; bad input is an argument error (exit 2) with its message on stderr.
#pragma once

#include <future>

#include "command_line.h"
#include "warpviz/trace.h"

namespace warpviz::app {

class AppView;

// A .cu file runs on its session's thread; a trace file loads on a thread of
// its own (`pending_file`); a scenario or a lesson's slide runs here. False,
// with the message printed, for a bad one.
bool start_first_trace(AppView& app, const Options& opt, std::future<Trace>* pending_file);

// Once the window is open: the trace file shown (one that does not load opens
// the window on the error and File > Open, with *file_failed, unless the run
// has nothing to show: then 2), a .cu file's run waited for by an offscreen
// run, and --step applied. Returns main's exit status so far: 0 or 2.
int finish_first_trace(AppView& app, const Options& opt, std::future<Trace>& pending_file, bool* file_failed);

}  // namespace warpviz::app
