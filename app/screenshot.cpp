#include "screenshot.h"

#include <glad/gl.h>

#include <cstdint>
#include <cstring>
#include <vector>

// The implementation comes from Debian's libstb, which the app links for
// Dear ImGui's font code anyway.
#include <stb_image_write.h>

namespace warpviz::app {

void read_from_frame() {
  GLint framebuffer = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &framebuffer);
  glReadBuffer(framebuffer != 0 ? GL_COLOR_ATTACHMENT0 : GL_BACK);
}

bool save_back_buffer_png(int width, int height, const std::string& path, std::string* error) {
  if (width <= 0 || height <= 0) {
    if (error) *error = "the window has no pixels to read back";
    return false;
  }
  // RGB, not RGBA: ImGui's blending leaves the back buffer's alpha below 1,
  // which an image viewer would show as see-through.
  const size_t row = size_t(width) * 3;
  std::vector<uint8_t> pixels(row * size_t(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  read_from_frame();
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());

  // GL's rows run bottom-up, PNG's top-down.
  std::vector<uint8_t> tmp(row);
  for (int y = 0; y < height / 2; ++y) {
    uint8_t* a = pixels.data() + size_t(y) * row;
    uint8_t* b = pixels.data() + size_t(height - 1 - y) * row;
    std::memcpy(tmp.data(), a, row);
    std::memcpy(a, b, row);
    std::memcpy(b, tmp.data(), row);
  }
  if (!stbi_write_png(path.c_str(), width, height, 3, pixels.data(), int(row))) {
    if (error) *error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace warpviz::app
