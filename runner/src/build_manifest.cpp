#include "warpviz/build_manifest.h"

#include <xxhash.h>  // compiled in: CMake sets XXH_INLINE_ALL

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

namespace warpviz::user {
namespace {

std::string hex128(XXH128_hash_t h) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
  return buf;
}

constexpr int kManifestVersion = 1;

}  // namespace

std::string content_hash(const std::string& bytes) { return hex128(XXH3_128bits(bytes.data(), bytes.size())); }

std::string file_content_hash(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  // In pieces: a program is 10 to 30 MB and need not sit in memory whole.
  XXH3_state_t* state = XXH3_createState();
  if (!state) return "";
  XXH3_128bits_reset(state);
  char buf[1 << 16];
  while (in) {
    in.read(buf, sizeof buf);
    XXH3_128bits_update(state, buf, size_t(in.gcount()));
  }
  const bool read_whole = in.eof() && !in.bad();
  const std::string hex = hex128(XXH3_128bits_digest(state));
  XXH3_freeState(state);
  return read_whole ? hex : "";
}

std::optional<std::vector<std::string>> parse_make_rule(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool have_word = false, seen_colon = false;
  auto end_word = [&] {
    if (have_word && seen_colon) words.push_back(word);
    word.clear();
    have_word = false;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
      end_word();  // a continuation line
      ++i;
      if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else if (c == '\\' && i + 1 < text.size() && (text[i + 1] == ' ' || text[i + 1] == '#')) {
      word += text[++i];
      have_word = true;
    } else if (c == '$' && i + 1 < text.size() && text[i + 1] == '$') {
      word += text[++i];
      have_word = true;
    } else if (c == '\n') {
      end_word();
      if (seen_colon) return words;  // the first rule ends here
    } else if (c == ' ' || c == '\t' || c == '\r') {
      end_word();
    } else if (c == ':' && !seen_colon && (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\t' ||
                                            text[i + 1] == '\n' || text[i + 1] == '\r')) {
      // The target's end; gcc leaves a ':' inside a path as it is, never
      // followed by a space.
      word.clear();
      have_word = false;
      seen_colon = true;
    } else {
      word += c;
      have_word = true;
    }
  }
  end_word();
  if (!seen_colon) return std::nullopt;
  return words;
}

std::vector<std::string> incbin_names(const std::string& text) {
  std::vector<std::string> names;
  static const std::string directive = ".incbin";
  for (size_t at = text.find(directive); at != std::string::npos; at = text.find(directive, at + 1)) {
    size_t i = at + directive.size();
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    // In a C string the quote is \" ; in assembly it is a bare ".
    const bool escaped = text.compare(i, 2, "\\\"") == 0;
    if (escaped) i += 2;
    else if (i < text.size() && text[i] == '"') ++i;
    else continue;
    std::string name;
    for (; i < text.size() && text[i] != '\n'; ++i) {
      if (escaped ? text.compare(i, 2, "\\\"") == 0 : text[i] == '"') break;
      if (!escaped && text[i] == '\\' && i + 1 < text.size()) ++i;  // gas's own escape
      name += text[i];
    }
    if (i < text.size() && text[i] != '\n' && !name.empty()) names.push_back(name);
  }
  return names;
}

std::string manifest_json(const BuildManifest& manifest) {
  nlohmann::json deps = nlohmann::json::array();
  for (const ManifestDependency& d : manifest.dependencies) deps.push_back({{"path", d.path}, {"hash", d.hash}});
  const nlohmann::json j = {{"version", kManifestVersion}, {"program", manifest.program_hash}, {"dependencies", deps}};
  return j.dump(1) + "\n";
}

std::optional<BuildManifest> read_manifest(const std::string& text, std::string* error) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    if (j.at("version").get<int>() != kManifestVersion) {
      if (error) *error = "manifest version " + j.at("version").dump() + " is not " + std::to_string(kManifestVersion);
      return std::nullopt;
    }
    BuildManifest m;
    m.program_hash = j.at("program").get<std::string>();
    for (const nlohmann::json& d : j.at("dependencies"))
      m.dependencies.push_back({d.at("path").get<std::string>(), d.at("hash").get<std::string>()});
    return m;
  } catch (const std::exception& e) {
    if (error) *error = std::string("not a build manifest: ") + e.what();
    return std::nullopt;
  }
}

std::optional<std::string> changed_dependency(const BuildManifest& manifest) {
  for (const ManifestDependency& d : manifest.dependencies)
    if (file_content_hash(d.path) != d.hash) return d.path;
  return std::nullopt;
}

}  // namespace warpviz::user
