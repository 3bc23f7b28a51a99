// nvcc's compile model on one pass (nvcc_compile_model.h).
#include "warpviz/nvcc_compile_model.h"

#include <cctype>
#include <filesystem>
#include <set>
#include <vector>

#include "warpviz/user_source.h"

namespace warpviz::user {

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool word_at(const std::string& s, size_t pos, const std::string& word) {
  if (s.compare(pos, word.size(), word) != 0) return false;
  if (pos > 0 && ident_char(s[pos - 1])) return false;
  const size_t end = pos + word.size();
  return end >= s.size() || !ident_char(s[end]);
}

bool has_word(const std::string& s, const std::string& word) {
  for (size_t at = s.find(word); at != std::string::npos; at = s.find(word, at + 1))
    if (word_at(s, at, word)) return true;
  return false;
}

// Which pass a brace's body belongs to.
enum class Frame { Scope, Host, Device };

// Macros of the file that stand for __device__ (`#define DEV __device__
// inline`), so that `DEV float f() {` counts as device code too.
struct DeviceWords {
  std::set<std::string> device, host_device;
};

void read_define(const std::string& directive, DeviceWords& words) {
  size_t i = directive.find('#') + 1;
  while (i < directive.size() && std::isspace(static_cast<unsigned char>(directive[i]))) ++i;
  if (directive.compare(i, 6, "define") != 0) return;
  i += 6;
  while (i < directive.size() && std::isspace(static_cast<unsigned char>(directive[i]))) ++i;
  const size_t name_start = i;
  while (i < directive.size() && ident_char(directive[i])) ++i;
  const std::string name = directive.substr(name_start, i - name_start);
  const std::string body = directive.substr(i);
  if (name.empty()) return;
  const bool host = has_word(body, "__host__");
  if (has_word(body, "__global__") || has_word(body, "__device__")) (host ? words.host_device : words.device).insert(name);
}

bool declares_device(const std::string& head, const DeviceWords& words) {
  bool device = has_word(head, "__global__"), host = has_word(head, "__host__");
  device = device || has_word(head, "__device__");
  for (const std::string& w : words.device) device = device || has_word(head, w);
  for (const std::string& w : words.host_device)
    if (has_word(head, w)) device = host = true;
  return device && !host;
}

// The body that a `{` after `head` opens, at scope level (outside functions).
Frame classify(const std::string& head, const DeviceWords& words) {
  size_t last = head.find_last_not_of(" \t\r\n");
  if (last != std::string::npos && head[last] == '=') return Frame::Scope;  // an initializer
  // A function's head always has its parameter list; namespace, class,
  // enum and extern "C" heads have none.
  if (head.find('(') == std::string::npos) return Frame::Scope;
  return declares_device(head, words) ? Frame::Device : Frame::Host;
}

// One physical line of an #if-family directive, read as in the host pass.
std::string host_view_of_line(std::string line, bool first) {
  if (first) {
    size_t i = line.find('#') + 1;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    for (const auto& [word, value] : {std::pair{"ifdef", "if 0"}, std::pair{"ifndef", "if 1"}}) {
      if (!word_at(line, i, word)) continue;
      size_t after = i + std::char_traits<char>::length(word);
      while (after < line.size() && (line[after] == ' ' || line[after] == '\t')) ++after;
      if (word_at(line, after, "__CUDA_ARCH__"))
        return line.substr(0, i) + value + line.substr(after + 13);
    }
  }
  // `defined(__CUDA_ARCH__)` and `defined __CUDA_ARCH__` first, then the name alone.
  for (size_t at = line.find("defined"); at != std::string::npos; at = line.find("defined", at + 1)) {
    if (!word_at(line, at, "defined")) continue;
    size_t i = at + 7;
    auto spaces = [&] { while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i; };
    spaces();
    const bool paren = i < line.size() && line[i] == '(';
    if (paren) ++i, spaces();
    if (!word_at(line, i, "__CUDA_ARCH__")) continue;
    i += 13;
    if (paren) {
      spaces();
      if (i >= line.size() || line[i] != ')') continue;
      ++i;
    }
    line.replace(at, i - at, "0");
  }
  for (size_t at = line.find("__CUDA_ARCH__"); at != std::string::npos; at = line.find("__CUDA_ARCH__", at + 1))
    if (word_at(line, at, "__CUDA_ARCH__")) line.replace(at, 13, "0");
  return line;
}

bool conditional_directive(const std::string& line) {
  size_t i = line.find('#') + 1;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  for (const char* w : {"if", "elif", "ifdef", "ifndef"})
    if (word_at(line, i, w)) return true;
  return false;
}

}  // namespace

