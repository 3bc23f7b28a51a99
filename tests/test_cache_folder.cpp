// The compile cache is the user's alone: its folder is refused when others may
// use it, there is no shared fallback, an entry that changed after it was
// built is never run, and a kit's compiler is an absolute path that exists.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "warpviz/cache_folder.h"
#include "warpviz/user_file.h"
#include "temp_dir.h"

using namespace warpviz::user;
namespace fs = std::filesystem;

namespace {

using warpviz::testing_support::TempDir;

// Sets (or with nullptr unsets) a variable for one scope, then puts it back.
struct ScopedEnv {
  std::string name;
  std::optional<std::string> saved;
  ScopedEnv(const char* n, const char* value) : name(n) {
    if (const char* old = std::getenv(n)) saved = old;
    if (value) ::setenv(n, value, 1);
    else ::unsetenv(n);
  }
  ~ScopedEnv() {
    if (saved) ::setenv(name.c_str(), saved->c_str(), 1);
    else ::unsetenv(name.c_str());
  }
};

mode_t mode_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 0777;
}

// The one entry under cache/cpu.
fs::path only_entry(const fs::path& cache) {
  fs::path found;
  int entries = 0;
  for (const auto& e : fs::directory_iterator(cache / "cpu"))
    if (e.is_directory()) {
      found = e.path();
      ++entries;
    }
  REQUIRE(entries == 1);
  return found;
}

FileRequest starter_request(const fs::path& dir) {
  const fs::path file = dir / "k.cu";
  std::ofstream(file) << starter_file_text();
  FileRequest request;
  request.path = file.string();
  request.backend = FileBackend::Cpu;
  return request;
}

}  // namespace

TEST_CASE("a missing cache folder is created with mode 0700", "[user][cache][security]") {
  TempDir work("cache-create");
  const fs::path dir = work.path / "parent" / "warpviz";
  const CacheFolder folder = secure_cache_folder(dir);
  CHECK(folder.problem.empty());
  CHECK(fs::is_directory(dir));
  CHECK(mode_of(dir) == 0700);
  // Named with a trailing slash, the folder itself still gets 0700.
  const CacheFolder slash = secure_cache_folder((work.path / "slash").string() + "/");
  CHECK(slash.problem.empty());
  CHECK(mode_of(work.path / "slash") == 0700);
}

TEST_CASE("a cache folder open to group or others is refused with the folder and the fix named", "[user][cache][security]") {
  TempDir work("cache-open");
  const fs::path dir = work.path / "cache";
  fs::create_directories(dir);
  for (const mode_t open_mode : {0755, 0750, 0701}) {
    REQUIRE(::chmod(dir.c_str(), open_mode) == 0);
    const CacheFolder folder = secure_cache_folder(dir);
    CHECK_THAT(folder.problem, Catch::Contains(dir.string()) && Catch::Contains("chmod 700"));
  }
  REQUIRE(::chmod(dir.c_str(), 0700) == 0);
  CHECK(secure_cache_folder(dir).problem.empty());
}

TEST_CASE("a cache folder owned by another user is refused", "[user][cache][security]") {
  TempDir work("cache-foreign");
  fs::path foreign = work.path / "cache";
  fs::create_directories(foreign);
  ::chmod(foreign.c_str(), 0700);
  // As root the folder is given away; otherwise / is already someone else's.
  if (::geteuid() == 0) REQUIRE(::chown(foreign.c_str(), 65534, 65534) == 0);
  else foreign = "/";
  const CacheFolder folder = secure_cache_folder(foreign);
  CHECK_THAT(folder.problem, Catch::Contains(foreign.string()) && Catch::Contains("belongs to another user") &&
                                 Catch::Contains("WARPVIZ_CACHE_DIR"));
}

TEST_CASE("with HOME and XDG_CACHE_HOME unset the cache is a clear error and nothing goes to /tmp", "[user][cache][security]") {
  TempDir work("cache-nohome");
  const FileRequest request = starter_request(work.path);
  ScopedEnv no_dir("WARPVIZ_CACHE_DIR", nullptr), no_xdg("XDG_CACHE_HOME", nullptr), no_home("HOME", nullptr);
  CHECK(cache_dir().empty());
  CHECK_THAT(user_cache_folder().problem, Catch::Contains("HOME") && Catch::Contains("WARPVIZ_CACHE_DIR"));
  const fs::path old_fallback = fs::temp_directory_path() / "warpviz-cache";
  const bool fallback_existed = fs::exists(old_fallback);
  const FileRun run = run_user_file(request);
  CHECK(run.outcome == FileOutcome::Unavailable);
  CHECK_THAT(run.message, Catch::Contains("HOME and XDG_CACHE_HOME are both unset"));
  CHECK(fs::exists(old_fallback) == fallback_existed);
}

