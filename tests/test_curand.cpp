// cuRAND on the CPU against a GPU: the probe tests/h200_probes/curand/
// curand_probe.cu, run through warpviz-cli as a user runs it, prints what
// curand.h and curand_kernel.h give (as hex, line by line); every line must
// equal the GPU's (curand_probe.out beside it). The host API is also held to
// libcurand's own host generator, run here (host_generator_probe.cpp). Bits and uniforms must be
// equal to the bit. The normal and log-normal values pass through the GPU's
// logf/__sincosf/expf (log/sincospi/exp for doubles), which the CPU gives
// correctly rounded instead: those lines may differ in the last bits, within
// a bound, and the count that differ at all is reported.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "temp_dir.h"

using warpviz::test::run_cli;
using warpviz::testing_support::TempDir;

namespace {

const std::string kProbeDir = std::string(WARPVIZ_SOURCE_DIR) + "/tests/h200_probes/curand";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A value line: "LABEL... DIST INDEX HEX"; its last word is the value.
struct ValueLine {
  std::string head;  // everything before the value
  std::string dist;  // the word before the index: bits, uniform, normal_double, ...
  uint64_t value = 0;
  bool ok = false;
};

ValueLine parse(const std::string& line) {
  ValueLine v;
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  if (words.size() < 3 || line.find(" status ") != std::string::npos) return v;
  const size_t cut = line.rfind(' ');
  v.head = line.substr(0, cut);
  v.dist = words[words.size() - 3];
  char* end = nullptr;
  v.value = std::strtoull(words.back().c_str(), &end, 16);
  v.ok = end && *end == '\0';
  return v;
}

// The probe's device fields (curand_probe.cu, xorwow_fields and philox_fields):
// which hold a double, and which pass through a transcendental function.
int device_field(const ValueLine& v) {
  if (v.head.rfind("device ", 0) != 0) return -1;
  return std::atoi(v.head.c_str() + v.head.find(" field") + 6);
}
bool is_xorwow(const ValueLine& v) { return v.head.find("xorwow") != std::string::npos; }

bool is_double(const ValueLine& v) {
  const int f = device_field(v);
  if (f < 0) return v.dist.find("double") != std::string::npos;
  if (is_xorwow(v)) return f == 5 || (f >= 12 && f <= 14) || f == 16;
  return (f >= 22 && f <= 28) || f == 30;
}
// Which lines pass through logf/__sincosf/expf (log/sincospi/exp) on the GPU:
// the host API's normal and log-normal, and the device fields that hold them.
bool through_math(const ValueLine& v) {
  const int f = device_field(v);
  if (f < 0) return v.dist.find("normal") != std::string::npos;
  if (is_xorwow(v)) return f >= 6 && f <= 16;
  return (f >= 14 && f <= 21) || (f >= 25 && f <= 30);
}

double value_of(uint64_t bits, bool wide) {
  if (wide) {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  const uint32_t narrow = uint32_t(bits);
  float f;
  std::memcpy(&f, &narrow, 4);
  return f;
}

// How close a normal or log-normal value must be. __sincosf is good to about
// 2^-21.4 absolute (PTX ISA, sin.approx.f32), times a radius below 6 and the
// probe's deviations up to 2; logf and expf to an ulp or two. The double
// functions are good to an ulp or two of their result.
bool close_enough(uint64_t gpu, uint64_t cpu, bool wide) {
  const double a = value_of(gpu, wide), b = value_of(cpu, wide);
  const double bound = wide ? 1e-13 * (1 + std::fabs(a)) : 1e-5 * (1 + std::fabs(a));
  return std::fabs(a - b) <= bound;
}

// Every line equal, but for normal and log-normal values within
// close_enough; reports how many of those are equal to the bit.
void compare_lines(const std::vector<std::string>& expected, const std::vector<std::string>& cpu, const char* what) {
  const std::vector<std::string>& gpu = expected;
  size_t exact = 0, math_lines = 0, math_exact = 0, wrong = 0;
  double worst = 0;
  std::string first_wrong;
  for (size_t i = 0; i < gpu.size(); ++i) {
    if (cpu[i] == gpu[i]) {
      ++exact;
      const ValueLine g = parse(gpu[i]);
      if (g.ok && through_math(g)) ++math_lines, ++math_exact;
      continue;
    }
    const ValueLine g = parse(gpu[i]), c = parse(cpu[i]);
    bool close = false;
    if (g.ok && c.ok && g.head == c.head && through_math(g)) {
      ++math_lines;
      const bool wide = is_double(g);
      worst = std::max(worst, std::fabs(value_of(g.value, wide) - value_of(c.value, wide)));
      close = close_enough(g.value, c.value, wide);
    }
    if (!close) {
      if (first_wrong.empty()) first_wrong = "line " + std::to_string(i + 1) + ": expected '" + gpu[i] + "', CPU '" + cpu[i] + "'";
      ++wrong;
    }
  }
  WARN(what << ": " << gpu.size() << " lines, " << exact << " equal to the bit; of " << math_lines
                        << " through logf/sincos/exp, " << math_exact << " equal to the bit, the worst "
                        << worst << " apart");
  INFO(first_wrong);
  CHECK(wrong == 0);
  // Everything that is not a normal or log-normal value is exact.
  CHECK(exact + (math_lines - math_exact) == gpu.size());
}

}  // namespace

TEST_CASE("cuRAND's host and device API give the GPU's values", "[user][curand]") {
  // Prepare: the GPU's output.
  std::ifstream gpu_file(kProbeDir + "/curand_probe.out");
  std::stringstream gpu_text;
  gpu_text << gpu_file.rdbuf();
  const std::vector<std::string> gpu = lines_of(gpu_text.str());
  INFO("the GPU's output: " << kProbeDir << "/curand_probe.out");
  REQUIRE(gpu.size() > 1000);

  // Run: the same source on the CPU, as a user runs it.
  const auto run = run_cli("run " + kProbeDir + "/curand_probe.cu -lcurand --timeout 300", false);
  INFO(run.out.substr(0, 2000));
  REQUIRE(run.exit_code == 0);
  std::vector<std::string> cpu = lines_of(run.out);
  // The program's output first; warpviz's summary of the launches after it.
  if (cpu.size() > gpu.size()) cpu.resize(gpu.size());
  REQUIRE(cpu.size() == gpu.size());

  compare_lines(gpu, cpu, "cuRAND probe against the GPU");
}

namespace {

// The reference program's lines, and the same source's through warpviz-cli.
void compare_with_reference(const std::string& reference_program, const std::string& source, const char* what) {
  // Prepare: the reference, built against the CUDA toolkit, run on this CPU.
  const auto reference = warpviz::test::run_command(reference_program);
  REQUIRE(reference.exit_code == 0);
  const std::vector<std::string> expected = lines_of(reference.out);
  REQUIRE(expected.size() > 1000);
  // Run: the same source through warpviz-cli.
  const auto run = run_cli("run " + kProbeDir + "/" + source + " -lcurand --timeout 300", false);
  INFO(run.out.substr(0, 2000));
  REQUIRE(run.exit_code == 0);
  std::vector<std::string> cpu = lines_of(run.out);
  if (cpu.size() > expected.size()) cpu.resize(expected.size());
  REQUIRE(cpu.size() == expected.size());
  // Verify
  compare_lines(expected, cpu, what);
}

}  // namespace

#ifdef WARPVIZ_CURAND_HOST_GENERATOR_PROBE
TEST_CASE("cuRAND's host API lays its values out as libcurand's host generator does", "[user][curand]") {
  compare_with_reference(WARPVIZ_CURAND_HOST_GENERATOR_PROBE, "host_generator_probe.cpp",
                         "cuRAND host API against libcurand's host generator");
}
TEST_CASE("cuRAND's device API computes what curand_kernel.h computes", "[user][curand]") {
  compare_with_reference(WARPVIZ_CURAND_DEVICE_API_HOST_PROBE, "device_api_host_probe.cpp",
                         "cuRAND device API against curand_kernel.h on the host");
}
#else
TEST_CASE("cuRAND against libcurand and curand_kernel.h on the host", "[user][curand]") {
  WARN("skipped: built without the CUDA toolkit");
}
#endif

TEST_CASE("a cuRAND generator the CPU does not have is an error that names it, and XORWOW wants even normal lengths", "[user][curand]") {
  // Prepare
  TempDir dir("curand_mrg");
  const std::string path = dir.write("mrg.cu", R"(
#include <curand.h>
#include <cstdio>
int main() {
  curandGenerator_t gen;
  printf("mrg32k3a: %d\n", int(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_MRG32K3A)));
  printf("sobol32: %d\n", int(curandCreateGenerator(&gen, CURAND_RNG_QUASI_SOBOL32)));
  printf("philox: %d\n", int(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10)));
  float x[3];
  printf("philox odd normal: %d\n", int(curandGenerateNormal(gen, x, 3, 0.f, 1.f)));
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
  printf("xorwow odd normal: %d\n", int(curandGenerateNormal(gen, x, 3, 0.f, 1.f)));
  return 0;
}
)").string();
  // Run
  const auto run = run_cli("run " + path + " -lcurand");
  INFO(run.out);
  // Verify
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("mrg32k3a: 103") != std::string::npos);  // CURAND_STATUS_TYPE_ERROR
  CHECK(run.out.find("sobol32: 103") != std::string::npos);
  CHECK(run.out.find("CURAND_RNG_PSEUDO_MRG32K3A generator is not implemented") != std::string::npos);
  CHECK(run.out.find("philox: 0") != std::string::npos);
  // Box-Muller pairs: XORWOW wants an even length (CURAND_STATUS_LENGTH_NOT_MULTIPLE);
  // Philox computes each output from its own position and takes any.
  CHECK(run.out.find("xorwow odd normal: 105") != std::string::npos);
  CHECK(run.out.find("philox odd normal: 0") != std::string::npos);
}
