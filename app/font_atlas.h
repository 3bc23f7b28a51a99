// The font atlas and the scale of the interface. Every glyph the app may
// show is baked into one Dear ImGui atlas (1.86 bakes each font at one size):
// the UI's words in both languages, the kernels' sources with their Chinese
// comments, a trace's source and a lesson's captions, from the WenQuanYi
// Micro Hei font (Dear ImGui's own font, without Chinese, where it is
// missing). The first atlas is built on a thread while the window opens; a
// zoom, a move to a monitor of another scale, presentation mode or new text
// rebuilds it between frames, with the style scaled to match.
#pragma once

#include <imgui.h>

#include <memory>
#include <string>

#include "app_view.h"
#include "warpviz/view/ui_scale.h"

namespace warpviz::app {

// The CJK font's path ("" when it is not installed).
std::string find_cjk_font();

// The font atlas, built (every glyph rasterised) by build_fonts. A context of
// its own: it is built on a thread while the window and GL context open, and
// handed to ImGui::CreateContext. The glyph ranges live as long as the atlas.
struct FontBuild {
  std::unique_ptr<ImFontAtlas> atlas = std::make_unique<ImFontAtlas>();
  ImVector<ImWchar> body_ranges, display_ranges, large_ranges;
  UiFonts fonts;
  view::FontSizes sizes;
  std::string note;  // why the fallback font is used, if it is
};

// Builds an atlas at `sizes` with the glyphs of `extra_text` besides the
// built-in ones. Any thread: it touches no ImGui context.
std::unique_ptr<FontBuild> build_fonts(view::FontSizes sizes, const std::string& extra_text);

// The characters of `text` beyond ASCII that `font` has no glyph for (drawn
// as boxes), each once, in the order they first appear.
std::string missing_glyphs(const ImFont* font, const char* text);

// Whether the body font has a glyph for every character of `text` (a trace
// file's kernel source may use characters no built-in source does).
inline bool has_every_glyph(const ImFont* font, const std::string& text) {
  return missing_glyphs(font, text.c_str()).empty();
}

// Every character beyond ASCII of the app's and the views' sources (their
// inline Chinese strings), collected at build time; the atlas includes them.
const char* app_source_characters();

// The atlas built ahead (at the monitor's scale, before a trace file had
// loaded), or a new one when the window wants other sizes or, with
// `text_may_be_new` (a trace file's source), `text` has characters that atlas
// lacks. Says on stderr when the fallback font is used.
std::unique_ptr<FontBuild> settle_fonts(std::unique_ptr<FontBuild> ahead, view::FontSizes wanted,
                                        const std::string& text, bool text_may_be_new);

// The font sizes and the panels' scale the app wants now: the content scale
// times the zoom, or more where the window's height asks for it (view::window_scale).
struct WantedScale {
  view::FontSizes fonts;
  float panels = 1;
};

WantedScale wanted_scale(const AppView& app, float window_h);

// Between frames: a zoom key, a move to a monitor of another scale or a switch
// to presentation mode rebuilds the atlas at the new sizes (Dear ImGui 1.86
// bakes glyphs at one size) and scales a fresh copy of the style.
struct ScaleState {
  std::unique_ptr<FontBuild> fonts;
  ImGuiStyle base_style;  // StyleColorsDark, unscaled
};

// Applies `want`: a new atlas when the sizes (or the text) changed, uploaded
// to the GL texture when `upload` (not before ImGui's renderer exists), and
// the style scaled afresh.
void apply_scale(const WantedScale& want, AppView& app, ScaleState& state, bool upload);

}  // namespace warpviz::app
