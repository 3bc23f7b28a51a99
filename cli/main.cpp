// warpviz-cli: run scenarios on the CPU emulator (or a GPU), dump and compare traces.
#include <cstdio>
#include <iostream>

#include "cli_command.h"
#include "warpviz/backends.h"
#include "warpviz/scenario.h"
#include "warpviz/trace_io.h"
#include "warpviz/version.h"
#include "warpviz/view/run_options.h"

namespace {

const char* const kUsage = R"(usage: warpviz-cli COMMAND [ARGS]

Commands:
  list [--json]                      the scenarios, their parameters and defaults
  list FILE.cu                       the kernels of your own file
  run SCENARIO [options]             run a scenario and write or print its trace
  run FILE.cu [options]              run your own kernel file (no GPU needed)
  new FILE.cu                        write a starter kernel file that runs as it is
  dump FILE [--json] [--hex]         a trace as a table (or its JSON form)
  diff A B                           compare two traces lane by lane (exit 1 if they differ)
  bench emulator [--threads 1,N]     time the CPU emulator on reduce_sum, by thread count
  bench load FILE...                 time loading trace files (lane records per second)
  bench corpus [--only REGEX]        time the corpus's real CUDA programs on the CPU emulator
  bench reload                       time a saved .cu file until its new trace is ready
  bench record                       what recording costs on the GPU
  bench reduce [--json FILE]         sums of 2^28 values on the GPU: 5 variants against CUB
  bench latency [--json FILE]        cycles per warp op on the GPU, against the article's claims
  profile SCENARIO -o FILE [options] record on the GPU, count shared-memory wavefronts with ncu

Run 'warpviz-cli COMMAND --help' for a command's options.
)";

}  // namespace

namespace warpviz::cli {

std::string counted(uint64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many.empty() ? one + "s" : many);
}

bool wants_help(const Args& args) {
  for (const auto& a : args)
    if (a == "-h" || a == "--help") return true;
  return false;
}

std::string option_value(const Args& args, size_t& i) {
  if (i + 1 >= args.size()) throw UsageError(args[i] + " needs a value");
  return args[++i];
}

bool take_request_option(const Args& args, size_t& i, ScenarioRequest& request) {
  if (!view::is_scenario_option(args[i])) return false;
  const std::string option = args[i];
  const std::string value = option_value(args, i);
  std::string error;
  if (view::take_scenario_option(option, value, &request, &error) == view::RunOption::Bad) throw UsageError(error);
  return true;
}

uint64_t max_bytes_value(const Args& args, size_t& i) {
  const std::string text = option_value(args, i);
  const auto n = warpviz::parse_byte_count(text);
  if (!n) throw UsageError("--max-bytes takes a byte count such as 4096, 512M or 2G, got '" + text + "'");
  return *n;
}

}  // namespace warpviz::cli

int main(int argc, char** argv) {
  using namespace warpviz::cli;
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const std::string command = argv[1];
  const Args args(argv + 2, argv + argc);
  try {
    if (command == "-h" || command == "--help" || command == "help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (command == "--version") {
      std::cout << warpviz::tool_version() << "\n";
      return 0;
    }
    if (command == "list") return run_list(args);
    if (command == "run") return run_run(args);
    if (command == "dump") return run_dump(args);
    if (command == "diff") return run_diff(args);
    if (command == "bench") return run_bench(args);
    if (command == "profile") return run_profile(args);
    if (command == "new") return run_new_file(args);
    std::cerr << "warpviz-cli: unknown command '" << command
              << "'; valid commands: list, run, new, dump, diff, bench, profile\n";
    return 2;
  } catch (const UsageError& e) {
    std::cerr << "warpviz-cli " << command << ": " << e.what() << " (see 'warpviz-cli " << command << " --help')\n";
    return 2;
  } catch (const warpviz::ScenarioError& e) {
    std::cerr << "warpviz-cli " << command << ": " << e.what() << "\n";
    return 2;
  } catch (const warpviz::BackendUnavailable& e) {
    std::cerr << "warpviz-cli " << command << ": " << e.what() << "\n";
    return 2;
  } catch (const warpviz::TraceFileError& e) {
    std::cerr << "warpviz-cli " << command << ": " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "warpviz-cli " << command << ": error: " << e.what() << "\n";
    return 3;
  }
}
