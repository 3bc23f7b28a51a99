// One step as SVG: the header, the lanes (layout_lanes' rectangles), the
// arrows and, for a shared-memory step, the bank chart (bank_frame's boxes).
// The colours are the app's lane palette (app/lane_renderer.cpp) and bank
// colours (bank_colour), written as hex.
//
// Sections:
//   text        xml_escape, number formatting
//   palette     the two palettes
//   lanes       cells, numbers, values, arrows
//   banks       the bank chart
//   document    step_svg
#include "warpviz/view/svg_export.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <optional>

#include "warpviz/view/bank_view.h"
#include "warpviz/view/lane_view.h"

namespace warpviz::view {

// ---- text ---------------------------------------------------------------------

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 allows no control characters but tab, newline and return.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
          out += "\xEF\xBF\xBD";
        else
          out += c;
    }
  }
  return out;
}

namespace {

// Coordinates with one decimal: exact enough for print, short enough to read.
std::string num(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", double(v));
  std::string s = buf;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s == "-0" ? "0" : s;
}

// ---- palette ------------------------------------------------------------------

struct SvgPalette {
  const char *background, *in_fill, *in_border, *out_fill, *out_border, *after_fill, *after_border;
  const char *kept_fill, *kept_border, *undefined_fill, *undefined_border;
  const char *read_arrow, *kept_arrow, *undefined_arrow;
  const char *text, *inactive_text, *undefined_text, *lane_number, *header, *chart_ground;
};

// The app's palettes (Okabe-Ito hues: sky blue read arrows, bluish green out
// cells, vermillion for undefined results), the second for projectors.
constexpr SvgPalette kNormal{"#16181d", "#263242", "#5c7ea0", "#163a34", "#009e73", "#3a2234", "#cc79a7",
                             "#2c3036", "#969aa0", "#46180a", "#d55e00", "#56b4e9", "#969aa0", "#e6501e",
                             "#e8ecf2", "#6e7076", "#ffd6c4", "#969eaa", "#e8ecf2", "#181920"};
constexpr SvgPalette kHighContrast{"#000000", "#0a1628", "#78c8ff", "#00241a", "#28e6aa", "#280a22", "#f08cc8",
                                   "#181818", "#dcdcdc", "#3c0a00", "#ff5a14", "#6ec8ff", "#dcdcdc", "#ff501e",
                                   "#ffffff", "#8c8c8c", "#ffc8aa", "#dcdcdc", "#ffffff", "#101010"};

std::string hex_colour(uint32_t abgr) {  // ImGui's 0xAABBGGRR
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", abgr & 0xff, (abgr >> 8) & 0xff, (abgr >> 16) & 0xff);
  return buf;
}

void rect(std::string& svg, const Rect& r, const std::string& fill, const std::string& stroke, float stroke_w,
          float opacity = 1, const char* extra = "") {
  svg += "<rect x=\"" + num(r.x) + "\" y=\"" + num(r.y) + "\" width=\"" + num(r.w) + "\" height=\"" + num(r.h) +
         "\" rx=\"" + num(std::min(r.w, r.h) * 0.08f) + "\" fill=\"" + fill + "\"";
  if (!stroke.empty()) svg += " stroke=\"" + stroke + "\" stroke-width=\"" + num(stroke_w) + "\"";
  if (opacity < 1) svg += " opacity=\"" + num(opacity * 100) + "%\"";
  svg += std::string(extra) + "/>\n";
}

// Centred text of at most `size` px, smaller when it would overrun `max_w`
// (about 0.6 em a character for digits in a sans face).
void text(std::string& svg, float cx, float cy, float size, float max_w, const std::string& content,
          const std::string& fill, const char* css_class) {
  const float chars = float(std::max<size_t>(utf8_length(content), 1));
  const float fitted = std::min(size, max_w / (0.6f * chars));
  svg += "<text class=\"" + std::string(css_class) + "\" x=\"" + num(cx) + "\" y=\"" + num(cy) + "\" font-size=\"" +
         num(std::max(fitted, 1.0f)) + "\" fill=\"" + fill + "\" text-anchor=\"middle\" dy=\"0.35em\">" +
         xml_escape(content) + "</text>\n";
}

// Text starting at x, vertically centred on cy, at most `size` px and
// smaller when it would run past `max_w`.
void label(std::string& svg, float x, float cy, float size, float max_w, const std::string& content,
           const std::string& fill, const char* css_class) {
  const float chars = float(std::max<size_t>(utf8_length(content), 1));
  const float fitted = std::max(std::min(size, max_w / (0.6f * chars)), 1.0f);
  svg += "<text class=\"" + std::string(css_class) + "\" x=\"" + num(x) + "\" y=\"" + num(cy) + "\" font-size=\"" +
         num(fitted) + "\" fill=\"" + fill + "\" text-anchor=\"start\" dy=\"0.35em\">" + xml_escape(content) +
         "</text>\n";
}

// ---- lanes --------------------------------------------------------------------

struct CellLook {
  const char *fill, *border, *text;
  float opacity;
};

CellLook out_look(const SvgPalette& p, CellState state) {
  switch (state) {
    case CellState::Active: return {p.out_fill, p.out_border, p.text, 1};
    case CellState::Inactive: return {p.out_fill, p.out_border, p.inactive_text, 0.4f};
    case CellState::Undefined: return {p.undefined_fill, p.undefined_border, p.undefined_text, 1};
    case CellState::OutOfRange: return {p.kept_fill, p.kept_border, p.text, 1};
  }
  return {p.out_fill, p.out_border, p.text, 1};
}

const char* arrow_colour(const SvgPalette& p, ArrowKind kind) {
  switch (kind) {
    case ArrowKind::Read: return p.read_arrow;
    case ArrowKind::KeepOwn: return p.kept_arrow;
    case ArrowKind::Undefined: return p.undefined_arrow;
  }
  return p.read_arrow;
}

const char* arrow_id(ArrowKind kind) {
  switch (kind) {
    case ArrowKind::Read: return "head-read";
    case ArrowKind::KeepOwn: return "head-kept";
    case ArrowKind::Undefined: return "head-undefined";
  }
  return "head-read";
}

// The lanes in the band [top, top + height): lane numbers in a strip above
// the in row, as the lane panel draws them.
void draw_lanes(std::string& svg, const LaneFrame& frame, float width, float top, float height, const SvgPalette& p,
                Language language, const std::string& vote_summary) {
  const bool after_row = !frame.after_name.empty();
  const LaneLayout probe = layout_lanes(width, height, 1.0f, after_row);
  const float number_px = std::max(probe.font_px * 0.85f, 10.0f);
  const float strip = std::round(number_px * 1.5f);
  LaneLayout layout = layout_lanes(width, std::max(height - strip, 1.0f), 1.0f, after_row);
  const float dy = top + strip;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    layout.in_cells[lane].y += dy;
    layout.out_cells[lane].y += dy;
    layout.after_cells[lane].y += dy;
  }
  const float line = std::max(std::min(layout.cell_w, layout.cell_h) * 0.06f, 1.0f);

