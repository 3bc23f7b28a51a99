// LaneRenderer: the GLSL side of the lane view.
//
// [SECTION] Palette              colours shared with the panel (the arrows' geometry is view::arrow_curve)
// [SECTION] Shaders              loading, compiling, linking (errors name the file)
// [SECTION] Buffers              unit quad, arrow ribbon, instance layouts
// [SECTION] Render               instances from a LaneFrame, three draw calls

#include "lane_renderer.h"

#include "data_dirs.h"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#ifndef WARPVIZ_SHADER_DIR
#define WARPVIZ_SHADER_DIR "shaders"  // the app's CMake sets the real one
#endif

namespace warpviz::app {

//-----------------------------------------------------------------------------
// [SECTION] Palette
//-----------------------------------------------------------------------------

namespace {

constexpr Rgba rgb(int r, int g, int b, float a = 1.0f) { return {r / 255.0f, g / 255.0f, b / 255.0f, a}; }

// Okabe-Ito: sky blue #56B4E9, yellow #F0E442, vermillion #D55E00, bluish green #009E73.
LanePalette make_palette(bool high_contrast) {
  LanePalette p;
  if (!high_contrast) {
    p.background = rgb(22, 24, 29);
    p.in_fill = rgb(38, 50, 66);
    p.in_border = rgb(92, 126, 160);
    p.out_fill = rgb(22, 58, 52);
    p.out_border = rgb(0, 158, 115);
    p.after_fill = rgb(58, 34, 52);
    p.after_border = rgb(204, 121, 167);  // Okabe-Ito reddish purple: apart from in, out and undefined
    p.kept_fill = rgb(44, 48, 54);
    p.kept_border = rgb(150, 154, 160);
    p.undefined_fill = rgb(70, 24, 10);
    p.undefined_border = rgb(213, 94, 0);
    p.read_arrow = rgb(86, 180, 233, 0.9f);
    p.kept_arrow = rgb(150, 154, 160, 0.9f);
    p.undefined_arrow = rgb(230, 80, 30, 0.95f);
    p.travelling = rgb(240, 228, 66);
    p.text = rgb(232, 236, 242);
    p.inactive_text = rgb(110, 112, 118);
    p.undefined_text = rgb(255, 214, 196);
    p.lane_number = rgb(150, 158, 170);
  } else {
    // Projector mode: black ground, bright outlines, the same hues at full strength.
    p.background = rgb(0, 0, 0);
    p.in_fill = rgb(10, 22, 40);
    p.in_border = rgb(120, 200, 255);
    p.out_fill = rgb(0, 36, 26);
    p.out_border = rgb(40, 230, 170);
    p.after_fill = rgb(40, 10, 34);
    p.after_border = rgb(240, 140, 200);
    p.kept_fill = rgb(24, 24, 24);
    p.kept_border = rgb(220, 220, 220);
    p.undefined_fill = rgb(60, 10, 0);
    p.undefined_border = rgb(255, 90, 20);
    p.read_arrow = rgb(110, 200, 255);
    p.kept_arrow = rgb(220, 220, 220);
    p.undefined_arrow = rgb(255, 80, 30);
    p.travelling = rgb(255, 240, 60);
    p.text = rgb(255, 255, 255);
    p.inactive_text = rgb(140, 140, 140);
    p.undefined_text = rgb(255, 200, 170);
    p.lane_number = rgb(220, 220, 220);
  }
  return p;
}

int clamp_lane(int lane) { return std::clamp(lane, 0, kWarpSize - 1); }

}  // namespace

const LanePalette& lane_palette(bool high_contrast) {
  static const LanePalette normal = make_palette(false), contrast = make_palette(true);
  return high_contrast ? contrast : normal;
}

Rgba dimmed(Rgba c) {
  // Same formula as dim() in lane_cells.frag.
  float grey = 0.299f * c.r + 0.587f * c.g + 0.114f * c.b;
  auto mix = [&](float v) { return (grey + (v - grey) * 0.15f) * 0.55f; };
  return {mix(c.r), mix(c.g), mix(c.b), c.a};
}

float out_reveal(float eased_t) { return std::clamp((eased_t - 0.75f) / 0.25f, 0.0f, 1.0f); }

float after_reveal(float eased_t) { return std::clamp((eased_t - 0.85f) / 0.15f, 0.0f, 1.0f); }

//-----------------------------------------------------------------------------
// [SECTION] Shaders
//-----------------------------------------------------------------------------

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read shader " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string info_log(GLuint object, bool is_program) {
  GLint length = 0;
  if (is_program)
    glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length);
  else
    glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
  std::string log(std::max(length, 1), '\0');
  if (is_program)
    glGetProgramInfoLog(object, length, nullptr, log.data());
  else
    glGetShaderInfoLog(object, length, nullptr, log.data());
  log.resize(std::char_traits<char>::length(log.c_str()));
  return log;
}

