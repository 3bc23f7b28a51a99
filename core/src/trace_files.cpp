// Saving and loading traces by path: the form is chosen by the file name on save
// and by the content on load.
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "warpviz/trace_io.h"

namespace warpviz {

namespace {

constexpr char kMagic[8] = {'W', 'A', 'R', 'P', 'V', 'I', 'Z', 'T'};

bool ends_with_json(const std::string& path) {
  if (path.size() < 5) return false;
  std::string ext = path.substr(path.size() - 5);
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".json";
}

std::string error_text(int err) { return err ? std::strerror(err) : "unknown error"; }

}  // namespace

void save_trace(const Trace& trace, const std::string& path) {
  // Write beside the target and rename over it, so a failed save leaves any
  // existing file untouched.
  const std::string tmp = path + ".tmp";
  {
    errno = 0;
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw TraceFileError("cannot write " + path + ": " + error_text(errno));
    if (ends_with_json(path)) {
      const std::string text = trace_to_json(trace);
      out.write(text.data(), std::streamsize(text.size()));
      out.put('\n');
    } else {
      write_trace_binary(trace, out);
    }
    out.close();  // flushes; a full disk shows up here
    if (!out) {
      const int err = errno;
      std::remove(tmp.c_str());
      throw TraceFileError("cannot write " + path + ": " + error_text(err));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw TraceFileError("cannot write " + path + ": " + error_text(err));
  }
}

Trace load_trace(const std::string& path) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TraceFileError("cannot open " + path + ": " + error_text(errno));
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw TraceFileError("cannot open " + path + ": " + error_text(EISDIR));

  // Sniff the first bytes: the magic (or a prefix of it, for a cut-off header)
  // means the binary form.
  char head[8] = {};
  in.read(head, sizeof head);
  const size_t got = size_t(in.gcount());
  if (in.bad()) throw TraceFileError("cannot read " + path + ": " + error_text(errno));
  if (got == 0) throw TraceFileError(path + ": empty file (not a warpviz trace)");
  if (std::memcmp(head, kMagic, got) == 0) {
    in.clear();
    in.seekg(0);
    return read_trace_binary(in, path);
  }

  std::string text(head, got);
  text.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) throw TraceFileError("cannot read " + path + ": " + error_text(errno));
  size_t first = text.find_first_not_of(" \t\r\n");
  // Tolerate a UTF-8 byte order mark from editors.
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) first = text.find_first_not_of(" \t\r\n", 3);
  if (first == std::string::npos || text[first] != '{')
    throw TraceFileError(path + ": not a warpviz trace (neither the binary nor the JSON form)");
  if (first > 0) text.erase(0, first);
  return trace_from_json(text, path);
}

}  // namespace warpviz