  // Arrows first: the cells sit on top of their ends. Kept-own reads are
  // dashed; undefined reads last, so none hides under an ordinary one.
  svg += "<g class=\"arrows\" fill=\"none\" stroke-width=\"" + num(line * 1.5f) + "\">\n";
  for (ArrowKind kind : {ArrowKind::KeepOwn, ArrowKind::Read, ArrowKind::Undefined}) {
    for (const Arrow& a : frame.arrows) {
      if (a.kind != kind) continue;
      const Rect& from = layout.in_cells[std::clamp(a.from_lane, 0, kWarpSize - 1)];
      const Rect& to = layout.out_cells[std::clamp(a.to_lane, 0, kWarpSize - 1)];
      svg += "<line x1=\"" + num(from.cx()) + "\" y1=\"" + num(from.y + from.h) + "\" x2=\"" + num(to.cx()) +
             "\" y2=\"" + num(to.y) + "\" stroke=\"" + arrow_colour(p, kind) + "\" marker-end=\"url(#" +
             arrow_id(kind) + ")\"";
      if (kind == ArrowKind::KeepOwn) svg += " stroke-dasharray=\"" + num(line * 4) + " " + num(line * 3) + "\"";
      svg += "><title>" + xml_escape(lane_summary(frame, a.to_lane, language)) + "</title></line>\n";
    }
  }
  svg += "</g>\n";

  const float value_px = std::max(std::min(layout.font_px, layout.cell_h * 0.55f), number_px * 0.85f);
  const float box_w = layout.cell_w * 0.92f;
  svg += "<g class=\"lanes\">\n";
  for (const LaneCell& cell : frame.cells) {
    const int lane = std::clamp(cell.lane, 0, kWarpSize - 1);
    const bool inactive = cell.state == CellState::Inactive;
    const Rect& in = layout.in_cells[lane];
    const Rect& out = layout.out_cells[lane];
    text(svg, in.cx(), in.y - strip / 2, number_px, box_w, std::to_string(cell.lane), p.lane_number, "lane-number");
    rect(svg, in, p.in_fill, p.in_border, line, inactive ? 0.4f : 1);
    text(svg, in.cx(), in.cy(), value_px, box_w, cell.in_text, inactive ? p.inactive_text : p.text, "value-in");
    const CellLook look = out_look(p, cell.state);
    rect(svg, out, look.fill, look.border, line, look.opacity);
    text(svg, out.cx(), out.cy(), value_px, box_w, cell.out_text, look.text, "value-out");
    if (after_row && !cell.after_text.empty()) {
      const Rect& after = layout.after_cells[lane];
      rect(svg, after, p.after_fill, p.after_border, line);
      text(svg, after.cx(), after.cy(), value_px, box_w, cell.after_text, p.text, "value-after");
    }
  }
  svg += "</g>\n";
  if (!vote_summary.empty()) {
    const Rect& first = layout.out_cells[0];
    label(svg, first.x, first.y + first.h + number_px, number_px, width - first.x, vote_summary, p.lane_number,
          "vote-summary");
  }
  if (after_row) {
    const Rect& first = layout.after_cells[0];
    label(svg, first.x, first.y + first.h + number_px, number_px, width - first.x, after_label(frame, language),
          p.lane_number, "row-label");
  }
}