GLuint compile(GLenum type, const std::string& path) {
  std::string source = read_text(path);
  const char* text = source.c_str();
  GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    std::string log = info_log(shader, false);
    glDeleteShader(shader);
    throw std::runtime_error("shader " + path + " failed to compile:\n" + log);
  }
  return shader;
}

GLuint link(const std::string& dir, const std::string& name) {
  std::string vert_path = dir + "/" + name + ".vert", frag_path = dir + "/" + name + ".frag";
  GLuint vert = compile(GL_VERTEX_SHADER, vert_path);
  GLuint frag = 0;
  try {
    frag = compile(GL_FRAGMENT_SHADER, frag_path);
  } catch (...) {
    glDeleteShader(vert);
    throw;
  }
  GLuint program = glCreateProgram();
  glAttachShader(program, vert);
  glAttachShader(program, frag);
  glLinkProgram(program);
  glDeleteShader(vert);  // flagged; freed with the program
  glDeleteShader(frag);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    std::string log = info_log(program, true);
    glDeleteProgram(program);
    throw std::runtime_error("shaders " + vert_path + " + " + frag_path + " failed to link:\n" + log);
  }
  return program;
}

std::string default_shader_dir() {
  // The environment wins so an installed or moved binary can find its shaders.
  const char* env = std::getenv("WARPVIZ_SHADER_DIR");
  return env && *env ? std::string(env) : ::warpviz::app::installed_or("shaders", WARPVIZ_SHADER_DIR);
}

}  // namespace

LaneRenderer::LaneRenderer() : LaneRenderer(default_shader_dir()) {}

LaneRenderer::LaneRenderer(const std::string& shader_dir) {
  // Without a loaded context glad's pointers are null: say so instead of crashing.
  if (!glCreateShader) throw std::runtime_error("lane renderer: no OpenGL 3.3 context is current");
  cell_program_ = link(shader_dir, "lane_cells");
  try {
    arrow_program_ = link(shader_dir, "arrows");
  } catch (...) {
    glDeleteProgram(cell_program_);
    throw;
  }
  create_buffers();
}

LaneRenderer::~LaneRenderer() {
  glDeleteFramebuffers(1, &fbo_);
  glDeleteTextures(1, &color_tex_);
  GLuint vaos[] = {cell_vao_, disc_vao_, arrow_vao_};
  glDeleteVertexArrays(3, vaos);
  GLuint buffers[] = {quad_vbo_, ribbon_vbo_, cell_instances_, disc_instances_, arrow_instances_};
  glDeleteBuffers(5, buffers);
  glDeleteProgram(cell_program_);
  glDeleteProgram(arrow_program_);
}

//-----------------------------------------------------------------------------
// [SECTION] Buffers
//-----------------------------------------------------------------------------

namespace {

// Per-instance data, laid out as the shaders' attributes read it.
struct CellInstance {
  float rect[4];    // x, y, w, h (px)
  float fill[4];
  float border[4];
  float shape[2];   // border width, corner radius (px)
  uint32_t flags;   // kHatched | kDimmed | kDisc
};
constexpr uint32_t kHatched = 1, kDimmed = 2, kDisc = 4;

struct ArrowInstance {
  float ends[4];     // p0, p2
  float control[2];  // p1
  float color[4];
  float kind;        // 0 read, 1 kept own value, 2 undefined
};

constexpr int kRibbonSegments = 24;  // smooth enough for the slight arcs at any panel size

void set_color(float out[4], Rgba c) {
  out[0] = c.r, out[1] = c.g, out[2] = c.b, out[3] = c.a;
}

// A float attribute read once per instance from the bound buffer.
void instance_attribute(GLuint index, int size, GLsizei stride, size_t offset) {
  glEnableVertexAttribArray(index);
  glVertexAttribPointer(index, size, GL_FLOAT, GL_FALSE, stride, (const void*)offset);
  glVertexAttribDivisor(index, 1);
}

// Attributes 1.. of a VAO read per instance from `buffer`.
void cell_attributes(GLuint buffer) {
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  constexpr GLsizei stride = sizeof(CellInstance);
  instance_attribute(1, 4, stride, offsetof(CellInstance, rect));
  instance_attribute(2, 4, stride, offsetof(CellInstance, fill));
  instance_attribute(3, 4, stride, offsetof(CellInstance, border));
  instance_attribute(4, 2, stride, offsetof(CellInstance, shape));
  glEnableVertexAttribArray(5);
  glVertexAttribIPointer(5, 1, GL_UNSIGNED_INT, sizeof(CellInstance), (const void*)offsetof(CellInstance, flags));
  glVertexAttribDivisor(5, 1);
}

}  // namespace

