#pragma once

#include <string>

namespace warpviz {

// "warpviz 0.1.0"
std::string tool_version();

// The text of a built-in kernel source (path relative to the repository, e.g.
// "kernels/warp_shuffle.cu"), embedded at build time so traces carry the very
// file the source panel shows. Empty when unknown.
std::string kernel_source_text(const std::string& path);

}  // namespace warpviz
