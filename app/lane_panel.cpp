// The lane panel: the round and the op above the lanes image (LaneRenderer's
// GLSL), with lane numbers and values put over it as ImGui text, and a legend
// below. Presentation mode (presentation.cpp) draws the same lanes larger.
//
// [SECTION] Helpers        which step is on screen, fonts, one line of text that fits a cell
// [SECTION] Lanes          a wrong mask in words, the image, the text over it
// [SECTION] Legend         read / kept own value / undefined / inactive
// [SECTION] Panels         draw_lane_panel, draw_lane_view

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <exception>
#include <string>

#include "app_view.h"
#include "panel_widgets.h"
#include "lane_renderer.h"
#include "layout_report.h"
#include "warpviz/view/cell_text.h"
#include "warpviz/view/lane_view.h"
#include "warpviz/view/play_order.h"

namespace warpviz::app {

//-----------------------------------------------------------------------------
// [SECTION] Helpers
//-----------------------------------------------------------------------------

namespace {

ImU32 to_imgui(Rgba c, float alpha = 1.0f) {
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, c.a * alpha));
}

// At rest the shown step is complete (values landed). While a transition
// runs, values travel from step() toward step() + 1, so the next step is the
// one animating in.
struct ShownStep {
  size_t index = 0;
  float t = 1.0f;  // eased; 1 = complete
};

ShownStep shown_step(const view::Playback& playback) {
  const size_t index = playback.shown_step();
  return {index, index == playback.step() ? 1.0f : playback.eased_transition()};
}

ImFont* or_default(ImFont* font) { return font ? font : ImGui::GetFont(); }

// The smallest loaded font baked at least `px` high, else the largest:
// glyphs scaled up from a small atlas look blurred.
ImFont* font_for(const UiFonts& fonts, float px) {
  ImFont* pick = nullptr;
  ImFont* largest = nullptr;
  for (ImFont* font : {fonts.regular, fonts.large, fonts.huge}) {
    if (!font) continue;
    if (!largest || font->FontSize > largest->FontSize) largest = font;
    if (font->FontSize >= px * 0.95f && (!pick || font->FontSize < pick->FontSize)) pick = font;
  }
  return pick ? pick : largest ? largest : ImGui::GetFont();
}

// A value as its cell shows it: the text, on one line, and the size it is
// drawn at.
struct FittedText {
  std::string text;
  float size = 0;
  bool shortened = false;  // not the whole value (view::cell_text): marked, and the tooltip shows it whole
};

