// Rewritten copies of a user's headers (header_copies.h).
#include "header_copies.h"

#include <fstream>
#include <set>
#include <sstream>
#include <vector>

namespace warpviz::user {

namespace fs = std::filesystem;

namespace {

// The target of `#include "x.h"` on this line, or "".
std::string quoted_include(const std::string& line) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || line[i] != '#') return "";
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string::npos || line.compare(i, 7, "include") != 0) return "";
  i = line.find_first_not_of(" \t", i + 7);
  if (i == std::string::npos || line[i] != '"') return "";
  const size_t end = line.find('"', i + 1);
  if (end == std::string::npos || end == i + 1) return "";
  return line.substr(i + 1, end - i - 1);
}

// As the scan resolves it (user_source.cpp): beside the including file.
std::string resolve(const fs::path& including, const std::string& name) {
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(including.parent_path() / name, ec);
  return ec || !fs::is_regular_file(target, ec) ? "" : target.string();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A path as a string literal's content: the only bytes a path needs escaped there.
std::string quoted_path(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// `text` with each `#include "x"` whose target is in `to` naming to[target]
// instead; lines stay where they were.
std::string point_includes(const std::string& text, const fs::path& including,
                           const std::map<std::string, std::string>& to) {
  std::string out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    const bool last = end == std::string::npos;
    if (last) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    const std::string name = quoted_include(line);
    const auto it = name.empty() ? to.end() : to.find(resolve(including, name));
    out += it == to.end() ? line : "#include \"" + quoted_path(it->second) + "\"";
    if (last) break;
    out += '\n';
    pos = end + 1;
  }
  return out;
}

}  // namespace

HeaderCopies copy_rewritten_headers(const UserSource& src, const std::string& unit_text, const fs::path& folder,
                                    const std::function<std::string(const std::string&)>& rewrite) {
  HeaderCopies copies;
  copies.unit_text = unit_text;
  if (src.local_includes.empty()) return copies;
  struct Header {
    std::string text, rewritten;
    std::set<std::string> targets;
    bool copied = false;
  };
  std::map<std::string, Header> headers;
  for (const std::string& path : src.local_includes) {
    Header h;
    h.text = without_byte_order_mark(read_text_file(path));
    h.rewritten = rewrite(h.text);
    h.copied = h.rewritten != h.text || h.text.size() != read_text_file(path).size();  // a BOM, too
    for (const std::string& line : lines_of(h.text))
      if (const std::string name = quoted_include(line); !name.empty())
        if (const std::string target = resolve(path, name); !target.empty()) h.targets.insert(target);
    headers.emplace(path, std::move(h));
  }
  // A header that includes a copied one is copied too: its include must change.
  for (bool grew = true; grew;) {
    grew = false;
    for (auto& [path, h] : headers)
      if (!h.copied)
        for (const std::string& t : h.targets)
          if (const auto it = headers.find(t); it != headers.end() && it->second.copied) {
            h.copied = grew = true;
            break;
          }
  }
  // Each copy in a folder of its own, under its own name (#include "x.cuh" in
  // an error message stays recognisable).
  std::map<std::string, std::string> copy_of;  // header -> copy, for copied headers
  size_t index = 0;
  for (const auto& [path, h] : headers)
    if (h.copied) copy_of[path] = (folder / std::to_string(index++) / fs::path(path).filename()).string();
  if (copy_of.empty()) return copies;
  for (const auto& [path, h] : headers) {
    if (!h.copied) continue;
    // Every local include by absolute path: the copy's own folder is not the header's.
    std::map<std::string, std::string> to;
    for (const std::string& t : h.targets) to[t] = copy_of.count(t) ? copy_of.at(t) : t;
    const fs::path copy = copy_of.at(path);
    std::error_code ec;
    fs::create_directories(copy.parent_path(), ec);
    std::ofstream(copy, std::ios::binary) << "#line 1 \"" << quoted_path(path) << "\"\n"
                                          << point_includes(h.rewritten, path, to) << "\n";
    copies.originals[copy.string()] = path;
  }
  copies.unit_text = point_includes(unit_text, fs::weakly_canonical(fs::absolute(src.path)), copy_of);
  return copies;
}

}  // namespace warpviz::user
