// nvcc's options on a user's command line (-I, -D, -U, -l, -L, -std, and the
// GPU-only ones taken and noted), read as nvcc reads them and passed to the
// compiler of the CPU build.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "warpviz/compiler_options.h"
#include "warpviz/user_file.h"

using namespace warpviz::user;
namespace fs = std::filesystem;

namespace {

// Reads every argument as an option; returns the first error, "" when all were taken.
std::string take_all(const std::vector<std::string>& args, CompilerOptions* options) {
  for (size_t at = 0; at < args.size(); ++at) {
    std::string error;
    const CompilerOption got = take_compiler_option(args, at, options, &error);
    if (got == CompilerOption::NotOne) return "not an option: " + args[at];
    if (got == CompilerOption::Bad) return error;
  }
  return "";
}

}  // namespace

TEST_CASE("compiler options: attached, separate and long forms, relative folders made absolute",
          "[user][options]") {
  CompilerOptions o;
  REQUIRE(take_all({"-Iinc", "-I", "/abs/one", "--include-path=two", "-DN=4", "-D", "FLAG", "--define-macro",
                    "M=x y", "-UOLD", "-lm", "-L", "libdir", "-std=c++17"},
                   &o) == "");
  REQUIRE(o.include_dirs.size() == 3);
  CHECK(o.include_dirs[0] == (fs::current_path() / "inc").lexically_normal().string());
  CHECK(o.include_dirs[1] == "/abs/one");
  CHECK(fs::path(o.include_dirs[2]).is_absolute());
  CHECK(o.defines == std::vector<std::string>{"N=4", "FLAG", "M=x y"});
  CHECK(o.undefines == std::vector<std::string>{"OLD"});
  CHECK(o.libraries == std::vector<std::string>{"m"});
  CHECK(o.library_dirs.size() == 1);
  CHECK(o.standard == "c++17");
  CHECK(o.noted.empty());

  // Each value is one compiler argument, never split by a shell.
  const std::vector<std::string> cc = compile_arguments(o);
  CHECK(std::find(cc.begin(), cc.end(), "-DM=x y") != cc.end());
  CHECK(std::find(cc.begin(), cc.end(), "-UOLD") != cc.end());
  const std::vector<std::string> ld = link_arguments(o);
  CHECK(std::find(ld.begin(), ld.end(), "-lm") != ld.end());
}

TEST_CASE("compiler options: GPU-only ones are taken and noted, the user is told which", "[user][options]") {
  CompilerOptions o;
  REQUIRE(take_all({"-O3", "-arch=sm_90", "-gencode", "arch=compute_90,code=sm_90", "-lineinfo",
                    "--use_fast_math", "-Xcompiler", "-Wall", "-m64"},
                   &o) == "");
  CHECK(o.include_dirs.empty());
  CHECK(o.defines.empty());
  REQUIRE(o.noted.size() == 7);
  const std::string line = noted_options_line(o);
  CHECK(line.find("-O3") != std::string::npos);
  CHECK(line.find("-arch") != std::string::npos);
  CHECK(line.find("-Xcompiler -Wall") != std::string::npos);
  CHECK(compile_arguments(o).empty());
}

TEST_CASE("compiler options: -Xcompiler -fopenmp builds the host code with OpenMP, the rest is noted",
          "[user][options]") {
  CompilerOptions o;
  REQUIRE(take_all({"-Xcompiler", "-Wall,-fopenmp", "--compiler-options=-O3"}, &o) == "");
  CHECK(o.openmp);
  const std::vector<std::string> cc = compile_arguments(o);
  CHECK(std::find(cc.begin(), cc.end(), "-fopenmp") != cc.end());
  const std::vector<std::string> ld = link_arguments(o);
  CHECK(std::find(ld.begin(), ld.end(), "-fopenmp") != ld.end());
  const std::string line = noted_options_line(o);
  CHECK(line.find("-Xcompiler -Wall") != std::string::npos);
  CHECK(line.find("-fopenmp") == std::string::npos);
  CompilerOptions plain;
  REQUIRE(take_all({"-Xcompiler", "-Wall"}, &plain) == "");
  CHECK_FALSE(plain.openmp);
  CHECK(compile_arguments(plain).empty());
}

TEST_CASE("compiler options: a missing or wrong value is an error that names the option", "[user][options]") {
  CompilerOptions o;
  CHECK(take_all({"-I"}, &o).find("-I needs a value") != std::string::npos);
  CHECK(take_all({"-D", "1BAD"}, &o).find("NAME or NAME=VALUE") != std::string::npos);
  CHECK(take_all({"-std=c++03"}, &o).find("c++17") != std::string::npos);
  CHECK(take_all({"-l/etc/passwd"}, &o).find("library's name") != std::string::npos);
  CHECK(take_all({"-m32"}, &o).find("64-bit") != std::string::npos);
  // Not nvcc's: left to the caller, which calls it unknown.
  CHECK(take_all({"--grid"}, &o) == "not an option: --grid");
  CHECK(take_all({"file.cu"}, &o) == "not an option: file.cu");
}

TEST_CASE("compiler options: the toolkit's own libraries are not linked", "[user][options]") {
  CHECK(is_cuda_toolkit_library("cudart"));
  CHECK(is_cuda_toolkit_library("cublas"));
  CHECK_FALSE(is_cuda_toolkit_library("m"));
  CHECK_FALSE(is_cuda_toolkit_library("gomp"));
}

TEST_CASE("compiler options reach the compile: -I finds a header, -D and -U change the program",
          "[user][options][run]") {
  const std::string dir = WARPVIZ_TEST_USER_FILES;
  FileRequest request;
  request.path = dir + "/compiler_options.cu";

  const FileRun without = run_user_file(request);
  CHECK(without.outcome == FileOutcome::CompileError);  // answer.h is not beside the file

  REQUIRE(take_all({"-I", dir + "/options_include", "-DEXTRA=2", "-UDROPPED"}, &request.compiler) == "");
  const FileRun with = run_user_file(request);
  INFO(with.message << with.compiler_output);
  REQUIRE(with.outcome == FileOutcome::Ok);
  CHECK(with.program_output.find("answer 42") != std::string::npos);
  // -U comes before the file's own #define, as on nvcc's command line: the file's define stands.
  CHECK(with.program_output.find("DROPPED still defined") != std::string::npos);

  // Another -D is another program, not the cached one.
  request.compiler.defines = {"EXTRA=5"};
  const FileRun other = run_user_file(request);
  REQUIRE(other.outcome == FileOutcome::Ok);
  CHECK(other.program_output.find("answer 45") != std::string::npos);
}
