// Plain C++ in device code gets the GPU's results where x86 differs: integer
// division by zero and MIN / -1, shifts by the width or more, float-to-integer
// conversions out of range (the device-semantics GCC plugin,
// cuda_cpu/compiler_plugin). The H200's values are measured:
// tests/h200_probes/plain_cpp_semantics.cu printed plain_cpp_semantics.out,
// and the emulator must print the same, index by index. So must the SIMD
// intrinsics (simd_intrinsics.cu, cuda_cpu/device/include/warpviz/simd_intrinsics.h).
#include <catch2/catch.hpp>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "temp_dir.h"
#include "warpviz/user_file.h"

using namespace warpviz;
using namespace warpviz::user;

namespace {

const std::string kProbeDir = std::string(WARPVIZ_SOURCE_DIR) + "/tests/h200_probes/";

// "index hex" lines after a "N results" line: index -> value.
std::map<int, uint64_t> indexed_values(const std::string& text, int* count) {
  std::map<int, uint64_t> values;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    int index = 0;
    char hex[32] = {};
    if (std::sscanf(line.c_str(), "%d results", &index) == 1 && line.find("results") != std::string::npos) {
      *count = index;
    } else if (std::sscanf(line.c_str(), "%d %31s", &index, hex) == 2) {
      values[index] = std::stoull(hex, nullptr, 16);
    }
  }
  return values;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

FileRun run_program(const std::string& path) {
  FileRequest request;
  request.path = path;
  request.backend = FileBackend::Cpu;
  return run_user_file(request);
}

// Which part of the probe an output index belongs to (the order of its puts).
const char* probe_part(int index) {
  if (index < 104) return "fminf/fmaxf/fmin/fmax";
  if (index < 216) return "float -> int32/uint32/int64/uint64/int16/int8/uint8";
  if (index < 248) return "double -> int32/uint32/int64/uint64";
  if (index < 312) return "shifts by 0, 1, 31, 32, 33, 63, 64, -1";
  if (index < 412) return "32-bit / and %";
  if (index < 460) return "64-bit / and %";
  return "contraction";
}

// The GPU's 32-bit division as measured: by zero all ones, MIN / -1 wraps.
uint32_t gpu_div32(int32_t a, int32_t b) {
  if (b == 0) return 0xffffffffu;
  if (a == INT32_MIN && b == -1) return uint32_t(INT32_MIN);
  return uint32_t(a / b);
}
uint32_t gpu_mod32(int32_t a, int32_t b) {
  if (b == 0) return 0xffffffffu;
  if (b == -1) return 0;
  return uint32_t(a % b);
}
uint32_t gpu_udiv32(uint32_t a, uint32_t b) { return b == 0 ? 0xffffffffu : a / b; }
uint32_t gpu_umod32(uint32_t a, uint32_t b) { return b == 0 ? 0xffffffffu : a % b; }
// 64 bits: nvcc divides in 32 bits when both operands fit (0 / 0 gives
// 0x00000000ffffffff), else a zero divisor gives all ones.
uint64_t gpu_zero_divisor64(uint64_t a) { return (a >> 32) == 0 ? 0xffffffffull : ~0ull; }
uint64_t gpu_div64(int64_t a, int64_t b) {
  if (b == 0) return gpu_zero_divisor64(uint64_t(a));
  if (a == INT64_MIN && b == -1) return uint64_t(INT64_MIN);
  return uint64_t(a / b);
}
uint64_t gpu_mod64(int64_t a, int64_t b) {
  if (b == 0) return gpu_zero_divisor64(uint64_t(a));
  if (b == -1) return 0;
  return uint64_t(a % b);
}
uint64_t gpu_udiv64(uint64_t a, uint64_t b) { return b == 0 ? gpu_zero_divisor64(a) : a / b; }

// "name hex" lines: name -> value.
std::map<std::string, uint64_t> named_values(const std::string& text) {
  std::map<std::string, uint64_t> values;
  std::istringstream lines(text);
  std::string name, hex;
  while (lines >> name >> hex) values[name] = std::stoull(hex, nullptr, 16);
  return values;
}

}  // namespace

