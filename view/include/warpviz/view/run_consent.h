// Documents do not run code. A .cu file compiles and runs a program of the
// user's account, so only the user's own choice runs one: a file named on the
// command line or picked in File > Open. A lesson, File > Open Recent and a
// dropped file ask first, naming the files; the answer "run" is remembered by
// a content hash (XXH3-64 of the lesson's text and each .cu file's bytes, or
// of one .cu file's path and bytes) in settings.json's trusted_runs, so an
// edited file asks again. Saving a trace: the name proposed, and which files
// a trace may replace without asking. No ImGui: tested headless.
#pragma once

#include <string>
#include <vector>

#include "warpviz/view/lesson.h"
#include "warpviz/view/settings.h"

namespace warpviz::view {

// --- Running ------------------------------------------------------------------

// The .cu files a lesson's slides would compile and run: `cu =` slides and
// `trace =` slides naming a .cu file, absolute and normalised (a path
// outside the lesson's folder shows as itself), each once, in slide order.
std::vector<std::string> lesson_cuda_files(const Lesson& lesson);

// XXH3-64, as 16 hex digits, of the lesson's text followed by each of
// lesson_cuda_files' paths and bytes (a missing file hashes as missing).
std::string lesson_run_hash(const Lesson& lesson, const std::string& lesson_text);
// The same for one .cu file: its absolute path and its bytes.
std::string file_run_hash(const std::string& path);

bool is_trusted(const AppSettings& settings, const std::string& hash);
// Remembers `hash` (and, for the user reading settings.json, what it is of),
// keeping the newest kMaxTrustedRuns.
void trust_run(AppSettings& settings, const std::string& hash, const std::string& what);

// The files to name before a lesson may run them: empty when it runs none or
// the user said "run" to this very content before.
std::vector<std::string> runs_needing_consent(const Lesson& lesson, const std::string& lesson_text,
                                              const AppSettings& settings);
// Whether opening `path` from Open Recent or a drop must ask first: a .cu
// file that did not run with these bytes before.
bool file_needs_consent(const std::string& path, const AppSettings& settings);

// --- Saving -------------------------------------------------------------------

// What Save proposes for the file shown: a trace file keeps its name; a .cu
// file (or anything else) becomes NAME.wvt beside it, so Enter never writes a
// trace over a source; nothing shown (a scenario) gives FALLBACK.wvt.
std::string proposed_save_name(const std::string& open_path, const std::string& fallback);
// True only for a path that does not exist or holds a warpviz trace (the
// binary magic bytes, or JSON whose "format" is "warpviz-trace"): anything
// else is replaced only after the user says so.
bool may_write_trace_over(const std::string& path);

}  // namespace warpviz::view
