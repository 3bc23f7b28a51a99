// Saving and loading traces by path: the form is chosen by the file name on save
// and by the content on load.
//
// Loading reads the input once, in chunks, into memory (a pipe cannot be read
// twice), bounded by the byte limit, and sniffs the form from the first bytes as
// they arrive, so that an input that is no trace at all (/dev/zero) fails at once
// instead of after the limit.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <xxhash.h>  // compiled in: CMake sets XXH_INLINE_ALL

#include "trace_io_internal.h"
#include "warpviz/file_write.h"
#include "warpviz/trace_io.h"

namespace warpviz {

namespace {

constexpr char kMagic[8] = {'W', 'A', 'R', 'P', 'V', 'I', 'Z', 'T'};
constexpr char kUtf8Bom[] = "\xEF\xBB\xBF";

bool ends_with_json(const std::string& path) {
  if (path.size() < 5) return false;
  std::string ext = path.substr(path.size() - 5);
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".json";
}

std::string error_text(int err) { return err ? std::strerror(err) : "unknown error"; }

std::string too_large(const std::string& name, uint64_t max_bytes) {
  return name + ": larger than the limit of " + std::to_string(max_bytes) + " bytes for a trace (set " +
         kMaxTraceBytesEnv + ", or pass --max-bytes to warpviz-cli, to raise it)";
}

enum class Form { Undecided, Binary, Json, NotATrace };

// What the bytes read so far say. At the end of the input a prefix of the magic
// is still the binary form (its reader reports the cut-off header).
Form sniff(std::string_view head, bool at_end) {
  const size_t n = std::min<size_t>(head.size(), sizeof kMagic);
  if (n > 0 && std::memcmp(head.data(), kMagic, n) == 0)
    return n == sizeof kMagic || at_end ? Form::Binary : Form::Undecided;
  // Tolerate a UTF-8 byte order mark from editors, then whitespace.
  const std::string_view bom(kUtf8Bom, 3);
  size_t at = 0;
  if (head.substr(0, 3) == bom) at = 3;
  else if (!at_end && head.size() < 3 && bom.substr(0, head.size()) == head) return Form::Undecided;
  at = head.find_first_not_of(" \t\r\n", at);
  if (at == std::string_view::npos) return at_end ? Form::NotATrace : Form::Undecided;
  return head[at] == '{' ? Form::Json : Form::NotATrace;
}

// JSON text never holds a raw control byte other than whitespace, not even in a
// string, so one in what started like JSON means random or binary bytes; this
// stops /dev/urandom at its first chunk instead of at the byte limit.
bool holds_control_bytes(std::string_view bytes) {
  // Without an early exit per byte, so that the compiler can vectorise it.
  bool found = false;
  for (const char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    found |= u < 0x20 && u != '\t' && u != '\n' && u != '\r';
  }
  return found;
}

// XXH3-64 of a file's bytes as they arrive, up to where its body ends. A file
// that is not a version-4 trace, or whose size changed under the read, is
// hashed again by the reader, which checks every case.
class BodyHasher {
 public:
  static constexpr size_t kWorthIt = size_t(1) << 20;  // smaller files: hashed afterwards, as fast
  BodyHasher() { XXH3_64bits_reset(&state_); }
  void add_up_to(const std::string& data, size_t body_end) {
    const size_t end = std::min(data.size(), body_end);
    if (end <= hashed_) return;
    XXH3_64bits_update(&state_, data.data() + hashed_, end - hashed_);
    hashed_ = end;
  }
  std::optional<detail::BodyChecksum> checksum(size_t body_end) const {
    if (hashed_ != body_end) return std::nullopt;
    return detail::BodyChecksum{body_end, XXH3_64bits_digest(&state_)};
  }

 private:
  XXH3_state_t state_;
  size_t hashed_ = 0;
};

// Closes what it opened; standard input stays open.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd > 0) ::close(fd);
  }
};

}  // namespace

void detail::advise_huge_pages(const void* data, size_t bytes) {
#if defined(MADV_HUGEPAGE)
  constexpr uintptr_t kHuge = uintptr_t(2) << 20;
  if (bytes < 2 * kHuge) return;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHuge - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

detail::PageFaulter::PageFaulter(void* data, size_t bytes) {
#if defined(MADV_POPULATE_WRITE)
  constexpr uintptr_t kPage = 4096, kChunk = uintptr_t(4) << 20;
  if (bytes < 4 * kChunk) return;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kPage - 1) & ~(kPage - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kPage - 1);
  try {
    worker_ = std::thread([this, begin, end] {
      for (uintptr_t hi = end; hi > begin && !stop_.load(std::memory_order_relaxed);) {
        const uintptr_t lo = hi - begin > kChunk ? hi - kChunk : begin;
        // An older kernel says EINVAL: then the caller's own touches fault it all.
        if (::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_POPULATE_WRITE) != 0) return;
        hi = lo;
      }
    });
  } catch (const std::system_error&) {
    // No thread to be had: the caller's touches fault the pages in.
  }
