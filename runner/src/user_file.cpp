// Running a user's .cu file (user_file.h).
//
// [SECTION] The kit: what a user file is compiled against
// [SECTION] The translation unit warpviz compiles
// [SECTION] Compiling, cached by content and by every file it read
// [SECTION] Running the program
// [SECTION] Reading back what happened
// [SECTION] Entry point
#include "warpviz/user_file.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "child_process.h"
#include "header_copies.h"
#include "progress_watch.h"
#include "warpviz/build_manifest.h"
#include "warpviz/cache_folder.h"
#include "warpviz/nvcc_compile_model.h"
#include "warpviz/program_cache.h"
#include "warpviz/trace_io.h"
#include "warpviz/user_source.h"
#include "warpviz/version.h"

namespace warpviz::user {

namespace fs = std::filesystem;

const char* outcome_name(FileOutcome outcome) {
  switch (outcome) {
    case FileOutcome::Ok: return "ok";
    case FileOutcome::CompileError: return "compile error";
    case FileOutcome::RequestError: return "request error";
    case FileOutcome::Crash: return "crash";
    case FileOutcome::Timeout: return "time limit";
    case FileOutcome::Deadlock: return "deadlock";
    case FileOutcome::KernelError: return "kernel error";
    case FileOutcome::ProgramFailed: return "program failed";
    case FileOutcome::Cancelled: return "cancelled";
    case FileOutcome::Unavailable: return "unavailable";
    case FileOutcome::MemoryLimit: return "memory limit";
  }
  return "?";
}

uint64_t default_memory_limit() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return uint64_t(4) << 30;
  return uint64_t(pages) * uint64_t(page) / 4 * 3;
}

std::optional<uint64_t> parse_memory_size(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !(v > 0)) return std::nullopt;
  std::string unit(end);
  for (char& c : unit) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && unit.back() == 'B') unit.pop_back();            // MB, GB
  if (unit.size() > 1 && unit.back() == 'I') unit.pop_back();            // MiB, GiB: the same here
  double scale = 1;
  if (unit == "K") scale = 1024.0;
  else if (unit == "M") scale = 1024.0 * 1024;
  else if (unit == "G") scale = 1024.0 * 1024 * 1024;
  else if (unit == "T") scale = 1024.0 * 1024 * 1024 * 1024;
  else if (!unit.empty() && unit != "B") return std::nullopt;
  const double bytes = v * scale;
  if (bytes < 1 || bytes > 1.8e19) return std::nullopt;
  return uint64_t(bytes);
}

std::string format_memory_size(uint64_t bytes) {
  char buf[32];
  if (bytes >= (uint64_t(1) << 30)) std::snprintf(buf, sizeof buf, "%.1f GiB", double(bytes) / double(1 << 30));
  else if (bytes >= (uint64_t(1) << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / double(1 << 20));
  else std::snprintf(buf, sizeof buf, "%llu bytes", (unsigned long long)bytes);
  return buf;
}

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

std::string read_file(const fs::path& p) { return read_text_file(p.string()); }

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

// FNV-1a 64 twice, with two offsets: a 128-bit content key for the cache.
struct ContentKey {
  uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  void add(const std::string& s) {
    for (unsigned char c : s) {
      a = (a ^ c) * 0x100000001b3ull;
      b = (b ^ c) * 0x100000001b3ull;
    }
    a = (a ^ 0xff) * 0x100000001b3ull;  // a separator, so "ab"+"c" != "a"+"bc"
    b = (b ^ 0xfe) * 0x100000001b3ull;
  }
  std::string hex() const {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
    return buf;
  }
};

// ============================================================================
// [SECTION] The kit: what a user file is compiled against
// ============================================================================
// kit.json, written by CMake into the build tree (build/kit) and installed
// under PREFIX/share/warpviz/kit: the compiler, flags, the precompiled
// prelude, include folders and libraries.

struct Kit {
  fs::path dir;
  std::string compiler;  // g++ for the CPU emulator, nvcc for a GPU
  std::vector<std::string> compile_flags, include_dirs, link_inputs, link_flags;
  std::string prelude;
  std::string unit_suffix = ".cpp";
  bool host_rewrite = true;  // extern __shared__ too, not only the launches
  std::string user_include_flag = "-iquote";  // nvcc knows only -I
  std::string id;            // changes whenever anything in the kit does
  std::string problem;
};

fs::path self_exe_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

// kit.json (the CPU emulator) or kit_cuda.json (a GPU; only in builds with CUDA).
// Found relative to this program only (or where WARPVIZ_KIT says): a build
// path compiled in would follow a copied binary to a folder someone else may
// now own.
Kit load_kit(const std::string& file) {
  Kit kit;
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("WARPVIZ_KIT"); env && *env) candidates.emplace_back(env);
  const fs::path exe_dir = self_exe_dir();
  if (!exe_dir.empty()) {
    candidates.push_back(exe_dir / ".." / "share" / "warpviz" / "kit");  // PREFIX/bin -> PREFIX/share/warpviz/kit
    candidates.push_back(exe_dir / ".." / "kit");                        // build/cli -> build/kit
  }
  for (const fs::path& c : candidates) {
    std::error_code ec;
    const fs::path json = c / file;
    if (!fs::is_regular_file(json, ec)) continue;
    try {
      const nlohmann::json j = nlohmann::json::parse(read_file(json));
      kit.dir = fs::canonical(c);
      // Paths in the kit are relative to its folder, so a build or an install can move.
      auto resolve = [&](const std::string& p) {
        return p.rfind("-", 0) == 0 || fs::path(p).is_absolute() ? p : (kit.dir / p).lexically_normal().string();
      };
      auto list = [&](const char* key, bool paths) {
        std::vector<std::string> out;
        if (j.contains(key))
          for (const auto& v : j.at(key)) out.push_back(paths ? resolve(v.get<std::string>()) : v.get<std::string>());
        return out;
      };
      kit.compiler = j.at("compiler").get<std::string>();
      // Absolute, never looked up in PATH: a folder early in PATH would
      // otherwise choose the compiler.
      if (!fs::path(kit.compiler).is_absolute()) {
        kit.problem = json.string() + ": the compiler \"" + kit.compiler + "\" is not an absolute path";
        return kit;
      }
      if (::access(kit.compiler.c_str(), X_OK) != 0 || !fs::is_regular_file(kit.compiler, ec)) {
        kit.problem = json.string() + ": the compiler " + kit.compiler + " does not exist (or cannot be run)";
        return kit;
      }
      kit.compile_flags = list("compile_flags", false);
      // An installed kit names its GCC plugin relative to its folder, so it can move.
      for (std::string& flag : kit.compile_flags)
        if (flag.rfind("-fplugin=", 0) == 0) flag = "-fplugin=" + resolve(flag.substr(9));
      kit.include_dirs = list("include_dirs", true);
      kit.link_inputs = list("link_inputs", true);
      kit.link_flags = list("link_flags", false);
      // A shared library beside the kit is found at run time wherever the kit is.
      for (const std::string& d : list("rpath_dirs", true))
        for (std::string arg : list("rpath_args", false)) {
          const size_t at = arg.find("{}");
          if (at != std::string::npos) arg.replace(at, 2, d);
          kit.link_flags.push_back(arg);
        }
      kit.prelude = resolve(j.at("prelude").get<std::string>());
      kit.unit_suffix = j.value("unit_suffix", std::string(".cpp"));
      kit.host_rewrite = j.value("host_rewrite", true);
      kit.user_include_flag = j.value("user_include_flag", std::string("-iquote"));
      ContentKey key;
      key.add(read_file(json));
      key.add(kit.dir.string());
      key.add(tool_version());
      for (const std::string& f : kit.link_inputs) {
        if (f.rfind("-", 0) == 0) continue;
        const auto t = fs::last_write_time(f, ec);
        key.add(f + std::to_string(ec ? 0 : t.time_since_epoch().count()));
      }
      // A compiler plugin (the device-semantics one) changes the code built:
      // a program built before it was rebuilt is stale.
      for (const std::string& flag : kit.compile_flags) {
        if (flag.rfind("-fplugin=", 0) != 0) continue;
        const fs::path plugin = flag.substr(9);
        const auto t = fs::last_write_time(plugin.is_relative() ? kit.dir / plugin : plugin, ec);
        key.add(flag + std::to_string(ec ? 0 : t.time_since_epoch().count()));
      }
      for (const std::string& f : {kit.prelude, kit.prelude + ".gch"}) {
        const auto t = fs::last_write_time(f, ec);
        key.add(std::to_string(ec ? 0 : t.time_since_epoch().count()));
      }
      kit.id = key.hex();
      return kit;
    } catch (const std::exception& e) {
      kit.problem = json.string() + ": " + e.what();
      return kit;
    }
  }
  std::string looked;
  for (const fs::path& c : candidates) looked += (looked.empty() ? "" : ", ") + c.lexically_normal().string();
  kit.problem = file == "kit.json"
                    ? "warpviz cannot find its kit (kit.json: the compiler flags, headers and libraries a user's .cu "
                      "file is built with) next to this program (looked in " + looked +
                          "); reinstall warpviz or set WARPVIZ_KIT to the kit folder"
                    : "this build of warpviz has no GPU kit (kit_cuda.json): it was built without nvcc, so it runs a "
                      "user's .cu file on the CPU emulator only";
  return kit;
}

