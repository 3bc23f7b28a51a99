#include "font_atlas.h"

#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "app_source_characters.inc"  // generated: kAppSourceCharacters
#include "data_dirs.h"
#include "panel_table.h"
#include "warpviz/scenario.h"
#include "warpviz/version.h"
#include "warpviz/view/strings.h"

namespace warpviz::app {

std::string find_cjk_font() {
  const std::string candidates[] = {
      "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",  // fonts-wqy-microhei
      asset_dir() + "/fonts/wqy-microhei.ttc",
  };
  for (const auto& path : candidates)
    if (std::filesystem::exists(path)) return path;
  return {};
}

namespace {

// Dear ImGui's own font, when the CJK font is missing: no Chinese glyphs.
void add_default_fonts(FontBuild& b) {
  auto add = [&](float px) {
    ImFontConfig cfg;
    cfg.SizePixels = std::round(px);
    return b.atlas->AddFontDefault(&cfg);
  };
  b.fonts.regular = add(b.sizes.body * 13 / 15);  // ProggyClean is drawn for 13 px
  b.fonts.mono = b.fonts.regular;  // ProggyClean is monospaced already
  b.fonts.large = add(b.sizes.large);
  b.fonts.huge = add(b.sizes.huge);
}

bool operator!=(const view::FontSizes& a, const view::FontSizes& b) {
  return a.body != b.body || a.large != b.large || a.huge != b.huge;
}

}  // namespace

// Body text gets the 2500 common simplified characters (the seeds' comments are
// Chinese); the large and huge display sizes only the UI's own words, so the
// atlas stays small enough to build in a blink.
std::unique_ptr<FontBuild> build_fonts(view::FontSizes sizes, const std::string& extra_text) {
  auto b = std::make_unique<FontBuild>();
  b->sizes = sizes;
  ImFontAtlas& atlas = *b->atlas;
  const std::string path = find_cjk_font();
  if (path.empty()) {
    b->note = "warpviz: /usr/share/fonts/truetype/wqy/wqy-microhei.ttc not found (apt-get install "
              "fonts-wqy-microhei); using Dear ImGui's built-in font, without Chinese glyphs";
    add_default_fonts(*b);
    atlas.Build();
    return b;
  }

  ImFontGlyphRangesBuilder ui_words;
  for (int t = 0; t < int(view::Text::Count); ++t) ui_words.AddText(view::tr(view::Text(t), view::Language::Chinese));
  // Panel titles live in their rows (panel_list.h), not in the strings table.
  for (const PanelSpec& panel : panel_table()) ui_words.AddText(panel.chinese);
  ui_words.AddText("→←↑↓·×…✓");  // marks the panels draw
  // The Chinese strings the panels write inline, and the scenarios' own; the
  // seed-claim callout quotes the seeds in the large font.
  ui_words.AddText(kAppSourceCharacters);
  for (const ScenarioSpec& spec : scenario_specs()) {
    ui_words.AddText(spec.summary_zh.c_str());
    for (const SeedClaim& claim : spec.seed_claims) {
      ui_words.AddText(claim.text.c_str());
      ui_words.AddText(claim.source_zh.c_str());
    }
  }

  // The common set lacks some characters the seeds use (迭代, ...): add every
  // character of the kernel sources, the seed claims and the first trace.
  ImFontGlyphRangesBuilder body = ui_words;
  body.AddRanges(atlas.GetGlyphRangesChineseSimplifiedCommon());
  std::string last_path;
  for (const ScenarioSpec& spec : scenario_specs()) {
    if (spec.source_path != last_path) body.AddText(kernel_source_text(spec.source_path).c_str());
    last_path = spec.source_path;
    for (const SeedClaim& claim : spec.seed_claims) body.AddText(claim.text.c_str());
  }
  body.AddText(extra_text.c_str());
  body.BuildRanges(&b->body_ranges);
  ui_words.AddRanges(atlas.GetGlyphRangesDefault());
  ui_words.BuildRanges(&b->display_ranges);
  // Presentation mode shows the current source line in the large face: the
  // kernels' own characters (their Chinese comments) besides the UI's words.
  ImFontGlyphRangesBuilder large_words = ui_words;
  for (const ScenarioSpec& spec : scenario_specs()) large_words.AddText(kernel_source_text(spec.source_path).c_str());
  large_words.AddText(extra_text.c_str());
  large_words.BuildRanges(&b->large_ranges);

  auto add = [&](float px, int face, const ImVector<ImWchar>& ranges, int oversample) {
    ImFontConfig cfg;
    cfg.FontNo = face;  // the .ttc holds Micro Hei (0) and Micro Hei Mono (1)
    // Thousands of CJK glyphs: horizontal oversampling would triple the atlas.
    cfg.OversampleH = oversample;
    cfg.OversampleV = 1;
    return atlas.AddFontFromFileTTF(path.c_str(), px, &cfg, ranges.Data);
  };
  UiFonts& fonts = b->fonts;
  fonts.regular = add(sizes.body, 0, b->body_ranges, 1);
  fonts.mono = add(sizes.body, 1, b->body_ranges, 1);
  fonts.large = add(sizes.large, 0, b->large_ranges, sizes.large > 40 ? 1 : 2);
  fonts.huge = add(sizes.huge, 0, b->display_ranges, 1);
  if (!fonts.regular || !fonts.mono || !fonts.large || !fonts.huge || !atlas.Build()) {
    b->note = "warpviz: cannot read " + path + "; using Dear ImGui's built-in font";
    atlas.Clear();
    b->fonts = {};
    add_default_fonts(*b);
    atlas.Build();
  }
  return b;
}

std::string missing_glyphs(const ImFont* font, const char* text) {
  std::string missing;
  for (const char* c = text; *c;) {
    unsigned int code = 0;
    const int length = ImTextCharFromUtf8(&code, c, nullptr);
    if (length <= 0) break;
    const std::string character(c, size_t(length));
    if (code >= 0x80 && !font->FindGlyphNoFallback(ImWchar(code)) && missing.find(character) == std::string::npos)
      missing += character;
    c += length;
  }
  return missing;
}

const char* app_source_characters() { return kAppSourceCharacters; }

std::unique_ptr<FontBuild> settle_fonts(std::unique_ptr<FontBuild> ahead, view::FontSizes wanted,
                                        const std::string& text, bool text_may_be_new) {
  const bool lacks_glyphs = text_may_be_new && ahead->note.empty() && !has_every_glyph(ahead->fonts.regular, text);
  if (ahead->sizes != wanted || lacks_glyphs) ahead = build_fonts(wanted, text);
  if (!ahead->note.empty()) std::fprintf(stderr, "%s\n", ahead->note.c_str());
  return ahead;
}

WantedScale wanted_scale(const AppView& app, float window_h) {
  const float ui = view::ui_scale(app.content_scale, app.zoom);
  // Every panel grows with the window, not only presentation mode's.
  const float window = view::window_scale(ui, app.zoom, window_h);
  return {view::font_sizes(window, window), window};
}

void apply_scale(const WantedScale& want, AppView& app, ScaleState& state, bool upload) {
  if (want.fonts != state.fonts->sizes || app.fonts_stale) {
    app.fonts_stale = false;  // a lesson's captions are in font_text()
    std::unique_ptr<FontBuild> rebuilt = build_fonts(want.fonts, app.font_text());
    ImGui::GetIO().Fonts = rebuilt->atlas.get();
    if (upload) {
      ImGui_ImplOpenGL3_DestroyFontsTexture();
      ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    app.fonts = rebuilt->fonts;
    state.fonts = std::move(rebuilt);  // the old atlas goes once nothing points at it
  }
  if (want.panels != app.dpi_scale || upload == false) {
    app.dpi_scale = want.panels;
    ImGui::GetStyle() = state.base_style;
    ImGui::GetStyle().ScaleAllSizes(want.panels);
  }
}

}  // namespace warpviz::app
