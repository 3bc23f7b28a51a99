#version 330 core
// Lane cells and travelling-value discs: one unit quad, one instance per cell
// or disc, placed from the instance's pixel rect. Pixel space runs y down, as
// in ImGui, so the panel's text lands on the same coordinates.

layout(location = 0) in vec2 a_corner;   // unit quad, 0..1
layout(location = 1) in vec4 i_rect;     // x, y, w, h in px
layout(location = 2) in vec4 i_fill;
layout(location = 3) in vec4 i_border;
layout(location = 4) in vec2 i_shape;    // border width, corner radius (px)
layout(location = 5) in uint i_flags;    // 1 hatched, 2 dimmed, 4 disc

uniform vec2 u_viewport;  // px

out vec2 v_local;  // px from the rect's centre
flat out vec2 v_half;
flat out vec4 v_fill;
flat out vec4 v_border;
flat out vec2 v_shape;
flat out uint v_flags;

void main() {
  vec2 half_size = i_rect.zw * 0.5;
  // One px of margin so the antialiased edge is not cut off by the quad.
  vec2 local = (a_corner * 2.0 - 1.0) * (half_size + 1.0);
  vec2 px = i_rect.xy + half_size + local;
  gl_Position = vec4(px.x / u_viewport.x * 2.0 - 1.0, 1.0 - px.y / u_viewport.y * 2.0, 0.0, 1.0);
  v_local = local;
  v_half = half_size;
  v_fill = i_fill;
  v_border = i_border;
  v_shape = i_shape;
  v_flags = i_flags;
}
