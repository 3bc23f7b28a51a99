// write_file_replacing: see file_write.h for the promises; here, how each is kept.
#include "warpviz/file_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <string>

namespace warpviz {

namespace {

[[noreturn]] void fail(const std::string& path, int err) {
  throw FileWriteError("cannot write " + path + ": " + (err ? std::strerror(err) : "unknown error"));
}

bool write_all(int fd, const char* p, size_t n) {
  while (n > 0) {
    const ssize_t done = ::write(fd, p, n);
    if (done < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += done;
    n -= size_t(done);
  }
  return true;
}

std::string dir_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return "";
  return path.substr(0, slash + 1);  // keeps the slash: "" or "dir/" or "/"
}

// The file a chain of symbolic links ends at (which may not exist yet), so that
// the rename replaces that file and leaves the links as they are.
std::string follow_links(const std::string& path) {
  constexpr int kMaxHops = 40;  // Linux's own limit (ELOOP)
  std::string p = path;
  for (int hop = 0; hop < kMaxHops; ++hop) {
    struct stat st;
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::string target(size_t(st.st_size > 0 ? st.st_size : 255) + 1, '\0');
    const ssize_t n = ::readlink(p.c_str(), target.data(), target.size());
    if (n < 0) fail(path, errno);
    if (size_t(n) >= target.size()) fail(path, ENAMETOOLONG);  // changed while we looked
    target.resize(size_t(n));
    p = target.front() == '/' ? target : dir_of(p) + target;
  }
  fail(path, ELOOP);
}

}  // namespace

void write_file_replacing(const std::string& path, const void* data, size_t size) {
  const char* bytes = static_cast<const char*>(data);
  if (path.empty()) fail(path, ENOENT);
  const std::string target = follow_links(path);

  struct stat st;
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) fail(path, errno);
  if (exists && S_ISDIR(st.st_mode)) fail(path, EISDIR);
  if (exists && !S_ISREG(st.st_mode)) {
    // A FIFO or a device cannot be renamed over; it is written as it is.
    const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) fail(path, errno);
    const bool ok = write_all(fd, bytes, size);
    const int err = errno;
    if (::close(fd) != 0 && ok) fail(path, errno);
    if (!ok) fail(path, err);
    return;
  }

  // A unique name beside the target (rename works only within one file system),
  // created exclusively as mkstemp does; a new file gets the umask's mode, an
  // existing one its own.
  std::random_device seed;
  std::mt19937_64 rng((uint64_t(seed()) << 32) ^ seed() ^ uint64_t(::getpid()));
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    std::string suffix(6, 'x');
    for (char& c : suffix) c = kChars[rng() % (sizeof kChars - 1)];
    tmp = target + ".warpviz-" + suffix + ".tmp";
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, exists ? 0600 : 0666);
    if (fd < 0 && errno != EEXIST) fail(path, errno);
  }
  if (fd < 0) fail(path, EEXIST);

  auto abandon = [&](int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    fail(path, err);
  };
  if (exists) {
    if (::fchmod(fd, st.st_mode & 07777) != 0) abandon(errno);
    // Keeps the owner when root writes someone else's file; a plain user cannot
    // give a file away, and then keeps it as theirs, as any editor does.
    if (st.st_uid != ::geteuid() || st.st_gid != ::getegid()) {
      const int ignored = ::fchown(fd, st.st_uid, st.st_gid);
      (void)ignored;
    }
  }
  // fsync before the rename: after a power cut the file is the old or the new one.
  if (!write_all(fd, bytes, size) || ::fsync(fd) != 0) abandon(errno);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(path, err);
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(path, err);
  }
}

}  // namespace warpviz
