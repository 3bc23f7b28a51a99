#version 330 core
// Arrows: an antialiased edge across the ribbon; "kept own value" loops are
// dashed so they read apart from real reads without relying on colour.

in float v_side_px;
in float v_dist;
flat in vec4 v_color;
flat in float v_kind;
flat in float v_head;

uniform float u_width;  // line width, px

out vec4 o_color;

void main() {
  float coverage = clamp(u_width * 0.5 + 0.5 - abs(v_side_px), 0.0, 1.0);
  if (v_kind > 0.5 && v_kind < 1.5 && v_head < 0.5) {
    float period = u_width * 4.0;
    if (mod(v_dist, period) > period * 0.55) discard;
  }
  if (coverage <= 0.0) discard;
  o_color = vec4(v_color.rgb, v_color.a * coverage);
}
