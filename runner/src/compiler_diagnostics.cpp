// The compiler's diagnostics about a user's file (compiler_diagnostics.h).
//
// [SECTION] Reading one line of compiler output
// [SECTION] Groups: an error, its instantiation chain and its notes
// [SECTION] Words: CUDA's names for warpviz's internals
// [SECTION] Entry points
#include "warpviz/compiler_diagnostics.h"

#include <cctype>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

namespace warpviz::user {

namespace {

// ============================================================================
// [SECTION] Reading one line of compiler output
// ============================================================================

// Matched by hand, not std::regex: libstdc++'s matcher recurses once per
// character, and g++ quotes the user's line, however long, in its output.
class DiagnosticLine {
 public:
  explicit DiagnosticLine(const std::string& line) : line_(line) {}

  // g++: "k.cu:3:5: error: ..."; the file is the shortest prefix that fits.
  bool read_gcc(Diagnostic& d) const {
    for (size_t colon = line_.find(':', 1); colon != std::string::npos; colon = line_.find(':', colon + 1)) {
      size_t at = colon + 1;
      int line = 0, column = 0;
      if (!number(at, line) || !literal(at, ":") || !number(at, column) || !literal(at, ": ")) continue;
      std::string severity;
      if (!one_of(at, {"fatal error", "error", "warning", "note"}, severity) || !literal(at, ": ")) continue;
      d.file = line_.substr(0, colon);
      d.line = line;
      d.column = column;
      d.severity = severity == "fatal error" ? "error" : severity;
      d.message = line_.substr(at);
      return true;
    }
    return false;
  }

  // g++'s context: "k.cu:4:19:   required from here" (and "required from
  // 'f<float>'", "recursively required from ...") after an "In instantiation
  // of" line; `d.message` is what follows "required from".
  bool read_gcc_required(Diagnostic& d) const {
    for (size_t colon = line_.find(':', 1); colon != std::string::npos; colon = line_.find(':', colon + 1)) {
      size_t at = colon + 1;
      int line = 0, column = 0;
      if (!number(at, line) || !literal(at, ":") || !number(at, column) || !literal(at, ":")) continue;
      while (at < line_.size() && line_[at] == ' ') ++at;
      literal(at, "recursively ");
      if (!literal(at, "required from ")) continue;
      d.file = line_.substr(0, colon);
      d.line = line;
      d.column = column;
      d.severity = "required";
      d.message = line_.substr(at);
      return true;
    }
    return false;
  }

  // g++'s "FILE: In instantiation of '...':", "FILE: In function '...':":
  // which context the next errors are in. `d.message` is "In ..." whole.
  bool read_gcc_context(Diagnostic& d) const {
    const size_t at = line_.find(": In ", 1);
    if (at == std::string::npos || line_.back() != ':') return false;
    d.file = line_.substr(0, at);
    d.line = d.column = 0;
    d.severity = "context";
    d.message = line_.substr(at + 2, line_.size() - at - 3);
    return true;
  }

  // nvcc's front end: "k.cu(3): error: ..." or "k.cu(3): warning #177-D: ...".
  bool read_nvcc(Diagnostic& d) const {
    for (size_t open = line_.find('(', 1); open != std::string::npos; open = line_.find('(', open + 1)) {
      size_t at = open + 1;
      int line = 0;
      std::string severity;
      if (!number(at, line) || !literal(at, "): ") ||
          !one_of(at, {"catastrophic error", "error", "warning", "remark"}, severity))
        continue;
      if (line_.compare(at, 2, " #") == 0) {  // a diagnostic number, "#177-D"
        size_t k = at + 2;
        while (k < line_.size() && (std::isalnum(static_cast<unsigned char>(line_[k])) || line_[k] == '_')) ++k;
        if (k > at + 2 && line_.compare(k, 2, "-D") == 0) at = k + 2;
      }
      if (!literal(at, ": ")) continue;
      d.file = line_.substr(0, open);
      d.line = line;
      d.column = 0;
      d.severity = severity == "catastrophic error" ? "error" : severity == "remark" ? "note" : severity;
      d.message = line_.substr(at);
      return true;
    }
    return false;
  }

