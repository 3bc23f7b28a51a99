#include "warpviz/view/run_options.h"

#include <charconv>
#include <utility>

#include "warpviz/view/user_file_session.h"

namespace warpviz::view {

namespace {

// "--set width" + ": expected NAME=VALUE"; the value is quoted by neither
// program, as a shell user typed it.
RunOption bad(std::string* error, const std::string& option, const std::string& value, const char* expected) {
  if (error) *error = option + " " + value + ": expected " + expected;
  return RunOption::Bad;
}

bool name_value(const std::string& text, std::pair<std::string, std::string>* out) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  *out = {text.substr(0, eq), text.substr(eq + 1)};
  return true;
}

}  // namespace

bool is_scenario_option(const std::string& option) { return option == "--set" || option == "--input"; }

bool is_file_option(const std::string& option) {
  return option == "--kernel" || option == "--grid" || option == "--block" || option == "--shared" ||
         option == "--arg" || option == "--len" || option == "--input" || option == "--set";
}

RunOption take_scenario_option(const std::string& option, const std::string& value, ScenarioRequest* request,
                               std::string* error) {
  if (option == "--input") {
    request->input = value;
    return RunOption::Taken;
  }
  if (option != "--set") return RunOption::NotOne;
  std::pair<std::string, std::string> pair;
  if (!name_value(value, &pair)) return bad(error, option, value, "NAME=VALUE");
  request->sets.push_back(std::move(pair));
  return RunOption::Taken;
}

RunOption take_file_option(const std::string& option, const std::string& value, user::FileRequest* request,
                           std::string* error) {
  if (option == "--kernel") {
    request->kernel = value;
  } else if (option == "--grid" || option == "--block") {
    if (!parse_dims(value, option == "--grid" ? &request->grid : &request->block, nullptr))
      return bad(error, option, value, "X[,Y[,Z]], each a positive number");
  } else if (option == "--shared") {
    size_t bytes = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), bytes);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size())
      return bad(error, option, value, "a number of bytes");
    request->shared = bytes;
  } else if (option == "--arg" || option == "--len") {
    std::pair<std::string, std::string> pair;
    if (!name_value(value, &pair)) return bad(error, option, value, option == "--arg" ? "NAME=VALUE" : "NAME=N");
    (option == "--arg" ? request->args : request->lens).push_back(std::move(pair));
  } else if (option == "--input") {
    request->inputs.push_back(parse_input_option(value));
  } else if (option == "--set") {
    std::pair<std::string, std::string> pair;
    if (!name_value(value, &pair)) return bad(error, option, value, "NAME=VALUE");
    request->sets.push_back(std::move(pair));
  } else {
    return RunOption::NotOne;
  }
  return RunOption::Taken;
}

}  // namespace warpviz::view
