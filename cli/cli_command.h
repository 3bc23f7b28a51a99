// warpviz-cli: one function per command; arguments after the command name.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "warpviz/scenario.h"
#include "warpviz/trace.h"

namespace warpviz::cli {

// Bad command-line usage: printed with a hint, exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using Args = std::vector<std::string>;

int run_list(const Args& args);
int run_run(const Args& args);
int run_dump(const Args& args);
int run_diff(const Args& args);
int run_bench(const Args& args);
int run_profile(const Args& args);
int run_new_file(const Args& args);

// A user's own kernel file (cmd_file.cpp): FILE.cu (or .cuh).
bool is_user_file(const std::string& arg);
// What nvcc takes as a source: that, or host C++ (.cpp, .cc, .cxx, .c).
bool is_source_file(const std::string& arg);
int run_run_file(const Args& args);
int run_list_file(const std::string& path);
int bench_reload(const Args& args);
// warpviz-cli bench corpus (bench_corpus.cpp): the corpus's programs, timed on the CPU.
int bench_corpus(const Args& args);

// A trace's outputs and shared-memory steps, as `run` prints them.
void print_trace_summary(const Trace& trace);

// A "warning:" line on stderr for each step whose member mask names lanes that
// never arrived (warpviz/mask_check.h), the first few and a count of the rest;
// `where` ("launch 1: ") goes before each. The exit status stays as it was:
// the run itself worked, it is the kernel that is wrong.
void print_mask_warnings(const Trace& trace, const std::string& where = "");

// "1 step", "2 steps": a count with its word, singular for one. Every count
// the CLI prints goes through it (`many` where the plural is not word + "s").
std::string counted(uint64_t n, const std::string& one, const std::string& many = "");

// True when args hold -h or --help.
bool wants_help(const Args& args);

// Pops the value of an option that takes one ("--input X"); throws UsageError when missing.
std::string option_value(const Args& args, size_t& i);

// The options every command that runs a scenario takes: --set NAME=VALUE
// (repeatable) and --input SPEC. True when args[i] was one (i then points at
// its value); throws UsageError on a --set without NAME=.
bool take_request_option(const Args& args, size_t& i, ScenarioRequest& request);

// The value of --max-bytes N (4096, 512M, 2G; see parse_byte_count), the most
// bytes a trace file may have; throws UsageError on anything else.
uint64_t max_bytes_value(const Args& args, size_t& i);
// One line for the commands' --help.
constexpr const char* kMaxBytesHelp =
    "  --max-bytes N  read traces of at most N bytes (e.g. 4G; default 1G, or $WARPVIZ_MAX_TRACE_BYTES)\n"
    "  A trace file of - is standard input.\n";

}  // namespace warpviz::cli
