// The layout report: panels from ImGui's window list, text runs rebuilt from
// the glyph quads in each window's draw list (a glyph is a quad whose texture
// coordinates are one of the fonts' glyphs), roles as the panels note them.
#include "layout_report.h"

#include "font_atlas.h"
#include "panel_table.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <map>
#include <string>
#include <utility>

namespace warpviz::app {

namespace {

// "Lanes###lanes" -> "lanes": the id survives a change of language.
std::string panel_id(const char* name) {
  const char* id = std::strstr(name, "###");
  return id ? std::string(id + 3) : std::string(name);
}

// "Lanes###lanes" -> "Lanes": what the title bar shows.
std::string panel_title(const char* name) {
  const char* id = std::strstr(name, "###");
  return id ? std::string(name, id) : std::string(name);
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += char(c);
    else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else out += char(c);
  }
  return out + "\"";
}

std::string json_rect(ImVec2 min, ImVec2 max) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "[%.1f, %.1f, %.1f, %.1f]", min.x, min.y, max.x, max.y);
  return buf;
}

struct GlyphKey {
  float u0, v0;
  bool operator<(const GlyphKey& o) const { return u0 < o.u0 || (u0 == o.u0 && v0 < o.v0); }
};
struct GlyphInfo {
  const ImFont* font;
  const ImFontGlyph* glyph;
};

// A run of glyphs on one line, in one font at one size.
struct Run {
  ImVec2 min{FLT_MAX, FLT_MAX}, max{-FLT_MAX, -FLT_MAX};
  float size = 0, line_top = 0, last_x = 0;
  const ImFont* font = nullptr;
  bool clipped = false;
  int glyphs = 0;
  std::string text;  // the glyphs' characters; a gap wider than a fifth of the size reads as a space
};

void append_utf8(std::string& out, unsigned code) {
  if (code < 0x80) {
    out += char(code);
  } else if (code < 0x800) {
    out += char(0xC0 | (code >> 6)), out += char(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += char(0xE0 | (code >> 12)), out += char(0x80 | ((code >> 6) & 0x3F)), out += char(0x80 | (code & 0x3F));
  } else {
    out += char(0xF0 | (code >> 18)), out += char(0x80 | ((code >> 12) & 0x3F));
    out += char(0x80 | ((code >> 6) & 0x3F)), out += char(0x80 | (code & 0x3F));
  }
}

}  // namespace

void LayoutReport::role(const char* role, const std::string& text, ImVec2 min, ImVec2 max, float font_px) {
  if (!enabled) return;
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const char* name = window && window->RootWindow ? window->RootWindow->Name : "";
  roles_.push_back(Role{panel_id(name), role, text, min, max, font_px});
}