 private:
  // Digits that fit an int; a longer number is no line of a real file.
  bool number(size_t& at, int& value) const {
    size_t k = at;
    long long v = 0;
    while (k < line_.size() && std::isdigit(static_cast<unsigned char>(line_[k]))) {
      v = v * 10 + (line_[k] - '0');
      if (v > std::numeric_limits<int>::max()) return false;
      ++k;
    }
    if (k == at) return false;
    value = int(v);
    at = k;
    return true;
  }
  bool literal(size_t& at, const char* text) const {
    const size_t len = std::char_traits<char>::length(text);
    if (line_.compare(at, len, text) != 0) return false;
    at += len;
    return true;
  }
  bool one_of(size_t& at, std::initializer_list<const char*> words, std::string& which) const {
    for (const char* w : words)
      if (size_t k = at; literal(k, w)) {
        which = w;
        at = k;
        return true;
      }
    return false;
  }

  const std::string& line_;
};
// ============================================================================
// [SECTION] Groups: an error, its instantiation chain and its notes
// ============================================================================

// One error or warning as g++ tells it: the context it printed before (an
// instantiation and the "required from" lines that led there) and the notes
// after ("in expansion of macro", "declared here").
struct Group {
  Diagnostic head;
  std::string instantiation;      // "In instantiation of '... [with T = float; ...]'"
  std::vector<Diagnostic> chain;  // "required from" locations, innermost first
  std::vector<Diagnostic> notes;
};

std::vector<Group> read_groups(const std::string& output) {
  std::vector<Group> groups;
  std::string instantiation;
  std::vector<Diagnostic> chain;
  bool chain_open = false;  // "required from" lines still add to `chain`
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    const DiagnosticLine reader(line);
    Diagnostic d;
    if (reader.read_gcc(d)) {
      if (d.severity == "note") {
        if (!groups.empty()) groups.back().notes.push_back(std::move(d));
        continue;
      }
      groups.push_back({std::move(d), instantiation, chain, {}});
      chain_open = false;  // a second error in the same instantiation keeps its context
    } else if (reader.read_gcc_required(d)) {
      if (!chain_open) chain.clear(), instantiation.clear();
      chain_open = true;
      chain.push_back(std::move(d));
    } else if (reader.read_gcc_context(d)) {
      chain.clear();
      const bool instantiating = d.message.rfind("In instantiation of", 0) == 0 ||
                                 d.message.rfind("In substitution of", 0) == 0;
      instantiation = instantiating ? d.message : std::string();
      chain_open = instantiating;
    } else if (reader.read_nvcc(d)) {
      if (d.severity == "note" && !groups.empty()) groups.back().notes.push_back(std::move(d));
      else groups.push_back({std::move(d), {}, {}, {}});
    }
  }
  return groups;
}

// ============================================================================
// [SECTION] Words: CUDA's names for warpviz's internals
// ============================================================================

// g++ quotes names in ‘’ in a UTF-8 locale and in '' in the C locale.
const std::string kOpenQuote = "\xe2\x80\x98", kCloseQuote = "\xe2\x80\x99";

struct Quoted {
  size_t open = 0, body = 0, body_end = 0, end = 0;  // [open, end) with the quotes
};

bool next_quoted(const std::string& s, size_t from, Quoted* q) {
  const size_t curly = s.find(kOpenQuote, from), plain = s.find('\'', from);
  if (curly == std::string::npos && plain == std::string::npos) return false;
  const bool is_curly = curly < plain;
  q->open = is_curly ? curly : plain;
  q->body = q->open + (is_curly ? kOpenQuote.size() : 1);
  q->body_end = is_curly ? s.find(kCloseQuote, q->body) : s.find('\'', q->body);
  if (q->body_end == std::string::npos) return false;
  q->end = q->body_end + (is_curly ? kCloseQuote.size() : 1);
  return true;
}

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string identifier_at(const std::string& text, size_t at) {
  size_t end = at;
  while (end < text.size() && ident_char(text[end])) ++end;
  return text.substr(at, end - at);
}

// warpviz::rec function -> the intrinsics defined onto it, read from
// `#define __ballot_sync(...) ::warpviz::rec::ballot(__LINE__, __VA_ARGS__)`.
std::map<std::string, std::vector<std::string>> intrinsics_by_function(const std::string& macros) {
  std::map<std::string, std::vector<std::string>> by_function;
  std::istringstream lines(macros);
  std::string line;
  const std::string rec = "::warpviz::rec::";
  while (std::getline(lines, line)) {
    if (line.rfind("#define ", 0) != 0) continue;
    const std::string name = identifier_at(line, 8);
    const size_t call = line.find(rec);
    if (name.empty() || call == std::string::npos) continue;
    by_function[identifier_at(line, call + rec.size())].push_back(name);
  }
  return by_function;
}

// "__reduce_add_sync", "__reduce_min_sync", ... -> "__reduce_*_sync".
std::string name_pattern(const std::vector<std::string>& names) {
  if (names.size() == 1) return names.front();
  std::string prefix = names.front(), suffix = names.front();
  for (const std::string& n : names) {
    size_t p = 0;
    while (p < prefix.size() && p < n.size() && prefix[p] == n[p]) ++p;
    prefix.resize(p);
    size_t k = 0;
    while (k < suffix.size() && k < n.size() && suffix[suffix.size() - 1 - k] == n[n.size() - 1 - k]) ++k;
    suffix = suffix.substr(suffix.size() - k);
  }
  return prefix + "*" + suffix;
}

// CUDA's name for a quoted internal, or "" when it has none.
std::string cuda_name_of(const std::string& body, const std::map<std::string, std::vector<std::string>>& intrinsics,
                         const std::string& macro) {
  const std::string rec = "warpviz::rec::", cg = "warpviz::cg::";
  if (const size_t at = body.find(rec); at != std::string::npos) {
    if (!macro.empty()) return macro;
    const auto it = intrinsics.find(identifier_at(body, at + rec.size()));
    return it == intrinsics.end() ? std::string() : name_pattern(it->second);
  }
  if (body.find(cg) != std::string::npos) {
    std::string out = body;
    for (size_t at; (at = out.find(cg)) != std::string::npos;) {
      const size_t from = at >= 2 && out.compare(at - 2, 2, "::") == 0 ? at - 2 : at;
      out.replace(from, at + cg.size() - from, "cooperative_groups::");
    }
    return out;
  }
  return "";
}

// "__reduce_*_sync takes int or unsigned" with the intrinsic the user called.
std::string with_intrinsic(std::string message, const std::string& intrinsic) {
  const size_t star = message.find('*');
  if (star == std::string::npos || intrinsic.empty()) return message;
  size_t start = star, end = star + 1;
  while (start > 0 && ident_char(message[start - 1])) --start;
  while (end < message.size() && ident_char(message[end])) ++end;
  const std::string prefix = message.substr(start, star - start), suffix = message.substr(star + 1, end - star - 1);
  if (intrinsic.size() > prefix.size() + suffix.size() && intrinsic.rfind(prefix, 0) == 0 &&
      intrinsic.compare(intrinsic.size() - suffix.size(), suffix.size(), suffix) == 0)
    message.replace(start, end - start, intrinsic);
  return message;
}

// "[with T = float; uint32_t = unsigned int]" -> "float".
std::string template_argument(const std::string& instantiation) {
  const size_t with = instantiation.find("[with ");
  if (with == std::string::npos) return "";
  const size_t eq = instantiation.find(" = ", with);
  if (eq == std::string::npos) return "";
  const size_t end = instantiation.find_first_of(";]", eq);
  return instantiation.substr(eq + 3, end == std::string::npos ? std::string::npos : end - eq - 3);
}

bool under_dir(const std::string& file, const std::string& dir) {
  if (dir.empty() || file.size() <= dir.size() || file.compare(0, dir.size(), dir) != 0) return false;
  return file[dir.size()] == '/' || dir.back() == '/';
}

// The user's line `line`, 1-based; "" past the end.
std::string text_line(const std::string& text, int line) {
  size_t at = 0;
  for (int n = 1; n < line; ++n) {
    at = text.find('\n', at);
    if (at == std::string::npos) return "";
    ++at;
  }
  return text.substr(at, text.find('\n', at) - at);
}

}  // namespace