// ---- banks --------------------------------------------------------------------

// The bank band [top, top + height): a title with the step's wavefronts and
// conflicts, on the left the tile as its grid of cells coloured by bank (the
// cells this step touches at full colour, outlined, with their lowest lane),
// on the right the 32 banks as columns, one box per distinct word a phase
// touches, stacked, so the chart is as tall as the step's wavefronts.
void draw_banks(std::string& svg, const BankFrame& bank, float width, float top, float height, const SvgPalette& p,
                Language language) {
  const float margin = std::max(12.0f, 0.02f * width);
  const float label_px = 14;
  const float axis_h = label_px * 1.8f, title_h = label_px * 2.4f;
  const float body_top = top + title_h, body_h = height - title_h - axis_h;
  const float bottom = body_top + body_h;

  const BankAnalysis& a = bank.analysis;
  const std::string title = std::string(bank.store ? "st.shared" : "ld.shared") + "  " + std::to_string(a.wavefronts) +
                            " " + tr(a.wavefronts == 1 ? Text::Wavefront : Text::Wavefronts, language) + "  \u00b7  " +
                            std::to_string(a.conflicts) + " " +
                            tr(a.conflicts == 1 ? Text::Conflict : Text::Conflicts, language);
  svg += "<g class=\"banks\">\n";
  label(svg, margin, top + title_h / 2, label_px * 1.2f, width - 2 * margin, title, p.header, "bank-title");

  // The tile: square cells, as many rows and columns as the grid has.
  const TileGrid& grid = bank.grid;
  const float tile_max_w = width * 0.42f;
  const float cell = std::max(std::min(tile_max_w / float(grid.cols), (body_h + axis_h) / float(grid.rows)), 0.5f);
  const float tile_x = margin, tile_y = body_top;
  svg += "<g class=\"tile\">\n";
  for (int r = 0; r < grid.rows; ++r)
    for (int c = 0; c < grid.cols; ++c) {
      const Rect cr{tile_x + float(c) * cell, tile_y + float(r) * cell, cell, cell};
      const bool touched = bank.cell(r, c).lanes != 0;
      svg += "<rect class=\"" + std::string(touched ? "tile-cell touched" : "tile-cell") + "\" x=\"" + num(cr.x) +
             "\" y=\"" + num(cr.y) + "\" width=\"" + num(cr.w) + "\" height=\"" + num(cr.h) + "\" fill=\"" +
             hex_colour(bank_colour(grid.bank(r, c))) + "\"";
      // Untouched cells keep a share of their bank colour: the stripes stay readable.
      svg += touched ? " stroke=\"#ffffff\" stroke-width=\"" + num(std::max(cell * 0.08f, 0.5f)) + "\"/>\n"
                     : " opacity=\"40%\"/>\n";
    }
  for (int r = 0; r < grid.rows; ++r)
    for (int c = 0; c < grid.cols; ++c) {
      const uint32_t lanes = bank.cell(r, c).lanes;
      if (lanes == 0 || cell < 9) continue;
      const char* ink = bank_luminance(grid.bank(r, c)) > 0.5f ? "#101010" : "#f0f0f0";
      text(svg, tile_x + (float(c) + 0.5f) * cell, tile_y + (float(r) + 0.5f) * cell, cell * 0.6f, cell * 0.95f,
           std::to_string(std::countr_zero(lanes)), ink, "tile-lane");
    }
  svg += "</g>\n";

  // The chart, right of the tile.
  const float chart_x = tile_x + float(grid.cols) * cell + margin + label_px * 3;
  const float chart_w = std::max(width - chart_x - margin, float(kSharedBanks));
  const float column_w = chart_w / kSharedBanks;
  const int levels = std::max(bank.height, 1);
  const float box_h = std::min(body_h / float(levels), column_w * 1.2f);
  rect(svg, Rect{chart_x, body_top, chart_w, body_h}, p.chart_ground, "", 0);
  for (const BankBox& box : bank.boxes) {
    const Rect r{chart_x + float(box.bank) * column_w + column_w * 0.06f, bottom - float(box.level + 1) * box_h,
                 column_w * 0.88f, box_h * 0.9f};
    const char* ink = bank_luminance(box.bank) > 0.5f ? "#101010" : "#f0f0f0";
    rect(svg, r, hex_colour(bank_colour(box.bank)), "", 0);
    text(svg, r.cx(), r.cy(), std::min(r.h * 0.6f, label_px), r.w * 0.95f, lanes_label(box.lanes), ink, "bank-lanes");
  }
  for (int b = 0; b < kSharedBanks; ++b)
    text(svg, chart_x + (float(b) + 0.5f) * column_w, bottom + axis_h / 2, label_px, column_w * 0.95f,
         std::to_string(b), p.lane_number, "bank-number");
  label(svg, chart_x - label_px * 3, bottom + axis_h / 2, label_px, label_px * 3,
        language == Language::Chinese ? "存储体" : "bank", p.lane_number, "axis-label");
  svg += "</g>\n";
}

}  // namespace