bool LayoutReport::write(const std::string& path, std::string* error) const {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  const ImFontAtlas* atlas = g.IO.Fonts;
  std::map<GlyphKey, GlyphInfo> glyphs;
  for (const ImFont* font : atlas->Fonts)
    for (const ImFontGlyph& glyph : font->Glyphs)
      if (glyph.Visible) glyphs[GlyphKey{glyph.U0, glyph.V0}] = GlyphInfo{font, &glyph};

  std::string out = "{\n";
  char buf[256];
  std::snprintf(buf, sizeof buf, "  \"display\": [%.0f, %.0f],\n  \"ui_scale\": %.3f,\n", g.IO.DisplaySize.x,
                g.IO.DisplaySize.y, ui_scale);
  out += buf;

  // The app's panels by id (panel_table.cpp), shown or not: what a check may
  // name; and their titles in the frame's language, as the View menu lists them.
  out += std::string("  \"language\": ") + (language == view::Language::Chinese ? "\"zh\"" : "\"en\"") + ",\n";
  out += "  \"app_panels\": [";
  for (const PanelSpec& panel : panel_table())
    out += std::string(&panel == panel_table().data() ? "" : ", ") + json_string(panel.id);
  out += "],\n  \"app_panel_titles\": [";
  for (const PanelSpec& panel : panel_table())
    out += std::string(&panel == panel_table().data() ? "" : ", ") + json_string(panel.title(language));
  out += "],\n";
  // Characters of those titles the body font has no glyph for: drawn as "?"
  // boxes (a title's words not in the font atlas's list of texts).
  std::string titles;
  for (const PanelSpec& panel : panel_table()) titles += panel.title(language);
  const std::string missing = missing_glyphs(ImGui::GetFont(), titles.c_str());
  out += "  \"panel_title_glyphs_missing\": " + json_string(missing.c_str()) + ",\n";
  // Every character of the panels' inline strings (either language): any the
  // body font lacks shows as a box somewhere.
  const std::string ui_missing = missing_glyphs(ImGui::GetFont(), app_source_characters());
  out += "  \"ui_glyphs_missing\": " + json_string(ui_missing.c_str()) + ",\n";

  // Panels: visible top-level windows (the menu bar counts as one).
  out += "  \"panels\": [";
  bool first = true;
  for (ImGuiWindow* w : g.Windows) {
    if (!w->WasActive || w->Hidden || w->ParentWindow || (w->Flags & ImGuiWindowFlags_Tooltip)) continue;
    out += first ? "\n" : ",\n";
    first = false;
    out += "    {\"id\": " + json_string(panel_id(w->Name)) + ", \"title\": " + json_string(panel_title(w->Name)) +
           ", \"rect\": " +
           json_rect(w->Pos, ImVec2(w->Pos.x + w->Size.x, w->Pos.y + w->Size.y)) +
           ", \"popup\": " + ((w->Flags & ImGuiWindowFlags_Popup) || (w->Flags & ImGuiWindowFlags_Modal) ? "true" : "false") +
           "}";
  }
  out += "\n  ],\n";

  // Text runs: the glyph quads of every visible window, grouped by line.
  out += "  \"texts\": [";
  first = true;
  for (ImGuiWindow* w : g.Windows) {
    if (!w->WasActive || w->Hidden || !w->DrawList) continue;
    const ImDrawList& list = *w->DrawList;
    const ImGuiWindow* root = w->RootWindow ? w->RootWindow : w;
    // Scrollable content may be cut at its edge: the user scrolls to it.
    const bool scrollable = w->ScrollbarX || w->ScrollbarY || root->ScrollbarX || root->ScrollbarY;
    Run run;
    auto flush = [&] {
      if (run.glyphs == 0) return;
      out += first ? "\n" : ",\n";
      first = false;
      std::snprintf(buf, sizeof buf, ", \"size\": %.1f, \"clipped\": %s, \"scrollable\": %s, \"glyphs\": %d}",
                    run.size, run.clipped ? "true" : "false", scrollable ? "true" : "false", run.glyphs);
      out += "    {\"panel\": " + json_string(panel_id(root->Name)) + ", \"window\": " + json_string(w->Name) +
             ", \"text\": " + json_string(run.text) + ", \"rect\": " + json_rect(run.min, run.max) + buf;
      run = Run{};
    };
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback || cmd.ElemCount == 0) continue;
      // AddText writes each glyph as two triangles over four new vertices:
      // indices b, b+1, b+2, b, b+2, b+3 (everything is triangles: step by 3).
      const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset;
      for (unsigned k = 0; k + 6 <= cmd.ElemCount; k += 3) {
        const unsigned b = idx[k];
        if (idx[k + 1] != b + 1 || idx[k + 2] != b + 2 || idx[k + 3] != b || idx[k + 4] != b + 2 || idx[k + 5] != b + 3)
          continue;
        const ImDrawVert* q = &list.VtxBuffer[int(cmd.VtxOffset + b)];
        auto it = glyphs.find(GlyphKey{q[0].uv.x, q[0].uv.y});
        if (it == glyphs.end()) continue;
        const ImFontGlyph& glyph = *it->second.glyph;
        // Top-left, top-right, bottom-right, bottom-left.
        if (q[1].uv.x != glyph.U1 || q[2].uv.y != glyph.V1 || q[3].uv.x != glyph.U0) continue;
        const float gh = glyph.Y1 - glyph.Y0, gw = glyph.X1 - glyph.X0;
        const float scale = gh > 0.5f ? (q[2].pos.y - q[0].pos.y) / gh : gw > 0.5f ? (q[1].pos.x - q[0].pos.x) / gw : 1;
        const float size = it->second.font->FontSize * scale;
        const float line_top = q[0].pos.y - glyph.Y0 * scale;
        // Neighbouring glyphs' boxes may overlap a little (side bearings).
        const bool same_run = run.glyphs > 0 && run.font == it->second.font && std::fabs(run.size - size) < 0.5f &&
                              std::fabs(run.line_top - line_top) < 0.5f && q[0].pos.x >= run.last_x - size * 0.3f &&
                              q[0].pos.x - run.last_x < size * 1.6f;
        if (!same_run) flush();
        else if (q[0].pos.x - run.last_x > size * 0.2f) run.text += ' ';
        append_utf8(run.text, glyph.Codepoint);
        run.font = it->second.font;
        run.size = size;
        run.line_top = line_top;
        run.last_x = q[1].pos.x;
        run.min = ImVec2(std::min(run.min.x, q[0].pos.x), std::min(run.min.y, line_top));
        run.max = ImVec2(std::max(run.max.x, q[1].pos.x), std::max(run.max.y, line_top + size));
        // Cut by the clip rectangle: by more than a glyph's side bearing, which
        // may reach a pixel or two past where the text was placed.
        constexpr float kSlack = 2.0f;
        if (q[0].pos.x < cmd.ClipRect.x - kSlack || q[0].pos.y < cmd.ClipRect.y - kSlack ||
            q[2].pos.x > cmd.ClipRect.z + kSlack || q[2].pos.y > cmd.ClipRect.w + kSlack)
          run.clipped = true;
        ++run.glyphs;
        k += 3;  // the quad's second triangle
      }
      flush();
    }
  }
  out += "\n  ],\n";

  out += "  \"roles\": [";
  first = true;
  for (const Role& r : roles_) {
    out += first ? "\n" : ",\n";
    first = false;
    std::snprintf(buf, sizeof buf, ", \"size\": %.1f}", r.font_px);
    out += "    {\"panel\": " + json_string(r.panel) + ", \"role\": " + json_string(r.role) +
           ", \"text\": " + json_string(r.text) + ", \"rect\": " + json_rect(r.min, r.max) + buf;
  }
  out += "\n  ]\n}\n";

  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    if (error) *error = "cannot write the layout report " + path;
    return false;
  }
  const bool ok = std::fwrite(out.data(), 1, out.size(), f) == out.size();
  if (std::fclose(f) != 0 || !ok) {
    if (error) *error = "cannot write the layout report " + path;
    return false;
  }
  return true;
}

LayoutReport& layout_report() {
  static LayoutReport report;
  return report;
}

}  // namespace warpviz::app