TEST_CASE("a cache entry is sealed with its program's hash and checked for owner and mode", "[user][cache][security]") {
  TempDir work("cache-seal");
  const fs::path entry = work.path / "entry";
  fs::create_directories(entry);
  std::ofstream(entry / "program", std::ios::binary) << "program bytes";
  CHECK_THAT(cache_entry_problem(entry), Catch::Contains(kProgramHashFile));  // not sealed yet
  REQUIRE(seal_cache_entry(entry));
  CHECK(cache_entry_problem(entry).empty());

  std::ofstream(entry / "program", std::ios::binary | std::ios::app) << "!";
  CHECK_THAT(cache_entry_problem(entry), Catch::Contains("changed since it was built"));
  REQUIRE(seal_cache_entry(entry));
  CHECK(cache_entry_problem(entry).empty());

  REQUIRE(::chmod((entry / "program").c_str(), 0664) == 0);
  CHECK_THAT(cache_entry_problem(entry), Catch::Contains("can be written by others"));
  REQUIRE(::chmod((entry / "program").c_str(), 0755) == 0);
  REQUIRE(::chmod(entry.c_str(), 0777) == 0);
  CHECK_THAT(cache_entry_problem(entry), Catch::Contains(entry.string()) && Catch::Contains("mode 0777"));
  REQUIRE(::chmod(entry.c_str(), 0700) == 0);

  fs::remove(entry / "program");
  fs::create_symlink("/bin/true", entry / "program");
  CHECK_THAT(cache_entry_problem(entry), Catch::Contains("not a plain file"));
}

TEST_CASE("a cached program whose bytes or mode changed is not run: it is built again", "[user][cache][security][run]") {
  TempDir work("cache-tamper");
  ScopedEnv cache("WARPVIZ_CACHE_DIR", (work.path / "cache").c_str());
  const FileRequest request = starter_request(work.path);
  const FileRun first = run_user_file(request);
  INFO(first.message << first.compiler_output);
  REQUIRE(first.ok());
  CHECK(mode_of(work.path / "cache") == 0700);
  const fs::path entry = only_entry(work.path / "cache");
  CHECK(cache_entry_problem(entry).empty());

  // Prepare: a program swapped for one that leaves a mark when it runs.
  const fs::path mark = work.path / "ran";
  fs::remove(entry / "program");
  std::ofstream(entry / "program") << "#!/bin/sh\ntouch '" << mark.string() << "'\n";
  REQUIRE(::chmod((entry / "program").c_str(), 0755) == 0);
  // Run, Verify: it never ran, and the real program was built in its place.
  const FileRun swapped = run_user_file(request);
  INFO(swapped.message);
  REQUIRE(swapped.ok());
  CHECK_FALSE(swapped.timing.cached);
  CHECK_FALSE(fs::exists(mark));
  CHECK(cache_entry_problem(only_entry(work.path / "cache")).empty());

  // chmod g+w: the same program, but writable by the group, is built again too.
  REQUIRE(::chmod((only_entry(work.path / "cache") / "program").c_str(), 0775) == 0);
  const FileRun group_writable = run_user_file(request);
  REQUIRE(group_writable.ok());
  CHECK_FALSE(group_writable.timing.cached);
  CHECK(run_user_file(request).timing.cached);  // sealed and untouched: from the cache
}

TEST_CASE("a run with a cache folder open to others is refused before anything is compiled", "[user][cache][security]") {
  TempDir work("cache-refused");
  const fs::path dir = work.path / "cache";
  fs::create_directories(dir);
  REQUIRE(::chmod(dir.c_str(), 0777) == 0);
  ScopedEnv cache("WARPVIZ_CACHE_DIR", dir.c_str());
  const FileRun run = run_user_file(starter_request(work.path));
  CHECK(run.outcome == FileOutcome::Unavailable);
  CHECK_THAT(run.message, Catch::Contains(dir.string()) && Catch::Contains("chmod 700"));
  CHECK(fs::is_empty(dir));
}

TEST_CASE("a kit whose compiler is not an absolute path that exists is refused", "[user][kit][security]") {
  TempDir work("kit-compiler");
  const FileRequest request = starter_request(work.path);
  ScopedEnv cache("WARPVIZ_CACHE_DIR", (work.path / "cache").c_str());
  ScopedEnv kit("WARPVIZ_KIT", (work.path / "kit").c_str());
  fs::create_directories(work.path / "kit");
  auto write_kit = [&](const std::string& compiler) {
    std::ofstream(work.path / "kit" / "kit.json")
        << R"({"compiler": ")" << compiler << R"(", "prelude": "include/prelude.h"})";
  };
  write_kit("c++");  // found through PATH: refused
  FileRun run = run_user_file(request);
  CHECK(run.outcome == FileOutcome::Unavailable);
  CHECK_THAT(run.message, Catch::Contains("kit.json") && Catch::Contains("\"c++\" is not an absolute path"));

  write_kit((work.path / "no-such-compiler").string());
  run = run_user_file(request);
  CHECK(run.outcome == FileOutcome::Unavailable);
  CHECK_THAT(run.message, Catch::Contains("no-such-compiler does not exist"));
}
