#include "screenshot.h"

#include <cstring>

#include "warpviz/file_write.h"

// The implementation comes from Debian's libstb, which the app links for
// Dear ImGui's font code anyway.
#include <stb_image_write.h>

namespace warpviz::app {

std::vector<unsigned char> encode_png(PixelSize size, const std::vector<unsigned char>& rgb) {
  std::vector<unsigned char> png;
  const size_t row = size_t(size.w) * 3;
  if (size.w <= 0 || size.h <= 0 || rgb.size() < row * size_t(size.h)) return png;
  // GL's rows run bottom-up, PNG's top-down.
  std::vector<unsigned char> top_down(row * size_t(size.h));
  for (int y = 0; y < size.h; ++y)
    std::memcpy(top_down.data() + size_t(y) * row, rgb.data() + size_t(size.h - 1 - y) * row, row);
  const auto append = [](void* context, void* data, int n) {
    auto* out = static_cast<std::vector<unsigned char>*>(context);
    const auto* bytes = static_cast<const unsigned char*>(data);
    out->insert(out->end(), bytes, bytes + n);
  };
  if (!stbi_write_png_to_func(append, &png, size.w, size.h, 3, top_down.data(), int(row))) png.clear();
  return png;
}

bool save_frame_png(FrameTarget& target, const std::string& path, std::string* error) {
  const PixelSize size = target.framebuffer_size();
  std::vector<unsigned char> rgb;
  if (!target.read_rgb(&rgb, error)) return false;
  const std::vector<unsigned char> png = encode_png(size, rgb);
  if (png.empty()) {
    if (error) *error = "cannot write " + path + ": the PNG encoder failed";
    return false;
  }
  try {
    write_file_replacing(path, png.data(), png.size());
  } catch (const FileWriteError& e) {
    if (error) *error = e.what();
    return false;
  }
  return true;
}

}  // namespace warpviz::app