TEST_CASE("plain_cpp_semantics.cu prints what the H200 printed, index by index", "[device_semantics][h200]") {
  if (!WARPVIZ_HAVE_DEVICE_SEMANTICS_PLUGIN) {
    WARN("skipped: the device-semantics plugin was not built (no GCC plugin headers)");
    return;
  }
  // Prepare: the H200's output.
  int expected_count = -1;
  const auto expected = indexed_values(read_file(kProbeDir + "plain_cpp_semantics.out"), &expected_count);
  REQUIRE(expected_count == 467);
  REQUIRE(expected.size() == 467u);
  // Run: the same unmodified file on the emulator.
  const FileRun run = run_program(kProbeDir + "plain_cpp_semantics.cu");
  INFO(run.message << run.compiler_output);
  REQUIRE(run.ok());
  int count = -1;
  const auto got = indexed_values(run.program_output, &count);
  // Verify: every index must match. The contraction results (a*b+c fused as
  // nvcc fuses it, __fmul_rn(a,b)+c not) need the CPU's FMA instruction;
  // without one they are only reported.
  CHECK(count == expected_count);
  __builtin_cpu_init();
  const bool cpu_has_fma = __builtin_cpu_supports("fma");
  int contraction_mismatches = 0;
  for (const auto& [index, want] : expected) {
    const auto it = got.find(index);
    const bool same = it != got.end() && it->second == want;
    if (index >= 460 && !cpu_has_fma) {
      if (!same) ++contraction_mismatches;
      continue;
    }
    INFO("index " << index << " (" << probe_part(index) << "): H200 " << std::hex << want << ", emulator "
                  << (it == got.end() ? std::string("missing") : std::to_string(it->second)));
    CHECK(same);
  }
  if (contraction_mismatches > 0)
    WARN(contraction_mismatches << " of the 7 contraction results differ from the H200: this CPU has no FMA "
                                   "instruction, so device code is not contracted");
}

