#include "warpviz/view/ui_scale.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace warpviz::view {

namespace {
constexpr float kZoomSteps[] = {0.5f, 0.67f, 0.75f, 0.8f, 0.9f, 1.0f, 1.1f, 1.25f,
                                1.5f, 1.75f, 2.0f, 2.5f, 3.0f};
constexpr float kDesignHeight = 900;  // the height the layout and type were designed at
}  // namespace

float zoom_step(float zoom, int direction) {
  if (!std::isfinite(zoom)) return 1.0f;
  zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
  if (direction > 0) {
    for (float step : kZoomSteps)
      if (step > zoom + 0.005f) return step;
    return kMaxZoom;
  }
  if (direction < 0) {
    for (auto it = std::rbegin(kZoomSteps); it != std::rend(kZoomSteps); ++it)
      if (*it < zoom - 0.005f) return *it;
    return kMinZoom;
  }
  return zoom;
}

float ui_scale(float content_scale, float zoom) {
  if (!std::isfinite(content_scale) || content_scale <= 0) content_scale = 1;
  if (!std::isfinite(zoom) || zoom <= 0) zoom = 1;
  const float s = std::clamp(content_scale * zoom, 0.5f, 6.0f);
  return std::round(s * 16) / 16;
}

float window_scale(float ui, float zoom, float window_h) {
  if (!std::isfinite(zoom) || zoom <= 0) zoom = 1;
  const float by_window = std::isfinite(window_h) && window_h > 0 ? zoom * window_h / kDesignHeight : 0;
  const float quarter = std::floor(by_window * 4) / 4;
  return std::clamp(std::max(ui, quarter), 0.5f, 6.0f);
}

FontSizes font_sizes(float body_scale, float display_scale) {
  FontSizes f;
  f.body = std::round(15 * body_scale);
  f.large = std::round(28 * display_scale);
  // Over 128 px a glyph atlas grows by megabytes for no visible gain: the
  // presentation headline draws the 128-px glyphs a little larger instead.
  f.huge = std::min(128.0f, std::round(56 * display_scale));
  return f;
}

}  // namespace warpviz::view