// What user_diagnostics needs to take an error in the kit's headers back to
// the user's line: the kit's folders and the intrinsics' macros.
DiagnosticSources diagnostic_sources(const Kit& kit, const UserSource& src) {
  DiagnosticSources sources;
  sources.user_file = src.path;  // as `#line` names it
  sources.user_text = src.text;
  sources.kit_dirs = kit.include_dirs;
  sources.kit_dirs.push_back(kit.dir.string());  // the precompiled prelude
  for (const std::string& dir : kit.include_dirs) {
    std::error_code ec;
    const fs::path macros = fs::path(dir) / "warpviz" / "recorded_intrinsics.h";
    if (fs::is_regular_file(macros, ec)) {
      sources.intrinsic_macros = read_file(macros);
      break;
    }
  }
  return sources;
}

// A GPU the driver exposes: the NVIDIA driver's device files.
bool gpu_present() {
  std::error_code ec;
  return fs::exists("/dev/nvidiactl", ec) || fs::exists("/proc/driver/nvidia/version", ec);
}

// ============================================================================
// [SECTION] The translation unit warpviz compiles
// ============================================================================

// Every byte that could end the literal or the line is escaped: a path or a
// parameter default with a newline must not break out of `#line` or a string.
std::string c_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f || c == '?') {
      // Octal, always three digits, so the next character cannot extend it;
      // '?' too, so no trigraph forms.
      const char octal[5] = {'\\', char('0' + (u >> 6)), char('0' + ((u >> 3) & 7)), char('0' + (u & 7)), 0};
      out += octal;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// User text quoted in a message: control bytes shown, not obeyed.
std::string printable(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\n') out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) out += '?';
    else out += c;
  }
  return out;
}

bool identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A kernel as the generated host code names it: an identifier, then
// optionally template arguments made only of identifiers, `::`, numbers,
// `<>`, `,`, `*`, `&` and spaces, brackets balanced, ending at the last `>`.
// Nothing else, so the name can never be an expression or a statement.
bool valid_kernel_call(const std::string& call) {
  size_t i = 0;
  if (call.empty() || !identifier_start(call[0])) return false;
  while (i < call.size() && identifier_char(call[i])) ++i;
  if (i == call.size()) return true;
  if (call[i] != '<') return false;
  int depth = 0;
  for (; i < call.size(); ++i) {
    const char c = call[i];
    if (c == '<') {
      ++depth;
    } else if (c == '>') {
      if (--depth == 0) return i + 1 == call.size();
    } else if (c == ':') {
      if (i + 1 >= call.size() || call[i + 1] != ':') return false;
      ++i;
    } else if (c == '-') {
      if (i + 1 >= call.size() || !std::isdigit(static_cast<unsigned char>(call[i + 1]))) return false;
    } else if (c == '.') {
      // only inside a number: 1.5f
      if (i == 0 || !std::isdigit(static_cast<unsigned char>(call[i - 1]))) return false;
    } else if (!identifier_char(c) && c != ',' && c != '*' && c != '&' && c != ' ') {
      return false;
    }
  }
  return false;  // a `<` never closed
}

struct Unit {
  std::string text;
  std::string problem;  // a request that does not fit the file
};

// The user's text, rewritten line for line under `#line 1 "k.cu"` so every
// step and every diagnostic names the user's own lines; then, for a file of
// kernels only, the host code for the chosen kernel.
// On the CPU emulator, nvcc's macros come first and host function bodies
// read __CUDA_ARCH__ as undefined (nvcc_compile_model.h); nvcc does both itself.
// A unit of a program of several files is its text alone.
Unit make_unit(const UserSource& src, const FileRequest& request, const Kit& kit, bool part_of_program = false) {
  Unit unit;
  const UnitLanguage language = unit_language(src.path);
  const std::string own = without_byte_order_mark(src.text);
  const std::string text = language == UnitLanguage::Cuda ? cuda_arch_for_host_bodies(own) : own;
  // The host code written for declared scenarios includes user_scenarios.h after the text.
  const std::string warpviz_headers =
      warpviz_headers_first(src.text) + (src.declares_scenarios ? "#include \"warpviz/user_scenarios.h\"\n" : "");
  unit.text = (kit.host_rewrite ? warpviz_headers + nvcc_predefined_macros(language) : std::string()) + "#line 1 " +
              c_string(src.path) + "\n" + (kit.host_rewrite ? rewrite_for_host(text) : rewrite_launches(own)) +
              "\n";
  if (src.has_main || part_of_program) return unit;
  if (src.declares_scenarios && request.kernel.empty()) {
    unit.text += "#line 1 \"<warpviz: host code for the file's scenarios>\"\n"
                 "#include \"warpviz/user_scenarios.h\"\n"
                 "int main() { return ::warpviz::user::run_declared_scenario(" +
                 std::string(kit.host_rewrite ? "\"cpu\", \"CPU emulator (sm_90 rules)\"" : "\"cuda\", \"GPU\"") +
                 "); }\n";
    return unit;
  }
  if (request.list_scenarios) {
    unit.problem = src.path + " declares no scenario (ScenarioDeclaration); its kernels are listed instead";
    return unit;
  }

  if (src.kernels.empty()) {
    unit.problem = src.path + " has no __global__ kernel and no main(): nothing to run";
    return unit;
  }
  std::string names;
  for (const KernelDecl& k : src.kernels) names += (names.empty() ? "" : ", ") + k.name;
  const KernelDecl* kernel = nullptr;
  std::string call = request.kernel;
  if (call.empty()) {
    if (src.kernels.size() > 1) {
      unit.problem = src.path + " has " + std::to_string(src.kernels.size()) + " kernels (" + names +
                     "): pick one with --kernel NAME";
      return unit;
    }
    kernel = &src.kernels.front();
    call = kernel->name;
  } else {
    if (!valid_kernel_call(call)) {
      unit.problem = "--kernel: `" + printable(call) +
                     "` is not a kernel name (an identifier, optionally with template arguments such as "
                     "scale<float>); nothing was compiled";
      return unit;
    }
    const std::string base = kernel_base_name(call);
    for (const KernelDecl& k : src.kernels)
      if (k.name == base) kernel = &k;
    if (!kernel) {
      unit.problem = "--kernel " + request.kernel + ": " + src.path + " has no kernel `" + base + "` (its kernels: " +
                     names + ")";
      return unit;
    }
  }
  if (kernel->is_template && call.find('<') == std::string::npos) {
    unit.problem = "kernel `" + kernel->name + "` is a template: name its arguments, e.g. --kernel '" +
                   kernel->name + "<float>'";
    return unit;
  }
  std::ostringstream driver;
  driver << "#line 1 " << c_string("<warpviz: host code for " + kernel->name + ">") << "\n"
         << "#include \"warpviz/user_driver.h\"\n"
         << "int main() {\n";
  if (kernel->params.empty()) {
    driver << "  return ::warpviz::user::run_kernel_only(" << c_string(call) << ", &" << call << ");\n";
  } else {
    driver << "  static const ::warpviz::user::ParamDecl params[] = {";
    for (const KernelParamText& p : kernel->params)
      driver << "{" << c_string(p.name) << ", " << (p.default_text.empty() ? "nullptr" : c_string(p.default_text))
             << "}, ";
    driver << "};\n  return ::warpviz::user::run_kernel_only(" << c_string(call) << ", &" << call
           << ", params);\n";
  }
  driver << "}\n";
  unit.text += driver.str();
  return unit;
}

