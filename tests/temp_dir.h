// A fresh folder for one test, removed with everything in it when the test
// ends. mkdtemp makes the name unique (tests of one binary run in parallel
// under ctest) and the folder 0700, as the compile cache wants its folders.
#pragma once
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

namespace warpviz::testing_support {

struct TempDir {
  std::filesystem::path path;

  explicit TempDir(const std::string& tag = "test") {
    std::string name = (std::filesystem::temp_directory_path() / ("warpviz-" + tag + "-XXXXXX")).string();
    if (::mkdtemp(name.data()) == nullptr) throw std::runtime_error("could not make a temporary folder " + name);
    path = name;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // The path of `name` in the folder, as a string.
  std::string file(const std::string& name) const { return (path / name).string(); }

  // Writes `text` to `name` (folders made as needed) and returns its path.
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    const std::filesystem::path target = path / name;
    std::filesystem::create_directories(target.parent_path());
    std::ofstream(target, std::ios::binary | std::ios::trunc) << text;
    return target;
  }
};

}  // namespace warpviz::testing_support
