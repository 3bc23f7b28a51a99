// The options that say what to run (view/run_options.h), which warpviz and
// warpviz-cli share: --set and --input for a scenario, a .cu file's launch
// options, and the one message each gives for a bad value.
#include <catch2/catch.hpp>

#include <string>
#include <utility>

#include "warpviz/view/run_options.h"

using namespace warpviz;
using namespace warpviz::view;
using Pair = std::pair<std::string, std::string>;

TEST_CASE("scenario options: --set appends NAME=VALUE pairs, the last --input wins", "[run_options]") {
  ScenarioRequest request;
  std::string error;
  CHECK(take_scenario_option("--set", "op=idx", &request, &error) == RunOption::Taken);
  CHECK(take_scenario_option("--set", "arg=a=b", &request, &error) == RunOption::Taken);  // the first '=' splits
  CHECK(take_scenario_option("--set", "width=", &request, &error) == RunOption::Taken);   // an empty value is the scenario's to judge
  CHECK(request.sets == std::vector<Pair>{{"op", "idx"}, {"arg", "a=b"}, {"width", ""}});
  CHECK(take_scenario_option("--input", "iota", &request, &error) == RunOption::Taken);
  CHECK(take_scenario_option("--input", "random:7", &request, &error) == RunOption::Taken);
  CHECK(request.input == "random:7");
  CHECK(error.empty());
  CHECK(is_scenario_option("--set"));
  CHECK_FALSE(is_scenario_option("--grid"));
  CHECK(take_scenario_option("--grid", "4", &request, &error) == RunOption::NotOne);
}

TEST_CASE("a --set without NAME= is refused with one message", "[run_options]") {
  ScenarioRequest request;
  std::string error;
  CHECK(take_scenario_option("--set", "width", &request, &error) == RunOption::Bad);
  CHECK(error == "--set width: expected NAME=VALUE");
  CHECK(take_scenario_option("--set", "=12", &request, &error) == RunOption::Bad);
  CHECK(error == "--set =12: expected NAME=VALUE");
  CHECK(request.sets.empty());
  // A .cu file's --set (a scenario it declares) says the same.
  user::FileRequest file;
  CHECK(take_file_option("--set", "width", &file, &error) == RunOption::Bad);
  CHECK(error == "--set width: expected NAME=VALUE");
}

TEST_CASE("a .cu file's options fill its request", "[run_options]") {
  user::FileRequest r;
  std::string error;
  for (const auto& [option, value] : std::vector<Pair>{{"--kernel", "reduce<float,256>"},
                                                       {"--grid", "4,2"},
                                                       {"--block", "256"},
                                                       {"--shared", "1024"},
                                                       {"--arg", "n=5"},
                                                       {"--len", "in=64"},
                                                       {"--input", "iota"},
                                                       {"--input", "b=random:3"},
                                                       {"--input", "values:1,2"},
                                                       {"--set", "op=add"}}) {
    INFO(option << " " << value);
    CHECK(is_file_option(option));
    CHECK(take_file_option(option, value, &r, &error) == RunOption::Taken);
  }
  CHECK(error.empty());
  CHECK(r.kernel == "reduce<float,256>");
  CHECK((r.grid.x == 4 && r.grid.y == 2 && r.grid.z == 1));
  CHECK((r.block.x == 256 && r.block.y == 1));
  CHECK(r.shared == 1024);
  CHECK(r.args == std::vector<Pair>{{"n", "5"}});
  CHECK(r.lens == std::vector<Pair>{{"in", "64"}});
  // An '=' before any ':' names the array; "values:1,2" names none.
  CHECK(r.inputs == std::vector<Pair>{{"", "iota"}, {"b", "random:3"}, {"", "values:1,2"}});
  CHECK(r.sets == std::vector<Pair>{{"op", "add"}});
  // Each program's own (--launch, --timeout, --backend) is not one.
  CHECK_FALSE(is_file_option("--launch"));
  CHECK(take_file_option("--timeout", "5", &r, &error) == RunOption::NotOne);
}

TEST_CASE("a .cu file's bad values say the option, the value and what was expected", "[run_options]") {
  user::FileRequest r;
  const auto error_of = [&](const std::string& option, const std::string& value) {
    std::string error;
    CHECK(take_file_option(option, value, &r, &error) == RunOption::Bad);
    return error;
  };
  CHECK(error_of("--grid", "0") == "--grid 0: expected X[,Y[,Z]], each a positive number");
  CHECK(error_of("--block", "1,2,3,4") == "--block 1,2,3,4: expected X[,Y[,Z]], each a positive number");
  CHECK(error_of("--block", "") == "--block : expected X[,Y[,Z]], each a positive number");
  CHECK(error_of("--shared", "-1") == "--shared -1: expected a number of bytes");
  CHECK(error_of("--shared", "1k") == "--shared 1k: expected a number of bytes");
  CHECK(error_of("--arg", "n") == "--arg n: expected NAME=VALUE");
  CHECK(error_of("--len", "=4") == "--len =4: expected NAME=N");
  // Nothing half-applied.
  CHECK((r.grid.x == 1 && r.block.x == 32 && r.shared == 0 && r.args.empty() && r.lens.empty()));
}
