// libFuzzer target: the app's settings file. load_settings never throws: a
// damaged file gives defaults and a warning. A file that loads without a
// warning must save and load back to the same settings.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <typeinfo>

#include "fuzz_common.h"
#include "warpviz/view/settings.h"

using namespace warpviz;
using namespace warpviz::view;

namespace {

std::string temp_dir() {
  static const std::string dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "warpviz-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) fuzz::finding("cannot make a temporary directory");
    return pattern;
  }();
  return dir;
}

bool same(const AppSettings& a, const AppSettings& b) {
  return a.window_w == b.window_w && a.window_h == b.window_h && a.imgui_layout == b.imgui_layout &&
         a.scenario == b.scenario && a.language == b.language && a.speed == b.speed && a.panels == b.panels &&
         a.recent_files == b.recent_files && a.time_limit_s == b.time_limit_s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = temp_dir() + "/settings.json";
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    if (size && std::fwrite(data, 1, size, f) != size) fuzz::finding("cannot write the input file");
    std::fclose(f);
  } else {
    fuzz::finding("cannot create the input file");
  }
  std::string warning;
  AppSettings loaded;
  try {
    loaded = load_settings(path, &warning);
  } catch (const std::exception& e) {
    fuzz::finding(std::string("load_settings threw ") + typeid(e).name() + ": " + e.what());
  }
  if (!warning.empty()) return 0;
  const std::string saved_path = temp_dir() + "/saved.json";
  std::string error;
  if (!save_settings(loaded, saved_path, &error)) fuzz::finding("save_settings failed: " + error);
  std::string warning2;
  const AppSettings again = load_settings(saved_path, &warning2);
  if (!warning2.empty()) fuzz::finding("saved settings load with a warning: " + warning2);
  // The parser took only valid UTF-8, so nothing is replaced on save: exact.
  if (!same(loaded, again)) fuzz::finding("settings changed in a save/load round trip");
  return 0;
}