// The widest character a shortened value may hold, at `size`: cell_text
// counts characters, the font measures them.
float widest_value_glyph(ImFont* font, float size) {
  float widest = 0;
  for (const char* glyph : {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", ".", "-", "\u2026"})
    widest = std::max(widest, font->CalcTextSizeA(size, FLT_MAX, 0.0f, glyph).x);
  return widest;
}

// Fits a value in a box_w x box_h cell at `size`, never smaller than `floor`
// (the lane numbers' size: a value must read at least as well as the number
// above it). A float first loses its digits past view::kCellSignificantDigits;
// the text shrinks toward the floor, and past that shows fewer characters,
// marked (view::cell_text). Never two lines: a value split in halves
// ("7.86" over "99994") reads as two numbers.
FittedText fit_value(ImFont* font, const std::string& value, DType type, float size, float floor, float box_w,
                     float box_h) {
  floor = std::min(floor, size);
  if (value.empty()) return {value, size, false};
  const view::CellText whole = view::cell_text(value, type, 0.0f, 0.0f);  // the digit cap alone
  const ImVec2 ext = font->CalcTextSizeA(size, FLT_MAX, 0.0f, whole.text.c_str());
  const float whole_size = size * std::min({1.0f, box_w / std::max(ext.x, 1.0f), box_h / std::max(ext.y, 1.0f)});
  if (whole_size >= floor) return {whole.text, whole_size, whole.shortened};
  // At the floor's size, as many characters as the cell holds.
  const float glyph = std::max(widest_value_glyph(font, floor), 1.0f);
  float width = box_w;
  view::CellText fewer = view::cell_text(value, type, width, glyph);
  // A suffix (k, M) or an exponent can be wider than a digit: one character less until it fits.
  while (!fewer.text.empty() && width > 0 && font->CalcTextSizeA(floor, FLT_MAX, 0.0f, fewer.text.c_str()).x > box_w) {
    width -= glyph;
    fewer = view::cell_text(value, type, width, glyph);
  }
  if (fewer.text.empty()) {
    // Not one character at the floor's size (a narrow cell at 1024x600): an
    // empty cell reads as no value, so the fewest characters that say one
    // ("7…", "101") below the floor (view::fewest_cell_text).
    fewer = view::fewest_cell_text(value, type);
    const ImVec2 two = font->CalcTextSizeA(floor, FLT_MAX, 0.0f, fewer.text.c_str());
    const float small = floor * std::min({1.0f, box_w / std::max(two.x, 1.0f), box_h / std::max(two.y, 1.0f)});
    return {fewer.text, small, true};
  }
  return {fewer.text, floor, fewer.shortened};
}

// Draws `fitted` centred in [min, max], reported under `role`; a shortened
// value gets a small mark in the cell's top right corner as well as its "…",
// so a cell with no room for the "…" still says so.
void draw_fitted(ImDrawList* draw, ImFont* font, ImVec2 min, ImVec2 max, ImU32 color, const FittedText& fitted,
                 const char* role, ImU32 mark_color = 0) {
  if (fitted.shortened && mark_color) {
    const float corner = std::max(std::min(max.x - min.x, max.y - min.y) * 0.22f, 3.0f);
    const float inset = std::max(corner * 0.25f, 1.0f);
    const ImVec2 tip(max.x - inset, min.y + inset);
    draw->AddTriangleFilled(ImVec2(tip.x - corner, tip.y), tip, ImVec2(tip.x, tip.y + corner), mark_color);
    layout_report().role("shortened_mark", fitted.text, ImVec2(tip.x - corner, tip.y), ImVec2(tip.x, tip.y + corner),
                         corner);
  }
  if (fitted.text.empty() || fitted.size <= 1.0f) return;
  const ImVec2 centre((min.x + max.x) / 2, (min.y + max.y) / 2);
  const ImVec2 ext = font->CalcTextSizeA(fitted.size, FLT_MAX, 0.0f, fitted.text.c_str());
  const ImVec2 pos(std::floor(centre.x - ext.x / 2), std::floor(centre.y - ext.y / 2));
  layout_report().role(role, fitted.text, pos, ImVec2(pos.x + ext.x, pos.y + ext.y), fitted.size);
  draw->AddText(font, fitted.size, pos, color, fitted.text.c_str());
}

// Created on first use when main did not make it; a failure is reported once
// (error_message shows it in a modal), not every frame, and the panel still
// shows the values as text.
LaneRenderer* renderer(AppView& app) {
  bool& failed = app.panel_state.lanes.renderer_failed;
  if (!app.lane_renderer && !failed) {
    try {
      app.lane_renderer = std::make_unique<LaneRenderer>();
    } catch (const std::exception& e) {
      failed = true;
      app.error_message = e.what();
    }
  }
  return app.lane_renderer.get();
}

//-----------------------------------------------------------------------------
// [SECTION] Lanes
//-----------------------------------------------------------------------------

Rgba in_text_color(const LanePalette& p, view::CellState state) {
  return state == view::CellState::Inactive ? p.inactive_text : p.text;
}

Rgba out_text_color(const LanePalette& p, view::CellState state) {
  switch (state) {
    case view::CellState::Inactive: return p.inactive_text;
    case view::CellState::Undefined: return p.undefined_text;
    default: return p.text;
  }
}

// The lanes image filling `size` (ImGui units) at the cursor, with lane
// numbers above the top row and the values in the cells. `text_scale` > 1
// enlarges the type for a projector; long values still shrink to their cell.
void draw_lanes(AppView& app, const view::LaneFrame& frame, float t, bool high_contrast, ImVec2 size,
                float text_scale = 1.0f) {
  // A wrong mask in words above the lanes: the hatching alone does not say
  // which lanes the mask waited for, nor that the result is undefined.
  const std::string warning = view::mask_warning(frame, app.language);
  if (!warning.empty() && size.x >= 32) {
    const float px = ImGui::GetFontSize() * text_scale;
    ImFont* font = font_for(app.fonts, px);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const ImVec2 ext = font->CalcTextSizeA(px, FLT_MAX, size.x, warning.c_str());
    ImGui::GetWindowDrawList()->AddText(font, px, at, to_imgui(lane_palette(high_contrast).undefined_border),
                                        warning.c_str(), nullptr, size.x);
    layout_report().role("mask_warning", warning, at, ImVec2(at.x + ext.x, at.y + ext.y), px);
    ImGui::Dummy(ImVec2(std::min(ext.x, size.x), ext.y));
    size.y -= ext.y + ImGui::GetStyle().ItemSpacing.y;
  }
  if (size.x < 32 || size.y < 32) return;
  // The texture has the framebuffer's pixels (2x on a Retina-style display).
  const float fb = std::max(ImGui::GetIO().DisplayFramebufferScale.x, 1.0f);
  const int w_px = int(size.x * fb), h_px = int(size.y * fb);
  const float layout_scale = app.dpi_scale * fb;

  // A watch step repeats its round's picture at rest: the arrows played when
  // the shuffle did.
  if (frame.landed) t = 1.0f;
  const bool after_row = !frame.after_name.empty();

  // A strip above the top row for the lane numbers, sized from the cells' font.
  view::LaneLayout probe = view::layout_lanes(float(w_px), float(h_px), layout_scale, after_row);
  const float number_px = std::max(probe.font_px * 0.85f, 10.0f * layout_scale) * text_scale;
  const float strip_px = std::round(number_px * 1.5f);
  view::LaneLayout layout =
      view::layout_lanes(float(w_px), std::max(float(h_px) - strip_px, 1.0f), layout_scale, after_row);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    layout.in_cells[lane].y += strip_px;
    layout.out_cells[lane].y += strip_px;
    layout.after_cells[lane].y += strip_px;
  }

  const ImVec2 origin = ImGui::GetCursorScreenPos();
  if (LaneRenderer* lanes = renderer(app)) {
    lanes->render(layout, frame, t, high_contrast, w_px, h_px);
    // Row 0 of a GL texture is its bottom: flip V.
    ImGui::Image((ImTextureID)(intptr_t)lanes->texture(), size, ImVec2(0, 1), ImVec2(1, 0));
  } else {
    ImGui::Dummy(size);
  }

  const bool image_hovered = ImGui::IsItemHovered();
  const LanePalette& palette = lane_palette(high_contrast);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  auto to_screen = [&](const view::Rect& r, ImVec2* min, ImVec2* max) {
    *min = ImVec2(origin.x + r.x / fb, origin.y + r.y / fb);
    *max = ImVec2(origin.x + (r.x + r.w) / fb, origin.y + (r.y + r.h) / fb);
  };
  // Lane numbers at their size, but no wider than "31" fits its cell; the
  // values at theirs, and never below the numbers' (fit_value).
  const float cell_w = layout.cell_w / fb, box_w = cell_w * 0.92f, box_h = layout.cell_h / fb * 0.92f;
  ImFont* number_font = font_for(app.fonts, number_px / fb);
  const float widest_number = number_font->CalcTextSizeA(number_px / fb, FLT_MAX, 0.0f, "31").x;
  // A cell shorter than a line of the numbers' size makes them smaller too
  // (a line of text is its font size high): values must fit at that size.
  const float number_size = std::min({number_px / fb * std::min(1.0f, box_w / std::max(widest_number, 1.0f)),
                                      strip_px / fb * 0.9f, box_h});
  const float value_size = std::max(std::min(layout.font_px * text_scale, layout.cell_h * 0.55f) / fb, number_size);
  ImFont* value_font = font_for(app.fonts, value_size);
  const float out_alpha = out_reveal(t);
  const float after_alpha = after_row ? after_reveal(t) : 0.0f;

  const ImU32 mark = to_imgui(palette.travelling);  // the corner mark of a shortened value: yellow, as the discs
  draw->PushClipRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), true);
  const size_t count = std::min<size_t>(frame.cells.size(), kWarpSize);
  int hovered_lane = -1;
  bool any_shortened = false;
  for (size_t i = 0; i < count; ++i) {
    const view::LaneCell& cell = frame.cells[i];
    const int lane = std::clamp(cell.lane, 0, kWarpSize - 1);
    ImVec2 min, max;
    to_screen(layout.in_cells[lane], &min, &max);
    const ImVec2 in_min = min;
    draw_fitted(draw, number_font, ImVec2(min.x, min.y - strip_px / fb), ImVec2(max.x, min.y),
                to_imgui(palette.lane_number), FittedText{std::to_string(cell.lane), number_size, false},
                "lane_number");
    layout_report().role("lane_cell", "", min, max, 0);
    const FittedText in = fit_value(value_font, cell.in_text, cell.in_type, value_size, number_size, box_w, box_h);
    draw_fitted(draw, value_font, min, max, to_imgui(in_text_color(palette, cell.state)), in, "lane_value", mark);
    any_shortened |= in.shortened;
    to_screen(layout.out_cells[lane], &min, &max);
    if (out_alpha > 0.0f) {
      layout_report().role("lane_cell", "", min, max, 0);
      const FittedText out =
          fit_value(value_font, cell.out_text, cell.out_type, value_size, number_size, box_w, box_h);
      draw_fitted(draw, value_font, min, max, to_imgui(out_text_color(palette, cell.state), out_alpha), out,
                  "lane_value", to_imgui(palette.travelling, out_alpha));
      any_shortened |= out.shortened;
    }
    if (after_row) {
      ImVec2 after_min, after_max;
      to_screen(layout.after_cells[lane], &after_min, &after_max);
      if (after_alpha > 0.0f) {
        layout_report().role("lane_cell", "", after_min, after_max, 0);
        const FittedText after =
            fit_value(value_font, cell.after_text, cell.after_type, value_size, number_size, box_w, box_h);
        draw_fitted(draw, value_font, after_min, after_max, to_imgui(palette.text, after_alpha), after, "lane_value",
                    to_imgui(palette.travelling, after_alpha));
        any_shortened |= after.shortened;
      }
      max = after_max;
    }
    // The lane's column, numbers to its last cell: what the tooltip is for.
    if (image_hovered && ImGui::IsMouseHoveringRect(ImVec2(in_min.x, in_min.y - strip_px / fb), max))
      hovered_lane = lane;
  }
  draw->PopClipRect();
  // A cell too narrow for its value shows fewer digits; the pointer shows it whole.
  if (hovered_lane >= 0) {
    for (const view::LaneCell& cell : frame.cells) {
      if (cell.lane != hovered_lane) continue;
      // "lane 3 ← lane 11: 46; val 22 + 46 = 68": the read and the round's sum.
      ImGui::BeginTooltip();
      ImGui::TextUnformatted(view::lane_summary(frame, cell.lane, app.language).c_str());
      // The exact values, whatever the cells show: shortest round-trip decimal and the bits.
      auto exact = [&](const char* label, const std::string& text) {
        if (!text.empty()) ImGui::Text("%s  %s", label, text.c_str());
      };
      exact(app.tr("in", "输入"), cell.in_exact);
      exact(app.tr("out", "输出"), cell.out_exact);
      if (!frame.after_name.empty()) exact(view::after_label(frame, app.language).c_str(), cell.after_exact);
      if (any_shortened)
        ImGui::TextDisabled("%s", app.tr("(\u2026 and the corner mark: the cells show fewer digits)",
                                         "（\u2026 和角上的标记：格子里显示的位数较少）"));
      ImGui::EndTooltip();
    }
  }
}

