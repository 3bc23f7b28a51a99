// A rendered frame as a PNG file: --screenshot, --frames and Ctrl+Shift+S.
// The image is encoded in memory and written with write_file_replacing, so a
// PNG over an existing file keeps its mode, follows a symlink and is never
// left half written.
#pragma once

#include <string>
#include <vector>

#include "frame_target.h"

namespace warpviz::app {

// `rgb` holds size.w x size.h RGB pixels, rows bottom-up (as GL reads them).
// Returns the PNG file's bytes, top row first; empty when encoding fails.
std::vector<unsigned char> encode_png(PixelSize size, const std::vector<unsigned char>& rgb);

// The frame `target` just rendered (before it is presented), written to
// `path` as an RGB PNG. False with `error` ("cannot write PATH: why").
bool save_frame_png(FrameTarget& target, const std::string& path, std::string* error);

}  // namespace warpviz::app
