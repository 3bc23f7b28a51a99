// Pixel checks on a warpviz screenshot, for the GUI smoke tests.
//
//   check_screenshot IMAGE [--region ...] CHECK... [--region ...] CHECK...
//
// Checks apply to the current region (the whole image until --region):
//   --region x,y,w,h              pixels; with fractions (0.5,0,0.5,1) a share of the image
//   --expect-size WxH             the image's size
//   --expect-colour RRGGBB[~T]:N  at least N pixels within T (default 24) of the colour per channel
//   --reject-colour RRGGBB[~T]:N  fewer than N such pixels
//   --expect-dominant RRGGBB[~T]:F at least a share F (0..1) of the region's pixels near the colour
//   --expect-hues N               at least N distinct saturated colours (each on 40 pixels or more)
//   --expect-busy F               at least a share F of pixels differ from the region's commonest colour
//   --expect-same OTHER.png~T:N   at most N pixels differ from OTHER's (same size) by more than T in a channel
//   --print-colours N             prints the N commonest colours (to write new expectations)
//   --save-region OUT.png         writes the region as a PNG (to look at what a check saw)
//
// Each check prints what it measured; the exit status is 1 when any failed,
// 2 on a usage or file error. A saturated colour is one whose channels spread
// by 60 or more: panel greys and text anti-aliasing are not, cells and arrows are.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

// stb's own code, not ours: its warnings are not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#pragma GCC diagnostic pop

namespace {

struct Image {
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;
  const unsigned char* at(int x, int y) const { return &rgb[(size_t(y) * w + x) * 3]; }
};

struct Region {
  int x = 0, y = 0, w = 0, h = 0;
  long pixels() const { return long(w) * h; }
};

struct Colour {
  int r = 0, g = 0, b = 0, tolerance = 24;
};

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "check_screenshot: %s\n", message.c_str());
  std::exit(2);
}