// ============================================================================
// [SECTION] Entry points
// ============================================================================

std::vector<Diagnostic> parse_diagnostics(const std::string& output) {
  std::vector<Diagnostic> out;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    const DiagnosticLine reader(line);
    Diagnostic d;
    if (reader.read_gcc(d) || reader.read_nvcc(d)) out.push_back(std::move(d));
  }
  return out;
}

std::string without_internal_names(const std::string& message, const std::string& intrinsic_macros,
                                   const std::string& macro) {
  if (message.find("warpviz::") == std::string::npos) return message;
  const auto intrinsics = intrinsics_by_function(intrinsic_macros);
  std::string out;
  size_t copied = 0;
  Quoted q;
  for (size_t from = 0; next_quoted(message, from, &q); from = q.end) {
    const std::string body = message.substr(q.body, q.body_end - q.body);
    if (body.find("warpviz::") == std::string::npos) continue;
    const std::string name = cuda_name_of(body, intrinsics, macro);
    out.append(message, copied, q.open - copied);
    copied = q.end;
    if (!name.empty()) {
      out += message.substr(q.open, q.body - q.open) + name + message.substr(q.body_end, q.end - q.body_end);
      continue;
    }
    // A suggestion that could only name an internal is no suggestion.
    const std::string offer = "; did you mean ";
    if (out.size() >= offer.size() && out.compare(out.size() - offer.size(), offer.size(), offer) == 0) {
      out.resize(out.size() - offer.size());
      if (copied < message.size() && message[copied] == '?') ++copied;
      continue;
    }
    // Anything else internal: its name without warpviz's namespaces.
    std::string plain = body;
    for (size_t at; (at = plain.find("warpviz::")) != std::string::npos;) {
      size_t end = at + 9;
      while (end < plain.size() && ident_char(plain[end])) ++end;
      if (plain.compare(end, 2, "::") == 0) end += 2;
      const size_t from_at = at >= 2 && plain.compare(at - 2, 2, "::") == 0 ? at - 2 : at;
      plain.erase(from_at, end - from_at);
    }
    out += message.substr(q.open, q.body - q.open) + plain + message.substr(q.body_end, q.end - q.body_end);
  }
  out.append(message, copied, std::string::npos);
  return out;
}