// ---- document -----------------------------------------------------------------

std::string step_svg(const Trace& trace, const PlayOrder& order, size_t position, const SvgOptions& options) {
  const SvgPalette& p = options.high_contrast ? kHighContrast : kNormal;
  const float width = std::clamp(options.width, 320.0f, 16384.0f);
  const float header_h = std::max(40.0f, width * 0.03f);
  const float lanes_h = width * 0.28f;
  const bool has_steps = !trace.steps.empty() && position < order.size();
  const size_t index = has_steps ? order.step_at(position) : 0;
  const std::optional<BankFrame> bank = has_steps ? bank_frame(trace, index) : std::nullopt;
  const float bank_h = bank ? width * 0.3f : 0;
  const float height = header_h + (has_steps ? lanes_h : header_h) + bank_h;

  std::string svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + num(width) + "\" height=\"" +
         num(height) + "\" viewBox=\"0 0 " + num(width) + " " + num(height) + "\">\n";
  svg += "<title>" + xml_escape("warpviz: " + trace.meta.scenario) + "</title>\n";
  // Only the font here: a CSS rule beats an attribute, and each <text> says
  // its own anchor (a rule text-anchor:middle once cut the header in half).
  svg += "<style>text{font-family:'DejaVu Sans','WenQuanYi Micro Hei',sans-serif}</style>\n";
  svg += "<defs>\n";
  for (ArrowKind kind : {ArrowKind::Read, ArrowKind::KeepOwn, ArrowKind::Undefined})
    svg += std::string("<marker id=\"") + arrow_id(kind) +
           "\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" "
           "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"" +
           arrow_colour(p, kind) + "\"/></marker>\n";
  svg += "</defs>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"" + std::string(p.background) + "\"/>\n";

  const float margin = std::max(12.0f, 0.02f * width);
  std::string header;
  if (has_steps) {
    LaneFrame frame = lane_frame(trace, index, options.hex);
    header = position_label(trace, order, position, options.language) + "   " + frame.op_label;
    // A ballot or activemask is one mask for the warp: each lane shows its own
    // bit of it, and the mask itself is said once under the row.
    std::string vote_summary;
    const TraceStep& step = trace.steps[index];
    if (step.op == Op::Ballot || step.op == Op::ActiveMask) {
      uint32_t mask = 0;
      for (const LaneCell& cell : frame.cells)
        if (step.lanes[cell.lane].active()) mask = uint32_t(step.lanes[cell.lane].out);
      for (LaneCell& cell : frame.cells)
        if (step.lanes[cell.lane].active()) cell.out_text = (mask >> cell.lane) & 1u ? "1" : "0";
      char buf[80];
      std::snprintf(buf, sizeof buf, "%s 0x%08x   popc %d   ffs %d", step.op == Op::Ballot ? "ballot" : "activemask",
                    mask, std::popcount(mask), mask ? std::countr_zero(mask) + 1 : 0);
      vote_summary = buf;
    }
    draw_lanes(svg, frame, width, header_h, lanes_h, p, options.language, vote_summary);
    if (bank) draw_banks(svg, *bank, width, header_h + lanes_h, bank_h, p, options.language);
  } else {
    header = tr(trace.outputs.empty() ? Text::NothingToShow : Text::NoWarpSteps, options.language);
  }
  label(svg, margin, header_h * 0.5f, header_h * 0.5f, width - 2 * margin, header, p.header, "header");
  svg += "</svg>\n";
  return svg;
}

}  // namespace warpviz::view
