#include "warpviz/compiler_options.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <string_view>

namespace warpviz::user {

namespace fs = std::filesystem;

namespace {

enum class Kind { IncludeDir, Define, Undefine, Library, LibraryDir, Standard, NotedWithValue, Noted };

struct Spelling {
  std::string_view short_name, long_name;
  Kind kind;
};

// nvcc's own names (nvcc --help). A short name takes its value attached or as
// the next argument; a long one separate or after '='.
constexpr std::array kSpellings{
    Spelling{"-I", "--include-path", Kind::IncludeDir},
    Spelling{"-D", "--define-macro", Kind::Define},
    Spelling{"-U", "--undefine-macro", Kind::Undefine},
    Spelling{"-l", "--library", Kind::Library},
    Spelling{"-L", "--library-path", Kind::LibraryDir},
    Spelling{"-std", "--std", Kind::Standard},
    // What chooses GPU code, its speed or the host compiler's flags.
    Spelling{"-arch", "--gpu-architecture", Kind::NotedWithValue},
    Spelling{"-code", "--gpu-code", Kind::NotedWithValue},
    Spelling{"-gencode", "--generate-code", Kind::NotedWithValue},
    Spelling{"-Xcompiler", "--compiler-options", Kind::NotedWithValue},
    Spelling{"-Xptxas", "--ptxas-options", Kind::NotedWithValue},
    Spelling{"-Xlinker", "--linker-options", Kind::NotedWithValue},
    Spelling{"-Xnvlink", "--nvlink-options", Kind::NotedWithValue},
    Spelling{"-rdc", "--relocatable-device-code", Kind::NotedWithValue},
    Spelling{"-cudart", "--cudart", Kind::NotedWithValue},
    Spelling{"-m", "--machine", Kind::NotedWithValue},
    Spelling{"-ftz", "--ftz", Kind::NotedWithValue},
    Spelling{"-prec-div", "--prec-div", Kind::NotedWithValue},
    Spelling{"-prec-sqrt", "--prec-sqrt", Kind::NotedWithValue},
    Spelling{"-fmad", "--fmad", Kind::NotedWithValue},
    Spelling{"-maxrregcount", "--maxrregcount", Kind::NotedWithValue},
    Spelling{"-x", "--x", Kind::NotedWithValue},
};

// Flags without a value, taken and noted.
constexpr std::array<std::string_view, 22> kNotedFlags{
    "-lineinfo", "--generate-line-info", "-G", "--device-debug", "-g", "--debug",
    "-use_fast_math", "--use_fast_math", "--expt-relaxed-constexpr", "-expt-relaxed-constexpr",
    "--expt-extended-lambda", "-expt-extended-lambda", "--extended-lambda", "-extended-lambda",
    "-w", "--disable-warnings", "-Wno-deprecated-gpu-targets", "-Wno-deprecated-declarations",
    "-res-usage", "--resource-usage", "-src-in-ptx", "--source-in-ptx",
};

constexpr std::array<std::string_view, 4> kStandards{"c++11", "c++14", "c++17", "c++20"};

bool is_optimisation_level(const std::string& a) {
  // -O, -O0 ... -O3, --optimize=N; -Os is not nvcc's.
  if (a == "-O") return true;
  if (a.size() == 3 && a.compare(0, 2, "-O") == 0 && a[2] >= '0' && a[2] <= '3') return true;
  return a.rfind("--optimize=", 0) == 0 || a.rfind("-dopt=", 0) == 0 || a.rfind("--dopt=", 0) == 0;
}

std::vector<std::string> split_list(const std::string& value) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= value.size()) {
    const size_t comma = value.find(',', start);
    const std::string part = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!part.empty()) out.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

bool valid_macro_name(std::string_view name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

CompilerOption bad(std::string* error, const std::string& text) {
  if (error) *error = text;
  return CompilerOption::Bad;
}

CompilerOption apply(Kind kind, const std::string& option, const std::string& value, CompilerOptions* o,
                     std::string* error) {
  std::error_code ec;
  switch (kind) {
    case Kind::IncludeDir:
    case Kind::LibraryDir:
      for (const std::string& dir : split_list(value)) {
        const fs::path absolute = fs::absolute(dir, ec);
        if (ec) return bad(error, option + " " + dir + ": " + ec.message());
        (kind == Kind::IncludeDir ? o->include_dirs : o->library_dirs)
            .push_back(absolute.lexically_normal().string());
      }
      return CompilerOption::Taken;
    case Kind::Define: {
      const std::string name = value.substr(0, value.find('='));
      if (!valid_macro_name(name)) return bad(error, option + " " + value + ": expected NAME or NAME=VALUE");
      o->defines.push_back(value);
      return CompilerOption::Taken;
    }
    case Kind::Undefine:
      if (!valid_macro_name(value)) return bad(error, option + " " + value + ": expected a macro's NAME");
      o->undefines.push_back(value);
      return CompilerOption::Taken;
    case Kind::Library:
      for (const std::string& lib : split_list(value)) {
        if (lib.find('/') != std::string::npos || lib.front() == '-')
          return bad(error, option + " " + lib + ": expected a library's name (-lm, -lgomp)");
        o->libraries.push_back(lib);
      }
      return CompilerOption::Taken;
    case Kind::Standard:
      if (std::find(kStandards.begin(), kStandards.end(), value) == kStandards.end())
        return bad(error, option + "=" + value + ": nvcc takes c++11, c++14, c++17 or c++20");
      o->standard = value;
      return CompilerOption::Taken;
    case Kind::NotedWithValue:
      if (option == "-Xcompiler" || option == "--compiler-options") {
        // The host compiler's flags: -fopenmp changes what host code does (its
        // pragmas run on every core, omp_* links), so it is passed on; the
        // rest choose warnings or speed.
        std::vector<std::string> rest;
        for (const std::string& flag : split_list(value)) {
          if (flag == "-fopenmp") o->openmp = true;
          else rest.push_back(flag);
        }
        std::string kept;
        for (const std::string& flag : rest) kept += (kept.empty() ? "" : ",") + flag;
        if (!kept.empty()) o->noted.push_back(option + " " + kept);
        return CompilerOption::Taken;
      }
      o->noted.push_back(option + " " + value);
      return CompilerOption::Taken;
    case Kind::Noted:
      o->noted.push_back(option);
      return CompilerOption::Taken;
  }
  return CompilerOption::NotOne;
}

}  // namespace

CompilerOption take_compiler_option(const std::vector<std::string>& args, size_t& at, CompilerOptions* options,
                                    std::string* error) {
  const std::string& a = args[at];
  if (a.size() < 2 || a[0] != '-') return CompilerOption::NotOne;
  if (is_optimisation_level(a) ||
      std::find(kNotedFlags.begin(), kNotedFlags.end(), a) != kNotedFlags.end()) {
    options->noted.push_back(a);
    return CompilerOption::Taken;
  }
  const auto next_value = [&](const std::string& name, std::string* value) {
    if (at + 1 >= args.size()) return false;
    *value = args[++at];
    (void)name;
    return true;
  };
  for (const Spelling& s : kSpellings) {
    std::string value;
    const std::string short_name(s.short_name), long_name(s.long_name);
    if (a == short_name || a == long_name) {
      if (!next_value(a, &value)) return bad(error, a + " needs a value");
    } else if (a.rfind(long_name + "=", 0) == 0) {
      value = a.substr(long_name.size() + 1);
    } else if (a.rfind(short_name + "=", 0) == 0 && short_name.size() > 2) {
      value = a.substr(short_name.size() + 1);  // -std=c++17, -arch=sm_90, -rdc=true
    } else if (short_name.size() == 2 && a.rfind(short_name, 0) == 0 && a.size() > 2 &&
               s.kind != Kind::NotedWithValue) {
      value = a.substr(2);  // -Idir, -DNAME, -lm
    } else if (s.short_name == "-m" && (a == "-m64" || a == "-m32")) {
      value = a.substr(2);
    } else {
      continue;
    }
    if (value.empty()) return bad(error, a + " needs a value");
    if (s.short_name == "-m") {
      if (value != "64") return bad(error, a + ": the emulated sm_90 device runs 64-bit programs only");
      options->noted.push_back(a == "-m64" ? a : "-m64");
      return CompilerOption::Taken;
    }
    return apply(s.kind, s.kind == Kind::Standard ? std::string(s.short_name) : a.substr(0, a.find('=')), value,
                 options, error);
  }
  return CompilerOption::NotOne;
}

bool is_cuda_toolkit_library(const std::string& name) {
  static constexpr std::array<std::string_view, 14> kToolkit{
      "cudart", "cudart_static", "cuda", "cublas", "cublasLt", "curand", "cufft", "cusparse", "cusolver",
      "nvToolsExt", "nvtx3interop", "cudadevrt", "nvrtc", "cupti"};
  return std::find(kToolkit.begin(), kToolkit.end(), name) != kToolkit.end();
}

std::string noted_options_line(const CompilerOptions& options) {
  if (options.noted.empty() && options.standard.empty()) return "";
  std::string line = "noted without effect on the CPU emulator:";
  const char* sep = " ";
  for (const std::string& n : options.noted) {
    line += sep + n;
    sep = ", ";
  }
  if (!options.standard.empty() && options.standard != "c++20") {
    line += std::string(sep) + "-std=" + options.standard + " (warpviz compiles as C++20, which takes C++" +
            options.standard.substr(3) + " code)";
  }
  return line;
}

std::vector<std::string> compile_arguments(const CompilerOptions& options) {
  std::vector<std::string> out;
  for (const std::string& d : options.include_dirs) out.push_back("-I" + d);
  for (const std::string& d : options.defines) out.push_back("-D" + d);
  for (const std::string& u : options.undefines) out.push_back("-U" + u);
  if (options.openmp) out.push_back("-fopenmp");
  return out;
}

std::vector<std::string> link_arguments(const CompilerOptions& options) {
  std::vector<std::string> out;
  for (const std::string& d : options.library_dirs) out.push_back("-L" + d);
  for (const std::string& l : options.libraries)
    if (!is_cuda_toolkit_library(l)) out.push_back("-l" + l);
  if (options.openmp) out.push_back("-fopenmp");
  return out;
}

}  // namespace warpviz::user
