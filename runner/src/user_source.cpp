// Reading a user's .cu file as text (user_source.h).
//
// [SECTION] Code without comments and literals
// [SECTION] Kernels and main
// [SECTION] Local includes
// [SECTION] The host compiler's rewrite
#include "warpviz/user_source.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>

namespace warpviz::user {

namespace fs = std::filesystem;

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

// 1-based line numbers of increasing positions, counted once through the text.
class LineCounter {
 public:
  explicit LineCounter(const std::string& text) : text_(text) {}
  int line_of(size_t pos) {
    pos = std::min(pos, text_.size());
    if (pos < counted_to_) counted_to_ = 0, newlines_ = 0;
    newlines_ += int(std::count(text_.begin() + long(counted_to_), text_.begin() + long(pos), '\n'));
    counted_to_ = pos;
    return 1 + newlines_;
  }

 private:
  const std::string& text_;
  size_t counted_to_ = 0;
  int newlines_ = 0;
};

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

bool word_at(const std::string& code, size_t pos, const std::string& word) {
  if (code.compare(pos, word.size(), word) != 0) return false;
  if (pos > 0 && ident_char(code[pos - 1])) return false;
  const size_t end = pos + word.size();
  return end >= code.size() || !ident_char(code[end]);
}

// The position just past the bracket that closes the one at `open`, or npos.
size_t skip_balanced(const std::string& code, size_t open) {
  const char o = code[open];
  const char c = o == '(' ? ')' : o == '[' ? ']' : o == '{' ? '}' : '>';
  int depth = 0;
  for (size_t i = open; i < code.size(); ++i) {
    if (code[i] == o) ++depth;
    else if (code[i] == c && --depth == 0) return i + 1;
  }
  return std::string::npos;
}

// Hand-written matching, not std::regex: libstdc++'s matcher recurses once per
// character of a repetition, so a long run of spaces in a user's file
// overflowed the stack (a crash of the app or the CLI, not a message).
bool space(char c) { return std::isspace(static_cast<unsigned char>(c)); }

size_t skip_spaces(const std::string& s, size_t i) {
  while (i < s.size() && space(s[i])) ++i;
  return i;
}

bool has_word(const std::string& code, const std::string& word) {
  for (size_t pos = code.find(word); pos != std::string::npos; pos = code.find(word, pos + 1))
    if (word_at(code, pos, word)) return true;
  return false;
}

// `int main(`, `void main (`, `auto main(`: a type word, space, main, '('.
bool has_main_function(const std::string& code) {
  for (size_t pos = code.find("main"); pos != std::string::npos; pos = code.find("main", pos + 1)) {
    if (!word_at(code, pos, "main")) continue;
    const size_t open = skip_spaces(code, pos + 4);
    if (open >= code.size() || code[open] != '(') continue;
    size_t type_end = pos;
    while (type_end > 0 && space(code[type_end - 1])) --type_end;
    if (type_end == pos) continue;
    for (const char* type : {"int", "void", "auto"}) {
      const size_t len = std::char_traits<char>::length(type);
      if (type_end >= len && word_at(code, type_end - len, type)) return true;
    }
  }
  return false;
}

// The target of `#include "x.h"` on this line, or "".
std::string local_include(const std::string& line) {
  size_t i = skip_spaces(line, 0);
  if (i >= line.size() || line[i] != '#') return "";
  i = skip_spaces(line, i + 1);
  if (line.compare(i, 7, "include") != 0) return "";
  i = skip_spaces(line, i + 7);
  if (i >= line.size() || line[i] != '"') return "";
  const size_t end = line.find('"', i + 1);
  if (end == std::string::npos || end == i + 1) return "";
  return line.substr(i + 1, end - i - 1);
}

}  // namespace

// ============================================================================
// [SECTION] Code without comments and literals
// ============================================================================