std::vector<Diagnostic> user_diagnostics(const std::string& output, const DiagnosticSources& sources) {
  auto ours = [&](const std::string& file) {
    if (file == "<command-line>") return true;
    for (const std::string& dir : sources.kit_dirs)
      if (under_dir(file, dir)) return true;
    return false;
  };
  const std::string macro_note = "in expansion of macro ";
  std::vector<Diagnostic> out;
  for (Group& g : read_groups(output)) {
    Diagnostic head = g.head;
    // The macro the user wrote at the line that led here, if the error is in its expansion.
    std::string macro;
    const Diagnostic* user_place = nullptr;
    for (const Diagnostic& n : g.notes) {
      Quoted q;
      if (n.file == sources.user_file && n.message.rfind(macro_note, 0) == 0 && next_quoted(n.message, 0, &q)) {
        macro = n.message.substr(q.body, q.body_end - q.body);
        user_place = &n;
        break;
      }
    }
    if (ours(head.file)) {
      if (!user_place)
        for (const Diagnostic& c : g.chain)
          if (c.file == sources.user_file) {
            user_place = &c;
            break;
          }
      if (user_place) {
        head.file = user_place->file;
        head.line = user_place->line;
        head.column = user_place->column;
      }
    }
    // The intrinsic the user called: the macro, else the name at the column.
    std::string intrinsic = macro;
    if (intrinsic.empty() && head.file == sources.user_file && head.column > 0) {
      const std::string line = text_line(sources.user_text, head.line);
      if (size_t(head.column) <= line.size()) intrinsic = identifier_at(line, size_t(head.column - 1));
      if (intrinsic.rfind("__", 0) != 0) intrinsic.clear();
    }
    const std::string assertion = "static assertion failed: ";
    if (head.message.rfind(assertion, 0) == 0 && head.file == sources.user_file) {
      // warpviz's static_asserts are written for the user: their text is the message.
      head.message = with_intrinsic(head.message.substr(assertion.size()), intrinsic);
      const std::string passed = template_argument(g.instantiation);
      if (!passed.empty()) head.message += "; you passed " + passed;
    }
    head.message = without_internal_names(head.message, sources.intrinsic_macros, macro);
    out.push_back(std::move(head));
    // Notes about warpviz's own declarations ("declared here", its
    // alternatives) are left out; the user's own stay.
    bool alternatives_ours = false;
    for (const Diagnostic& n : g.notes) alternatives_ours |= ours(n.file);
    for (const Diagnostic& n : g.notes) {
      if (ours(n.file) || &n == user_place || n.message.rfind(macro_note, 0) == 0) continue;
      if (alternatives_ours && n.message.rfind("suggested alternative", 0) == 0) continue;
      Diagnostic note = n;
      note.message = without_internal_names(note.message, sources.intrinsic_macros);
      out.push_back(std::move(note));
    }
  }
  return out;
}

}  // namespace warpviz::user
