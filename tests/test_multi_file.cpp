// Programs of several files (nvcc main.cpp k.cu), the program's argv[0],
// --launches, and nvcc's compile model on one pass (__CUDA_ARCH__ by place,
// __CUDACC__ in .cu units only, template launches).
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "temp_dir.h"
#include "warpviz/nvcc_compile_model.h"
#include "warpviz/user_file.h"
#include "warpviz/user_source.h"

using namespace warpviz;
using namespace warpviz::user;
namespace fs = std::filesystem;

namespace {

std::string fixture(const std::string& name) { return std::string(WARPVIZ_TEST_USER_FILES) + "/multi/" + name; }

FileRun run_program(const std::vector<std::string>& names, FileRequest request = {}) {
  request.path = fixture(names.front());
  for (size_t i = 1; i < names.size(); ++i) request.more_paths.push_back(fixture(names[i]));
  return run_user_file(request);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("several files: a .cpp main, a .cu of kernels and a .cpp reference make one program", "[user][multi]") {
  // Prepare: sum_main.cpp calls square.cu's host function (two launches) and
  // sum_gold.cpp's reference. Run.
  FileRequest request;
  request.program_args = {"x", "y"};
  const FileRun run = run_program({"sum_main.cpp", "square.cu", "sum_gold.cpp"}, request);
  // Verify: sum of i*i + 1 over i < 32 is 31*32*63/6 + 32 = 10448, both on the
  // emulated device and in the reference.
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  CHECK(contains(run.program_output, "total 10448, gold 10448"));
  REQUIRE(run.launches.size() == 2);
  CHECK(run.launches[0].meta.params.at("kernel") == "square");
  CHECK(run.launches[1].meta.params.at("kernel") == "add_one");
  // A launch's source is the file that defines its kernel, not the first file.
  CHECK(fs::path(run.launches[0].meta.source_path).filename() == "square.cu");
  // Every unit is watched, so live reload sees a save of any of them.
  for (const char* name : {"sum_main.cpp", "square.cu", "sum_gold.cpp"})
    CHECK(std::find(run.watched_files.begin(), run.watched_files.end(),
                    fs::path(fixture(name)).lexically_normal().string()) != run.watched_files.end());
}

TEST_CASE("several files: a .cpp file's own umin is no redefinition of CUDA's device umin", "[user][multi]") {
  // mergeSort's host file defines `uint umin(uint, uint)`: CUDA's headers
  // never reach a .cpp file, so both exist, each where it belongs.
  const FileRun run = run_program({"own_umin_main.cu", "own_umin.cpp"});
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  CHECK(contains(run.program_output, "host 105 device 3 4"));
}

TEST_CASE("a launch inside a #define, split over continued lines, launches its kernel", "[user][multi]") {
  const FileRun run = run_program({"macro_launch.cu"});
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  CHECK(contains(run.program_output, "filled 40 41 42 43"));
  REQUIRE(run.launches.size() == 1);
}

TEST_CASE("several files: argv[0] is ./ and the first file's stem, not a path in the cache", "[user][multi]") {
  // As a shell in the program's folder starts it: the H200 references of
  // cuda-samples print "./scan Starting..." (tests/corpus/reference/scan.out).
  FileRequest request;
  request.program_args = {"x", "y"};
  const FileRun run = run_program({"sum_main.cpp", "square.cu", "sum_gold.cpp"}, request);
  REQUIRE(run.ok());
  CHECK(contains(run.program_output, "program ./sum_main, 2 argument(s)\n"));
  // nvcc -o sums: the name chosen.
  request.program_name = "sums";
  const FileRun named = run_program({"sum_main.cpp", "square.cu", "sum_gold.cpp"}, request);
  REQUIRE(named.ok());
  CHECK(contains(named.program_output, "program ./sums, 2 argument(s)\n"));
}

TEST_CASE("several files: the second run of the same files comes from the cache", "[user][multi]") {
  const FileRun first = run_program({"sum_main.cpp", "square.cu", "sum_gold.cpp"});
  const FileRun again = run_program({"sum_main.cpp", "square.cu", "sum_gold.cpp"});
  REQUIRE(first.ok());
  REQUIRE(again.ok());
  CHECK(again.timing.cached);
  // Another set of files is another program: sum_gold.cpp left out fails to link.
  const FileRun fewer = run_program({"sum_main.cpp", "square.cu"});
  CHECK(fewer.outcome == FileOutcome::CompileError);
  CHECK(contains(fewer.compiler_output, "gold_total"));
  CHECK(contains(fewer.message, "the link failed: "));
  CHECK(contains(fewer.message, "undefined reference"));
}

TEST_CASE("several files: a compile error names its own file and line", "[user][multi]") {
  const FileRun run = run_program({"broken_main.cpp", "broken_kernel.cu"});
  REQUIRE(run.outcome == FileOutcome::CompileError);
  CHECK(contains(run.message, "broken_kernel.cu:4:"));
  CHECK(contains(run.message, "not_declared_anywhere"));
}

TEST_CASE("several files: a __device__ function defined in two files is a link error that says why",
          "[user][multi]") {
  // nvcc without -rdc compiles each .cu file's device code on its own, so
  // this links there; one program on the CPU cannot hold both.
  warpviz::testing_support::TempDir dir("dup");
  dir.write("a.cu", "__device__ int twice(int x) { return 2 * x; }\n"
                    "__global__ void a(int* p) { p[0] = twice(1); }\nvoid run_a(int* p) { a<<<1, 1>>>(p); }\n");
  dir.write("b.cu", "__device__ int twice(int x) { return x + x; }\nvoid run_a(int*);\n"
                    "int main() { int* p; cudaMallocManaged(&p, 4); run_a(p); return 0; }\n");
  FileRequest request;
  request.path = dir.file("b.cu");
  request.more_paths = {dir.file("a.cu")};
  const FileRun run = run_user_file(request);
  REQUIRE(run.outcome == FileOutcome::CompileError);
  CHECK(contains(run.message, "multiple definition"));
  CHECK(contains(run.message, dir.file("a.cu")));  // the file, not an object in the cache
  CHECK(contains(run.message, "static"));
}

TEST_CASE("several files: one of them has main(), and no file is given twice", "[user][multi]") {
  const FileRun none = run_program({"square.cu", "sum_gold.cpp"});
  CHECK(none.outcome == FileOutcome::RequestError);
  CHECK(contains(none.message, "main()"));
  const FileRun twice = run_program({"sum_main.cpp", "square.cu", "square.cu"});
  CHECK(twice.outcome == FileOutcome::RequestError);
  CHECK(contains(twice.message, "given twice"));
}

TEST_CASE("max_launches 1 (--launches 1) stops a program of two launches after the first", "[user][multi]") {
  FileRequest request;
  request.max_launches = 1;
  const FileRun run = run_program({"sum_main.cpp", "square.cu", "sum_gold.cpp"}, request);
  REQUIRE(run.ok());
  CHECK(run.exit_code == 0);
  CHECK(run.stopped_at_launch_limit);
  REQUIRE(run.launches.size() == 1);
  CHECK(run.launches[0].meta.params.at("kernel") == "square");
  // It stopped inside square_then_add_one: main's last line never printed.
  CHECK(contains(run.program_output, "program ./sum_main"));
  CHECK_FALSE(contains(run.program_output, "total"));

  // A file of kernels only has no program to stop.
  FileRequest kernels_only;
  kernels_only.path = std::string(WARPVIZ_TEST_USER_FILES) + "/my_sum.cu";
  kernels_only.max_launches = 1;
  const FileRun refused = run_user_file(kernels_only);
  CHECK(refused.outcome == FileOutcome::RequestError);
  CHECK(contains(refused.message, "kernels only"));

  // A limit above the program's launches changes nothing.
  request.max_launches = 5;
  const FileRun all = run_program({"sum_main.cpp", "square.cu", "sum_gold.cpp"}, request);
  REQUIRE(all.ok());
  CHECK_FALSE(all.stopped_at_launch_limit);
  CHECK(all.launches.size() == 2);
}

TEST_CASE("the CLI: several files, --launches with its note, -o over any unit refused", "[user][multi][cli]") {
  using warpviz::test::cli;
  const std::string files = fixture("sum_main.cpp") + " " + fixture("square.cu") + " " + fixture("sum_gold.cpp");
  const auto stopped = cli("run " + files + " --launches 1");
  CHECK(stopped.exit_code == 0);
  CHECK(contains(stopped.out, "stopped the program after launch 1 (--launches 1)"));
  CHECK(contains(stopped.out, "launch 0: square"));
  CHECK_FALSE(contains(stopped.out, "launch 1: add_one"));

  const auto over = cli("run " + files + " -o " + fixture("sum_gold.cpp"));
  CHECK(over.exit_code == 2);
  CHECK(contains(over.out, "a source of this run"));

  // A program of one .cpp file is a run of a file too, not a scenario's name.
  const auto host_only = cli("run " + fixture("host_only.cpp"));
  CHECK(host_only.exit_code == 0);
  CHECK(contains(host_only.out, "back 3 1 4 1\n"));

  const auto stray = cli("run " + files + " 17");
  CHECK(stray.exit_code == 2);
  CHECK(contains(stray.out, "unexpected argument '17'"));
}

TEST_CASE("__CUDA_ARCH__: 900 in device code and at file scope, undefined in host code and .cpp files",
          "[user][multi][nvcc]") {
  const FileRun run = run_program({"arch.cu", "arch_host.cpp"});
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  // The kernel reads 900 (through the helper kept by a file-scope #if), the
  // __device__-only function (declared through a macro) sees it defined, the
  // __host__ __device__ one takes its host path.
  CHECK(contains(run.program_output, "device: arch 900, ifdef 1, host-device 0\n"));
  CHECK(contains(run.program_output, "host .cu: 0, host .cpp: 0, __CUDACC__ in .cpp: 0\n"));
  CHECK(contains(run.program_output, "CUDA_VERSION 13000, CUDART_VERSION 13000\n"));
}

TEST_CASE("__CUDA_ARCH__ rewrite: only #if lines inside host function bodies change, line for line",
          "[user][nvcc]") {
  const std::string text =
      "#if __CUDA_ARCH__ >= 700\n"           // file scope: kept
      "#endif\n"
      "namespace n {\n"
      "__device__ int d() {\n"
      "#ifdef __CUDA_ARCH__\n"               // device body: kept
      "  return __CUDA_ARCH__;\n"
      "#endif\n"
      "}\n"
      "void h() {\n"
      "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800\n"  // host body: undefined
      "#elif !defined __CUDA_ARCH__\n"
      "#endif\n"
      "#ifndef __CUDA_ARCH__\n"
      "#endif\n"
      "  if (1) {\n"
      "#ifdef __CUDA_ARCH__\n"
      "#endif\n"
      "  }\n"
      "}\n"
      "}\n";
  const std::string out = cuda_arch_for_host_bodies(text);
  CHECK(std::count(out.begin(), out.end(), '\n') == std::count(text.begin(), text.end(), '\n'));
  CHECK(contains(out, "#if __CUDA_ARCH__ >= 700\n#endif\nnamespace n {\n__device__ int d() {\n#ifdef __CUDA_ARCH__\n"
                      "  return __CUDA_ARCH__;\n"));
  CHECK(contains(out, "void h() {\n#if 0 && 0 >= 800\n#elif !0\n#endif\n#if 1\n#endif\n  if (1) {\n#if 0\n"));
  CHECK(unit_language("k.cu") == UnitLanguage::Cuda);
  CHECK(unit_language("main.cpp") == UnitLanguage::Cpp);
  CHECK(contains(nvcc_predefined_macros(UnitLanguage::Cuda), "#define __CUDA_ARCH__ 900"));
  CHECK_FALSE(contains(nvcc_predefined_macros(UnitLanguage::Cpp), "__CUDA_ARCH__"));
  CHECK_FALSE(contains(nvcc_predefined_macros(UnitLanguage::Cpp), "__CUDACC__"));
}

TEST_CASE("template kernels launched with their arguments written out", "[user][multi][nvcc]") {
  const FileRun run = run_program({"template_launch.cu"});
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  // fill<256> writes 256 everywhere; scale<float, 4> multiplies 0.5*i by 4;
  // add, its T deduced as int from the launch's arguments, adds 1.
  CHECK(contains(run.program_output, "fill 257 257, scale 2 62\n"));
  REQUIRE(run.launches.size() == 3);
  CHECK(run.launches[0].meta.params.at("kernel") == "fill<256>");
  CHECK(run.launches[1].meta.params.at("kernel") == "scale<float,4>");
  CHECK(run.launches[2].meta.params.at("kernel") == "add");
}

TEST_CASE("launches in an included header are rewritten too, and the header stays a dependency", "[user][multi]") {
  // Prepare: the fixture's folder copied, so that a header can be edited.
  warpviz::testing_support::TempDir dir("multi");
  for (const char* name : {"included_launch.cu", "launches/host_side.cuh", "launches/kernels.cuh"})
    dir.write(name, read_text_file(fixture(name)));
  // A file changed in the build's own clock tick counts as saved while building
  // (not stored); the file system's clock is coarse, so the build starts a tick later.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  FileRequest request;
  request.path = dir.file("included_launch.cu");
  // Run: fill_from<int> (deduced) writes 20 + lane, doubled doubles it.
  const FileRun run = run_user_file(request);
  INFO(run.message << run.compiler_output);
  REQUIRE(run.ok());
  CHECK(contains(run.program_output, "values 40 102\n"));
  REQUIRE(run.launches.size() == 2);
  // The headers are the user's files, not their rewritten copies.
  const std::string kernels = fs::weakly_canonical(dir.file("launches/kernels.cuh")).string();
  CHECK(std::find(run.watched_files.begin(), run.watched_files.end(), kernels) != run.watched_files.end());
  for (const std::string& w : run.watched_files) CHECK(!contains(w, "-headers"));

  // Verify: an edit of the header two includes deep builds the program again.
  const FileRun again = run_user_file(request);
  INFO("saved while building: " << (run.saved_while_building.empty() ? "" : run.saved_while_building.front()));
  CHECK(again.timing.cached);
  std::string text = read_text_file(kernels);
  text.replace(text.find("*= 2"), 4, "*= 3");
  dir.write("launches/kernels.cuh", text);
  const FileRun edited = run_user_file(request);
  REQUIRE(edited.ok());
  CHECK_FALSE(edited.timing.cached);
  CHECK(contains(edited.program_output, "values 60 153\n"));
}

TEST_CASE("a byte order mark at the start of a file or a header it includes is no code", "[user][multi]") {
  warpviz::testing_support::TempDir dir("bom");
  const std::string bom = "\xEF\xBB\xBF";
  dir.write("k.cuh", bom + "__global__ void one(int* v) { v[threadIdx.x] = 1; }\n"
                           "inline void launch_one(int* v) { one<<<1, 32>>>(v); }\n");
  dir.write("main.cu", bom + "#include <cstdio>\n#include \"k.cuh\"\n"
                             "int main() { int* v; cudaMallocManaged(&v, 128); launch_one(v);\n"
                             "  cudaDeviceSynchronize(); std::printf(\"v %d\\n\", v[31]); }\n");
  FileRequest request;
  request.path = dir.file("main.cu");
  const FileRun run = run_user_file(request);
  INFO(run.message << run.compiler_output);
  REQUIRE(run.ok());
  CHECK(contains(run.program_output, "v 1\n"));
}
