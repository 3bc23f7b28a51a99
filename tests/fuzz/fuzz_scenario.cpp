// libFuzzer target: the --set / --input parsers. The bytes are lines:
//   line 1          the scenario name
//   "@SPEC"         the --input spec (the last one wins)
//   "NAME=VALUE"    a --set, in order (a line without '=' is NAME with "")
// resolve_scenario gets the request; parse_input_spec / make_input_values get
// every "@" spec on their own too. Every failure must be a ScenarioError.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <typeinfo>

#include "fuzz_common.h"
#include "warpviz/input_spec.h"
#include "warpviz/scenario.h"

using namespace warpviz;

namespace {

void input_alone(std::string_view spec_text, size_t line_index) {
  InputSpec spec;
  try {
    spec = parse_input_spec(spec_text);
  } catch (const ScenarioError&) {
    return;
  } catch (const std::exception& e) {
    fuzz::finding(std::string("parse_input_spec threw ") + typeid(e).name() + ": " + e.what());
  }
  // A dtype and a count chosen by the spec's length and line: small counts keep it fast.
  const DType dtype = DType((spec_text.size() + line_index) % kDTypeCount);
  const size_t count = spec.items.empty() ? (line_index * 7) % 65 : spec.items.size();
  try {
    const std::vector<uint64_t> values = make_input_values(spec, dtype, count);
    if (values.size() != count) fuzz::finding("make_input_values returned the wrong count");
  } catch (const ScenarioError&) {
  } catch (const std::exception& e) {
    fuzz::finding(std::string("make_input_values threw ") + typeid(e).name() + ": " + e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ScenarioRequest request;
  size_t at = 0, line_index = 0;
  while (at <= text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(at, end - at);
    if (line_index == 0) {
      request.scenario = std::string(line);
    } else if (!line.empty() && line[0] == '@') {
      request.input = std::string(line.substr(1));
      input_alone(line.substr(1), line_index);
    } else if (!line.empty()) {
      const size_t eq = line.find('=');
      if (eq == std::string_view::npos)
        request.sets.emplace_back(std::string(line), "");
      else
        request.sets.emplace_back(std::string(line.substr(0, eq)), std::string(line.substr(eq + 1)));
    }
    ++line_index;
    at = end + 1;
  }
  try {
    const ResolvedScenario resolved = resolve_scenario(request);
    if (!resolved.spec) fuzz::finding("resolve_scenario returned no scenario");
  } catch (const ScenarioError&) {
  } catch (const std::exception& e) {
    fuzz::finding(std::string("resolve_scenario threw ") + typeid(e).name() + ": " + e.what());
  }
  return 0;
}