//-----------------------------------------------------------------------------
// [SECTION] Legend
//-----------------------------------------------------------------------------

const char* read_label(view::Language language) { return view::tr(view::Text::Read, language); }

const char* kept_label(view::Language language) { return view::tr(view::Text::KeptOwn, language); }

// One line of swatches drawn like the image draws them, each with its word.
void draw_legend(const AppView& app, const view::LaneFrame& frame) {
  const LanePalette& p = lane_palette(false);
  const float h = ImGui::GetTextLineHeight();
  const float w = h * 2.2f;
  const float thick = std::max(1.5f, 2.0f * app.dpi_scale);
  ImDrawList* draw = ImGui::GetWindowDrawList();

  auto item = [&](const char* label, auto&& swatch) {
    ImGui::Dummy(ImVec2(w, h));
    swatch(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    ImGui::SameLine();
    ImGui::TextUnformatted(label);
    ImGui::SameLine(0.0f, h * 1.5f);
  };
  auto arrow = [&](ImVec2 a, ImVec2 b, ImU32 color, bool dashed) {
    const float y = (a.y + b.y) / 2, head = h * 0.4f;
    const float end = b.x - head;
    if (!dashed) {
      draw->AddLine(ImVec2(a.x, y), ImVec2(end, y), color, thick);
    } else {
      const float period = thick * 4.0f;
      for (float x = a.x; x < end; x += period)
        draw->AddLine(ImVec2(x, y), ImVec2(std::min(x + period * 0.55f, end), y), color, thick);
    }
    draw->AddTriangleFilled(ImVec2(b.x, y), ImVec2(end, y - head * 0.55f), ImVec2(end, y + head * 0.55f), color);
  };
  auto cell = [&](ImVec2 a, ImVec2 b, Rgba fill, Rgba border, bool hatched) {
    a.x += w * 0.25f, b.x -= w * 0.25f;
    const float rounding = h * 0.12f;
    draw->AddRectFilled(a, b, to_imgui(fill), rounding);
    if (hatched) {
      draw->PushClipRect(a, b, true);
      for (float x = a.x - h; x < b.x; x += h * 0.3f)
        draw->AddLine(ImVec2(x, b.y), ImVec2(x + h, b.y - h), to_imgui(border, 0.45f), thick * 0.8f);
      draw->PopClipRect();
    }
    draw->AddRect(a, b, to_imgui(border), rounding, 0, thick * 0.6f);
  };

  item(read_label(app.language), [&](ImVec2 a, ImVec2 b) { arrow(a, b, to_imgui(p.read_arrow), false); });
  item(kept_label(app.language), [&](ImVec2 a, ImVec2 b) { arrow(a, b, to_imgui(p.kept_arrow), true); });
  item(app.tr(view::Text::Undefined),
       [&](ImVec2 a, ImVec2 b) { cell(a, b, p.undefined_fill, p.undefined_border, true); });
  item(app.tr(view::Text::Inactive),
       [&](ImVec2 a, ImVec2 b) { cell(a, b, dimmed(p.out_fill), dimmed(p.out_border), false); });
  // The third row, by the name the kernel gave its variable: "val after +=".
  if (!frame.after_name.empty()) {
    const std::string label = view::after_label(frame, app.language);
    item(label.c_str(), [&](ImVec2 a, ImVec2 b) { cell(a, b, p.after_fill, p.after_border, false); });
  }
  ImGui::NewLine();
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Panels
//-----------------------------------------------------------------------------

void AppView::draw_lane_panel() {
  if (!current_step()) {
    // A trace with outputs but no steps ran (bits): say why nothing moves.
    centred_message(tr(trace.outputs.empty() ? view::Text::NothingToShow : view::Text::NoWarpSteps));
    return;
  }

  const ShownStep shown = shown_step(playback);
  const view::LaneFrame frame = view::lane_frame(trace, shown.index, hex);
  ImGui::PushFont(or_default(fonts.large));
  // The place in play order: a reduction's phase in words, a round, or the step.
  const std::string place = view::position_label(trace, playback.order(), playback.shown_position(), language);
  const std::string headline = place + "   " + frame.op_label;
  if (ImGui::CalcTextSize(headline.c_str()).x <= ImGui::GetContentRegionAvail().x) {
    ImGui::TextUnformatted(headline.c_str());
    ImGui::PopFont();
  } else {
    // A narrow window: the op and its operands (the mask last) on a line of
    // their own in the body font, rather than cut off after the place.
    text_fitted(place);
    ImGui::PopFont();
    text_fitted(frame.op_label);
  }
  draw_lesson_caption(ImGui::GetFontSize(), false);  // lesson_player.cpp: the slide's caption, if one is shown

  const float legend_h = ImGui::GetFrameHeightWithSpacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  draw_lanes(*this, frame, shown.t, false, ImVec2(avail.x, avail.y - legend_h));
  draw_legend(*this, frame);
}

void AppView::draw_lane_view(float width, float height, bool high_contrast, float text_scale) {
  const ShownStep shown = shown_step(playback);
  const view::LaneFrame frame = view::lane_frame(trace, shown.index, hex);
  draw_lanes(*this, frame, shown.t, high_contrast, ImVec2(width, height), text_scale);
}

}  // namespace warpviz::app
