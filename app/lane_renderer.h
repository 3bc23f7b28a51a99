// The lane view's shapes in GLSL: cells, arrows and travelling values, drawn
// instanced into an offscreen texture that the lane panel shows with
// ImGui::Image. Text (lane numbers, values) is not drawn here: the panel puts
// it over the image with ImGui, so GL does shapes and ImGui does glyphs.
#pragma once

#include <string>

#include "warpviz/view/lane_view.h"

namespace warpviz::app {

struct Rgba {
  float r = 0, g = 0, b = 0, a = 1;
};

// Colour-blind-safe (Okabe-Ito hues): reads are sky blue, travelling values
// yellow, undefined vermillion red and hatched, so no pair relies on red/green.
// The panel's legend and text use the same table as the shaders.
struct LanePalette {
  Rgba background;
  Rgba in_fill, in_border;         // top row: values going in
  Rgba out_fill, out_border;       // bottom row: values coming out
  Rgba kept_fill, kept_border;     // bottom row: shuffle source out of range
  Rgba after_fill, after_border;   // third row: the watched value after the round
  Rgba undefined_fill, undefined_border;  // hatched with the border colour
  Rgba inactive_fill, inactive_border;
  Rgba read_arrow, kept_arrow, undefined_arrow;
  Rgba travelling;                 // the discs
  Rgba text, inactive_text, undefined_text, lane_number;
};
const LanePalette& lane_palette(bool high_contrast);
// Inactive lanes are drawn in their usual colours, greyed by the shader; this
// is the same formula, for the legend's swatch.
Rgba dimmed(Rgba c);
// How far the bottom row has filled in at eased_t: values land at the end of
// the transition. The panel fades the out values' text by the same amount.
float out_reveal(float eased_t);
// How far the third row (the watched value after the round) has come in: it
// follows the landing, so the sum appears once the read value is there.
float after_reveal(float eased_t);

class LaneRenderer {
 public:
  // Needs a current GL 3.3 core context. Loads the shaders from
  // WARPVIZ_SHADER_DIR (or the environment variable of that name); a missing
  // file or a compile/link error throws std::runtime_error naming the file
  // with the GL info log.
  LaneRenderer();
  explicit LaneRenderer(const std::string& shader_dir);
  ~LaneRenderer();
  LaneRenderer(const LaneRenderer&) = delete;
  LaneRenderer& operator=(const LaneRenderer&) = delete;

  // Draws one frame into the texture (resized to width_px x height_px when it
  // differs). `layout` is in the texture's pixels, y down. eased_t in 0..1:
  // values travel along the arrows; at 1 the step is complete and no disc is
  // drawn. The arrows are view::arrow_curve's Beziers (the vertex shader
  // evaluates them), the discs sit at view::travelling_value on them, so a
  // travelling value stays on its arrow. Leaves the caller's framebuffer,
  // viewport and bindings as they were.
  void render(const view::LaneLayout& layout, const view::LaneFrame& frame, float eased_t,
              bool high_contrast, int width_px, int height_px);

  // The colour texture (GL name); row 0 is the bottom, so show it with V flipped.
  unsigned texture() const { return color_tex_; }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  void resize(int width_px, int height_px);
  void create_buffers();

  unsigned cell_program_ = 0, arrow_program_ = 0;
  unsigned quad_vbo_ = 0, ribbon_vbo_ = 0;
  unsigned cell_vao_ = 0, disc_vao_ = 0, arrow_vao_ = 0;
  unsigned cell_instances_ = 0, disc_instances_ = 0, arrow_instances_ = 0;
  int ribbon_vertices_ = 0;
  unsigned fbo_ = 0, color_tex_ = 0;
  int width_ = 0, height_ = 0;
};

}  // namespace warpviz::app
