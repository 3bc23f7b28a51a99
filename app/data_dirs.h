// Where the app finds its shaders and assets: beside an installed binary
// (PREFIX/bin/warpviz -> PREFIX/share/warpviz/...), else in the source tree
// the build names (WARPVIZ_SHADER_DIR, WARPVIZ_ASSET_DIR).
#pragma once

#include <filesystem>
#include <string>

namespace warpviz::app {

inline std::string installed_or(const std::string& folder, const std::string& built_in) {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path installed = exe.parent_path() / ".." / "share" / "warpviz" / folder;
    if (std::filesystem::is_directory(installed, ec)) return installed.lexically_normal().string();
  }
  return built_in;
}

inline std::string asset_dir() { return installed_or("assets", WARPVIZ_ASSET_DIR); }

// The article's lesson, which PageDown walks when no --lesson is open.
inline std::string builtin_lesson_path() { return asset_dir() + "/lessons/article.toml"; }

// --lesson's argument: a file when one is there, else a built-in lesson's
// name ("article": asset_dir()/lessons/article.toml), so the README's
// command works outside the source tree and from an installed app.
inline std::string lesson_argument_path(const std::string& argument) {
  std::error_code ec;
  if (std::filesystem::exists(argument, ec) || argument.find('/') != std::string::npos) return argument;
  std::string name = argument;
  if (std::filesystem::path(name).extension() == ".toml") name.resize(name.size() - 5);
  const std::string built_in = asset_dir() + "/lessons/" + name + ".toml";
  return std::filesystem::is_regular_file(built_in, ec) ? built_in : argument;
}

}  // namespace warpviz::app
