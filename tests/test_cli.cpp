// warpviz-cli end to end: the commands a user types, their output and exit codes.

#include <bit>
#include <chrono>
#include <iterator>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "cli_runner.h"
#include "divergent_traces.h"
#include "warpviz/backends.h"
#include "warpviz/trace_io.h"

namespace fs = std::filesystem;

using warpviz::test::cli;
using warpviz::test::CommandResult;
using warpviz::test::run_cli;

namespace {

std::string cli_stdout(const std::string& args, int* exit_code = nullptr) {
  const CommandResult r = run_cli(args, false);
  if (exit_code) *exit_code = r.exit_code;
  return r.out;
}

std::string hex32(float f) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", std::bit_cast<uint32_t>(f));
  return buf;
}

fs::path temp_dir() {
  const fs::path dir = fs::temp_directory_path() / ("warpviz_cli_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("run warp_sum --input iota --json: offsets, sources and outputs", "[cli][acceptance]") {
  int code = -1;
  const auto j = nlohmann::json::parse(cli_stdout("run warp_sum --input iota --json", &code));
  CHECK(code == 0);
  CHECK(j["format"] == "warpviz-trace");
  CHECK(j["scenario"] == "warp_sum");
  CHECK(j["dtype"] == "f32");
  // auto: the emulator here, the GPU where one is present; the trace is the same.
  CHECK((j["backend"] == "cpu" || j["backend"] == "cuda"));
  REQUIRE(j["steps"].size() == 10);  // five shuffles, each followed by a watch of val
  const int offsets[] = {16, 8, 4, 2, 1};
  for (int s = 0; s < 5; ++s) {
    const auto& step = j["steps"][2 * s];
    CHECK(step["op"] == "shfl.down");
    CHECK(step["args"]["delta"] == offsets[s]);
    CHECK(step["mask"] == "0xffffffff");
    REQUIRE(step["lanes"].size() == 32);
    for (int lane = 0; lane < 32; ++lane) {
      const auto& l = step["lanes"][lane];
      CHECK(l["lane"] == lane);
      CHECK(l["src"] == (lane + offsets[s] < 32 ? lane + offsets[s] : lane));
      CHECK(l["ok"] == (lane + offsets[s] < 32));
    }
  }
  const auto& out = j["outputs"]["out"];
  REQUIRE(out.size() == 32);
  for (int lane = 0; lane < 32; ++lane) CHECK(out[lane] == hex32(float(496 + 16 * lane)));
  CHECK(j["source"]["path"] == "kernels/warp_shuffle.cu");
}

TEST_CASE("run warp_sum --input iota --json: watch steps of val, lane 0 16, 48, 112, 240, 496", "[cli][acceptance][watch]") {
  const auto j = nlohmann::json::parse(cli_stdout("run warp_sum --input iota --json"));
  CHECK(j["version"] == 2);
  std::vector<std::string> lane0;
  for (const auto& step : j["steps"]) {
    if (step["op"] != "watch") continue;
    CHECK(step["args"] == nlohmann::json{{"name", "val"}});
    CHECK(step["dtype"] == "f32");
    CHECK(step["lanes"][0]["in"] == step["lanes"][0]["out"]);
    lane0.push_back(step["lanes"][0]["out"]);
  }
  CHECK(lane0 == std::vector<std::string>{hex32(16), hex32(48), hex32(112), hex32(240), hex32(496)});

  // warp_sum_xor: the last watch holds 496 in every lane.
  const auto x = nlohmann::json::parse(cli_stdout("run warp_sum_xor --input iota --json"));
  const nlohmann::json* last = nullptr;
  for (const auto& step : x["steps"])
    if (step["op"] == "watch") last = &step;
  REQUIRE(last);
  CHECK((*last)["args"]["name"] == "val");
  for (const auto& lane : (*last)["lanes"]) CHECK(lane["out"] == hex32(496));

  // The text forms: run lists the watched values, dump titles a step `watch val`.
  const CommandResult run = cli("run warp_sum --input iota");
  CHECK(run.out.find("watched values:") != std::string::npos);
  CHECK(run.out.find("watch val (f32)  block 0 warp 0  lanes 32: 0=496 1=512") != std::string::npos);
  const fs::path dir = temp_dir();
  const std::string wvt = (dir / "w.wvt").string();
  REQUIRE(cli("run warp_sum --input iota -o " + wvt).exit_code == 0);
  const CommandResult dump = cli("dump " + wvt);
  CHECK(dump.out.find("  watch val mask=0xffffffff  dtype f32") != std::string::npos);
}

TEST_CASE("run test_shuffle --json: 2.0 in lane 0, 10.0 in lane 5, and the seed's claim", "[cli][acceptance]") {
  const auto j = nlohmann::json::parse(cli_stdout("run test_shuffle --json"));
  CHECK(j["outputs"]["out"][0] == hex32(2.0f));
  CHECK(j["outputs"]["out"][5] == hex32(10.0f));
  const CommandResult summary = cli("run test_shuffle");
  CHECK(summary.exit_code == 0);
  CHECK(summary.out.find("seed claim DIFFERS FROM THE HARDWARE") != std::string::npos);
  CHECK(summary.out.find("the sm_90 rules give: 2") != std::string::npos);
}

TEST_CASE("measured shuffle cases through the CLI playground", "[cli][semantics]") {
  // Case 13, width 12, with its note.
  const CommandResult w12 = cli("run shfl --set op=idx --set arg=5 --set width=12");
  CHECK(w12.exit_code == 0);
  CHECK(w12.out.find("undefined in the CUDA C++ API") != std::string::npos);
  CHECK(w12.out.find("out (i32): 1 1 1 1 5 5 5 5 1 1 1 1 5 5 5 5 17 17 17 17 21 21 21 21 17 17 17 17 21 21 21 21") !=
        std::string::npos);
  // Case 5: srcLane 35 reads lane 3.
  const auto j = nlohmann::json::parse(cli_stdout("run shfl --set op=idx --set arg=35 --json"));
  for (const auto& v : j["outputs"]["out"]) CHECK(v == "0x00000003");
  CHECK(j["steps"][0]["args"]["srcLane"] == 35);
}

TEST_CASE("list shows every scenario and its parameters", "[cli]") {
  const CommandResult r = cli("list");
  CHECK(r.exit_code == 0);
  for (const char* name : {"test_shuffle", "warp_sum", "warp_sum_xor", "warp_max", "shfl", "reduce_sum", "reduce_int",
                           "vote", "compact", "match", "redux", "cg_reduce"})
    CHECK(r.out.find(name) != std::string::npos);
  const auto j = nlohmann::json::parse(cli_stdout("list --json"));
  bool found_width = false;
  for (const auto& s : j)
    if (s["name"] == "shfl")
      for (const auto& p : s["params"])
        if (p["name"] == "width") found_width = p["default"] == "32";
  CHECK(found_width);
}

TEST_CASE("files: -o writes .wvt or .json, dump and diff read them", "[cli][files]") {
  const fs::path dir = temp_dir();
  const std::string wvt = (dir / "a.wvt").string(), json = (dir / "a.json").string(),
                    other = (dir / "b.wvt").string();
  REQUIRE(cli("run warp_sum -o " + wvt).exit_code == 0);
  REQUIRE(cli("run warp_sum -o " + json).exit_code == 0);
  REQUIRE(cli("run warp_sum --input random:9 -o " + other).exit_code == 0);
  std::ifstream head(json);
  CHECK(head.get() == '{');

  const CommandResult dump = cli("dump " + wvt);
  CHECK(dump.exit_code == 0);
  CHECK(dump.out.find("shfl.down") != std::string::npos);
  CHECK(nlohmann::json::parse(cli_stdout("dump " + json + " --json"))["steps"].size() == 10);

  const CommandResult same = cli("diff " + wvt + " " + json);
  CHECK(same.exit_code == 0);
  const CommandResult differ = cli("diff " + wvt + " " + other);
  CHECK(differ.exit_code == 1);
  CHECK(differ.out.find("lane") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("list: divergence with its summary in English and Chinese", "[cli][divergence]") {
  const CommandResult r = cli("list");
  REQUIRE(r.exit_code == 0);
  const size_t at = r.out.find("divergence\n");
  REQUIRE(at != std::string::npos);
  const std::string entry = r.out.substr(at, r.out.find("source", at) - at);
  CHECK(entry.find("a branch on lane parity and one on the data") != std::string::npos);
  CHECK(entry.find("分支发散") != std::string::npos);
  for (const auto& s : nlohmann::json::parse(cli_stdout("list --json")))
    if (s["name"] == "vote") CHECK(s["summary_zh"].get<std::string>().find("投票") != std::string::npos);
}

TEST_CASE("diff: paths in another order are equal path by path, and said", "[cli][files][divergence]") {
  const fs::path dir = temp_dir();
  const std::string gpu = (dir / "gpu.wvt").string(), cpu = (dir / "cpu.wvt").string(),
                    other = (dir / "other.wvt").string();
  warpviz::save_trace(warpviz::test::parity_branch_trace("BBAA", "cuda"), gpu);
  warpviz::save_trace(warpviz::test::parity_branch_trace("ABAB", "cpu"), cpu);
  warpviz::save_trace(warpviz::test::parity_branch_trace("ABAB", "cuda"), other);

  const CommandResult lenient = cli("diff " + gpu + " " + cpu);
  CHECK(lenient.exit_code == 0);
  CHECK(lenient.out.find("traces are equal path by path (6 steps, 1 output); divergent paths ran in another order:") !=
        std::string::npos);
  CHECK(lenient.out.find("same per-path results, different interleaving of the paths: GPU ran path B "
                         "(lanes 0xaaaaaaaa, line 15) first, CPU ran path A (lanes 0x55555555, line 12) first") !=
        std::string::npos);
  // In recorded order they differ.
  const CommandResult strict = cli("diff " + gpu + " " + cpu + " --strict-order");
  CHECK(strict.exit_code == 1);
  CHECK(strict.out.find("different interleaving") == std::string::npos);
  // Two traces from one backend are named by their files.
  const CommandResult files = cli("diff " + gpu + " " + other);
  CHECK(files.exit_code == 0);
  CHECK(files.out.find(gpu + " ran path B") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("a bad run option says what the app says (view/run_options.h)", "[cli][errors]") {
  // A scenario's --set, and a .cu file's: the message names the option and the value.
  const CommandResult set = cli("run warp_sum --set width");
  CHECK(set.exit_code == 2);
  CHECK(set.out.find("warpviz-cli run: --set width: expected NAME=VALUE") != std::string::npos);
  const std::string cu = std::string(WARPVIZ_SOURCE_DIR) + "/tests/user_files/my_sum.cu";
  const CommandResult grid = cli("run " + cu + " --grid 0");
  CHECK(grid.exit_code == 2);
  CHECK(grid.out.find("warpviz-cli run: --grid 0: expected X[,Y[,Z]], each a positive number") != std::string::npos);
  const CommandResult arg = cli("run " + cu + " --arg n");
  CHECK(arg.exit_code == 2);
  CHECK(arg.out.find("warpviz-cli run: --arg n: expected NAME=VALUE") != std::string::npos);
}

TEST_CASE("run wrong_mask.cu: a warning names lanes 16-31 and says the result is undefined", "[cli][mask]") {
  // A full mask inside if (threadIdx.x < 16): the run works, the kernel is wrong.
  const std::string cu = std::string(WARPVIZ_SOURCE_DIR) + "/tests/user_files/wrong_mask.cu";
  const CommandResult wrong = cli("run " + cu + " --input iota");
  CHECK(wrong.exit_code == 0);  // documented: a warning, not a failure
  CHECK(wrong.out.find("warning: ") != std::string::npos);
  CHECK(wrong.out.find("mask 0xffffffff names lanes 16-31") != std::string::npos);
  CHECK(wrong.out.find("the result is undefined") != std::string::npos);
  // A right mask says nothing of the kind.
  const std::string right = std::string(WARPVIZ_SOURCE_DIR) + "/tests/user_files/my_sum.cu";
  const CommandResult ok = cli("run " + right + " --input iota");
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.find("never arrived") == std::string::npos);
  const CommandResult scenario = cli("run warp_sum --input iota");
  CHECK(scenario.exit_code == 0);
  CHECK(scenario.out.find("never arrived") == std::string::npos);
}

TEST_CASE("bad input: clear messages and exit 2", "[cli][errors]") {
  const CommandResult unknown = cli("run warp_summ");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.out.find("valid scenarios: test_shuffle") != std::string::npos);
  const CommandResult param = cli("run warp_sum --set offset=3");
  CHECK(param.exit_code == 2);
  CHECK(param.out.find("valid parameters: dtype") != std::string::npos);
  const CommandResult input = cli("run warp_sum --input squares");
  CHECK(input.exit_code == 2);
  CHECK(input.out.find("valid forms") != std::string::npos);
  const CommandResult backend = cli("run warp_sum --backend tpu");
  CHECK(backend.exit_code == 2);
  CHECK(cli("frobnicate").exit_code == 2);
  CHECK(cli("run warp_sum --bogus").exit_code == 2);

  const fs::path dir = temp_dir();
  const fs::path junk = dir / "junk.wvt";
  std::ofstream(junk) << "definitely not a trace";
  const CommandResult corrupt = cli("dump " + junk.string());
  CHECK(corrupt.exit_code == 2);
  CHECK(corrupt.out.find("not a warpviz trace") != std::string::npos);
  const CommandResult missing = cli("dump " + (dir / "missing.wvt").string());
  CHECK(missing.exit_code == 2);
  CHECK(missing.out.find("cannot open") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("backend cuda without a GPU: a message, exit 2", "[cli][errors]") {
  const CommandResult r = cli("run warp_sum --backend cuda");
  if (warpviz::cuda_backend_available(nullptr)) {
    CHECK(r.exit_code == 0);  // a GPU is here: it records
  } else {
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("--backend cuda") != std::string::npos);
  }
  CHECK(cli("run warp_sum --backend cpu").exit_code == 0);
}

TEST_CASE("every command has --help", "[cli]") {
  for (const char* command : {"list", "run", "dump", "diff", "bench"}) {
    const CommandResult r = cli(std::string(command) + " --help");
    INFO(command);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("usage: warpviz-cli") != std::string::npos);
  }
  CHECK(cli("--help").exit_code == 0);
}

// ---------------------------------------------------------------------------
// The shared-memory bank scenarios
// ---------------------------------------------------------------------------

// A count of one is singular, more plural: "1 step recorded", "1 wavefront,
// 0 conflicts", "32 wavefronts, 31 conflicts" (cli/main.cpp's counted).
TEST_CASE("run prints 1 step, 1 wavefront and 2 steps, 32 wavefronts", "[cli][bank][words]") {
  const CommandResult padded = cli("run bank --backend cpu --set pattern=column --set cols=33");
  REQUIRE(padded.exit_code == 0);
  CHECK(padded.out.find(": 1 step recorded") != std::string::npos);
  CHECK(padded.out.find("1 wavefront, 0 conflicts") != std::string::npos);
  CHECK(padded.out.find("1 steps") == std::string::npos);
  CHECK(padded.out.find("1 wavefronts") == std::string::npos);
  const CommandResult unpadded = cli("run bank --backend cpu --set pattern=column --set cols=32");
  REQUIRE(unpadded.exit_code == 0);
  CHECK(unpadded.out.find("32 wavefronts, 31 conflicts") != std::string::npos);
  const CommandResult sum = cli("run warp_sum --backend cpu");
  REQUIRE(sum.exit_code == 0);
  CHECK(sum.out.find(": 10 steps recorded") != std::string::npos);
}

// The acceptance check of issue 5. The JSON's per-step "wavefronts" and
// "conflicts" come from the bank model (trace_json.cpp, helper core).
TEST_CASE("run bank column reads --json: 32 wavefronts unpadded, 1 padded", "[cli][acceptance][bank]") {
  for (const auto& [cols, wavefronts, conflicts] : {std::tuple{"32", 32, 31}, std::tuple{"33", 1, 0}}) {
    INFO("cols=" << cols);
    int exit_code = -1;
    const std::string out = cli_stdout(
        std::string("run bank --backend cpu --set pattern=column --set cols=") + cols + " --json", &exit_code);
    REQUIRE(exit_code == 0);
    const nlohmann::json j = nlohmann::json::parse(out);
    REQUIRE(j["steps"].size() == 1);
    const nlohmann::json& step = j["steps"][0];
    CHECK(step["op"] == "ld.shared");
    CHECK(step["wavefronts"] == wavefronts);
    CHECK(step["conflicts"] == conflicts);
    // Lane l reads tile[l][0]: l * cols * 4 bytes from the tile's start.
    const int stride = std::stoi(cols) * 4;
    for (int lane = 0; lane < 32; ++lane) {
      CHECK(step["lanes"][lane]["addr"] == lane * stride);
      CHECK(step["lanes"][lane]["bytes"] == 4);
    }
  }
}

TEST_CASE("run bank: the summary lists the shared step and the article's claim", "[cli][bank]") {
  const CommandResult r = cli("run bank --backend cpu --set pattern=column --set cols=32");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("ld.32") != std::string::npos);
  CHECK(r.out.find("32 wavefronts, 31 conflicts") != std::string::npos);
  CHECK(r.out.find("seed claim holds") != std::string::npos);
  const CommandResult store = cli("run bank --backend cpu --set pattern=row --set op=store --set elem=16");
  CHECK(store.exit_code == 0);
  CHECK(store.out.find("st.128") != std::string::npos);
  CHECK(store.out.find("4 wavefronts, 0 conflicts") != std::string::npos);  // four quarter-warp phases
}

TEST_CASE("run bank: bad parameters exit 2 and say what is valid", "[cli][errors][bank]") {
  const CommandResult elem = cli("run bank --set elem=3");
  CHECK(elem.exit_code == 2);
  CHECK(elem.out.find("valid values are 1, 2, 4, 8, 16") != std::string::npos);
  const CommandResult custom = cli("run bank --set pattern=custom");
  CHECK(custom.exit_code == 2);
  CHECK(custom.out.find("needs addrs") != std::string::npos);
  const CommandResult stray = cli("run bank --set addrs=0,4");
  CHECK(stray.exit_code == 2);
  CHECK(stray.out.find("only read with pattern=custom") != std::string::npos);
  const CommandResult few = cli("run bank --set pattern=custom --set addrs=0,4,8");
  CHECK(few.exit_code == 2);
  CHECK(few.out.find("exactly 32") != std::string::npos);
  const CommandResult n = cli("run transpose --set n=48");
  CHECK(n.exit_code == 2);
  CHECK(n.out.find("multiple of 32") != std::string::npos);
}

namespace {

// The CLI with its memory capped at 512 MB: a reader that tries to allocate by
// a hostile count fails (exit 3, or a sanitizer's report) instead of taking the
// machine. AddressSanitizer reserves terabytes of address space for its shadow,
// so under it `ulimit -v` would stop the CLI before main; its own caps on one
// allocation and on the resident size stand in.
#if defined(__SANITIZE_ADDRESS__)
CommandResult cli_bounded(const std::string& args) {
  return run_cli(args, true, "ASAN_OPTIONS=\"max_allocation_size_mb=512:hard_rss_limit_mb=512:$ASAN_OPTIONS\" ");
}
// A sanitized CLI takes a good part of a second just to start (it maps its
// shadow memory first), so the bound is looser there; the plain suite holds
// the second.
constexpr double kHostileSeconds = 5.0;
#else
CommandResult cli_bounded(const std::string& args) { return run_cli(args, true, "ulimit -v 524288; "); }
constexpr double kHostileSeconds = 1.0;
#endif

void store_le(std::string& s, size_t at, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s[at + size_t(i)] = char(uint8_t(v >> (8 * i)));
}

std::string file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("dump: hostile files exit 2 with a message, in bounded memory and time", "[cli][errors][hostile]") {
  const fs::path dir = temp_dir() / "hostile";
  fs::create_directories(dir);
  // Built by hand (trace_binary.cpp's layout): magic, version 2, a claimed size
  // of 1 TiB, 66 bytes of empty metadata with a 1x1x1 launch, then an output
  // count of 4294967295 (or 10^8) and the start of an output.
  std::string head = "WARPVIZT";
  head += std::string(12, '\0');
  store_le(head, 8, 2, 4);
  store_le(head, 12, uint64_t(1) << 40, 8);
  std::string meta(66, '\0');
  for (size_t at : {13, 17, 21, 25, 29, 33}) meta[at] = 1;  // grid and block x, y, z = 1
  head += meta;
  REQUIRE(head.size() == 86);

  std::string f95 = head + std::string(4, '\0') + std::string(4, '\0') + char(1);
  store_le(f95, 86, 0xffffffffu, 4);
  std::string f123 = head + std::string(4, '\0') + std::string(4, '\0') + char(1) + char(4) + std::string(8, '\0') +
                     std::string(19, '\x11');
  store_le(f123, 86, 100'000'000, 4);
  store_le(f123, 96, uint64_t(1) << 36, 8);
  REQUIRE(f95.size() == 95);
  REQUIRE(f123.size() == 123);
  for (const auto& [name, bytes] : {std::pair{"95.wvt", f95}, std::pair{"123.wvt", f123}}) {
    INFO(name);
    const fs::path path = dir / name;
    std::ofstream(path, std::ios::binary) << bytes;
    const auto start = std::chrono::steady_clock::now();
    const CommandResult r = cli_bounded("dump " + path.string());
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < kHostileSeconds);
    CHECK(r.exit_code == 2);
    CHECK(r.out == "warpviz-cli dump: " + path.string() + ": truncated (the output list is cut off)\n");
  }

  const auto start = std::chrono::steady_clock::now();
  const CommandResult zero = cli_bounded("dump /dev/zero");
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < kHostileSeconds);
  CHECK(zero.exit_code == 2);
  CHECK(zero.out == "warpviz-cli dump: /dev/zero: not a warpviz trace (neither the binary nor the JSON form)\n");

  // A stream that looks like JSON but never ends stops at the limit, which the
  // option and the environment set.
  const std::string endless = "(printf '{'; head -c 3000000 /dev/zero | tr '\\0' ' ') | ";
  const CommandResult limited = run_cli("dump - --max-bytes 1M", true, endless);
  CHECK(limited.exit_code == 2);
  CHECK(limited.out.find("stdin: larger than the limit of 1048576 bytes for a trace (set WARPVIZ_MAX_TRACE_BYTES, or "
                         "pass --max-bytes to warpviz-cli, to raise it)") != std::string::npos);
  const CommandResult by_env = run_cli("dump -", true, endless + "WARPVIZ_MAX_TRACE_BYTES=2M ");
  CHECK(by_env.exit_code == 2);
  CHECK(by_env.out.find("larger than the limit of 2097152 bytes") != std::string::npos);
  CHECK(cli("dump x.wvt --max-bytes lots").exit_code == 2);
  fs::remove_all(dir);
}

TEST_CASE("dump - and diff - read a trace from a pipe", "[cli][files]") {
  const fs::path dir = temp_dir() / "pipes";
  fs::create_directories(dir);
  const std::string wvt = (dir / "x.wvt").string(), json = (dir / "x.json").string();
  REQUIRE(cli("run warp_sum -o " + wvt).exit_code == 0);
  REQUIRE(cli("run warp_sum -o " + json).exit_code == 0);
  const CommandResult from_file = cli("dump " + wvt);
  REQUIRE(from_file.exit_code == 0);

  // Before: "bad magic" (the sniffing seeked back on a pipe).
  const CommandResult piped = run_cli("dump -", true, "cat " + wvt + " | ");
  CHECK(piped.exit_code == 0);
  CHECK(piped.out == from_file.out);
  const CommandResult dev_stdin = run_cli("dump /dev/stdin", true, "cat " + wvt + " | ");
  CHECK(dev_stdin.exit_code == 0);
  CHECK(dev_stdin.out == from_file.out);
  const CommandResult piped_json = run_cli("dump -", true, "cat " + json + " | ");
  CHECK(piped_json.exit_code == 0);
  CHECK(piped_json.out == from_file.out);
  const CommandResult diff = run_cli("diff - " + json, true, "cat " + wvt + " | ");
  CHECK(diff.exit_code == 0);
  CHECK(diff.out.find("traces are identical") != std::string::npos);
  CHECK(cli("diff - -").exit_code == 2);
  fs::remove_all(dir);
}

TEST_CASE("run -o: keeps the mode, writes through a symlink, never touches X.tmp", "[cli][files]") {
  const fs::path dir = temp_dir() / "output";
  fs::create_directories(dir);
  const fs::path target = dir / "x.wvt", user_tmp = dir / "x.wvt.tmp";
  std::ofstream(user_tmp) << "the user's own file";
  std::ofstream(target) << "old";
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write);  // 600
  REQUIRE(cli("run warp_sum -o " + target.string()).exit_code == 0);
  CHECK(fs::status(target).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
  CHECK(file_bytes(user_tmp) == "the user's own file");
  CHECK(file_bytes(target).compare(0, 8, "WARPVIZT") == 0);
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 2);  // no temporary left

  const fs::path link = dir / "link.json";
  fs::create_symlink("x.wvt", link);
  const CommandResult through = cli("run warp_sum -o " + link.string());
  CHECK(through.exit_code == 0);
  CHECK(fs::is_symlink(link));
  CHECK(file_bytes(target).front() == '{');  // the JSON form, by the name given
  CHECK(fs::status(target).permissions() == (fs::perms::owner_read | fs::perms::owner_write));

  const CommandResult to_dir = cli("run warp_sum -o " + dir.string());
  CHECK(to_dir.exit_code == 2);
  CHECK(to_dir.out.find("cannot write " + dir.string() + ": Is a directory") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("run FILE.cu -o naming one of the run's sources exits 2 and leaves it as it was", "[cli][files][security]") {
  const fs::path dir = temp_dir() / "output-over-source";
  fs::create_directories(dir);
  const std::string kernel = "#include \"helper.cuh\"\n__global__ void k(int* out) { out[threadIdx.x] = twice(1); }\n";
  const std::string helper = "__device__ int twice(int v) { return 2 * v; }\n";
  std::ofstream(dir / "k.cu") << kernel;
  std::ofstream(dir / "helper.cuh") << helper;
  fs::create_symlink("k.cu", dir / "link.wvt");
  const std::string in_dir = "cd '" + dir.string() + "' && ";
  // The same file by another name, a link to it, or a file it includes.
  for (const std::string& out : std::vector<std::string>{"k.cu", "./k.cu", (dir / "k.cu").string(), "link.wvt",
                                                         "helper.cuh", "./helper.cuh"}) {
    const CommandResult r = run_cli("run k.cu -o " + out, true, in_dir);
    INFO(out << ": " << r.out);
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("a source of this run") != std::string::npos);
  }
  CHECK(file_bytes(dir / "k.cu") == kernel);
  CHECK(file_bytes(dir / "helper.cuh") == helper);
  fs::remove_all(dir);
}

TEST_CASE("a copied warpviz-cli finds its kit beside itself and nowhere else", "[cli][kit][security]") {
  // Prepare: the binary alone in a folder of its own, no kit beside it.
  const fs::path dir = temp_dir() / "copied";
  fs::remove_all(dir);
  fs::create_directories(dir / "bin");
  fs::copy_file(WARPVIZ_CLI_PATH, dir / "bin" / "warpviz-cli");
  std::ofstream(dir / "k.cu") << "__global__ void k(int* out) { out[threadIdx.x] = 1; }\n";
  const std::string copied = "cd '" + dir.string() + "' && env -u WARPVIZ_KIT WARPVIZ_CACHE_DIR='" +
                             (dir / "cache").string() + "' ./bin/warpviz-cli run k.cu 2>&1";
  auto run_copied = [&] {
    CommandResult r;
    FILE* pipe = popen(copied.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.out.append(buffer, n);
    const int status = pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
  };
  // Run, Verify: the build tree's kit is not found from there.
  const CommandResult alone = run_copied();
  INFO(alone.out);
  CHECK(alone.exit_code == 2);
  CHECK(alone.out.find("cannot find its kit") != std::string::npos);
  CHECK(alone.out.find((dir / "share" / "warpviz" / "kit").string()) != std::string::npos);
  // The build's kit linked in as PREFIX/share/warpviz/kit: found, relative to the binary.
  fs::create_directories(dir / "share" / "warpviz");
  fs::create_directory_symlink(fs::path(WARPVIZ_CLI_PATH).parent_path().parent_path() / "kit",
                               dir / "share" / "warpviz" / "kit");
  const CommandResult with_kit = run_copied();
  INFO(with_kit.out);
  CHECK(with_kit.exit_code == 0);
  fs::remove_all(dir);
}