UnitLanguage unit_language(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  return ext == ".cu" || ext == ".cuh" ? UnitLanguage::Cuda : UnitLanguage::Cpp;
}

std::string nvcc_predefined_macros(UnitLanguage language) {
  // Each only where nothing defined it already: a kit header may one day.
  std::string out;
  auto define = [&](const char* name, const char* value) {
    out += std::string("#ifndef ") + name + "\n#define " + name + " " + value + "\n#endif\n";
  };
  define("__NVCC__", "1");
  define("__CUDACC_VER_MAJOR__", "13");
  define("__CUDACC_VER_MINOR__", "0");
  define("CUDA_VERSION", "13000");
  // CUDART_VERSION and cuda_runtime.h's include guards are the kit's runtime
  // header's (user_runtime.h), which every unit gets with the prelude.
  if (language == UnitLanguage::Cuda) {
    define("__CUDACC__", "1");
    define("__CUDA_ARCH__", "900");  // sm_90; host function bodies read it as undefined
  }
  return out;
}

std::string warpviz_headers_first(const std::string& text) {
  std::string out;
  const std::string code = text.find("warpviz/") == std::string::npos ? std::string() : text;
  size_t pos = 0;
  while (pos < code.size()) {
    size_t end = code.find('\n', pos);
    if (end == std::string::npos) end = code.size();
    size_t i = code.find_first_not_of(" \t", pos);
    if (i < end && code[i] == '#') {
      i = code.find_first_not_of(" \t", i + 1);
      if (i < end && code.compare(i, 7, "include") == 0) {
        i = code.find_first_not_of(" \t", i + 7);
        if (i < end && (code[i] == '"' || code[i] == '<') && code.compare(i + 1, 8, "warpviz/") == 0) {
          const size_t close = code.find(code[i] == '"' ? '"' : '>', i + 1);
          // Only plain names: the line is written into the unit as it is.
          const std::string name = close < end ? code.substr(i + 1, close - i - 1) : "";
          if (!name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_./") == std::string::npos)
            out += "#include \"" + name + "\"\n";
        }
      }
    }
    pos = end + 1;
  }
  return out;
}

std::string cuda_arch_for_host_bodies(const std::string& text) {
  if (text.find("__CUDA_ARCH__") == std::string::npos) return text;
  const std::string code = code_only(text);
  DeviceWords words;
  std::vector<Frame> frames{Frame::Scope};
  std::string head;  // the code since the last ; { or } at scope level
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (pos < code.size()) {
    size_t end = code.find('\n', pos);
    if (end == std::string::npos) end = code.size();
    const size_t first = code.find_first_not_of(" \t", pos);
    if (first < end && code[first] == '#') {
      // A directive, with its continuation lines; no brace in it counts.
      std::vector<std::pair<size_t, size_t>> lines{{pos, end}};
      while (lines.back().second > lines.back().first && code[lines.back().second - 1] == '\\' &&
             lines.back().second < code.size()) {
        const size_t next = lines.back().second + 1;
        size_t next_end = code.find('\n', next);
        if (next_end == std::string::npos) next_end = code.size();
        lines.emplace_back(next, next_end);
      }
      std::string whole;
      for (const auto& [a, b] : lines) whole += code.substr(a, b - a) + " ";
      read_define(whole, words);
      const bool rewrite = frames.back() == Frame::Host && conditional_directive(whole) &&
                           whole.find("__CUDA_ARCH__") != std::string::npos;
      for (size_t k = 0; k < lines.size(); ++k) {
        const auto [a, b] = lines[k];
        out += rewrite ? host_view_of_line(code.substr(a, b - a), k == 0) : text.substr(a, b - a);
        if (b < text.size()) out += '\n';
      }
      pos = lines.back().second + 1;
      continue;
    }
    for (size_t i = pos; i < end; ++i) {
      const char c = code[i];
      if (c == '{') {
        frames.push_back(frames.back() == Frame::Scope ? classify(head, words) : frames.back());
        head.clear();
      } else if (c == '}') {
        if (frames.size() > 1) frames.pop_back();
        head.clear();
      } else if (c == ';') {
        head.clear();
      } else if (frames.back() == Frame::Scope) {
        head += c;
      }
    }
    head += ' ';
    out += text.substr(pos, end - pos);
    if (end < text.size()) out += '\n';
    pos = end + 1;
  }
  return out;
}

}  // namespace warpviz::user
