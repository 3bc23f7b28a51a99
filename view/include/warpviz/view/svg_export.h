// One step of a trace as an SVG picture, for print and slides: the header
// ("round 2/5   shfl.down offset 8 ..."), the lanes with their numbers and
// values, the arrows of a shuffle, and for a shared-memory step the bank
// chart. Every value is a <text> element, every cell a <rect>: vector
// graphics a reader can search and a slide can scale, not a bitmap. The
// geometry is the lane view's own (layout_lanes, lane_frame, bank_frame).
#pragma once

#include <cstddef>
#include <string>

#include "warpviz/trace.h"
#include "warpviz/view/play_order.h"
#include "warpviz/view/strings.h"

namespace warpviz::view {

struct SvgOptions {
  float width = 1600;          // user units (px); the height follows from what is drawn
  bool hex = false;            // values as hex bits, as the app's H
  bool high_contrast = false;  // presentation mode's colours: black ground, bright outlines
  Language language = Language::English;
};

// The SVG document for play position `position` of `order` (the trace step
// the app shows at --step position+1). A trace without steps gives a picture
// that says so.
std::string step_svg(const Trace& trace, const PlayOrder& order, size_t position, const SvgOptions& options);

// `text` with &, <, >, " and ' as XML entities; bytes below 0x20 other than
// tab and newline (not allowed in XML 1.0) become U+FFFD.
std::string xml_escape(const std::string& text);

}  // namespace warpviz::view