namespace {

// CUDA's atomic functions (atomicAdd .. atomicCAS, their _block and _system
// forms), which the compiler plugin can judge call by call.
bool atomic_function_word(std::string_view w) {
  for (std::string_view scope : {std::string_view("_block"), std::string_view("_system")})
    if (w.size() > scope.size() && w.substr(w.size() - scope.size()) == scope) w.remove_suffix(scope.size());
  static constexpr std::string_view names[] = {"atomicAdd", "atomicSub", "atomicExch", "atomicMin",
                                               "atomicMax", "atomicAnd", "atomicOr",   "atomicXor",
                                               "atomicInc", "atomicDec", "atomicCAS"};
  return std::find(std::begin(names), std::end(names), w) != std::end(names);
}

// Words that let blocks see each other or order what they do. A prefix
// matches the word's start (atomicAdd, atomic_ref, cuda::atomic, atomicAdd_block).
bool block_sharing_word(std::string_view w, bool skip_atomic_functions) {
  if (skip_atomic_functions && atomic_function_word(w)) return false;
  static constexpr std::string_view prefixes[] = {"atomic", "__threadfence", "__nanosleep", "clock", "__trap"};
  static constexpr std::string_view words[] = {"volatile", "printf", "assert", "this_grid", "grid_group", "asm",
                                               "__asm__", "globaltimer", "this_multi_grid", "multi_grid_group"};
  for (std::string_view p : prefixes)
    if (w.substr(0, p.size()) == p) return true;
  for (std::string_view x : words)
    if (w == x) return true;
  return false;
}

// The first block-sharing word in code[from, to), as "word on line N".
std::string first_sharing_word(const std::string& code, size_t from, size_t to, bool skip_atomic_functions) {
  for (size_t i = from; i < to;) {
    if (!ident_char(code[i]) || (i > 0 && ident_char(code[i - 1]))) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < to && ident_char(code[end])) ++end;
    const std::string_view w(code.data() + i, end - i);
    if (block_sharing_word(w, skip_atomic_functions))
      return std::string(w) + " on line " + std::to_string(1 + std::count(code.begin(), code.begin() + long(i), '\n'));
    i = end;
  }
  return "";
}

}  // namespace

std::string block_sharing_in_device_code(const std::string& text, bool skip_atomic_functions) {
  const std::string code = code_only(text);
  const size_t n = code.size();
  // Macros first: a kernel may call atomicAdd through one defined anywhere.
  for (size_t line = 0; line < n;) {
    size_t end = code.find('\n', line);
    if (end == std::string::npos) end = n;
    size_t k = line;
    while (k < end && (code[k] == ' ' || code[k] == '\t')) ++k;
    if (code.compare(k, 7, "#define") == 0) {
      size_t last = end;  // continued lines belong to the macro
      while (last < n && last > 0 && code[last - 1] == '\\') {
        last = code.find('\n', last + 1);
        if (last == std::string::npos) last = n;
      }
      if (std::string w = first_sharing_word(code, k + 7, last, skip_atomic_functions); !w.empty())
        return w;
      end = last;
    }
    line = end + 1;
  }
  // Each __global__ or __device__ declaration: its body, up to the brace that closes it.
  for (const std::string_view key : {std::string_view("__global__"), std::string_view("__device__")}) {
    for (size_t at = code.find(key); at != std::string::npos; at = code.find(key, at + key.size())) {
      if ((at > 0 && ident_char(code[at - 1])) || (at + key.size() < n && ident_char(code[at + key.size()]))) continue;
      int parens = 0;
      size_t k = at + key.size();
      for (; k < n; ++k) {
        const char c = code[k];
        if (c == '(') ++parens;
        if (c == ')') --parens;
        if (parens == 0 && (c == ';' || c == '{')) break;
      }
      if (k >= n || code[k] == ';') continue;  // a declaration or a variable
      int depth = 0;
      size_t close = k;
      for (; close < n; ++close) {
        if (code[close] == '{') ++depth;
        if (code[close] == '}' && --depth == 0) break;
      }
      // From the qualifier on: a `volatile` parameter counts as one in the body.
      if (std::string w = first_sharing_word(code, at, std::min(close, n), skip_atomic_functions); !w.empty())
        return w;
    }
  }
  return "";
}