// ============================================================================
// [SECTION] Compiling, cached by content and by every file it read
// ============================================================================


struct Build {
  bool ok = false;
  fs::path program;
  std::string output;
  bool cancelled = false;
  // Every file the program was built from: the compiler's own list and the
  // files .incbin pulls in; empty when the compiler wrote no list.
  std::vector<std::string> dependencies;
  std::vector<std::string> saved_while_building;  // of those: changed since the build started
  // Set when the program is not in the cache (an input was saved while it
  // was built, or another process placed the key first): the caller runs it
  // from here and removes the folder.
  fs::path unstored_dir;
  std::string refused;  // the cache folder or entry is unsafe: nothing was compiled or run
  std::vector<std::string> notes;  // for the user, whatever the outcome (FileRun::notes)
  bool plugin_failed = false;      // the kit's GCC plugin did not load: later units go without it
  size_t failed_unit = 0;    // of a failed compile: the unit whose compiler failed
  bool link_failed = false;  // every unit compiled; the link did not
};

// The compiler as a file: an upgrade changes its size or time, and with them
// every key. A name without '/' is looked up on PATH, as the child does.
std::string compiler_identity(const std::string& compiler) {
  std::error_code ec;
  fs::path exe = compiler;
  if (compiler.find('/') == std::string::npos)
    if (const char* path = std::getenv("PATH")) {
      std::istringstream dirs(path);
      for (std::string d; std::getline(dirs, d, ':');)
        if (!d.empty() && fs::is_regular_file(fs::path(d) / compiler, ec)) {
          exe = fs::path(d) / compiler;
          break;
        }
    }
  const fs::path real = fs::canonical(exe, ec);
  if (ec) return compiler;
  const auto size = fs::file_size(real, ec);
  const auto time = fs::last_write_time(real, ec);
  return real.string() + " " + std::to_string(ec ? 0 : size) + " " +
         std::to_string(ec ? 0 : time.time_since_epoch().count());
}

// The inode's change time: a write, a rename into place or a chmod moves it,
// and unlike the modification time no tool (cp -p, touch -d) sets it back.
std::optional<timespec> change_time(const fs::path& p) {
  struct stat st;
  if (::stat(p.c_str(), &st) != 0) return std::nullopt;
  return st.st_ctim;
}
bool not_before(const timespec& a, const timespec& b) {
  return a.tv_sec != b.tv_sec ? a.tv_sec > b.tv_sec : a.tv_nsec >= b.tv_nsec;
}

// The compiler's -MMD list (the unit itself left out: its text is in the
// key), then every .incbin target named in the user's text or in any listed
// file. Relative names are the compiler's and the assembler's: both run in
// our current folder. nullopt when the compiler wrote no list.
std::optional<std::vector<std::string>> read_dependencies(const fs::path& dep_file, const fs::path& unit_file,
                                                          const std::string& unit_text) {
  std::error_code ec;
  if (!fs::is_regular_file(dep_file, ec)) return std::nullopt;
  const std::optional<std::vector<std::string>> listed = parse_make_rule(read_file(dep_file));
  if (!listed) return std::nullopt;
  std::vector<std::string> deps;
  std::set<std::string> seen;
  auto add = [&](const std::string& name) {
    const std::string path = fs::absolute(name, ec).string();
    if (!ec && seen.insert(path).second) deps.push_back(path);
  };
  for (const std::string& name : *listed)
    if (!fs::equivalent(name, unit_file, ec)) add(name);
  const size_t headers = deps.size();
  for (const std::string& name : incbin_names(unit_text)) add(name);
  for (size_t i = 0; i < headers; ++i)
    for (const std::string& name : incbin_names(read_file(deps[i]))) add(name);
  return deps;
}

// The hash each file has now, for the files known before a build.
std::map<std::string, std::string> hashes_before(const std::vector<std::string>& files) {
  std::map<std::string, std::string> hashes;
  for (const std::string& f : files) hashes.emplace(f, file_content_hash(f));
  return hashes;
}

// The inputs of a build that started at `started`, hashed now, and those
// saved since it started (their hash differs from the one taken before, or
// their inode changed after the start): the compiler may have read either
// version, so such a program must not be stored under the newer one.
struct BuiltInputs {
  BuildManifest manifest;
  std::vector<std::string> saved_while_building;
};
BuiltInputs hash_built_inputs(const std::vector<std::string>& deps, const std::map<std::string, std::string>& before,
                              const timespec& started) {
  BuiltInputs in;
  for (const std::string& d : deps) {
    const std::string hash = file_content_hash(d);
    const auto known = before.find(d);
    const std::optional<timespec> changed = change_time(d);
    if ((known != before.end() && known->second != hash) || (changed && not_before(*changed, started)))
      in.saved_while_building.push_back(d);
    in.manifest.dependencies.push_back({d, hash});
  }
  return in;
}

// Into place whole. The key's old entry (built from other contents of its
// files) moves aside first, under a build folder's name so that pruning
// removes it should we die before we do.
bool place_entry(const fs::path& work, const fs::path& dir) {
  std::error_code ec;
  const fs::path aside = work.string() + "-old";
  fs::rename(dir, aside, ec);
  const bool had_old = !ec;
  fs::rename(work, dir, ec);
  const bool placed = !ec;
  if (had_old) fs::remove_all(aside, ec);
  return placed;
}

// The key of the first level: everything that is not a file the compiler
// opens on its own (every unit's text and folder, the command, the
// compiler); the manifest in the entry lists those files.
std::string first_level_key(const Kit& kit, const std::vector<UserSource>& srcs, const std::vector<Unit>& units,
                            const std::vector<std::string>& user_compile_args,
                            const std::vector<std::string>& user_link_args) {
  ContentKey key;
  key.add(kit.id);
  key.add(compiler_identity(kit.compiler));
  for (const std::string& arg : user_compile_args) key.add("compile " + arg);
  for (const std::string& arg : user_link_args) key.add("link " + arg);
  key.add(kit.unit_suffix);
  for (size_t i = 0; i < units.size(); ++i) {
    key.add(kit.user_include_flag + " " + fs::absolute(srcs[i].path).parent_path().string());
    key.add(units[i].text);
  }
  key.add(fs::current_path().string());  // #line and relative names are relative to here
  key.add("__FILE__ beside the file as given");  // -fmacro-prefix-map, compile_unit
  return key.hex();
}

