#version 330 core
// Lane cells and discs: a rounded box (or circle) from its distance field, so
// edges are antialiased without MSAA. Undefined lanes get diagonal hatching in
// the border colour (a cue that does not depend on seeing red); inactive lanes
// are turned grey and dark.

in vec2 v_local;
flat in vec2 v_half;
flat in vec4 v_fill;
flat in vec4 v_border;
flat in vec2 v_shape;  // border width, corner radius (px)
flat in uint v_flags;

uniform float u_hatch_px;  // stripe period along x + y

out vec4 o_color;

const uint kHatched = 1u;
const uint kDimmed = 2u;
const uint kDisc = 4u;

float rounded_box(vec2 p, vec2 half_size, float r) {
  vec2 q = abs(p) - half_size + r;
  return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}

// Mirrored on the CPU by dimmed() in lane_renderer.cpp for the legend.
vec3 dim(vec3 c) {
  float grey = dot(c, vec3(0.299, 0.587, 0.114));
  return mix(vec3(grey), c, 0.15) * 0.55;
}

void main() {
  float d = (v_flags & kDisc) != 0u ? length(v_local) - min(v_half.x, v_half.y)
                                    : rounded_box(v_local, v_half, v_shape.y);
  float coverage = clamp(0.5 - d, 0.0, 1.0);
  if (coverage <= 0.0) discard;

  vec4 inner = v_fill;
  if ((v_flags & kHatched) != 0u) {
    // Stripes in window space, so the hatching of neighbouring cells lines up.
    float s = mod(gl_FragCoord.x + gl_FragCoord.y, u_hatch_px);
    float w = u_hatch_px * 0.35;
    float stripe = clamp(s, 0.0, 1.0) * clamp(w - s, 0.0, 1.0);
    inner.rgb = mix(inner.rgb, v_border.rgb, 0.45 * stripe);
    inner.a = max(inner.a, 0.45 * stripe * v_border.a);
  }
  float edge = smoothstep(-v_shape.x - 0.5, -v_shape.x + 0.5, d);
  vec4 c = mix(inner, v_border, v_shape.x > 0.0 ? edge : 0.0);
  if ((v_flags & kDimmed) != 0u) c.rgb = dim(c.rgb);
  o_color = vec4(c.rgb, c.a * coverage);
}
