// A user's own headers that the host compiler cannot read as they are: a
// `.cu` or `.cuh` file included by another (HeCBench's btree includes
// map/host.cu, which launches kernels) gets the unit's rewrite too
// (`<<<...>>>`, `extern __shared__`, __CUDA_ARCH__ in host bodies). Each such
// header is written, rewritten and under `#line 1 "its path"`, into the build
// folder, and every `#include "..."` that leads to it, in the unit or in
// another header, names the copy instead. A copy's own relative includes name
// their files by absolute path, since the copy lives elsewhere.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "warpviz/user_source.h"

namespace warpviz::user {

struct HeaderCopies {
  std::string unit_text;  // the unit's text with its includes of copied headers pointed at the copies
  std::map<std::string, std::string> originals;  // copy -> the user's header it stands for
};

// `rewrite(text)` is the unit's own rewrite; a header it leaves unchanged,
// and that leads to no changed header, is read where it is. `unit_text` is
// the unit as written for the compiler (its lines those of src.text).
HeaderCopies copy_rewritten_headers(const UserSource& src, const std::string& unit_text,
                                    const std::filesystem::path& folder,
                                    const std::function<std::string(const std::string&)>& rewrite);

}  // namespace warpviz::user
