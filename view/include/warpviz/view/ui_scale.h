// How large the interface is drawn. The monitor's content scale (what the
// desktop says a pixel is worth) times the user's zoom (Ctrl+= / Ctrl+- /
// Ctrl+0, remembered in the settings); every panel also grows with the
// window's height, as the lane view's cells do, so a 4K screen at content
// scale 1 gets type a back row can read. Pure numbers: main rebuilds the fonts
// and the style from them, the tests check them.
#pragma once

namespace warpviz::view {

constexpr float kMinZoom = 0.5f, kMaxZoom = 3.0f;

// The next zoom step in `direction` (+1 larger, -1 smaller) from `zoom`, in
// steps a browser user knows (... 90 %, 100 %, 110 %, 125 % ...), within
// kMinZoom..kMaxZoom.
float zoom_step(float zoom, int direction);

// content_scale x zoom, rounded to 1/16 so that a monitor reporting 1.0001
// does not rebuild the fonts, and kept within 0.5..6.
float ui_scale(float content_scale, float zoom);

// The scale every panel and font is drawn at (presentation mode too): at
// least `ui`, and at least what the window's height asks for (a 900-pixel-high
// window is scale 1, 2160 is 2.4) times the zoom, so Ctrl+- shrinks a 4K
// window's type as it does a small one's; in quarter steps, so a resize by a
// few pixels keeps the fonts. A window under 900 pixels stays at `ui`: its
// panels get less room, not smaller type.
float window_scale(float ui, float zoom, float window_h);

// Font sizes in pixels for a scale: body text, the lane view's headline, and
// the presentation headline. Baked sizes are capped (a 2160-pixel screen
// does not need a 200-pixel atlas); the drawing scales the last step.
struct FontSizes {
  float body = 15, large = 28, huge = 56;
};
FontSizes font_sizes(float body_scale, float display_scale);

}  // namespace warpviz::view
