// The SVG export of one step: a well-formed XML document (parsed by Python's
// xml.dom.minidom, which the build's glad generator needs anyway) whose
// <text> elements hold every lane's values, as the emulator's trace has them.
#include <catch2/catch.hpp>
#include <bit>
#include <optional>
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
#include "warpviz/view/bank_view.h"
#include "warpviz/view/play_order.h"
#include "warpviz/view/svg_export.h"

// stb's own code, not ours: its warnings are not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#pragma GCC diagnostic pop

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
  CHECK(title == "ld.shared  32 wavefronts  \u00b7  31 conflicts");
}

TEST_CASE("svg export: XML text is escaped", "[view][svg]") {
  CHECK(xml_escape("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
  CHECK(xml_escape(std::string("x\x01y")) == "x\xEF\xBF\xBDy");
  CHECK(xml_escape("val 相加之后") == "val 相加之后");
}

// ---- each op's SVG as renderers draw it ----------------------------------------

namespace {

struct Picture {
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;
  bool near(int x, int y, int r, int g, int b, int tolerance) const {
    const unsigned char* px = &rgb[(size_t(y) * size_t(w) + size_t(x)) * 3];
    return std::abs(px[0] - r) <= tolerance && std::abs(px[1] - g) <= tolerance && std::abs(px[2] - b) <= tolerance;
  }
};

// `svg` rendered to PNG by `command` (with IN and OUT in it), decoded; w = 0 when it failed.
Picture rendered(const std::string& svg, const std::string& name, const std::string& command_template) {
  const fs::path dir = fs::temp_directory_path() / ("warpviz_svg_render_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path in = dir / (name + ".svg"), out = dir / (name + ".png");
  std::ofstream(in, std::ios::binary) << svg;
  std::string command = command_template;
  command.replace(command.find("IN"), 2, in.string());
  command.replace(command.find("OUT"), 3, out.string());
  Picture picture;
  if (std::system((command + " >/dev/null 2>&1").c_str()) != 0) return picture;
  int channels = 0;
  unsigned char* data = stbi_load(out.string().c_str(), &picture.w, &picture.h, &channels, 3);
  if (!data) return Picture{};
  picture.rgb.assign(data, data + size_t(picture.w) * size_t(picture.h) * 3);
  stbi_image_free(data);
  // Kept for a look: build/.../svg_renders when WARPVIZ_SVG_RENDERS names a folder.
  if (const char* keep = std::getenv("WARPVIZ_SVG_RENDERS")) fs::copy_file(out, fs::path(keep) / (name + ".png"),
                                                                             fs::copy_options::overwrite_existing);
  fs::remove_all(dir);
  return picture;
}

struct OpCase {
  const char* name;
  ScenarioRequest request;
  Op op;
};

std::vector<OpCase> op_cases() {
  return {{"shuffle", {"warp_sum", {}, ""}, Op::ShflDown},
          {"vote", {"vote", {}, ""}, Op::Ballot},
          {"match", {"match", {}, ""}, Op::MatchAny},
          {"redux", {"redux", {}, ""}, Op::ReduxAdd},
          {"bank", {"bank", {{"pattern", "column"}, {"cols", "32"}}, ""}, Op::LoadShared},
          {"transpose", {"transpose", {}, ""}, Op::StoreShared}};
}

// The play position of the first step of `op` (any step when none is).
size_t position_of(const Trace& trace, const PlayOrder& order, Op op) {
  for (size_t pos = 0; pos < order.size(); ++pos)
    if (trace.steps[order.step_at(pos)].op == op) return pos;
  return SIZE_MAX;
}

// What every renderer must show: the header starts at the left margin (its
// first ink within a few px of it, none in the strip left of it: a centred
// anchor put half the header out of the picture), and nothing is cut at the
// right edge; the picture is the SVG's size.
void check_picture(const Picture& picture, const std::string& what, float width) {
  INFO(what);
  REQUIRE(picture.w == int(width));
  const float margin = std::max(12.0f, 0.02f * width), header_h = std::max(40.0f, width * 0.03f);
  // The ground is #16181d; the header's ink #e8ecf2.
  int first_ink = -1, ink = 0;
  for (int x = 0; x < picture.w && first_ink < 0; ++x)
    for (int y = 0; y < int(header_h); ++y)
      if (picture.near(x, y, 0xe8, 0xec, 0xf2, 60)) first_ink = x;
  for (int x = 0; x < picture.w; ++x)
    for (int y = 0; y < int(header_h); ++y) ink += picture.near(x, y, 0xe8, 0xec, 0xf2, 60);
  CHECK(first_ink >= int(margin) - 2);
  CHECK(first_ink <= int(margin) + 12);
  CHECK(ink > 200);  // the header's letters, not a stray pixel
  // Nothing drawn in the strips left and right of the margins.
  int strays = 0;
  for (int y = 0; y < picture.h; ++y)
    for (int x : {0, 1, int(margin) / 2, picture.w - 1 - int(margin) / 2, picture.w - 1})
      strays += !picture.near(x, y, 0x16, 0x18, 0x1d, 24);
  CHECK(strays == 0);
}

}  // namespace

TEST_CASE("svg export: each op's SVG holds what the step shows (vote bits, bank tile and counts)", "[view][svg]") {
  for (const OpCase& c : op_cases()) {
    INFO(c.name);
    const Trace trace = run_scenario_cpu(resolve_scenario(c.request), {});
    const PlayOrder order(trace, PlayOrderKind::Causal);
    const size_t pos = position_of(trace, order, c.op);
    REQUIRE(pos != SIZE_MAX);
    const TraceStep& step = trace.steps[order.step_at(pos)];
    const std::string svg = step_svg(trace, order, pos, {});
    // No rule of the <style> may set an anchor: a rule beats every attribute.
    const size_t style = svg.find("<style>"), style_end = svg.find("</style>");
    REQUIRE(style != std::string::npos);
    CHECK(svg.substr(style, style_end - style).find("text-anchor") == std::string::npos);
    std::string error;
    const auto texts = parsed_texts(svg, &error);
    INFO(error);
    if (texts.empty() && error.empty()) continue;  // no python3: parsed_texts' callers warn
    std::multiset<std::string> out, tile_lanes;
    std::string title, summary;
    for (const auto& [css_class, content] : texts) {
      if (css_class == "value-out") out.insert(content);
      if (css_class == "bank-title") title = content;
      if (css_class == "vote-summary") summary = content;
    }
    if (c.op == Op::Ballot) {
      // 32 bits, lane N's bit of the ballot under lane N, and the mask once.
      const uint32_t ballot = uint32_t(step.lanes[0].out);
      CHECK(out.size() == kWarpSize);
      CHECK(out.count("1") == size_t(std::popcount(ballot)));
      CHECK(out.count("0") == kWarpSize - size_t(std::popcount(ballot)));
      char hex[16];
      std::snprintf(hex, sizeof hex, "0x%08x", ballot);
      size_t labels = 0;
      for (const auto& [css_class, content] : texts) labels += content.find(hex) != std::string::npos;
      CHECK(labels == 1);
      CHECK(summary.find(hex) != std::string::npos);
    }
    if (c.op == Op::LoadShared || c.op == Op::StoreShared) {
      const std::optional<BankFrame> frame = bank_frame(trace, order.step_at(pos));
      REQUIRE(frame);
      // Every cell of the tile is a rect; the touched ones say so.
      size_t cells = 0, touched = 0;
      for (size_t at = svg.find("class=\"tile-cell"); at != std::string::npos; at = svg.find("class=\"tile-cell", at + 1)) {
        ++cells;
        touched += svg.compare(at, 24, "class=\"tile-cell touched") == 0;
      }
      size_t want_touched = 0;
      for (const TileCell& cell : frame->cells) want_touched += cell.lanes != 0;
      CHECK(cells == size_t(frame->grid.rows) * size_t(frame->grid.cols));
      CHECK(touched == want_touched);
      CHECK(title.find(std::to_string(frame->analysis.wavefronts) + " wavefront") != std::string::npos);
      CHECK(title.find(std::to_string(frame->analysis.conflicts) + " conflict") != std::string::npos);
    }
  }
}

TEST_CASE("svg export: each op's SVG rendered by rsvg-convert", "[view][svg][render]") {
  if (std::system("command -v rsvg-convert >/dev/null 2>&1") != 0) {
    WARN("rsvg-convert is missing (Debian librsvg2-bin, scripts/install-deps.sh): the SVGs are not rendered");
    return;
  }
  for (const OpCase& c : op_cases()) {
    const Trace trace = run_scenario_cpu(resolve_scenario(c.request), {});
    const PlayOrder order(trace, PlayOrderKind::Causal);
    const size_t pos = position_of(trace, order, c.op);
    REQUIRE(pos != SIZE_MAX);
    const Picture picture = rendered(step_svg(trace, order, pos, {}), std::string("rsvg_") + c.name,
                                     "rsvg-convert -o 'OUT' 'IN'");
    check_picture(picture, std::string("rsvg-convert, ") + c.name, 1600);
  }
}

TEST_CASE("svg export: each op's SVG rendered by headless Chromium", "[view][svg][render]") {
  std::string chromium;
  for (const char* name : {"chromium", "chromium-browser"})
    if (chromium.empty() && std::system((std::string("command -v ") + name + " >/dev/null 2>&1").c_str()) == 0)
      chromium = name;
  if (chromium.empty()) {
    WARN("SKIP: chromium is missing (Debian chromium, not installed by scripts/install-deps.sh): the SVGs are "
         "rendered by rsvg-convert only");
    return;
  }
  for (const OpCase& c : op_cases()) {
    const Trace trace = run_scenario_cpu(resolve_scenario(c.request), {});
    const PlayOrder order(trace, PlayOrderKind::Causal);
    const size_t pos = position_of(trace, order, c.op);
    REQUIRE(pos != SIZE_MAX);
    const std::string svg = step_svg(trace, order, pos, {});
    const size_t h_at = svg.find("height=\"") + 8;
    const std::string height = svg.substr(h_at, svg.find('"', h_at) - h_at);
    const fs::path profile = fs::temp_directory_path() / ("warpviz_chromium_" + std::to_string(::getpid()));
    const Picture picture = rendered(
        svg, std::string("chromium_") + c.name,
        "timeout 120 " + chromium + " --headless --no-sandbox --disable-gpu --hide-scrollbars "
        "--disable-background-networking --disable-component-update --disable-sync --no-first-run "
        "--user-data-dir='" + profile.string() + "' --window-size=1600," + height + " --screenshot='OUT' 'file://IN'");
    fs::remove_all(profile);
    check_picture(picture, "chromium, " + std::string(c.name), 1600);
  }
}
