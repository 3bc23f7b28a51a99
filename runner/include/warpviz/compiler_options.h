// The nvcc options users put on their command line, read the way nvcc reads
// them, for `warpviz-cli run`, `warpviz` and lessons alike:
//   -I DIR, -D NAME[=VALUE], -U NAME, -std=c++NN, -l LIB, -L DIR (and their
//   long forms: --include-path, --define-macro, --undefine-macro, --std,
//   --library, --library-path), each attached (-Idir), separate (-I dir) or
//   with '=' (--include-path=dir);
//   options that choose GPU code or its speed (-O3, -arch=sm_90, -gencode ...,
//   -lineinfo, -G, -Xcompiler ..., --use_fast_math, -rdc=true, ...) are taken
//   and noted: they change nothing on the CPU emulator; but -Xcompiler
//   -fopenmp builds the host code with OpenMP, as it does under nvcc.
// Each value reaches the compiler as one argv entry, never through a shell.
#pragma once

#include <string>
#include <vector>

namespace warpviz::user {

struct CompilerOptions {
  std::vector<std::string> include_dirs;  // absolute, in the order given
  std::vector<std::string> defines;       // NAME or NAME=VALUE
  std::vector<std::string> undefines;     // NAME
  std::vector<std::string> libraries;     // -l NAME, for the link
  std::vector<std::string> library_dirs;  // absolute
  std::string standard;                   // "c++17" as asked; "" when not given
  bool openmp = false;                    // -Xcompiler -fopenmp: host code built with OpenMP
  // Taken without effect, as the user wrote them ("-O3", "-arch=sm_90").
  std::vector<std::string> noted;

  bool empty() const {
    return include_dirs.empty() && defines.empty() && undefines.empty() && libraries.empty() &&
           library_dirs.empty() && standard.empty() && noted.empty() && !openmp;
  }
};

enum class CompilerOption {
  NotOne,  // not an nvcc option warpviz knows: the caller's own (or unknown)
  Taken,   // applied; `at` is on its last argument
  Bad,     // one, but it lacks its value or the value is wrong: `error` says why
};

// Reads args[at] (and its value from args[at + 1] when it is separate).
// Relative directories are made absolute against the current directory.
CompilerOption take_compiler_option(const std::vector<std::string>& args, size_t& at, CompilerOptions* options,
                                    std::string* error);

// The libraries of the CUDA toolkit that the CPU emulator provides itself (or
// has no use for): -lcudart, -lcublas, ... are not passed to the linker.
bool is_cuda_toolkit_library(const std::string& name);

// One line for the user: "noted without effect on the CPU emulator: -O3, -arch=sm_90".
std::string noted_options_line(const CompilerOptions& options);

// The compiler's arguments for the options (-I, -D, -U) and the linker's (-L, -l).
std::vector<std::string> compile_arguments(const CompilerOptions& options);
std::vector<std::string> link_arguments(const CompilerOptions& options);

}  // namespace warpviz::user