void LaneRenderer::create_buffers() {
  GLint previous_vao = 0, previous_buffer = 0;
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &previous_vao);
  glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &previous_buffer);

  // Unit quad as a triangle strip: cells and discs.
  const float quad[] = {0, 0, 1, 0, 0, 1, 1, 1};
  glGenBuffers(1, &quad_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, quad_vbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);

  // Arrow ribbon: two triangles per segment of t, then the head's triangle.
  std::vector<float> ribbon;
  for (int i = 0; i < kRibbonSegments; ++i) {
    float t0 = float(i) / kRibbonSegments, t1 = float(i + 1) / kRibbonSegments;
    const float tri[] = {t0, -1, 0, t1, -1, 0, t1, 1, 0, t0, -1, 0, t1, 1, 0, t0, 1, 0};
    ribbon.insert(ribbon.end(), std::begin(tri), std::end(tri));
  }
  const float head[] = {0, 0, 1, 1, -1, 1, 1, 1, 1};
  ribbon.insert(ribbon.end(), std::begin(head), std::end(head));
  ribbon_vertices_ = int(ribbon.size() / 3);
  glGenBuffers(1, &ribbon_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, ribbon_vbo_);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(ribbon.size() * sizeof(float)), ribbon.data(), GL_STATIC_DRAW);

  glGenBuffers(1, &cell_instances_);
  glGenBuffers(1, &disc_instances_);
  glGenBuffers(1, &arrow_instances_);

  // Cells and discs share the quad and the program, each with its own instances.
  for (auto [vao, instances] : {std::pair{&cell_vao_, cell_instances_}, std::pair{&disc_vao_, disc_instances_}}) {
    glGenVertexArrays(1, vao);
    glBindVertexArray(*vao);
    glBindBuffer(GL_ARRAY_BUFFER, quad_vbo_);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
    cell_attributes(instances);
  }

  glGenVertexArrays(1, &arrow_vao_);
  glBindVertexArray(arrow_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, ribbon_vbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float), nullptr);
  glBindBuffer(GL_ARRAY_BUFFER, arrow_instances_);
  constexpr GLsizei stride = sizeof(ArrowInstance);
  instance_attribute(1, 4, stride, offsetof(ArrowInstance, ends));
  instance_attribute(2, 2, stride, offsetof(ArrowInstance, control));
  instance_attribute(3, 4, stride, offsetof(ArrowInstance, color));
  instance_attribute(4, 1, stride, offsetof(ArrowInstance, kind));

  glBindVertexArray(GLuint(previous_vao));
  glBindBuffer(GL_ARRAY_BUFFER, GLuint(previous_buffer));
}

void LaneRenderer::resize(int width_px, int height_px) {
  if (width_px == width_ && height_px == height_ && fbo_) return;
  GLint previous_texture = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous_texture);
  if (!color_tex_) glGenTextures(1, &color_tex_);
  glBindTexture(GL_TEXTURE_2D, color_tex_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width_px, height_px, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  // Shown 1:1, so nearest keeps the antialiased edges exactly as drawn.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, GLuint(previous_texture));
  if (!fbo_) {
    glGenFramebuffers(1, &fbo_);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color_tex_, 0);
  }
  width_ = width_px;
  height_ = height_px;
}

//-----------------------------------------------------------------------------
// [SECTION] Render
//-----------------------------------------------------------------------------