std::string code_only(const std::string& text) {
  std::string out = text;
  size_t i = 0;
  const size_t n = text.size();
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < n; ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  while (i < n) {
    const char c = text[i];
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      size_t end = text.find('\n', i);
      if (end == std::string::npos) end = n;
      blank(i, end);
      i = end;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      size_t end = text.find("*/", i + 2);
      end = end == std::string::npos ? n : end + 2;
      blank(i, end);
      i = end;
    } else if (c == 'R' && i + 1 < n && text[i + 1] == '"' && (i == 0 || !ident_char(text[i - 1]))) {
      const size_t paren = text.find('(', i + 2);
      if (paren == std::string::npos) break;
      const std::string close = ")" + text.substr(i + 2, paren - i - 2) + "\"";
      size_t end = text.find(close, paren);
      end = end == std::string::npos ? n : end + close.size();
      blank(i + 2, end - 1);
      i = end;
    } else if (c == '"' || (c == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(text[i - 1])) &&
                                          i + 1 < n && std::isxdigit(static_cast<unsigned char>(text[i + 1]))))) {
      // A ' between hex digits is a digit separator (1'000), not a literal.
      size_t k = i + 1;
      while (k < n && text[k] != c && text[k] != '\n') k += text[k] == '\\' ? 2 : 1;
      blank(i + 1, std::min(k, n));
      i = std::min(k + 1, n);
    } else {
      ++i;
    }
  }
  return out;
}

// ============================================================================
// [SECTION] Kernels and main
// ============================================================================