// One unit compiled to `object`; false when the compiler failed (its output
// is in b.output). Its -MMD list joins b's dependencies.
bool compile_unit(const Kit& kit, const UserSource& src, const Unit& unit, const fs::path& work, size_t index,
                  const std::vector<std::string>& user_compile_args, const ChildOptions& opts, Build& b,
                  std::optional<std::vector<std::string>>& deps, const fs::path& object) {
  const std::string name = "unit" + (index ? std::to_string(index) : std::string());
  const fs::path unit_file = work / (name + kit.unit_suffix);
  // The user's headers that launch kernels (or the like) are read as rewritten copies.
  const fs::path header_folder = work / (name + "-headers");
  HeaderCopies copies{unit.text, {}};
  if (kit.host_rewrite) {
    const bool cuda = unit_language(src.path) == UnitLanguage::Cuda;
    copies = copy_rewritten_headers(src, unit.text, header_folder, [cuda](const std::string& text) {
      return rewrite_for_host(cuda ? cuda_arch_for_host_bodies(text) : text);
    });
  }
  write_file(unit_file, copies.unit_text);
  const fs::path dep_file = work / (name + ".d");
  std::vector<std::string> cc{kit.compiler};
  cc.insert(cc.end(), kit.compile_flags.begin(), kit.compile_flags.end());
  cc.push_back("-include");
  cc.push_back(kit.prelude);
  cc.push_back(kit.user_include_flag);  // the file's own folder, for its #include "x.h"
  cc.push_back(fs::absolute(src.path).parent_path().string());
  if (kit.host_rewrite) {
    // __FILE__ in a header beside the file, as nvcc run here names it: the
    // file's folder as the command line gave it ("common.h" for a file named
    // without one), not the absolute folder it is found in here.
    const std::string given = fs::path(src.path).parent_path().string();
    cc.push_back("-fmacro-prefix-map=" + fs::absolute(src.path).parent_path().string() + "/=" +
                 (given.empty() ? std::string() : given + "/"));
  }
  for (const std::string& d : kit.include_dirs) cc.push_back("-I" + d);
  // After the kit's folders, so that <cuda_runtime.h> stays the emulator's.
  cc.insert(cc.end(), user_compile_args.begin(), user_compile_args.end());
  // The compiler's own list of the files it read (g++ and nvcc both write it).
  cc.insert(cc.end(), {"-MMD", "-MF", dep_file.string(), "-MT", "warpviz-unit"});
  cc.insert(cc.end(), {"-c", unit_file.string(), "-o", object.string()});
  // A kit carried to a machine whose GCC is not the one its device-semantics
  // plugin was built for: the program still builds, with x86's semantics.
  // Once one unit found that, the others go without the plugin at once.
  auto without_plugin = [&cc] {
    std::vector<std::string> without{cc.front(), "-Wno-attributes"};
    for (size_t i = 1; i < cc.size(); ++i)
      if (cc[i].rfind("-fplugin=", 0) != 0) without.push_back(cc[i]);
    return without;
  };
  if (b.plugin_failed) cc = without_plugin();
  ChildResult r = run_child(cc, opts);
  if (r.started && r.exit_code != 0 && r.output.find("cannot load plugin") != std::string::npos) {
    const std::string why = r.output.substr(0, r.output.find('\n'));
    b.plugin_failed = true;
    r = run_child(without_plugin(), opts);
    const std::string note = "the device-semantics plugin does not load with " + kit.compiler + " (" + why +
                             "): kernels get x86's integer division, shifts and float-to-integer conversions, "
                             "and a*b+c is not contracted (docs/floats.md)";
    b.notes.push_back(note);
  }
  b.output += r.start_error.empty() ? r.output : "cannot run the compiler: " + r.start_error;
  if (r.cancelled) b.cancelled = true;
  // Read even when the compile fails: live reload then watches the header
  // with the error.
  std::optional<std::vector<std::string>> listed = read_dependencies(dep_file, unit_file, unit.text);
  if (listed)
    for (std::string& d : *listed)
      if (const auto it = copies.originals.find(d); it != copies.originals.end()) d = it->second;
  if (!listed) {
    deps.reset();
  } else if (deps) {
    for (const std::string& d : *listed)
      if (std::find(deps->begin(), deps->end(), d) == deps->end()) deps->push_back(d);
  }
  if (listed) {
    for (const std::string& d : *listed)
      if (std::find(b.dependencies.begin(), b.dependencies.end(), d) == b.dependencies.end())
        b.dependencies.push_back(d);
  }
  std::error_code ec;
  fs::remove(dep_file, ec);
  fs::remove_all(header_folder, ec);
  return r.started && r.exit_code == 0;
}

Build compile(const Kit& kit, const std::vector<UserSource>& srcs, const std::vector<Unit>& units,
              const CompilerOptions& options, const RunControl& control, FileTiming& timing) {
  Build b;
  const auto lookup_start = Clock::now();
  const std::vector<std::string> user_compile_args = compile_arguments(options);
  const std::vector<std::string> user_link_args = link_arguments(options);
  const CacheFolder cache = user_cache_folder();
  if (!cache.problem.empty()) {
    b.refused = cache.problem;
    return b;
  }
  const fs::path dir = cache.path / (kit.host_rewrite ? "cpu" : "cuda") /
                       first_level_key(kit, srcs, units, user_compile_args, user_link_args);
  b.program = dir / "program";
  std::error_code ec;
  b.refused = remove_unsafe_cache_entry(dir);  // a tampered entry goes, and is built again
  if (!b.refused.empty()) return b;
  const std::optional<BuildManifest> cached = read_manifest(read_file(dir / "manifest.json"));
  if (cached && fs::is_regular_file(b.program, ec) && !changed_dependency(*cached)) {
    timing.cached = true;
    timing.lookup_ms = ms_since(lookup_start);
    b.ok = true;
    for (const ManifestDependency& d : cached->dependencies) b.dependencies.push_back(d.path);
    mark_cache_entry_used(dir);
    return b;
  }
  timing.lookup_ms = ms_since(lookup_start);
  // The files this build will likely read, hashed now: the old entry's and
  // our own scan's. A save during the build then shows as a new hash.
  std::vector<std::string> expected;
  for (const UserSource& src : srcs) {
    if (srcs.size() > 1) expected.push_back(fs::absolute(src.path, ec).lexically_normal().string());
    expected.insert(expected.end(), src.local_includes.begin(), src.local_includes.end());
  }
  if (cached)
    for (const ManifestDependency& d : cached->dependencies) expected.push_back(d.path);
  const std::map<std::string, std::string> before = hashes_before(expected);

  // Built in a folder of its own, renamed into place whole.
  const fs::path work = dir.string() + ".tmp" + std::to_string(getpid()) + "-" + std::to_string(std::random_device{}());
  fs::create_directories(work, ec);
  if (ec) {
    b.output = "cannot create the cache folder " + work.string() + ": " + ec.message();
    return b;
  }
  // The build's start, in the file system's own clock: an input whose inode
  // changed at or after it may have been read in either version.
  write_file(work / "started", "");
  const std::optional<timespec> started = change_time(work / "started");
  fs::remove(work / "started", ec);

  ChildOptions opts;
  opts.cancel = control.cancel;
  if (control.on_status) control.on_status("compiling");
  auto t0 = Clock::now();
  // A program of several files: every unit is the user's file, so each is a
  // dependency of the others' entry (a single file's text is in the key).
  std::optional<std::vector<std::string>> deps = std::vector<std::string>{};
  if (srcs.size() > 1)
    for (const UserSource& src : srcs) deps->push_back(fs::absolute(src.path, ec).lexically_normal().string());
  std::vector<fs::path> objects;
  for (size_t i = 0; i < units.size(); ++i) {
    objects.push_back(work / ("unit" + std::to_string(i) + ".o"));
    if (!compile_unit(kit, srcs[i], units[i], work, i, user_compile_args, opts, b, deps, objects.back())) {
      b.failed_unit = i;
      timing.compile_ms = ms_since(t0);
      fs::remove_all(work, ec);
      return b;
    }
  }
  timing.compile_ms = ms_since(t0);
  std::vector<std::string> ld{kit.compiler};
  for (const fs::path& o : objects) ld.push_back(o.string());
  ld.insert(ld.end(), kit.link_inputs.begin(), kit.link_inputs.end());
  ld.insert(ld.end(), kit.link_flags.begin(), kit.link_flags.end());
  ld.insert(ld.end(), user_link_args.begin(), user_link_args.end());
  ld.insert(ld.end(), {"-o", (work / "program").string()});
  if (control.on_status) control.on_status("linking");
  t0 = Clock::now();
  ChildResult r = run_child(ld, opts);
  timing.link_ms = ms_since(t0);
  b.output += r.output;
  if (r.cancelled) b.cancelled = true;
  if (!r.started || r.exit_code != 0) {
    if (!r.start_error.empty()) b.output += "cannot run the linker: " + r.start_error;
    b.link_failed = true;
    // The linker names our objects in the cache; the user knows the files.
    for (size_t i = 0; i < objects.size(); ++i)
      for (size_t at; (at = b.output.find(objects[i].string())) != std::string::npos;)
        b.output.replace(at, objects[i].string().size(), srcs[i].path);
    fs::remove_all(work, ec);
    return b;
  }
  for (const fs::path& o : objects) fs::remove(o, ec);
  // Without the compiler's list the entry's inputs are unknown: run, not stored.
  bool storable = false;
  if (deps && started) {
    BuiltInputs in = hash_built_inputs(*deps, before, *started);
    b.saved_while_building = std::move(in.saved_while_building);
    storable = b.saved_while_building.empty();
    if (storable) {
      in.manifest.program_hash = file_content_hash((work / "program").string());
      write_file(work / "manifest.json", manifest_json(in.manifest));
    }
  }
  // The entry's program hash, checked with its owner and mode before each run.
  if (storable && !seal_cache_entry(work)) {
    b.refused = "cannot store the hash of the program built in " + work.string();
    fs::remove_all(work, ec);
    return b;
  }
  if (!storable || !place_entry(work, dir)) {
    b.program = work / "program";
    b.unstored_dir = work;
    b.ok = fs::is_regular_file(b.program, ec);
  } else {
    b.refused = cache_entry_problem(dir);
    b.ok = b.refused.empty();
  }
  // Each save of a file being edited adds a program: keep the cache to its budget.
  if (b.ok && b.unstored_dir.empty()) prune_program_cache(dir.parent_path(), program_cache_budget_bytes(), dir);
  return b;
}

