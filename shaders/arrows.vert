#version 330 core
// Arrows from a source lane (top row) to a destination lane (bottom row): a
// quadratic Bezier widened into a ribbon here, from a shared strip of
// (t, side) vertices, plus a triangle for the head. All arrows are one
// instanced draw; the CPU's ArrowCurve gives the same curve to the discs.

layout(location = 0) in vec3 a_vertex;  // body: (t, side, 0); head: (back, side, 1)
layout(location = 1) in vec4 i_ends;    // p0.xy (source), p2.xy (tip), px
layout(location = 2) in vec2 i_control; // p1, px
layout(location = 3) in vec4 i_color;
layout(location = 4) in float i_kind;   // 0 read, 1 kept own value (dashed), 2 undefined

uniform vec2 u_viewport;  // px
uniform float u_width;    // line width, px
uniform float u_head;     // head length, px

out float v_side_px;  // px from the centre line, for the antialiased edge
out float v_dist;     // px along the curve, for dashes
flat out vec4 v_color;
flat out float v_kind;
flat out float v_head;

vec2 bezier(vec2 p0, vec2 p1, vec2 p2, float t) {
  float u = 1.0 - t;
  return u * u * p0 + 2.0 * u * t * p1 + t * t * p2;
}

vec2 safe_normalize(vec2 v, vec2 fallback) {
  float len = length(v);
  return len > 1e-4 ? v / len : fallback;
}

void main() {
  vec2 p0 = i_ends.xy, p2 = i_ends.zw, p1 = i_control;
  // Arc length lies between the chord and the control polygon; their mean is close.
  float len = max(0.5 * (distance(p0, p2) + distance(p0, p1) + distance(p1, p2)), 1.0);
  vec2 px;
  if (a_vertex.z < 0.5) {
    // The body stops under the head so the two do not double up their alpha.
    float t_end = clamp(1.0 - 0.8 * u_head / len, 0.2, 1.0);
    float t = a_vertex.x * t_end;
    vec2 tangent = safe_normalize(2.0 * (1.0 - t) * (p1 - p0) + 2.0 * t * (p2 - p1),
                                  safe_normalize(p2 - p0, vec2(0.0, 1.0)));
    float half_px = u_width * 0.5 + 1.0;  // + 1 px for the antialiased edge
    px = bezier(p0, p1, p2, t) + vec2(-tangent.y, tangent.x) * a_vertex.y * half_px;
    v_side_px = a_vertex.y * half_px;
    v_dist = t * len;
    v_head = 0.0;
  } else {
    vec2 dir = safe_normalize(p2 - p1, safe_normalize(p2 - p0, vec2(0.0, 1.0)));
    px = p2 - dir * a_vertex.x * u_head + vec2(-dir.y, dir.x) * a_vertex.y * u_head * 0.5;
    v_side_px = 0.0;
    v_dist = len;
    v_head = 1.0;
  }
  gl_Position = vec4(px.x / u_viewport.x * 2.0 - 1.0, 1.0 - px.y / u_viewport.y * 2.0, 0.0, 1.0);
  v_color = i_color;
  v_kind = i_kind;
}
