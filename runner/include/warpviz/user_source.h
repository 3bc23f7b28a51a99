// Reading a user's .cu file as text: which kernels it declares (names and
// default arguments only; the compiler knows the types), whether it has a
// main(), which local files it includes, and the rewrite that lets a host
// compiler read it (`<<< >>>`, `extern __shared__`), line for line.
#pragma once

#include <string>
#include <vector>

namespace warpviz::user {

struct KernelParamText {
  std::string name;          // "in"; "arg2" when the declaration names none
  std::string default_text;  // "32" for `int n = 32`; empty when none
};

struct KernelDecl {
  std::string name;
  bool is_template = false;
  int line = 0;  // 1-based line of the name
  std::vector<KernelParamText> params;
  size_t body_end = std::string::npos;  // just past the body's closing brace (in the scanned text)
  bool overloaded = false;              // another definition has the same name
};

struct UserSource {
  std::string path;  // as the user gave it
  std::string text;
  std::vector<KernelDecl> kernels;  // definitions, in file order, each name once
  bool has_main = false;
  bool declares_scenarios = false;  // ScenarioDeclaration, as the built-in kernel files
  std::vector<std::string> local_includes;  // `#include "x.h"` targets, resolved to paths that exist
};

// Never throws on odd text: what it cannot read it leaves out, and the
// compiler then says what is wrong.
UserSource scan_user_source(const std::string& path, const std::string& text);

// The text with comments, string and character literals blanked (newlines
// kept), so searches see code only.
std::string code_only(const std::string& text);

// Why the blocks of this file's kernels might see one another, so that the CPU
// emulator must run them one after another as it always did: the first word in
// device code (a __global__ or __device__ function's body, or a macro) that can
// share data between blocks or order their effects (atomics, fences, volatile,
// printf, assert, a grid group, clocks, inline asm), as "atomicAdd on line 12";
// "" when there is none, and the blocks may run on every core.
// `skip_atomic_functions`: leave CUDA's atomic functions out (atomicAdd ..
// atomicCAS), for a build whose compiler plugin judges each call
// (cuda_cpu/compiler_plugin/atomic_order.cpp).
std::string block_sharing_in_device_code(const std::string& text, bool skip_atomic_functions = false);

// `k<<<g, b, s>>>(args)` -> `::warpviz::user::kernel_call([&](const auto&... warpviz_args) {
// k(warpviz_args...); }) ->* ::warpviz::user::launch_config("k", g, b, s)(args)` (k called as a
// launch calls it: a template kernel deduces its arguments) and
// `extern __shared__ T name[];` -> `T* const name = ::warpviz::user::dynamic_shared<T>();`,
// keeping every newline where it was.
std::string rewrite_for_host(const std::string& text);
// The launches only: what nvcc needs (it reads extern __shared__ itself).
std::string rewrite_launches(const std::string& text);

// The text without a leading UTF-8 byte order mark: the compiler skips one
// only at the very start of a file, and warpviz writes `#line` before the text.
std::string without_byte_order_mark(const std::string& text);

// A file's whole text; empty when it cannot be read.
std::string read_text_file(const std::string& path);

// "my_sum" or "reduce<float,256>" -> the kernel's base name ("reduce").
std::string kernel_base_name(const std::string& kernel);

}  // namespace warpviz::user