// ============================================================================
// [SECTION] Running the program
// ============================================================================

fs::path make_run_dir() {
  std::string tmpl = (fs::temp_directory_path() / "warpviz-run-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) return {};
  return tmpl;
}

std::string request_json(const FileRequest& request) {
  nlohmann::json j;
  j["grid"] = {request.grid.x, request.grid.y, request.grid.z};
  j["block"] = {request.block.x, request.block.y, request.block.z};
  j["shared"] = request.shared;
  auto pairs = [](const std::vector<std::pair<std::string, std::string>>& list) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& [k, v] : list) a.push_back({k, v});
    return a;
  };
  j["inputs"] = pairs(request.inputs);
  j["args"] = pairs(request.args);
  j["lens"] = pairs(request.lens);
  j["sets"] = pairs(request.sets);
  j["list_scenarios"] = request.list_scenarios;
  j["scenario"] = request.scenario;
  for (const auto& [name, spec] : request.inputs)
    if (name.empty()) j["scenario_input"] = spec;
  return j.dump();
}

// "k.cu:7 (in my_sum)" for a program counter, by addr2line; empty when the
// address is not in the user's file.
std::string source_line_of(const fs::path& program, const std::string& pc, const std::vector<UserSource>& srcs) {
  ChildOptions opts;
  opts.time_limit_s = 5;
  const ChildResult r = run_child({"addr2line", "-e", program.string(), "-f", "-C", "-i", pc}, opts);
  if (!r.started || r.exit_code != 0) return "";
  std::istringstream lines(r.output);
  std::string function, where;
  while (std::getline(lines, function) && std::getline(lines, where)) {
    const size_t colon = where.rfind(':');
    if (colon == std::string::npos) continue;
    const std::string file = where.substr(0, colon);
    std::string line = where.substr(colon + 1);
    line = line.substr(0, line.find(' '));
    for (const UserSource& src : srcs)
      if (fs::path(file).filename() == fs::path(src.path).filename() && line != "0" && line != "?") {
        const size_t paren = function.find('(');
        return src.path + ":" + line + " (in " + function.substr(0, paren) + ")";
      }
  }
  return "";
}

// The fault report's text with its "pc 0x..." line turned into a source
// line; a "waiting ..." line (threads that wait for the running one) goes to
// `waiting`.
std::string explain_report(const std::string& body, const fs::path& program, const std::vector<UserSource>& srcs,
                           std::string* waiting = nullptr) {
  std::istringstream lines(body);
  std::string line, out, where, spin_where;
  while (std::getline(lines, line)) {
    if (line.rfind("pc ", 0) == 0) {
      where = source_line_of(program, line.substr(3), srcs);
      continue;
    }
    // A lane spinning on a volatile load: the signal may land in the meeting
    // point's code, outside the user's lines; the load's own line says where.
    if (line.rfind("spin line ", 0) == 0) {
      spin_where = (srcs.size() == 1 ? fs::path(srcs.front().path).filename().string() + ":" : "line ") +
                   line.substr(10);
      continue;
    }
    // A shared access the emulator made (cuda_cpu/scheduler/src/shared_access.cpp).
    if (line.rfind("access line ", 0) == 0) {
      spin_where = (srcs.size() == 1 ? fs::path(srcs.front().path).filename().string() + ":" : "line ") +
                   line.substr(12);
      continue;
    }
    if (line.rfind("waiting ", 0) == 0) {
      if (waiting) *waiting = line.substr(8);
      continue;
    }
    out += (out.empty() ? "" : " ") + line;
  }
  if (where.empty()) where = spin_where;
  if (!where.empty()) out += ", at " + where;
  return out;
}

// ============================================================================
// [SECTION] Reading back what happened
// ============================================================================

