// The SVG export of one step: a well-formed XML document (parsed by Python's
// xml.dom.minidom, which the build's glad generator needs anyway) whose
// <text> elements hold every lane's values, as the emulator's trace has them.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "warpviz/backends.h"
#include "warpviz/bank_model.h"
#include "warpviz/scenario.h"
#include "warpviz/view/play_order.h"
#include "warpviz/view/svg_export.h"

using namespace warpviz;
using namespace warpviz::view;
namespace fs = std::filesystem;

namespace {

// Parses `svg` with minidom and returns each <text>'s class and content as
// "class\ttext" lines; an empty vector with `error` set when it does not parse.
std::vector<std::pair<std::string, std::string>> parsed_texts(const std::string& svg, std::string* error) {
  const fs::path dir = fs::temp_directory_path() / ("warpviz_svg_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path in = dir / "step.svg", out = dir / "texts.txt";
  std::ofstream(in, std::ios::binary) << svg;
  const std::string command =
      "python3 -c \"import sys, xml.dom.minidom as m\n"
      "d = m.parse(sys.argv[1])\n"
      "assert d.documentElement.tagName == 'svg'\n"
      "for t in d.getElementsByTagName('text'):\n"
      "  print(t.getAttribute('class') + '\\t' + ''.join(n.data for n in t.childNodes if n.nodeType == n.TEXT_NODE))\n"
      "\" '" + in.string() + "' > '" + out.string() + "' 2>&1";
  const int rc = std::system(command.c_str());
  std::ifstream lines(out);
  std::vector<std::pair<std::string, std::string>> texts;
  std::string line, all;
  while (std::getline(lines, line)) {
    all += line + "\n";
    const size_t tab = line.find('\t');
    if (tab != std::string::npos) texts.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  fs::remove_all(dir);
  if (rc != 0) {
    *error = "minidom: " + all;
    texts.clear();
  }
  return texts;
}

}  // namespace

TEST_CASE("svg export: warp_sum step 2 parses as XML and holds the 32 lanes' values as text", "[view][svg]") {
  // Prepare: warp_sum on the emulator, the step the app shows at --step 2.
  if (std::system("python3 -c 'import xml.dom.minidom' >/dev/null 2>&1") != 0) {
    WARN("python3 with xml.dom.minidom is missing: the SVG is not parsed");
    return;
  }
  const Trace trace = run_scenario_cpu(resolve_scenario({"warp_sum", {}, ""}), {});
  const PlayOrder order(trace, PlayOrderKind::Causal);
  REQUIRE(order.size() >= 2);
  // Step 2 is round 1's watch of val: it shows its shuffle's lanes (the
  // step before it in the warp) with the watched values in a third row.
  const size_t index = order.step_at(1);
  REQUIRE(trace.steps[index].op == Op::Watch);
  REQUIRE(index > 0);
  const TraceStep& step = trace.steps[index - 1];
  const TraceStep& watch = trace.steps[index];
  REQUIRE(op_is_shuffle(step.op));
  REQUIRE((step.dtype == DType::I32 || step.dtype == DType::F32));
  // A lane's 32 bits as the number they hold.
  const auto number = [&](uint64_t bits) {
    if (step.dtype == DType::I32) return double(int32_t(uint32_t(bits)));
    float f = 0;
    const uint32_t word = uint32_t(bits);
    std::memcpy(&f, &word, sizeof f);
    return double(f);
  };
  const auto numbers_of = [](const std::multiset<std::string>& texts) {
    std::multiset<double> out;
    for (const std::string& t : texts) out.insert(std::stod(t));
    return out;
  };

  // Run
  std::string error;
  const auto texts = parsed_texts(step_svg(trace, order, 1, {}), &error);

  // Verify: every lane's number, its value going in and the value it got back,
  // each in a <text> of its row, as the trace's own bits read in decimal.
  INFO(error);
  REQUIRE(!texts.empty());
  std::map<std::string, std::multiset<std::string>> by_class;
  for (const auto& [css_class, content] : texts) by_class[css_class].insert(content);
  REQUIRE(by_class["lane-number"].size() == kWarpSize);
  REQUIRE(by_class["value-in"].size() == kWarpSize);
  REQUIRE(by_class["value-out"].size() == kWarpSize);
  std::multiset<std::string> want_numbers;
  std::multiset<double> want_in, want_out, want_after;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    want_numbers.insert(std::to_string(lane));
    want_in.insert(number(step.lanes[lane].in));
    want_out.insert(number(step.lanes[lane].out));
    want_after.insert(number(watch.lanes[lane].out));
  }
  CHECK(by_class["lane-number"] == want_numbers);
  CHECK(numbers_of(by_class["value-in"]) == want_in);
  CHECK(numbers_of(by_class["value-out"]) == want_out);
  CHECK(numbers_of(by_class["value-after"]) == want_after);
  // The header names the op, as the lane panel's does.
  REQUIRE(by_class["header"].size() == 1);
  CHECK(by_class["header"].begin()->find("shfl") != std::string::npos);
}

TEST_CASE("svg export: a shared-memory step draws the bank chart, one box per wavefront", "[view][svg]") {
  if (std::system("python3 -c 'import xml.dom.minidom' >/dev/null 2>&1") != 0) {
    WARN("python3 with xml.dom.minidom is missing: the SVG is not parsed");
    return;
  }
  // tile[32][32] read by column: every lane's word is in bank 0, 32 wavefronts.
  const Trace trace = run_scenario_cpu(resolve_scenario({"bank", {{"pattern", "column"}, {"cols", "32"}}, ""}), {});
  const PlayOrder order(trace, PlayOrderKind::Causal);
  size_t shared_position = SIZE_MAX;
  for (size_t pos = 0; pos < order.size() && shared_position == SIZE_MAX; ++pos)
    if (trace.steps[order.step_at(pos)].op == Op::LoadShared) shared_position = pos;
  REQUIRE(shared_position != SIZE_MAX);

  std::string error;
  const auto texts = parsed_texts(step_svg(trace, order, shared_position, {}), &error);
  INFO(error);
  REQUIRE(!texts.empty());
  size_t bank_numbers = 0, boxes = 0;
  std::string title;
  for (const auto& [css_class, content] : texts) {
    bank_numbers += css_class == "bank-number";
    boxes += css_class == "bank-lanes";
    if (css_class == "bank-title") title = content;
  }
  CHECK(bank_numbers == kSharedBanks);
  CHECK(boxes == 32);  // 32 distinct words in one bank: a tower of 32
  CHECK(title == "ld.shared  wavefronts 32");
}

TEST_CASE("svg export: XML text is escaped", "[view][svg]") {
  CHECK(xml_escape("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
  CHECK(xml_escape(std::string("x\x01y")) == "x\xEF\xBF\xBDy");
  CHECK(xml_escape("val 相加之后") == "val 相加之后");
}
