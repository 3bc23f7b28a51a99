// The command-line options that say what to run, parsed once for both
// command lines: `warpviz` (app/command_line.cpp) and `warpviz-cli run`
// (cli/cmd_run.cpp, cli/cmd_file.cpp). A built-in scenario takes --set
// NAME=VALUE and --input SPEC; a user's .cu file takes --kernel, --grid,
// --block, --shared, --arg, --len, --input [NAME=]SPEC and --set. Both
// programs say the same thing about a bad value, e.g.
//   --set width: expected NAME=VALUE
//   --grid 0: expected X[,Y[,Z]], each a positive number
// The callers fetch the value (and say "--set needs a value") themselves.
#pragma once

#include <string>

#include "warpviz/scenario.h"
#include "warpviz/user_file.h"

namespace warpviz::view {

enum class RunOption {
  NotOne,  // not an option of this kind of run: the caller's own
  Taken,   // applied to the request
  Bad,     // one, but its value does not parse: `error` says why
};

// Whether `option` is one of the scenario options, or one of a .cu file's
// (each takes a value).
bool is_scenario_option(const std::string& option);
bool is_file_option(const std::string& option);

// --set NAME=VALUE (appended to request.sets) and --input SPEC (the last one
// given wins: a scenario has one input).
RunOption take_scenario_option(const std::string& option, const std::string& value, ScenarioRequest* request,
                               std::string* error);

// A .cu file's options: --kernel NAME, --grid and --block X[,Y[,Z]], --shared
// BYTES, --arg NAME=VALUE, --len NAME=N, --input [NAME=]SPEC (repeatable;
// without a name, every input array) and --set NAME=VALUE (a parameter of a
// scenario the file declares).
RunOption take_file_option(const std::string& option, const std::string& value, user::FileRequest* request,
                           std::string* error);

}  // namespace warpviz::view