// Stuck or slow, at the time limit. Stuck: no emulated thread has switched
// for a good part of the limit (of the program's CPU time), so the running one loops without reaching a
// warp operation, a barrier or its end. Then threads that wait for it make a
// deadlock (on a GPU too the launch would never end); none, an endless loop
// (or a wait for a lane the emulator has not run yet). Anything that moved
// lately is slow, whoever waits: a lane at a shuffle waits for its partners
// as they run, one after another.
void time_limit_report(double limit_s, const FileProgress& at_limit, const std::string& where,
                       const std::string& waiting, FileRun& run) {
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", limit_s);
  // CPU seconds, not the clock's: a program that waits for a core on a busy
  // machine is not stuck. On one that got little CPU, half of what it got
  // without a switch will do (a slow run switches every few microseconds).
  const double stuck_after_s = std::min({2.0, 0.25 * limit_s, std::max(0.1, 0.5 * at_limit.cpu_s)});
  char still[48];
  std::snprintf(still, sizeof still, "%.1f", at_limit.still_cpu_s);
  const bool stuck = !at_limit.known || (at_limit.in_launch && at_limit.still_cpu_s >= stuck_after_s);
  if (at_limit.known && !at_limit.in_launch) {
    run.outcome = FileOutcome::Timeout;
    run.message = std::string("stopped after the time limit of ") + limit + " s in the program's host code, " +
                  std::to_string(at_limit.launches_finished) + " kernel launch" +
                  (at_limit.launches_finished == 1 ? "" : "es") +
                  " done and none running: slow host code or an endless loop there (--timeout SECONDS changes "
                  "the limit)";
    return;
  }
  if (!stuck && at_limit.since_finish_s >= 0.5 * limit_s) {
    // Threads switch, none ends or passes a barrier: slow threads, or ones that spin on
    // each other (a lock, a flag) round a warp operation and never get past.
    char since[48];
    std::snprintf(since, sizeof since, "%.1f", at_limit.since_finish_s);
    run.outcome = FileOutcome::Timeout;
    run.message = std::string("stopped after the time limit of ") + limit +
                  " s: its threads still reach warp operations, but none has finished or passed a barrier for " +
                  since + " s (slow, or threads that wait for each other in a loop, a spin lock or a flag, and never "
                  "get past it): " + describe_progress(at_limit) + (where.empty() ? "" : "; it was " + where) +
                  "; --timeout SECONDS gives it longer";
    return;
  }
  if (!stuck) {
    run.outcome = FileOutcome::Timeout;
    run.message = std::string("slow, not stuck: stopped after the time limit of ") + limit +
                  " s while its threads were still making progress: " + describe_progress(at_limit) +
                  "; --timeout SECONDS gives it longer";
    return;
  }
  const std::string ran = at_limit.known ? std::string(" (it ran ") + still +
                                               " s of CPU time without reaching a warp operation, a barrier or its end)"
                                         : std::string();
  if (!waiting.empty()) {
    // One thread never arrives where the others wait for it: on a GPU too
    // this launch would never end.
    run.outcome = FileOutcome::Deadlock;
    run.message = "deadlock: " + waiting + "; while the thread they wait for was " + where + ran +
                  " (stopped after the time limit of " + limit + " s; --timeout SECONDS changes it)";
    return;
  }
  run.outcome = FileOutcome::Timeout;
  run.message = std::string("stopped after the time limit of ") + limit +
                " s (an endless loop, or a kernel that waits for something that never happens; --timeout "
                "SECONDS changes the limit)";
  if (!where.empty()) run.message += "; it was " + where + ran;
  if (at_limit.known)
    run.message += "; the emulator runs a block's threads one at a time, each until its next warp operation or "
                   "barrier: a loop that waits for another lane of its warp without __syncwarp() waits here for "
                   "ever";
}

// Each trace's source is the file that defines its kernel (the first file
// when none of them declares it).
void read_launches(const fs::path& run_dir, const std::vector<UserSource>& srcs, const FileRequest& request,
                   FileRun& run) {
  const UserSource& first = srcs.front();
  std::ifstream index(run_dir / "launches.jsonl");
  std::string line;
  std::string input_spec;
  for (const auto& [name, spec] : request.inputs)
    input_spec += (input_spec.empty() ? "" : " ") + (name.empty() ? spec : name + "=" + spec);
  while (std::getline(index, line)) {
    try {
      const nlohmann::json j = nlohmann::json::parse(line);
      Trace t = load_trace((run_dir / j.at("file").get<std::string>()).string());
      const std::string kernel = kernel_base_name(j.value("kernel", std::string()));
      const UserSource* defining = &first;
      for (const UserSource& unit : srcs)
        for (const KernelDecl& k : unit.kernels)
          if (k.name == kernel || (kernel.size() > k.name.size() + 2 &&
                                      kernel.compare(kernel.size() - k.name.size() - 2, std::string::npos,
                                                     "::" + k.name) == 0))
            defining = &unit;
      const UserSource& src = *defining;
      std::error_code ec;
      t.meta.source_path = fs::absolute(src.path, ec).lexically_normal().string();
      t.meta.source_text = src.text;
      if (!src.has_main && !src.declares_scenarios) {
        t.meta.input_spec = input_spec.empty() ? "iota" : input_spec;
        for (const auto& [k, v] : request.args) t.meta.params["arg." + k] = v;
      }
      run.launches.push_back(std::move(t));
      run.launch_work.push_back(LaunchWork{j.value("lane_ops", uint64_t(0)), j.value("warp_ops", uint64_t(0)),
                                           j.value("threads", uint64_t(0)), j.value("seconds", 0.0),
                                           j.value("workers", 1u)});
      // The compiler plugin's atomic call that kept the blocks in order.
      if (run.blocks_in_order_because.empty())
        run.blocks_in_order_because = j.value("in_order_because", std::string());
    } catch (const std::exception& e) {
      run.message += std::string(run.message.empty() ? "" : "; ") + "a launch's trace could not be read: " + e.what();
    }
  }
}

// The file first, then what its build read, less the kit's own headers
// (nobody edits those while a kernel reloads).
std::vector<std::string> watched_files_of(const std::vector<UserSource>& srcs, const std::vector<std::string>& deps,
                                          const Kit& kit) {
  std::vector<fs::path> kit_dirs{kit.dir, fs::path(kit.prelude).parent_path()};
  for (const std::string& d : kit.include_dirs) kit_dirs.emplace_back(d);
  auto in_kit = [&](const fs::path& file) {
    for (const fs::path& d : kit_dirs) {
      const fs::path rel = file.lexically_relative(d.lexically_normal());
      if (!rel.empty() && *rel.begin() != "..") return true;
    }
    return false;
  };
  std::error_code ec;
  std::vector<std::string> watched;
  for (const UserSource& src : srcs) watched.push_back(fs::absolute(src.path, ec).lexically_normal().string());
  for (const std::string& d : deps) {
    const fs::path file = fs::path(d).lexically_normal();
    if (!in_kit(file) && std::find(watched.begin(), watched.end(), file.string()) == watched.end())
      watched.push_back(file.string());
  }
  return watched;
}

// A program built but not stored lives in its build folder until the run
// and its report are done.
struct UnstoredProgram {
  fs::path dir;
  ~UnstoredProgram() {
    std::error_code ec;
    if (!dir.empty()) fs::remove_all(dir, ec);
  }
};

}  // namespace