namespace {

const std::set<std::string> kTypeWords = {
    "const",  "volatile", "unsigned", "signed",  "int",     "float",    "double",       "char",
    "short",  "long",     "bool",     "void",    "struct",  "class",    "__restrict__", "__restrict",
    "size_t", "int32_t",  "uint32_t", "int64_t", "uint64_t", "typename", "auto"};

// The parameter list's top-level pieces, split at commas outside (), [], {}, <>.
std::vector<std::string> split_params(const std::string& list) {
  std::vector<std::string> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const char c = list[i];
    const bool doubled = i + 1 < list.size() && list[i + 1] == c;
    if ((c == '<' || c == '>') && doubled) {  // << and >> are shifts
      ++i;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    else if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
    else if (c == ',' && depth == 0) {
      parts.push_back(list.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(list.substr(start));
  return parts;
}

KernelParamText read_param(const std::string& piece, size_t index) {
  KernelParamText p;
  std::string decl = piece;
  // The default argument: after a lone '=' at depth 0.
  int depth = 0;
  for (size_t i = 0; i < piece.size(); ++i) {
    const char c = piece[i];
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    else if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
    else if (c == '=' && depth == 0 && (i + 1 >= piece.size() || piece[i + 1] != '=') &&
             (i == 0 || std::string("=!<>").find(piece[i - 1]) == std::string::npos)) {
      decl = piece.substr(0, i);
      p.default_text = trim(piece.substr(i + 1));
      break;
    }
  }
  // The declarator's name: the last identifier outside brackets, unless it is
  // a type word (an unnamed parameter).
  std::vector<std::string> words;
  depth = 0;
  for (size_t i = 0; i < decl.size();) {
    const char c = decl[i];
    if (c == '[' || c == '(' || c == '<') ++depth;
    if (c == ']' || c == ')' || c == '>') --depth;
    if (ident_start(c)) {
      size_t e = i;
      while (e < decl.size() && ident_char(decl[e])) ++e;
      if (depth == 0) words.push_back(decl.substr(i, e - i));
      i = e;
    } else {
      ++i;
    }
  }
  const bool named = words.size() >= 2 && !kTypeWords.count(words.back());
  p.name = named ? words.back() : "arg" + std::to_string(index);
  return p;
}

const std::set<std::string> kAttributeCalls = {"__launch_bounds__", "__attribute__", "__align__", "alignas",
                                               "__declspec", "__maxnreg__", "__cluster_dims__"};

}  // namespace

namespace {
// The __global__ definitions of `code` (text with comments blanked), in order.
std::vector<KernelDecl> scan_kernels(const std::string& text, const std::string& code) {
  std::vector<KernelDecl> kernels;
  std::set<std::string> seen;
  LineCounter lines(text);
  // Where the next search starts: past what a declaration already read, so
  // that `__global__ __global__ ...` repeated is read once, not once each.
  size_t next = 0;
  for (size_t pos = code.find("__global__"); pos != std::string::npos;
       pos = code.find("__global__", std::max(next, pos + 10))) {
    next = pos + 10;
    if (!word_at(code, pos, "__global__")) continue;
    // The function's name: the first identifier followed by '(' that is no attribute.
    size_t i = pos + 10, name_pos = std::string::npos, open = std::string::npos;
    while (i < code.size() && code[i] != ';' && code[i] != '{') {
      if (ident_start(code[i]) && !ident_char(code[i - 1])) {
        size_t e = i;
        while (e < code.size() && ident_char(code[e])) ++e;
        size_t k = e;
        while (k < code.size() && std::isspace(static_cast<unsigned char>(code[k]))) ++k;
        if (k < code.size() && code[k] == '(') {
          if (kAttributeCalls.count(code.substr(i, e - i))) {
            i = skip_balanced(code, k);
            if (i == std::string::npos) break;
            continue;
          }
          name_pos = i;
          open = k;
          break;
        }
        i = e;
        continue;
      }
      ++i;
    }
    next = std::max(next, i == std::string::npos ? code.size() : i);
    if (open == std::string::npos) continue;
    const size_t close = skip_balanced(code, open);
    if (close == std::string::npos) break;  // an unclosed '(': the compiler will say so
    next = close;
    // A definition has a body; a prototype ends with ';'.
    size_t k = close;
    while (k < code.size() && code[k] != '{' && code[k] != ';') ++k;
    next = k;
    if (k >= code.size() || code[k] != '{') continue;

    KernelDecl kernel;
    // A name pasted in a macro (`NAME##_kernel`) has no address to register.
    if (code[name_pos - 1] != '#') kernel.body_end = skip_balanced(code, k);
    size_t e = name_pos;
    while (e < code.size() && ident_char(code[e])) ++e;
    kernel.name = code.substr(name_pos, e - name_pos);
    kernel.line = lines.line_of(name_pos);
    // `template <...>` stands between the previous declaration's end and here.
    size_t before = pos;
    while (before > 0 && code[before - 1] != ';' && code[before - 1] != '}' && code[before - 1] != '{') --before;
    const std::string lead = code.substr(before, pos - before);
    kernel.is_template = has_word(lead, "template");
    // Parameters as written (comments blanked).
    const std::string list = trim(code.substr(open + 1, close - open - 2));
    if (!list.empty() && list != "void") {
      const std::vector<std::string> pieces = split_params(list);
      for (size_t p = 0; p < pieces.size(); ++p) kernel.params.push_back(read_param(pieces[p], p));
    }
    if (seen.insert(kernel.name).second) kernels.push_back(std::move(kernel));
    else
      for (KernelDecl& earlier : kernels) earlier.overloaded |= earlier.name == kernel.name;
  }
  return kernels;
}
}  // namespace

UserSource scan_user_source(const std::string& path, const std::string& text) {
  UserSource src;
  src.path = path;
  src.text = text;
  const std::string code = code_only(text);
  src.kernels = scan_kernels(text, code);
  src.has_main = has_main_function(code);
  src.declares_scenarios = has_word(code, "ScenarioDeclaration");

  // ==========================================================================
  // [SECTION] Local includes
  // ==========================================================================
  std::set<std::string> visited;
  std::vector<std::pair<fs::path, std::string>> pending{{fs::path(path), text}};
  while (!pending.empty() && visited.size() < 64) {
    auto [file, body] = pending.back();
    pending.pop_back();
    std::istringstream lines(body);
    std::string line;
    while (std::getline(lines, line)) {
      const std::string name = local_include(line);
      if (name.empty()) continue;
      std::error_code ec;
      const fs::path target = fs::weakly_canonical(file.parent_path() / name, ec);
      if (ec || !fs::is_regular_file(target, ec) || !visited.insert(target.string()).second) continue;
      src.local_includes.push_back(target.string());
      pending.emplace_back(target, read_text_file(target.string()));
    }
  }
  return src;
}

// ============================================================================
// [SECTION] The host compiler's rewrite
// ============================================================================

namespace {

struct Edit {
  size_t pos, len;
  std::string with;
};

// The callee before `<<<` at `at`: `name`, `ns::name` or `name<T, 256>`.
size_t callee_start(const std::string& code, size_t at) {
  size_t i = at;
  // Spaces, and a macro's line continuations: `k<T, n> \ (newline) <<<g, b>>>`
  // in a #define launches k as well.
  for (;;) {
    while (i > 0 && std::isspace(static_cast<unsigned char>(code[i - 1]))) --i;
    if (i > 0 && code[i - 1] == '\\' && i < code.size() && (code[i] == '\n' || code[i] == '\r')) --i;
    else break;
  }
  for (;;) {
    if (i > 0 && code[i - 1] == '>') {  // template arguments
      int depth = 0;
      size_t k = i;
      while (k > 0) {
        --k;
        if (code[k] == '>') ++depth;
        else if (code[k] == '<' && --depth == 0) break;
      }
      if (depth != 0) return i;
      i = k;
    }
    size_t k = i;
    while (k > 0 && ident_char(code[k - 1])) --k;
    if (k == i) return i;
    i = k;
    if (i >= 2 && code[i - 1] == ':' && code[i - 2] == ':') i -= 2;
    else return i;
  }
}

}  // namespace

namespace {

// `k<<<g, b>>>(args)`, for the host compiler (host_call) or for nvcc:
//   host  `::warpviz::user::kernel_call([&](const auto&... warpviz_args) { k(warpviz_args...); })
//          ->* ::warpviz::user::launch_config("k", g, b)(args)`: k is called as nvcc's
//          launch calls it, so a template kernel deduces its arguments from them
//          (`init<<<1, 32>>>(root, allocator)`) and an overload is picked by them;
//   nvcc  `k ->* ::warpviz::user::launch_config("k", g, b)(args)`.
// The callee stays where it was, so no line moves.
void add_launch_edits(const std::string& code, std::vector<Edit>& edits, bool host_call) {
  for (size_t at = code.find("<<<"); at != std::string::npos; at = code.find("<<<", at + 3)) {
    // The matching >>>: the first at bracket depth 0.
    int depth = 0;
    size_t end = std::string::npos;
    for (size_t i = at + 3; i + 2 < code.size(); ++i) {
      const char c = code[i];
      if (c == '(' || c == '[' || c == '{') ++depth;
      else if (c == ')' || c == ']' || c == '}') --depth;
      else if (depth == 0 && code.compare(i, 3, ">>>") == 0) {
        end = i;
        break;
      }
      if (c == ';') break;
    }
    if (end == std::string::npos) continue;  // the compiler will say what is wrong
    const size_t start = callee_start(code, at);
    std::string name;
    for (size_t i = start; i < at; ++i)
      if (!std::isspace(static_cast<unsigned char>(code[i])) && code[i] != '\\') name += code[i];
    if (name.empty()) continue;
    if (host_call) {
      edits.push_back({start, 0, "::warpviz::user::kernel_call([&](const auto&... warpviz_args) { "});
      edits.push_back({at, 3, "(warpviz_args...); }) ->* ::warpviz::user::launch_config(\"" + name + "\", "});
    } else {
      edits.push_back({at, 3, "->* ::warpviz::user::launch_config(\"" + name + "\", "});
    }
    edits.push_back({end, 3, ")"});
    at = end;
  }
}

// An edit that overlaps one after it (a launch inside an `extern __shared__`
// declaration) is left out, so that the file keeps its lines and the compiler
// says what is wrong.
std::string apply_edits(const std::string& text, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.pos > b.pos; });
  std::vector<const Edit*> kept;  // from the end backwards, none overlapping
  size_t untouched_before = text.size();
  for (const Edit& e : edits) {
    if (e.pos + e.len > untouched_before) continue;
    kept.push_back(&e);
    untouched_before = e.pos;
  }
  // Built front to back in one pass: a file of many launches stays linear.
  std::string out;
  size_t copied_to = 0;
  for (auto it = kept.rbegin(); it != kept.rend(); ++it) {
    out.append(text, copied_to, (*it)->pos - copied_to);
    out += (*it)->with;
    copied_to = (*it)->pos + (*it)->len;
  }
  out.append(text, copied_to);
  return out;
}

// `__align__(16)` and `alignas(16)` in a type, each replaced by a space.
std::string without_alignment(std::string type) {
  for (const char* word : {"__align__", "alignas"}) {
    const size_t len = std::char_traits<char>::length(word);
    for (size_t at = type.find(word); at != std::string::npos; at = type.find(word, at + 1)) {
      const size_t open = skip_spaces(type, at + len);
      if (open >= type.size() || type[open] != '(') continue;
      const size_t close = type.find(')', open);
      if (close == std::string::npos) continue;
      type.replace(at, close + 1 - at, " ");
    }
  }
  return type;
}

}  // namespace

std::string rewrite_launches(const std::string& text) {
  std::vector<Edit> edits;
  add_launch_edits(code_only(text), edits, false);
  return apply_edits(text, std::move(edits));
}

std::string rewrite_for_host(const std::string& text) {
  const std::string code = code_only(text);
  std::vector<Edit> edits;
  add_launch_edits(code, edits, true);

  // A kernel is registered by its address after its definition, so that a
  // graph's kernel node, given it as `(void *)kernel`, can call it with its
  // parameters' types (cuda_graphs_cpu.cpp). A template or an overload has no
  // one address to take.
  for (const KernelDecl& k : scan_kernels(text, code)) {
    if (k.is_template || k.overloaded || k.body_end == std::string::npos) continue;
    // A definition inside a #define (its line continues) is registered where it is used, if at all.
    const size_t line_end = std::min(code.find('\n', k.body_end), code.size());
    if (code.find('\\', k.body_end) < line_end) continue;
    edits.push_back({k.body_end, 0, " WARPVIZ_REGISTER_KERNEL(" + k.name + ")"});
  }

  // `__shared__ alignas(16) float As[...]`: the host's thread_local may not
  // stand before a standard attribute, which moves past the name instead.
  for (size_t pos = code.find("__shared__"); pos != std::string::npos; pos = code.find("__shared__", pos + 10)) {
    if (!word_at(code, pos, "__shared__")) continue;
    size_t before = pos;
    while (before > 0 && space(code[before - 1])) --before;
    if (before >= 6 && word_at(code, before - 6, "extern")) continue;  // the extern form below
    const size_t at = skip_spaces(code, pos + 10);
    if (!word_at(code, at, "alignas")) continue;
    const size_t open = skip_spaces(code, at + 7);
    if (open >= code.size() || code[open] != '(') continue;
    const size_t close = skip_balanced(code, open);
    if (close == std::string::npos) continue;
    const size_t stop = code.find_first_of("[=;{(", close);
    if (stop == std::string::npos || code.find('\n', close) < stop) continue;
    size_t name_end = stop;
    while (name_end > close && space(code[name_end - 1])) --name_end;
    if (name_end == close || !ident_char(code[name_end - 1])) continue;
    edits.push_back({at, close - at, ""});
    edits.push_back({name_end, 0, " " + text.substr(at, close - at)});
  }

  // `extern __shared__ TYPE NAME[];`, TYPE without ; { }: the first ';' after
  // `__shared__` ends it, and NAME[] stands just before that ';'.
  for (size_t pos = code.find("extern"); pos != std::string::npos; pos = code.find("extern", pos + 1)) {
    if (!word_at(code, pos, "extern") || pos + 6 >= code.size() || !space(code[pos + 6])) continue;
    const size_t shared = skip_spaces(code, pos + 6);
    if (!word_at(code, shared, "__shared__") || shared + 10 >= code.size() || !space(code[shared + 10])) continue;
    const size_t type_start = skip_spaces(code, shared + 10);
    const size_t semicolon = code.find_first_of(";{}", type_start);
    if (semicolon == std::string::npos || code[semicolon] != ';') continue;
    size_t i = semicolon;
    auto back_over_spaces = [&] { while (i > type_start && space(code[i - 1])) --i; };
    back_over_spaces();
    if (i == type_start || code[i - 1] != ']') continue;
    --i;
    back_over_spaces();
    if (i == type_start || code[i - 1] != '[') continue;
    --i;
    back_over_spaces();
    const size_t name_end = i;
    while (i > type_start && ident_char(code[i - 1])) --i;
    if (i == name_end || !ident_start(code[i])) continue;
    // A type over several lines is written on one; the newlines go after it.
    std::string type = trim(without_alignment(code.substr(type_start, i - type_start)));
    std::replace(type.begin(), type.end(), '\n', ' ');
    const std::string name = code.substr(i, name_end - i);
    // WARPVIZ_SHARED_POINTER: the plugin's mark of the array, through which
    // the accesses are recorded (cuda_cpu/compiler_plugin/shared_access.cpp).
    std::string with = type + "* const " + name + " WARPVIZ_SHARED_POINTER = ::warpviz::user::dynamic_shared<" +
                       type + ">();";
    with.append(size_t(std::count(code.begin() + long(pos), code.begin() + long(semicolon), '\n')), '\n');
    edits.push_back({pos, semicolon + 1 - pos, with});
    pos = semicolon;
  }

  return apply_edits(text, std::move(edits));
}

std::string without_byte_order_mark(const std::string& text) {
  return text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? text.substr(3) : text;
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string kernel_base_name(const std::string& kernel) {
  const size_t lt = kernel.find('<');
  return trim(lt == std::string::npos ? kernel : kernel.substr(0, lt));
}

}  // namespace warpviz::user
