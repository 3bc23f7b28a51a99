// warpviz-cli list: the scenarios, their parameters and defaults.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli_command.h"
#include "warpviz/scenario.h"

namespace warpviz::cli {

namespace {

const char* kind_name(ParamKind kind) {
  switch (kind) {
    case ParamKind::Int: return "int";
    case ParamKind::Mask: return "mask";
    case ParamKind::Choice: return "choice";
    case ParamKind::Text: return "text";
  }
  return "?";
}

void print_json() {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ScenarioSpec& s : scenario_specs()) {
    nlohmann::ordered_json params = nlohmann::ordered_json::array();
    for (const ParamSpec& p : s.params) {
      nlohmann::ordered_json j{{"name", p.name}, {"kind", kind_name(p.kind)}, {"default", p.default_value},
                               {"help", p.help}};
      if (!p.choices.empty()) j["choices"] = p.choices;
      if (p.kind == ParamKind::Int) j["range"] = {p.min, p.max};
      params.push_back(j);
    }
    list.push_back({{"name", s.name}, {"summary", s.summary}, {"summary_zh", s.summary_zh}, {"source", s.source_path},
                    {"kernel", s.kernel},
                    {"default_input", s.default_input}, {"params", params}});
  }
  std::cout << list.dump(1) << "\n";
}

void print_table() {
  for (const ScenarioSpec& s : scenario_specs()) {
    std::cout << s.name << "\n    " << s.summary << "\n";
    if (!s.summary_zh.empty()) std::cout << "    " << s.summary_zh << "\n";  // the app's L shows this one
    std::cout << "    source " << s.source_path << " (" << s.kernel
              << "), input default " << s.default_input << "\n";
    for (const ParamSpec& p : s.params) {
      std::cout << "    --set " << p.name << "=" << p.default_value;
      if (!p.choices.empty()) {
        std::cout << "  [";
        for (size_t i = 0; i < p.choices.size(); ++i) std::cout << (i ? "|" : "") << p.choices[i];
        std::cout << "]";
      }
      std::cout << "  " << p.help << "\n";
    }
  }
}

}  // namespace

int run_list(const Args& args) {
  if (!args.empty() && is_user_file(args[0])) return run_list_file(args[0]);
  if (wants_help(args)) {
    std::cout << "usage: warpviz-cli list [--json]\n  Lists every scenario with its parameters and defaults.\n";
    return 0;
  }
  bool json = false;
  for (const auto& a : args) {
    if (a == "--json") json = true;
    else throw UsageError("unknown option '" + a + "'; valid options: --json");
  }
  if (json) print_json();
  else print_table();
  return 0;
}

}  // namespace warpviz::cli