std::string cache_dir() {
  if (const char* d = std::getenv("WARPVIZ_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return (fs::path(x) / "warpviz").string();
  if (const char* h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".cache" / "warpviz").string();
  return "";  // never a shared folder: anyone could plant a program there
}

// ============================================================================
// [SECTION] Entry point
// ============================================================================

FileRun run_user_file(const FileRequest& request, const RunControl& control) {
  FileRun run;
  auto t0 = Clock::now();
  std::error_code ec;
  std::vector<std::string> paths{request.path};
  paths.insert(paths.end(), request.more_paths.begin(), request.more_paths.end());
  std::vector<UserSource> srcs;
  for (const std::string& path : paths) {
    if (!fs::is_regular_file(path, ec)) {
      run.outcome = FileOutcome::RequestError;
      run.message = path + ": no such file";
      return run;
    }
    for (const UserSource& other : srcs)
      if (fs::equivalent(other.path, path, ec)) {
        run.outcome = FileOutcome::RequestError;
        run.message = path + " is given twice (" + other.path + "): each file is one unit of the program";
        return run;
      }
    srcs.push_back(scan_user_source(path, read_file(path)));
    const UserSource& src = srcs.back();
    for (const KernelDecl& k : src.kernels) run.kernels.push_back(k.name);
    run.watched_files.push_back(fs::absolute(path, ec).lexically_normal().string());
    run.watched_files.insert(run.watched_files.end(), src.local_includes.begin(), src.local_includes.end());
  }
  const bool several = srcs.size() > 1;
  run.timing.scan_ms = ms_since(t0);
  const bool whole_program = std::any_of(srcs.begin(), srcs.end(), [](const UserSource& s) { return s.has_main; });
  if (request.max_launches && !whole_program) {
    // warpviz's own host code records a kernel's outputs after its launch: it is never cut short.
    run.outcome = FileOutcome::RequestError;
    run.message = "--launches stops a whole program (a file with a main()); " + request.path +
                  " has kernels only, which warpviz launches once";
    return run;
  }
  if (several) {
    // Several files make one program, as nvcc links them: no kernels-only
    // launch or scenario of warpviz's is written for them.
    const auto mains = std::count_if(srcs.begin(), srcs.end(), [](const UserSource& s) { return s.has_main; });
    if (mains != 1 || request.list_scenarios || !request.scenario.empty() || !request.kernel.empty()) {
      run.outcome = FileOutcome::RequestError;
      run.message = mains == 0 ? "none of the " + std::to_string(srcs.size()) +
                                     " files has a main(): files given together are linked into one program, "
                                     "one of them its main()"
                    : mains > 1 ? "more than one of the files has a main(): files given together are linked into "
                                  "one program"
                                : "--kernel, --scenario and list take one file; these files make one program";
      return run;
    }
  }

  if (request.grid.count() == 0 || request.block.count() == 0) {
    run.outcome = FileOutcome::RequestError;
    run.message = "--grid and --block take positive sizes";
    return run;
  }
  // auto: the GPU when this build has its kit and a GPU is present.
  const bool cuda = request.backend == FileBackend::Cuda ||
                    (request.backend == FileBackend::Auto && gpu_present() && load_kit("kit_cuda.json").problem.empty());
  if (request.backend == FileBackend::Cuda && !gpu_present()) {
    run.outcome = FileOutcome::Unavailable;
    run.message = "--backend cuda: no NVIDIA GPU is present (no /dev/nvidiactl); --backend cpu runs the emulator";
    return run;
  }
  run.backend = cuda ? "cuda" : "cpu";
  const Kit kit = load_kit(cuda ? "kit_cuda.json" : "kit.json");
  if (!kit.problem.empty()) {
    run.outcome = FileOutcome::Unavailable;
    run.message = kit.problem;
    return run;
  }
  std::vector<Unit> units;
  for (const UserSource& unit_src : srcs) {
    units.push_back(make_unit(unit_src, request, kit, several));
    if (!units.back().problem.empty()) {
      run.outcome = FileOutcome::RequestError;
      run.message = units.back().problem;
      return run;
    }
  }
  Build build = compile(kit, srcs, units, request.compiler, control, run.timing);
  UnstoredProgram unstored{build.unstored_dir};
  if (!build.dependencies.empty()) run.watched_files = watched_files_of(srcs, build.dependencies, kit);
  run.saved_while_building = build.saved_while_building;
  if (!build.refused.empty()) {
    run.outcome = FileOutcome::Unavailable;
    run.message = build.refused;
    return run;
  }
  run.compiler_output = build.output;
  run.notes = build.notes;
  // The unit whose compiler failed: its #line names it, its text has the columns.
  if (!build.ok) run.diagnostics = user_diagnostics(build.output, diagnostic_sources(kit, srcs[build.failed_unit]));
  else run.diagnostics = parse_diagnostics(build.output);  // warnings: where the compiler says
  if (build.cancelled) {
    run.outcome = FileOutcome::Cancelled;
    run.message = "cancelled while compiling";
    return run;
  }
  if (!build.ok) {
    run.outcome = FileOutcome::CompileError;
    for (const Diagnostic& d : build.link_failed ? std::vector<Diagnostic>{} : run.diagnostics)
      if (d.severity == "error") {
        run.message = d.file + ":" + std::to_string(d.line) + (d.column ? ":" + std::to_string(d.column) : "") +
                      ": error: " + d.message;
        break;
      }
    if (build.link_failed) {
      // The linker's first error (an undefined reference: a file or a library left out).
      std::istringstream lines(build.output);
      std::string first;
      for (std::string line; first.empty() && std::getline(lines, line);)
        if (line.find("error:") != std::string::npos || line.find("undefined reference") != std::string::npos)
          first = line;
      run.message = "the link failed: " + (first.empty() ? build.output : first);
      // nvcc without -rdc keeps each .cu file's device code to itself; here every unit's
      // __device__ functions are host functions of one program.
      if (first.find("multiple definition") != std::string::npos)
        run.message += " (nvcc keeps each .cu file's __device__ functions to its own file; on the CPU emulator "
                       "the files' functions are one program's, so a name defined in two files must be static "
                       "or inline in both)";
    }
    if (run.message.empty()) run.message = "the compiler failed:\n" + build.output;
    return run;
  }

  const fs::path run_dir = make_run_dir();
  if (run_dir.empty()) {
    run.outcome = FileOutcome::Unavailable;
    run.message = "cannot create a temporary folder for the run";
    return run;
  }
  write_file(run_dir / "request.json", request_json(request));
  // The blocks of a launch run on every core unless the program's device code
  // may let them see one another (block_sharing_in_device_code). Atomic calls
  // alone are left to the compiler plugin where it ran: it marks the program
  // when one of them can see the order blocks run in, and the runtime looks.
  auto first_sharing = [&srcs](bool skip_atomic_functions) {
    for (const UserSource& src : srcs) {
      std::string why = block_sharing_in_device_code(src.text, skip_atomic_functions);
      if (!why.empty()) return why + " of " + src.path;
      for (const std::string& header : src.local_includes) {
        why = block_sharing_in_device_code(read_file(header), skip_atomic_functions);
        if (!why.empty()) return why + " of " + header;
      }
    }
    return std::string();
  };
  const bool plugin_judges_atomics =
      !build.plugin_failed && std::any_of(kit.compile_flags.begin(), kit.compile_flags.end(), [](const std::string& f) {
        return f.rfind("-fplugin=", 0) == 0;
      });
  const std::string blocks_share = first_sharing(plugin_judges_atomics);
  const bool atomics_to_judge = plugin_judges_atomics && blocks_share.empty() && !first_sharing(false).empty();
  run.blocks_in_order_because = blocks_share;
  ChildOptions opts;
  opts.env = {{"WARPVIZ_USER_OUT", run_dir.string()},
              {"WARPVIZ_USER_BLOCKS_APART", !blocks_share.empty() ? "0" : atomics_to_judge ? "atomics" : "1"},
              {"WARPVIZ_USER_NAME", fs::path(request.path).filename().string()},
              {"WARPVIZ_USER_MAX_LAUNCHES", std::to_string(request.max_launches)},
              {"WARPVIZ_USER_REQUEST", (run_dir / "request.json").string()},
              {"WARPVIZ_USER_MAX_STEPS", std::to_string(request.max_steps)},
              {"WARPVIZ_USER_RECORD_MEMORY", request.record_shared_memory ? "shared" : "none"},
              {"WARPVIZ_USER_STDOUT_BUFFERED", control.program_output_buffered ? "1" : "0"}};
  // The program's own malloc'd gigabytes in 2 MiB pages, where the kernel
  // allows it (glibc 2.35 and later): its first touch of them faults 512 times
  // less (crossentropy_softmax_backward.1: 4 of its 15 s in the kernel).
  const std::string tunables = std::getenv("GLIBC_TUNABLES") ? std::getenv("GLIBC_TUNABLES") : "";
  if (tunables.find("glibc.malloc.hugetlb") == std::string::npos)
    opts.env.emplace_back("GLIBC_TUNABLES", tunables + (tunables.empty() ? "" : ":") + "glibc.malloc.hugetlb=1");
  opts.time_limit_s = request.time_limit_s;
  const uint64_t memory_limit = request.memory_limit_bytes ? request.memory_limit_bytes : default_memory_limit();
  opts.memory_limit_bytes = memory_limit;
  opts.cancel = control.cancel;
  opts.output_fd = control.output_fd;
  opts.error_fd = control.error_fd;
  // The progress record: shown as it moves, and read once more at the
  // limit, where how long nothing moved tells slow from stuck.
  ProgressWatch watch(run_dir.string());
  FileProgress at_limit;
  opts.on_tick = [&](int pid) {
    at_limit = watch.read(pid);
    if (control.on_progress && at_limit.known) control.on_progress(at_limit);
  };
  opts.on_time_limit = [](int pid) { kill(pid, SIGUSR1); };
  // The program's own name, as the shell gives it to `./scan`: programs print it.
  opts.executable = build.program.string();
  std::vector<std::string> argv{
      "./" + (request.program_name.empty() ? fs::path(request.path).stem().string() : request.program_name)};
  argv.insert(argv.end(), request.program_args.begin(), request.program_args.end());
  if (control.on_status) control.on_status("running");
  t0 = Clock::now();
  watch.start();
  ChildResult r = run_child(argv, opts);
  if (!r.started && !fs::exists(build.program, ec)) {
    // Another warpviz pruned the cache (or someone cleared it) between the
    // lookup and the start: build it again, once.
    build = compile(kit, srcs, units, request.compiler, control, run.timing);
    unstored.dir = build.unstored_dir;
    if (build.ok) {
      opts.executable = build.program.string();
      r = run_child(argv, opts);
    }
  }
  run.timing.run_ms = ms_since(t0);
  run.program_output = r.output;
  run.exit_code = r.exit_code;

  t0 = Clock::now();
  if (request.list_scenarios) run.declared_scenarios = read_file(run_dir / "scenarios.json");
  read_launches(run_dir, srcs, request, run);
  run.stopped_at_launch_limit = fs::exists(run_dir / "launch_limit.txt", ec);
  {
    std::istringstream budget(read_file(run_dir / "trace_budget.txt"));
    unsigned long long from = 0, steps = 0, bytes = 0;
    if (budget >> from >> steps >> bytes)
      run.notes.push_back("launches from " + std::to_string(from) + " on ran unrecorded: those before them filled " +
                          "the program's trace limit (" + std::to_string(steps) + " steps, " +
                          std::to_string(bytes >> 20) + " MiB; at most twice --max-steps, " +
                          std::to_string(2 * request.max_steps) + ", or 256 MiB). Output and copies back are whole");
  }
  run.progress = watch.read();
  run.timing.load_ms = ms_since(t0);

  // The program's own report: its first line is the kind, the rest the words.
  std::string kind, report, waiting;
  {
    std::istringstream fault(read_file(run_dir / "fault.txt"));
    std::getline(fault, kind);
    std::ostringstream rest;
    rest << fault.rdbuf();
    report = explain_report(rest.str(), build.program, srcs, &waiting);
  }
  fs::remove_all(run_dir, ec);

  if (!r.started) {
    run.outcome = FileOutcome::Unavailable;
    run.message = "cannot start the compiled program: " + r.start_error;
  } else if (r.cancelled) {
    run.outcome = FileOutcome::Cancelled;
    run.message = "cancelled";
  } else if (r.over_memory) {
    run.outcome = FileOutcome::MemoryLimit;
    run.message = "stopped at the memory limit of " + format_memory_size(memory_limit) + ": it reached " +
                  format_memory_size(r.peak_rss_bytes) +
                  " resident (the program and all it started; " + control.memory_limit_hint + ")";
  } else if (r.timed_out) {
    time_limit_report(request.time_limit_s, at_limit, kind == "where" ? report : std::string(), waiting, run);
  } else if (kind == "request") {
    run.outcome = FileOutcome::RequestError;
    run.message = report;
  } else if (kind == "kernel-error") {
    run.outcome = FileOutcome::KernelError;
    run.message = report;
  } else if (kind == "crash" || (r.signal != 0 && kind != "illegal-address")) {
    run.outcome = FileOutcome::Crash;
    run.message = "the program crashed: " + (report.empty() ? "signal " + std::to_string(r.signal) : report);
  } else if (r.exit_code != 0) {
    run.outcome = FileOutcome::ProgramFailed;
    run.message = "the program exited with code " + std::to_string(r.exit_code);
  }
  // A kernel's invalid access ended its launch, and the program went on with
  // the error a GPU gives (user_runtime_common.cpp, on_fatal_signal). A file
  // of kernels alone has no host code of its own to meet the error: for it,
  // the fault is the outcome.
  if (kind == "illegal-address" && !whole_program && run.outcome != FileOutcome::Timeout &&
      run.outcome != FileOutcome::MemoryLimit && run.outcome != FileOutcome::Cancelled) {
    run.outcome = FileOutcome::Crash;
    run.message = "the kernel made an invalid memory access: " + report;
  } else if (kind == "illegal-address") {
    run.kernel_faulted = true;
    run.notes.insert(run.notes.begin(),
                     report + "; on a GPU this ends the launch with cudaErrorIllegalAddress (\"an illegal memory "
                              "access was encountered\"), which every later CUDA call returns, and so it did here");
  }
  return run;
}

std::string describe_progress(const FileProgress& p) {
  char text[256];
  std::string s = "launch " + std::to_string(p.launch) + " (`" + p.kernel + "`): " + std::to_string(p.blocks_done) +
                  " of " + std::to_string(p.blocks_total) + " block" + (p.blocks_total == 1 ? "" : "s") +
                  " done, " + std::to_string(p.threads_done) + " of " + std::to_string(p.threads_total) +
                  " threads finished";
  std::snprintf(text, sizeof text, ", %.1f s into the launch", p.launch_elapsed_s);
  s += text;
  if (p.launch_left_s >= 0) {
    std::snprintf(text, sizeof text, ", about %.0f s left of it", p.launch_left_s);
    s += text;
  }
  if (p.launch > 0) s += " (after " + std::to_string(p.launches_finished) + " finished launches)";
  return s;
}

const Trace* pick_launch(const FileRun& run, const std::string& which, std::string* why) {
  auto list = [&] {
    std::string s;
    for (size_t i = 0; i < run.launches.size(); ++i) {
      const auto it = run.launches[i].meta.params.find("kernel");
      s += (s.empty() ? "" : ", ") + std::to_string(i) + " " + (it == run.launches[i].meta.params.end() ? "?" : it->second);
    }
    return s;
  };
  if (run.launches.empty()) {
    if (why) *why = "the program launched no kernel";
    return nullptr;
  }
  if (which.empty()) return &run.launches.front();
  if (!which.empty() && std::all_of(which.begin(), which.end(), ::isdigit)) {
    const size_t i = std::stoul(which);
    if (i < run.launches.size()) return &run.launches[i];
  }
  for (const Trace& t : run.launches) {
    const auto it = t.meta.params.find("kernel");
    if (it != t.meta.params.end() && (it->second == which || kernel_base_name(it->second) == which)) return &t;
  }
  if (why) *why = "--launch " + which + ": no such launch (the launches: " + list() + ")";
  return nullptr;
}

std::string starter_file_text() {
  return R"(// A first warp kernel for warpviz. Run it:
//   warpviz-cli run THIS_FILE.cu --input iota      (the trace, on the CPU emulator)
//   warpviz THIS_FILE.cu                            (the app; it reloads when you save)
//
// No include is needed: warpviz adds CUDA's runtime and intrinsics itself.
// Each parameter comes from the kernel's signature:
//   const int* in   an input array, one value per thread  (--input SPEC)
//   int* sum        an output array, recorded as "sum"
//   unsigned* votes another output, recorded as "votes"
//   int threshold   a number (--arg threshold=VALUE), 0 unless you say

__global__ void warp_sum_and_vote(const int* in, int* sum, unsigned* votes, int threshold = 0) {
    int lane = threadIdx.x % warpSize;
    int v = in[threadIdx.x];

    // Which lanes hold a value above the threshold? One bit per lane.
    unsigned ballot = __ballot_sync(0xffffffff, v > threshold);

    // The tree reduction: each round adds the value `offset` lanes down.
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffff, v, offset);

    // Lane 0 now holds the warp's total; the other lanes hold partial sums.
    sum[threadIdx.x] = v;
    if (lane == 0) votes[threadIdx.x / warpSize] = ballot;
}
)";
}

}  // namespace warpviz::user
