// Runs the built warpviz-cli the way a user does (a shell command line), for
// the CLI tests: its output and exit code. WARPVIZ_CLI_PATH comes from CMake.
#pragma once

#include <sys/wait.h>

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

namespace warpviz::test {

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout, and stderr with it unless only stdout was asked for
};

// A shell command line: its stdout and exit code (-1 when a signal ended it).
inline CommandResult run_command(const std::string& command) {
  CommandResult r;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 65536> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.out.append(buffer.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// stderr goes with stdout unless only stdout is wanted (JSON). `shell_before` is
// shell text run first, in the same shell: "ulimit -v 500000; ", "cat x.wvt | ".
inline CommandResult run_cli(const std::string& args, bool with_stderr = true, const std::string& shell_before = "") {
  return run_command(shell_before + std::string(WARPVIZ_CLI_PATH) + " " + args +
                     (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

inline CommandResult cli(const std::string& args) { return run_cli(args, true); }

}  // namespace warpviz::test