// "RRGGBB" or "RRGGBB~T".
Colour parse_colour(const std::string& text) {
  Colour c;
  std::string hex = text;
  if (auto tilde = text.find('~'); tilde != std::string::npos) {
    hex = text.substr(0, tilde);
    c.tolerance = std::atoi(text.c_str() + tilde + 1);
  }
  if (hex.size() != 6 || hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    usage_error("bad colour '" + text + "' (want RRGGBB or RRGGBB~T)");
  unsigned long v = std::strtoul(hex.c_str(), nullptr, 16);
  c.r = int(v >> 16) & 255, c.g = int(v >> 8) & 255, c.b = int(v) & 255;
  return c;
}

// "COLOUR:NUMBER", split at the last colon.
std::pair<Colour, double> parse_colour_amount(const std::string& text) {
  auto colon = text.rfind(':');
  if (colon == std::string::npos) usage_error("want COLOUR:AMOUNT, got '" + text + "'");
  return {parse_colour(text.substr(0, colon)), std::atof(text.c_str() + colon + 1)};
}

Region parse_region(const std::string& text, const Image& img) {
  double v[4];
  if (std::sscanf(text.c_str(), "%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3]) != 4)
    usage_error("bad region '" + text + "' (want x,y,w,h)");
  // All four within 0..1 with a fraction among them: shares of the image.
  bool fractions = text.find('.') != std::string::npos && std::all_of(v, v + 4, [](double d) { return d <= 1.0; });
  if (fractions) v[0] *= img.w, v[1] *= img.h, v[2] *= img.w, v[3] *= img.h;
  Region r{int(v[0]), int(v[1]), int(v[2]), int(v[3])};
  r.x = std::clamp(r.x, 0, img.w), r.y = std::clamp(r.y, 0, img.h);
  r.w = std::clamp(r.w, 0, img.w - r.x), r.h = std::clamp(r.h, 0, img.h - r.y);
  if (r.pixels() == 0) usage_error("region '" + text + "' is empty on this image");
  return r;
}

long count_near(const Image& img, const Region& r, const Colour& c) {
  long n = 0;
  for (int y = r.y; y < r.y + r.h; ++y)
    for (int x = r.x; x < r.x + r.w; ++x) {
      const unsigned char* p = img.at(x, y);
      if (std::abs(p[0] - c.r) <= c.tolerance && std::abs(p[1] - c.g) <= c.tolerance &&
          std::abs(p[2] - c.b) <= c.tolerance)
        ++n;
    }
  return n;
}

// Colours quantised to 3 bits a channel: anti-aliased edges fall into the
// bucket of the colour they blend toward and do not count as new hues.
std::map<uint32_t, long> histogram(const Image& img, const Region& r) {
  std::map<uint32_t, long> counts;
  for (int y = r.y; y < r.y + r.h; ++y)
    for (int x = r.x; x < r.x + r.w; ++x) {
      const unsigned char* p = img.at(x, y);
      counts[uint32_t(p[0] >> 5) << 6 | uint32_t(p[1] >> 5) << 3 | uint32_t(p[2] >> 5)]++;
    }
  return counts;
}

bool saturated(uint32_t bucket) {
  int r = int(bucket >> 6 & 7) * 32 + 16, g = int(bucket >> 3 & 7) * 32 + 16, b = int(bucket & 7) * 32 + 16;
  return std::max({r, g, b}) - std::min({r, g, b}) >= 60;
}

std::string bucket_hex(uint32_t bucket) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02x%02x%02x", int(bucket >> 6 & 7) * 32 + 16, int(bucket >> 3 & 7) * 32 + 16,
                int(bucket & 7) * 32 + 16);
  return buf;
}

std::string region_text(const Region& r) {
  return std::to_string(r.x) + "," + std::to_string(r.y) + " " + std::to_string(r.w) + "x" + std::to_string(r.h);
}

bool report(bool ok, const std::string& what) {
  std::printf("%s  %s\n", ok ? "ok  " : "FAIL", what.c_str());
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help")) {
    std::printf(
        "usage: check_screenshot IMAGE [--region x,y,w,h] CHECK... [--region ...] CHECK...\n"
        "  --region x,y,w,h               pixels, or shares of the image (0.5,0,0.5,1)\n"
        "  --expect-size WxH\n"
        "  --expect-colour RRGGBB[~T]:N   at least N pixels within T (default 24) per channel\n"
        "  --reject-colour RRGGBB[~T]:N   fewer than N such pixels\n"
        "  --expect-dominant RRGGBB[~T]:F at least a share F of the region\n"
        "  --expect-hues N                at least N saturated colours, 40 pixels each\n"
        "  --expect-busy F                at least a share F unlike the commonest colour\n"
        "  --expect-same OTHER.png~T:N    at most N pixels off OTHER's by more than T a channel\n"
        "  --print-colours N              the N commonest colours\n"
        "  --save-region OUT.png          the region as a PNG\n");
    return argc < 2 ? 2 : 0;
  }
  Image img;
  int channels = 0;
  unsigned char* data = stbi_load(argv[1], &img.w, &img.h, &channels, 3);
  if (!data) usage_error(std::string("cannot read ") + argv[1] + ": " + stbi_failure_reason());
  img.rgb.assign(data, data + size_t(img.w) * img.h * 3);
  stbi_image_free(data);
  std::printf("%s: %dx%d\n", argv[1], img.w, img.h);

  Region region{0, 0, img.w, img.h};
  bool all_ok = true;
  for (int i = 2; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc) usage_error(flag + " needs a value");
    std::string value = argv[++i];
    const std::string where = " in " + region_text(region);

    if (flag == "--region") {
      region = parse_region(value, img);
    } else if (flag == "--expect-size") {
      int w = 0, h = 0;
      std::sscanf(value.c_str(), "%dx%d", &w, &h);
      all_ok &= report(img.w == w && img.h == h, "size " + std::to_string(img.w) + "x" + std::to_string(img.h) +
                                                     " (want " + value + ")");
    } else if (flag == "--expect-colour" || flag == "--reject-colour") {
      auto [colour, amount] = parse_colour_amount(value);
      long n = count_near(img, region, colour);
      bool expect = flag == "--expect-colour";
      bool ok = expect ? n >= long(amount) : n < long(amount);
      all_ok &= report(ok, "colour " + value.substr(0, value.rfind(':')) + where + ": " + std::to_string(n) +
                               " px (want " + (expect ? ">= " : "< ") + std::to_string(long(amount)) + ")");
    } else if (flag == "--expect-dominant") {
      auto [colour, share] = parse_colour_amount(value);
      double got = double(count_near(img, region, colour)) / double(region.pixels());
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.3f (want >= %.3f)", got, share);
      all_ok &= report(got >= share, "share of " + value.substr(0, value.rfind(':')) + where + ": " + buf);
    } else if (flag == "--expect-hues") {
      long want = std::atol(value.c_str());
      long hues = 0;
      std::string list;
      for (const auto& [bucket, count] : histogram(img, region))
        if (count >= 40 && saturated(bucket)) ++hues, list += " " + bucket_hex(bucket);
      all_ok &= report(hues >= want, "saturated colours" + where + ": " + std::to_string(hues) + " (want >= " +
                                         value + "):" + list);
    } else if (flag == "--expect-busy") {
      double want = std::atof(value.c_str());
      auto counts = histogram(img, region);
      long top = 0;
      for (const auto& [bucket, count] : counts) top = std::max(top, count);
      double busy = 1.0 - double(top) / double(region.pixels());
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.3f (want >= %.3f)", busy, want);
      all_ok &= report(busy >= want, "share not background" + where + ": " + buf);
    } else if (flag == "--expect-same") {
      // OTHER.png~T:N, read from the right (a path may hold ':' or '~').
      const size_t colon = value.rfind(':'), tilde = value.rfind('~', colon);
      if (colon == std::string::npos || tilde == std::string::npos) usage_error("--expect-same " + value + ": expected OTHER.png~T:N");
      const std::string other_path = value.substr(0, tilde);
      const int tolerance = std::atoi(value.substr(tilde + 1, colon - tilde - 1).c_str());
      const long allowed = std::atol(value.substr(colon + 1).c_str());
      int ow = 0, oh = 0, oc = 0;
      unsigned char* other = stbi_load(other_path.c_str(), &ow, &oh, &oc, 3);
      if (!other) usage_error("cannot read " + other_path + ": " + stbi_failure_reason());
      long differing = 0;
      int worst = 0;
      if (ow == img.w && oh == img.h) {
        for (int y = region.y; y < region.y + region.h; ++y)
          for (int x = region.x; x < region.x + region.w; ++x) {
            const unsigned char* a = img.at(x, y);
            const unsigned char* b = other + (size_t(y) * ow + x) * 3;
            int d = 0;
            for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(int(a[c]) - int(b[c])));
            worst = std::max(worst, d);
            differing += d > tolerance;
          }
      }
      stbi_image_free(other);
      all_ok &= report(ow == img.w && oh == img.h && differing <= allowed,
                       "like " + other_path + " (" + std::to_string(ow) + "x" + std::to_string(oh) + ")" + where + ": " +
                           std::to_string(differing) + " px off by more than " + std::to_string(tolerance) +
                           ", the most " + std::to_string(worst) + " (want <= " + std::to_string(allowed) + " px)");
    } else if (flag == "--print-colours") {
      auto counts = histogram(img, region);
      std::vector<std::pair<long, uint32_t>> sorted;
      for (const auto& [bucket, count] : counts) sorted.push_back({count, bucket});
      std::sort(sorted.rbegin(), sorted.rend());
      std::printf("commonest colours%s (3-bit buckets, centre shown):\n", where.c_str());
      for (size_t k = 0; k < sorted.size() && k < size_t(std::atoi(value.c_str())); ++k)
        std::printf("  %s  %8ld px%s\n", bucket_hex(sorted[k].second).c_str(), sorted[k].first,
                    saturated(sorted[k].second) ? "  saturated" : "");
    } else if (flag == "--save-region") {
      const unsigned char* first = img.at(region.x, region.y);
      stbi_write_png_compression_level = 9;  // these go into docs/: small beats fast
      if (!stbi_write_png(value.c_str(), region.w, region.h, 3, first, img.w * 3))
        usage_error("cannot write " + value);
      std::printf("wrote %s (%s)\n", value.c_str(), region_text(region).c_str());
    } else {
      usage_error("unknown flag " + flag);
    }
  }
  return all_ok ? 0 : 1;
}
