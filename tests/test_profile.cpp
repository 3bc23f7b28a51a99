// warpviz-cli profile without a GPU: reading ncu's CSV report, the command's
// refusals, and `run --no-record`. (Profiling itself needs a GPU and ncu:
// scripts/gpu-check.sh runs it.)
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_runner.h"
#include "ncu_csv.h"
#include "warpviz/backends.h"

namespace fs = std::filesystem;
using namespace warpviz::cli;

using warpviz::test::cli;
using warpviz::test::CommandResult;

namespace {

fs::path temp_dir() {
  const fs::path dir = fs::temp_directory_path() / ("warpviz_profile_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return nlohmann::json::parse(s.str());
}

const char* const kLd = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
const char* const kLdConf = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
const char* const kSt = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";

// One row of a report in ncu's column order.
std::string ncu_row(int id, const std::string& kernel, const std::string& metric, const std::string& value) {
  return "\"" + std::to_string(id) + "\",\"4242\",\"warpviz-cli\",\"127.0.0.1\",\"" + kernel +
         "\",\"1\",\"7\",\"(32, 1, 1)\",\"(1, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"" + metric +
         "\",\"\",\"" + value + "\"\n";
}

const char* const kHeader =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";

}  // namespace

TEST_CASE("split_csv_record: quotes, commas inside quotes, doubled quotes, empty fields", "[cli][ncu]") {
  const auto f = split_csv_record(R"csv("a","(32, 1, 1)","say ""hi""",,"",x)csv");
  REQUIRE(f.size() == 6);
  CHECK(f[0] == "a");
  CHECK(f[1] == "(32, 1, 1)");
  CHECK(f[2] == "say \"hi\"");
  CHECK(f[3].empty());
  CHECK(f[4].empty());
  CHECK(f[5] == "x");
  CHECK(split_csv_record("\"1,024\"\r") == std::vector<std::string>{"1,024"});
}

TEST_CASE("parse_ncu_number: thousands separators, decimals, n/a", "[cli][ncu]") {
  double v = -1;
  CHECK(parse_ncu_number("1,024", &v));
  CHECK(v == 1024);
  CHECK(parse_ncu_number("2,147,483,648", &v));
  CHECK(v == 2147483648.0);
  CHECK(parse_ncu_number("31", &v));
  CHECK(v == 31);
  CHECK(parse_ncu_number("3.5", &v));
  CHECK(v == 3.5);
  v = -1;
  CHECK_FALSE(parse_ncu_number("n/a", &v));
  CHECK_FALSE(parse_ncu_number("", &v));
  CHECK_FALSE(parse_ncu_number("12 KB", &v));
  CHECK(v == -1);
}

TEST_CASE("ncu_kernel_matches: return type, namespaces, template instances, no prefix matches", "[cli][ncu]") {
  CHECK(ncu_kernel_matches("bank_access", "bank_access"));
  CHECK(ncu_kernel_matches("bank_access(float *, int)", "bank_access"));
  CHECK(ncu_kernel_matches("void warpviz_cuda_shared_banks::bank_access<unsigned int>(const unsigned int *, int)",
                           "bank_access"));
  CHECK(ncu_kernel_matches("void transpose_tile<33>(const float *, float *, int)", "transpose_tile"));
  CHECK_FALSE(ncu_kernel_matches("bank_access_wide(float *)", "bank_access"));
  CHECK_FALSE(ncu_kernel_matches("void warpviz::bank_cost_latency<4, false>(const unsigned int *)", "bank"));
  CHECK_FALSE(ncu_kernel_matches("my_bank_access(float *)", "bank_access"));
  // A namespace inside a template argument is not the kernel's own.
  CHECK_FALSE(ncu_kernel_matches("void other<ns::bank_access>(int)", "bank_access"));
  CHECK_FALSE(ncu_kernel_matches("bank_access", ""));
}

TEST_CASE("parse_ncu_csv: sums each metric over the kernel's launches, skips other lines", "[cli][ncu]") {
  const std::string kernel = "void warpviz_cuda_shared_banks::bank_access<float>(const float *, float *, int)";
  std::string report = "==PROF== Connected to process 4242 (/build/cli/warpviz-cli)\n"
                       "bank on NVIDIA H200: 0 steps recorded\n"
                       "==PROF== Profiling \"bank_access\" - 0: 0%....50%....100% - 1 pass\n";
  report += kHeader;
  report += ncu_row(0, kernel, kLd, "1,024");
  report += ncu_row(0, kernel, kLdConf, "992");
  report += ncu_row(0, kernel, kSt, "0");
  report += ncu_row(1, "void other_kernel(int *)", kLd, "5");
  report += ncu_row(2, kernel, kLd, "32");
  report += ncu_row(2, kernel, kLdConf, "31");
  report += ncu_row(2, kernel, kSt, "n/a");
  report += "==PROF== Disconnected from process 4242\n";
  const NcuMetrics m = parse_ncu_csv(report, "bank_access");
  CHECK(m.launches == std::set<std::string>{"0", "2"});
  REQUIRE(m.sums.count(kLd));
  CHECK(m.sums.at(kLd) == 1056);
  CHECK(m.sums.at(kLdConf) == 1023);
  CHECK(m.sums.at(kSt) == 0);
  CHECK(m.other_kernels == std::set<std::string>{"void other_kernel(int *)"});
  REQUIRE(m.unreadable.size() == 1);
  CHECK(m.unreadable[0] == std::string(kSt) + " = n/a");

  // Nothing but messages: no report.
  CHECK_THROWS_AS(parse_ncu_csv("==PROF== Connected\n==ERROR== ERR_NVGPUCTRPERM\n", "bank_access"), NcuCsvError);
  // A header without the kernel column.
  CHECK_THROWS_AS(parse_ncu_csv("\"ID\",\"Metric Name\",\"Metric Value\"\n", "bank_access"), NcuCsvError);
  // A report of other kernels only: no launch, nothing summed.
  const NcuMetrics none = parse_ncu_csv(std::string(kHeader) + ncu_row(0, "void other_kernel(int *)", kLd, "5"), "bank_access");
  CHECK(none.launches.empty());
  CHECK(none.sums.empty());
}

TEST_CASE("profile: help, usage errors, and exit 2 with a reason when it cannot profile", "[cli][profile]") {
  const CommandResult help = cli("profile --help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("--clock-control none") != std::string::npos);
  CHECK(help.out.find("--no-record") != std::string::npos);

  const fs::path out = temp_dir() / "profile.wvt";
  const CommandResult no_output = cli("profile warp_sum");
  CHECK(no_output.exit_code == 2);
  CHECK(no_output.out.find("-o FILE is required") != std::string::npos);
  const CommandResult bad = cli("profile no_such_scenario -o " + out.string());
  CHECK(bad.exit_code == 2);
  CHECK(bad.out.find("no_such_scenario") != std::string::npos);

  // An ncu that is not there: exit 2 naming it, GPU or not; without a GPU the
  // message also says so.
  const CommandResult r = cli("profile warp_sum --ncu /nonexistent/ncu -o " + out.string());
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("--ncu /nonexistent/ncu: not an executable file") != std::string::npos);
  std::string why;
  if (!warpviz::cuda_backend_available(&why)) {
    CHECK(r.out.find("no GPU to profile on: " + why) != std::string::npos);
    // Even with the default ncu search, no GPU means exit 2 and no trace.
    const CommandResult plain = cli("profile warp_sum -o " + out.string());
    CHECK(plain.exit_code == 2);
    CHECK(plain.out.find("no GPU to profile on") != std::string::npos);
  }
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("run --no-record: no step recorded, the same outputs as a recorded run", "[cli][profile]") {
  const fs::path dir = temp_dir();
  const fs::path recorded = dir / "recorded.json", unrecorded = dir / "unrecorded.json";
  const CommandResult a = cli("run warp_sum --backend cpu --input iota -o " + recorded.string());
  REQUIRE(a.exit_code == 0);
  const CommandResult b = cli("run warp_sum --backend cpu --input iota --no-record -o " + unrecorded.string());
  REQUIRE(b.exit_code == 0);
  const auto ja = read_json(recorded), jb = read_json(unrecorded);
  CHECK(ja["steps"].size() == 10);  // five shuffles and the watches of val
  CHECK(jb["steps"].empty());
  REQUIRE(jb["outputs"].size() == ja["outputs"].size());
  CHECK(jb["outputs"] == ja["outputs"]);
  CHECK(!jb["outputs"].empty());

  const CommandResult both = cli("run warp_sum --backend cpu --no-record --record-blocks 0");
  CHECK(both.exit_code == 2);
  CHECK(both.out.find("--no-record and --record-blocks") != std::string::npos);
}