namespace {

// The caller's GL state, put back after drawing offscreen: render() runs in
// the middle of building an ImGui frame.
struct SavedGlState {
  GLint framebuffer = 0, viewport[4] = {}, program = 0, vao = 0, buffer = 0;
  GLint blend_src_rgb = 0, blend_dst_rgb = 0, blend_src_a = 0, blend_dst_a = 0;
  GLboolean blend = 0, scissor = 0, depth = 0, cull = 0;
  SavedGlState() {
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &framebuffer);
    glGetIntegerv(GL_VIEWPORT, viewport);
    glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao);
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &buffer);
    glGetIntegerv(GL_BLEND_SRC_RGB, &blend_src_rgb);
    glGetIntegerv(GL_BLEND_DST_RGB, &blend_dst_rgb);
    glGetIntegerv(GL_BLEND_SRC_ALPHA, &blend_src_a);
    glGetIntegerv(GL_BLEND_DST_ALPHA, &blend_dst_a);
    blend = glIsEnabled(GL_BLEND), scissor = glIsEnabled(GL_SCISSOR_TEST);
    depth = glIsEnabled(GL_DEPTH_TEST), cull = glIsEnabled(GL_CULL_FACE);
  }
  ~SavedGlState() {
    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(framebuffer));
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    glUseProgram(GLuint(program));
    glBindVertexArray(GLuint(vao));
    glBindBuffer(GL_ARRAY_BUFFER, GLuint(buffer));
    glBlendFuncSeparate(GLenum(blend_src_rgb), GLenum(blend_dst_rgb), GLenum(blend_src_a), GLenum(blend_dst_a));
    auto set = [](GLenum cap, GLboolean on) { on ? glEnable(cap) : glDisable(cap); };
    set(GL_BLEND, blend), set(GL_SCISSOR_TEST, scissor), set(GL_DEPTH_TEST, depth), set(GL_CULL_FACE, cull);
  }
};

struct CellStyle {
  Rgba fill, border;
  uint32_t flags = 0;
};

CellStyle in_style(const LanePalette& p, view::CellState state) {
  if (state == view::CellState::Inactive) return {p.in_fill, p.in_border, kDimmed};
  return {p.in_fill, p.in_border, 0};
}

CellStyle out_style(const LanePalette& p, view::CellState state) {
  switch (state) {
    case view::CellState::Active: return {p.out_fill, p.out_border, 0};
    case view::CellState::Inactive: return {p.out_fill, p.out_border, kDimmed};
    case view::CellState::Undefined: return {p.undefined_fill, p.undefined_border, kHatched};
    case view::CellState::OutOfRange: return {p.kept_fill, p.kept_border, 0};
  }
  return {p.out_fill, p.out_border, 0};
}

// Later kinds draw on top: undefined reads must never hide under ordinary ones.
int draw_order(view::ArrowKind kind) {
  switch (kind) {
    case view::ArrowKind::KeepOwn: return 0;
    case view::ArrowKind::Read: return 1;
    case view::ArrowKind::Undefined: return 2;
  }
  return 1;
}

Rgba arrow_color(const LanePalette& p, view::ArrowKind kind) {
  switch (kind) {
    case view::ArrowKind::Read: return p.read_arrow;
    case view::ArrowKind::KeepOwn: return p.kept_arrow;
    case view::ArrowKind::Undefined: return p.undefined_arrow;
  }
  return p.read_arrow;
}

}  // namespace

