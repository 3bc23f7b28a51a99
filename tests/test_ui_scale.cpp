// Scale and zoom (view/ui_scale.h), values shortened to fit a narrow cell
// (view::shorten_value), and the zoom in the settings file.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "warpviz/view/lane_view.h"
#include "warpviz/view/settings.h"
#include "warpviz/view/ui_scale.h"

using namespace warpviz::view;
namespace fs = std::filesystem;

TEST_CASE("zoom steps go up and down through the steps and stop at the ends", "[view][scale]") {
  CHECK(zoom_step(1.0f, +1) == Approx(1.1f));
  CHECK(zoom_step(1.0f, -1) == Approx(0.9f));
  CHECK(zoom_step(1.1f, -1) == Approx(1.0f));
  CHECK(zoom_step(1.05f, +1) == Approx(1.1f));  // between steps: the next one
  CHECK(zoom_step(1.05f, -1) == Approx(1.0f));
  CHECK(zoom_step(kMaxZoom, +1) == Approx(kMaxZoom));
  CHECK(zoom_step(kMinZoom, -1) == Approx(kMinZoom));
  // Up from the least to the most and back visits each step once, in order.
  float z = kMinZoom;
  int ups = 0;
  while (z < kMaxZoom && ups < 100) {
    const float next = zoom_step(z, +1);
    REQUIRE(next > z);
    z = next, ++ups;
  }
  int downs = 0;
  while (z > kMinZoom && downs < 100) z = zoom_step(z, -1), ++downs;
  CHECK(ups == downs);
  CHECK(zoom_step(std::nanf(""), +1) == 1.0f);
}

TEST_CASE("the interface scale is content scale times zoom and every panel grows with the window", "[view][scale]") {
  CHECK(ui_scale(1.0f, 1.0f) == 1.0f);
  CHECK(ui_scale(2.0f, 1.25f) == 2.5f);
  CHECK(ui_scale(1.0001f, 1.0f) == 1.0f);  // no rebuild for a rounding error
  CHECK(ui_scale(0.0f, 1.0f) == 1.0f);     // a monitor reporting nothing
  CHECK(ui_scale(100.0f, 3.0f) == 6.0f);
  // 900 pixels high is scale 1; a 4K screen 2.4, in quarter steps: 2.25.
  CHECK(window_scale(1.0f, 1.0f, 900) == 1.0f);
  CHECK(window_scale(1.0f, 1.0f, 2160) == 2.25f);
  CHECK(window_scale(1.0f, 1.0f, 1440) == 1.5f);
  CHECK(window_scale(1.0f, 1.0f, 600) == 1.0f);   // never below the interface's own
  CHECK(window_scale(2.0f, 1.0f, 1080) == 2.0f);  // a HiDPI monitor's own scale wins
  CHECK(window_scale(1.0f, 1.5f, 2160) == 3.5f);  // the zoom applies too
  CHECK(window_scale(1.0f, 0.5f, 2160) == 1.0f);  // and shrinks a 4K window's type back
  CHECK(window_scale(1.0f, 1.0f, std::nanf("")) == 1.0f);
  // A resize by a few pixels keeps the scale (and so the font atlas).
  CHECK(window_scale(1.0f, 1.0f, 2150) == window_scale(1.0f, 1.0f, 2170));
  // Taller never means smaller.
  float last = 0;
  for (float h = 300; h <= 4400; h += 10) {
    const float s = window_scale(1.0f, 1.0f, h);
    CHECK(s >= last);
    last = s;
  }
  CHECK(window_scale(1.0f, 3.0f, 4320) == 6.0f);  // capped: an 8K window at the largest zoom
  // Fonts follow: the body text too, not only the headlines; the presentation
  // headline's atlas is capped.
  const FontSizes normal = font_sizes(1.0f, 1.0f);
  CHECK(normal.body == 15);
  CHECK(normal.large == 28);
  CHECK(normal.huge == 56);
  const float at_4k = window_scale(1.0f, 1.0f, 2160);
  const FontSizes big = font_sizes(at_4k, at_4k);
  CHECK(big.body == 34);
  CHECK(big.large == 63);
  CHECK(big.huge == 126);
  CHECK(font_sizes(1.0f, 4.0f).huge == 128);
}

TEST_CASE("a value too long for its cell shows fewer digits", "[view][scale]") {
  CHECK(shorten_value("496", 3) == "496");  // fits: as it is
  CHECK(shorten_value("1234567", 4) == "1.2M");
  CHECK(shorten_value("1234567", 5) == "1.23M");
  CHECK(shorten_value("1234567", 2) == "1M");
  CHECK(shorten_value("-45000", 4) == "-45k");
  CHECK(shorten_value("-12", 2).empty());  // nothing honest fits
  CHECK(shorten_value("3.14159274", 4) == "3.14");
  CHECK(shorten_value("0.333333343", 3) == "0.3");
  CHECK(shorten_value("0x0000ffff", 5) == "\u2026ffff");  // the low digits
  CHECK(utf8_length(shorten_value("0x0000ffff", 5)) == 5);
  CHECK(shorten_value("undefined", 4) == "und\u2026");
  CHECK(shorten_value("1234567", 0).empty());
  // Whatever comes back fits the count asked for.
  for (const char* v : {"4294967295", "-2147483648", "1.17549435e-38", "0xdeadbeefcafef00d", "nan", "-inf"})
    for (size_t n = 0; n < 12; ++n) CHECK(utf8_length(shorten_value(v, n)) <= n);
}

TEST_CASE("settings: the zoom round trips; files without it read as 1; damage is refused", "[settings][scale]") {
  const fs::path dir = fs::temp_directory_path() / ("warpviz_zoom_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "settings.json").string();
  AppSettings s;
  s.zoom = 1.25;
  REQUIRE(save_settings(s, path, nullptr));
  std::string warning;
  CHECK(load_settings(path, &warning).zoom == 1.25);
  CHECK(warning.empty());

  {  // written before the zoom existed
    std::ofstream(path) << R"({"format": "warpviz-settings", "version": 1, "window_w": 1200, "window_h": 800})";
  }
  const AppSettings old = load_settings(path, &warning);
  CHECK(warning.empty());
  CHECK(old.zoom == 1.0);
  CHECK(old.window_w == 1200);

  for (const char* bad : {"0.1", "40", "\"big\"", "1e999"}) {
    std::ofstream(path) << std::string(R"({"zoom": )") + bad + "}";
    const AppSettings r = load_settings(path, &warning);
    CHECK(r.zoom == 1.0);
    CHECK_FALSE(warning.empty());
  }
  fs::remove_all(dir);
}