#else
  (void)data;
  (void)bytes;
#endif
}

detail::PageFaulter::~PageFaulter() {
  stop_ = true;
  if (worker_.joinable()) worker_.join();
}

void save_trace(const Trace& trace, const std::string& path) {
  try {
    if (ends_with_json(path)) {
      const std::string text = trace_to_json(trace) + "\n";
      write_file_replacing(path, text.data(), text.size());
    } else {
      const std::vector<uint8_t> bytes = detail::trace_binary_bytes(trace);
      write_file_replacing(path, bytes.data(), bytes.size());
    }
  } catch (const FileWriteError& e) {
    throw TraceFileError(e.what());
  }
}

Trace load_trace(const std::string& path, uint64_t max_bytes) {
  const bool stdin_path = path == "-";
  const std::string name = stdin_path ? "stdin" : path;
  Fd in;
  in.fd = stdin_path ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (in.fd < 0) throw TraceFileError("cannot open " + name + ": " + error_text(errno));
  struct stat st;
  if (::fstat(in.fd, &st) != 0) throw TraceFileError("cannot open " + name + ": " + error_text(errno));
  if (S_ISDIR(st.st_mode)) throw TraceFileError("cannot open " + name + ": " + error_text(EISDIR));

  std::string data;
  std::optional<detail::PageFaulter> faulter;  // reset before data moves or goes
  // A regular file's binary body (all but its last 8 bytes, the checksum) is
  // hashed chunk by chunk as read() brings it in, while it is in the cache:
  // one pass over the bytes fewer than hashing the whole afterwards.
  std::optional<BodyHasher> hasher;
  const size_t body_end = S_ISREG(st.st_mode) && st.st_size > 8 ? size_t(st.st_size) - 8 : 0;
  if (S_ISREG(st.st_mode)) {
    // The size is known: refuse before reading anything.
    if (uint64_t(st.st_size) > max_bytes) throw TraceFileError(too_large(name, max_bytes));
    data.reserve(size_t(st.st_size) + 1);
    detail::advise_huge_pages(data.data(), data.capacity());
    faulter.emplace(data.data(), data.capacity());  // read() fills it from the front
  }
  // A pipe, a device or a growing file: chunks until the end or the limit.
  constexpr size_t kChunk = size_t(1) << 20;
  Form form = Form::Undecided;
  for (;;) {
    const size_t at = data.size();
    size_t want = size_t(std::min<uint64_t>(kChunk, max_bytes + 1 - at));
    // Within what a regular file reserved: a chunk past it would copy the whole.
    if (data.capacity() > at) want = std::min(want, data.capacity() - at);
    if (at + want > data.capacity()) faulter.reset();  // the buffer is about to move
    data.resize(at + want);
    const ssize_t got = ::read(in.fd, data.data() + at, want);
    if (got < 0) {
      data.resize(at);
      if (errno == EINTR) continue;
      throw TraceFileError("cannot read " + name + ": " + error_text(errno));
    }
    data.resize(at + size_t(got));
    if (got == 0) break;
    if (data.size() > max_bytes) throw TraceFileError(too_large(name, max_bytes));
    if (form == Form::Undecided) form = sniff(data, false);
    if (form == Form::NotATrace) break;  // no need to read the rest
    if (form == Form::Binary && body_end >= BodyHasher::kWorthIt) {
      if (!hasher) hasher.emplace();
      hasher->add_up_to(data, body_end);
    }
    if (form == Form::Json && holds_control_bytes(std::string_view(data).substr(at))) {
      form = Form::NotATrace;
      break;
    }
  }
  faulter.reset();
  if (data.empty()) throw TraceFileError(name + ": empty file (not a warpviz trace)");
  if (form == Form::Undecided) form = sniff(data, true);

  if (form == Form::Binary) {
    std::optional<detail::BodyChecksum> known;
    if (hasher && data.size() == size_t(st.st_size)) known = hasher->checksum(body_end);
    return detail::read_trace_binary_bytes(std::move(data), name, known);
  }
  if (form != Form::Json)
    throw TraceFileError(name + ": not a warpviz trace (neither the binary nor the JSON form)");
  size_t first = data.compare(0, 3, kUtf8Bom) == 0 ? 3 : 0;
  first = data.find_first_not_of(" \t\r\n", first);
  data.erase(0, first);
  return trace_from_json(data, name);
}

}  // namespace warpviz