void LaneRenderer::render(const view::LaneLayout& layout, const view::LaneFrame& frame, float eased_t,
                          bool high_contrast, int width_px, int height_px) {
  width_px = std::clamp(width_px, 1, 8192);
  height_px = std::clamp(height_px, 1, 8192);
  SavedGlState saved;
  resize(width_px, height_px);

  const LanePalette& palette = lane_palette(high_contrast);
  const float t = std::clamp(eased_t, 0.0f, 1.0f);
  // Line widths follow the cell size, which already carries the DPI scale.
  const float unit = std::max(std::min(layout.cell_w, layout.cell_h), 8.0f);
  const float border_px = std::clamp(unit * 0.045f, 1.0f, 4.0f) * (high_contrast ? 1.5f : 1.0f);
  const float line_px = std::clamp(unit * 0.05f, 1.25f, 5.0f) * (high_contrast ? 1.5f : 1.0f);

  // Cells: top row in, bottom row out. The bottom row fills in as the values land.
  const float reveal = out_reveal(t);
  std::vector<CellInstance> cells;
  cells.reserve(3 * kWarpSize);
  auto add_cell = [&](const view::Rect& r, const CellStyle& style, float fill_alpha, float border_alpha = 1.0f) {
    CellInstance c{};
    c.rect[0] = r.x, c.rect[1] = r.y, c.rect[2] = r.w, c.rect[3] = r.h;
    Rgba fill = style.fill, border = style.border;
    fill.a *= fill_alpha;
    border.a *= border_alpha;
    set_color(c.fill, fill);
    set_color(c.border, border);
    c.shape[0] = border_px;
    c.shape[1] = std::min(r.w, r.h) * 0.14f;
    c.flags = style.flags;
    cells.push_back(c);
  };
  const size_t lanes = std::min<size_t>(frame.cells.size(), kWarpSize);
  for (size_t i = 0; i < lanes; ++i) {
    const view::LaneCell& cell = frame.cells[i];
    int lane = clamp_lane(cell.lane);
    add_cell(layout.in_cells[lane], in_style(palette, cell.state), 1.0f);
    add_cell(layout.out_cells[lane], out_style(palette, cell.state), 0.35f + 0.65f * reveal);
  }
  // The third row comes in whole (border too) once the values have landed:
  // before that there is no sum to show.
  const float after = after_reveal(t);
  if (layout.has_after && !frame.after_name.empty() && after > 0.0f) {
    for (size_t i = 0; i < lanes; ++i) {
      const view::LaneCell& cell = frame.cells[i];
      const CellStyle style{palette.after_fill, palette.after_border, cell.after_text.empty() ? kDimmed : 0u};
      add_cell(layout.after_cells[clamp_lane(cell.lane)], style, after, after);
    }
  }

  // Arrows, ordered so the ones that matter most are drawn last.
  std::vector<view::Arrow> arrows = frame.arrows;
  std::stable_sort(arrows.begin(), arrows.end(),
                   [](const view::Arrow& a, const view::Arrow& b) { return draw_order(a.kind) < draw_order(b.kind); });
  std::vector<ArrowInstance> arrow_instances;
  std::vector<CellInstance> discs;
  const float disc_r = std::clamp(unit * 0.17f, 3.0f, 16.0f);
  const bool travelling = t > 0.0f && t < 1.0f;
  for (const view::Arrow& arrow : arrows) {
    const view::ArrowCurve curve = view::arrow_curve(layout, arrow);
    ArrowInstance a{};
    a.ends[0] = curve.from.x, a.ends[1] = curve.from.y, a.ends[2] = curve.to.x, a.ends[3] = curve.to.y;
    a.control[0] = curve.control.x, a.control[1] = curve.control.y;
    set_color(a.color, arrow_color(palette, arrow.kind));
    a.kind = float(arrow.kind == view::ArrowKind::Read ? 0 : arrow.kind == view::ArrowKind::KeepOwn ? 1 : 2);
    arrow_instances.push_back(a);
    if (!travelling) continue;
    // The value itself, riding its arrow: yellow for a read, its arrow's colour otherwise.
    const view::Point at = view::travelling_value(layout, arrow, t);
    CellInstance d{};
    d.rect[0] = at.x - disc_r, d.rect[1] = at.y - disc_r, d.rect[2] = d.rect[3] = 2 * disc_r;
    set_color(d.fill, arrow.kind == view::ArrowKind::Read ? palette.travelling : arrow_color(palette, arrow.kind));
    set_color(d.border, palette.background);
    d.shape[0] = std::max(1.0f, border_px * 0.75f);
    d.flags = kDisc;
    discs.push_back(d);
  }

  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, width_px, height_px);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glClearColor(palette.background.r, palette.background.g, palette.background.b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_BLEND);
  // Alpha stays 1 over the opaque clear, so ImGui shows the texture as drawn.
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);

  auto upload = [](GLuint buffer, const auto& items) {
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(items.size() * sizeof(items[0])), items.data(), GL_STREAM_DRAW);
  };

  glUseProgram(cell_program_);
  glUniform2f(glGetUniformLocation(cell_program_, "u_viewport"), float(width_px), float(height_px));
  glUniform1f(glGetUniformLocation(cell_program_, "u_hatch_px"), std::clamp(unit * 0.28f, 5.0f, 18.0f));
  if (!cells.empty()) {
    upload(cell_instances_, cells);
    glBindVertexArray(cell_vao_);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, GLsizei(cells.size()));
  }

  if (!arrow_instances.empty()) {
    glUseProgram(arrow_program_);
    glUniform2f(glGetUniformLocation(arrow_program_, "u_viewport"), float(width_px), float(height_px));
    glUniform1f(glGetUniformLocation(arrow_program_, "u_width"), line_px);
    glUniform1f(glGetUniformLocation(arrow_program_, "u_head"), std::max(line_px * 5.5f, 7.0f));
    upload(arrow_instances_, arrow_instances);
    glBindVertexArray(arrow_vao_);
    glDrawArraysInstanced(GL_TRIANGLES, 0, ribbon_vertices_, GLsizei(arrow_instances.size()));
  }

  if (!discs.empty()) {
    glUseProgram(cell_program_);
    upload(disc_instances_, discs);
    glBindVertexArray(disc_vao_);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, GLsizei(discs.size()));
  }
}

}  // namespace warpviz::app