TEST_CASE("a kernel dividing by zero in some lanes gets the GPU's value in each", "[device_semantics][lanes]") {
  if (!WARPVIZ_HAVE_DEVICE_SEMANTICS_PLUGIN) {
    WARN("skipped: the device-semantics plugin was not built (no GCC plugin headers)");
    return;
  }
  // Prepare: the file's inputs, rebuilt here (lane_division.cu's main).
  constexpr int n = 32;
  std::vector<int32_t> a(n), b(n);
  std::vector<int64_t> la(n), lb(n);
  for (int k = 0; k < n; ++k) {
    a[k] = (k % 3 == 0 ? -1 : 1) * (1000 + 37 * k);
    b[k] = k % 4 == 0 ? 0 : (k % 4) - 2 + (k % 4 == 2 ? 5 : 0);
    la[k] = k % 8 == 4 ? 0x123456789ll * k : a[k];
    lb[k] = b[k];
  }
  a[1] = INT32_MIN;
  // Run.
  const FileRun run = run_program(std::string(WARPVIZ_TEST_USER_FILES) + "/device_semantics/lane_division.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  REQUIRE(run.ok());
  // Verify: each lane against the model above.
  std::istringstream lines(run.program_output);
  int lanes_seen = 0;
  std::string line;
  while (std::getline(lines, line)) {
    int lane = -1;
    unsigned long long v[7] = {};
    if (std::sscanf(line.c_str(), "%d %llx %llx %llx %llx %llx %llx %llx", &lane, &v[0], &v[1], &v[2], &v[3], &v[4],
                    &v[5], &v[6]) != 8 || lane < 0 || lane >= n)
      continue;
    ++lanes_seen;
    const int32_t x = a[lane], d = b[lane];
    INFO("lane " << lane << ": " << x << " / " << d << ", " << la[lane] << " / " << lb[lane]);
    CHECK(v[0] == gpu_div32(x, d));
    CHECK(v[1] == gpu_mod32(x, d));
    CHECK(v[2] == gpu_udiv32(uint32_t(x), uint32_t(d)));
    CHECK(v[3] == gpu_umod32(uint32_t(x), uint32_t(d)));
    CHECK(v[4] == gpu_div64(la[lane], lb[lane]));
    CHECK(v[5] == gpu_mod64(la[lane], lb[lane]));
    CHECK(v[6] == gpu_udiv64(uint64_t(la[lane]), uint64_t(lb[lane])));
  }
  CHECK(lanes_seen == n);
}

TEST_CASE("a host division by zero still traps, as on the real program's host", "[device_semantics][host]") {
  if (!WARPVIZ_HAVE_DEVICE_SEMANTICS_PLUGIN) {
    WARN("skipped: the device-semantics plugin was not built (no GCC plugin headers)");
    return;
  }
  // Run: the kernel divides 100 by 0, then main does.
  const FileRun run = run_program(std::string(WARPVIZ_TEST_USER_FILES) + "/device_semantics/host_division.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  // Verify: the device line has the GPU's all ones; then the host's SIGFPE
  // (under WARPVIZ_SANITIZE, UBSan stops the program at the division first).
  CHECK(run.program_output.find("device ffffffff") != std::string::npos);
  CHECK(run.program_output.find("host ") == std::string::npos);
  const bool ubsan_stopped = run.outcome == FileOutcome::ProgramFailed &&
                             run.program_output.find("division by zero") != std::string::npos;
  CHECK((run.outcome == FileOutcome::Crash || ubsan_stopped));
}

TEST_CASE("the plugin's rewrites give the GPU's values at -O0 and at -O2 alike", "[device_semantics][optimize]") {
  if (!WARPVIZ_HAVE_DEVICE_SEMANTICS_PLUGIN) {
    WARN("skipped: the device-semantics plugin was not built (no GCC plugin headers)");
    return;
  }
  const std::string source = std::string(WARPVIZ_TEST_USER_FILES) + "/device_semantics/plugin_standalone.cpp";
  const std::filesystem::path work = std::filesystem::temp_directory_path() / "warpviz_device_semantics_test";
  std::filesystem::create_directories(work);
  for (const char* level : {"-O0", "-O2"}) {
    // Prepare: the file alone, compiled by the kit's compiler with the plugin.
    const std::string binary = (work / (std::string("standalone") + level)).string();
    const std::string compile = std::string(WARPVIZ_USER_CXX) + " -std=c++20 " + level +
                                " -fwrapv -fplugin=" + WARPVIZ_DEVICE_SEMANTICS_PLUGIN_PATH + " " + source +
                                " -o " + binary + " 2>&1";
    const auto compiled = warpviz::test::run_command(compile);
    INFO(level << ": " << compile << "\n" << compiled.out);
    REQUIRE(compiled.exit_code == 0);
    // Run.
    const auto ran = warpviz::test::run_command(binary);
    INFO(ran.out);
    REQUIRE(ran.exit_code == 0);  // no SIGFPE: every division here is by zero or MIN / -1
    const auto v = named_values(ran.out);
    // Verify: the H200's values (plain_cpp_semantics.out, decoded in docs/floats.md).
    auto expect = [&](const char* name, uint64_t want, const char* why) {
      INFO(level << " " << name << ": " << why);
      REQUIRE(v.count(name) == 1);
      CHECK(v.at(name) == want);
    };
    expect("div32_by_zero", gpu_div32(7, 0), "7 / 0 is all ones");
    expect("mod32_by_zero", gpu_mod32(7, 0), "7 % 0 is all ones");
    expect("div32_min_by_minus_one", 0x80000000u, "INT_MIN / -1 wraps to INT_MIN");
    expect("mod32_min_by_minus_one", 0, "INT_MIN % -1 is 0");
    expect("udiv32_by_zero", 0xffffffffu, "unsigned 7 / 0 is all ones");
    expect("div64_zero_by_zero", 0xffffffffull, "0 / 0 in 64 bits takes the 32-bit path");
    expect("div64_big_by_zero", ~0ull, "0x123456789 / 0 does not fit 32 bits: all ones");
    expect("umod64_small_by_zero", 0xffffffffull, "7 % 0 in 64 bits takes the 32-bit path");
    expect("div64_normal", uint64_t(0x123456789ll / -5), "a division in range is C++'s");
    expect("shl32_by_32", 0, "<< by the width is 0 (x86 would give 7)");
    expect("shl32_by_minus_one", 0, "<< by -1, a huge unsigned amount, is 0");
    expect("sar32_negative_by_40", 0xffffffffu, "signed >> past the width fills with the sign");
    expect("shr64_by_64", 0, "unsigned 64-bit >> by 64 is 0 (x86 would give x)");
    expect("f2i_3e9", 0x7fffffffu, "float -> int32 saturates");
    expect("f2u_minus_one", 0, "float -> uint32 of a negative is 0");
    expect("f2i_nan", 0, "float NaN -> int32 is 0");
    expect("f2ul_nan", 0x8000000000000000ull, "float NaN -> uint64 is 0x8000000000000000");
    expect("d2i_nan", 0x80000000u, "double NaN -> int32 is 0x80000000");
    expect("d2l_1e300", 0x7fffffffffffffffull, "double -> int64 saturates (x86: 0x8000000000000000)");
    expect("f2u8_2pow32", 0xff, "uint8_t(2^32) is uint32's saturated 0xffffffff, truncated");
    expect("tdiv_long_by_zero", ~0ull, "a device template instantiated for long long");
    expect("lambda_div_by_zero", 0xffffffffu, "a lambda inside device code is device code");
  }
}

TEST_CASE("a kit whose plugin does not load with the compiler still builds, with x86's semantics and a note",
          "[device_semantics][kit]") {
  if (!WARPVIZ_HAVE_DEVICE_SEMANTICS_PLUGIN) {
    WARN("skipped: the device-semantics plugin was not built (no GCC plugin headers)");
    return;
  }
  // Prepare: the build's kit, its paths made absolute, in a folder of its own
  // whose lib/ holds a plugin no GCC can load (as when the kit is carried to
  // a machine with another GCC).
  namespace fs = std::filesystem;
  const fs::path kit = fs::path(WARPVIZ_DEVICE_SEMANTICS_PLUGIN_PATH).parent_path().parent_path();
  const warpviz::testing_support::TempDir moved("kit");
  fs::create_directories(moved.path / "lib");
  std::ofstream(moved.path / "lib" / "warpviz_device_semantics.so") << "not a shared object\n";
  nlohmann::json j = nlohmann::json::parse(std::ifstream(kit / "kit.json"));
  auto absolute = [&](const std::string& p) {
    return p.rfind("-", 0) == 0 || fs::path(p).is_absolute() ? p : (kit / p).lexically_normal().string();
  };
  for (const char* key : {"include_dirs", "link_inputs", "rpath_dirs"})
    if (j.contains(key))
      for (auto& v : j[key]) v = absolute(v.get<std::string>());
  j["prelude"] = absolute(j["prelude"].get<std::string>());
  std::ofstream(moved.path / "kit.json") << j.dump();
  setenv("WARPVIZ_KIT", moved.path.c_str(), 1);
  // Run: a kernel that divides by zero.
  const FileRun run = run_program(std::string(WARPVIZ_TEST_USER_FILES) + "/device_semantics/lane_division.cu");
  unsetenv("WARPVIZ_KIT");
  // Verify: it built; the note names the plugin and what the user loses.
  INFO(run.message << run.compiler_output);
  CHECK(run.outcome != FileOutcome::CompileError);
  REQUIRE(run.notes.size() == 1);
  CHECK(run.notes[0].find("device-semantics plugin does not load") != std::string::npos);
  CHECK(run.notes[0].find("x86's integer division") != std::string::npos);
}

TEST_CASE("the SIMD intrinsics give the GPU's words, line for line", "[device_semantics][h200]") {
  // Prepare: the GPU's output (8 unary functions on 16 words, 62 binary ones
  // on their 256 pairs), made by scripts/h200-probes.sh.
  const std::string expected = read_file(kProbeDir + "simd_intrinsics.out");
  const std::vector<std::string> want = lines_of(expected);
  REQUIRE(want.size() == 16u * 8 + 256u * 62);
  // Run: the same file on the emulator.
  const FileRun run = run_program(kProbeDir + "simd_intrinsics.cu");
  INFO(run.message << run.compiler_output);
  REQUIRE(run.ok());
  const std::vector<std::string> got = lines_of(run.program_output);
  REQUIRE(got.size() >= want.size());
  // Verify: each line, naming the first few that differ.
  int differing = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i] && ++differing <= 10) {
      INFO("GPU: " << want[i] << "\nCPU: " << got[i]);
      CHECK(got[i] == want[i]);
    }
  CHECK(differing == 0);
}
