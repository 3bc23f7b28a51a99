// warpviz-cli run FILE.cu, new FILE.cu, list FILE.cu, bench reload: a user's
// own kernel file (warpviz/user_file.h).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_command.h"
#include "terminal_progress.h"
#include "warpviz/trace_io.h"
#include "warpviz/user_file.h"
#include "warpviz/user_source.h"
#include "warpviz/view/run_options.h"

namespace warpviz::cli {

namespace fs = std::filesystem;

namespace {

const char* const kRunFileHelp = R"(usage: warpviz-cli run FILE.cu [MORE.cu|MORE.cpp...] [options] [-- PROGRAM ARGS...]

  Compiles FILE.cu against warpviz's recording layer, runs it on the exact CPU
  emulator and records every warp operation of every kernel launch.
  Several files are one program, as nvcc builds `nvcc main.cpp scan.cu`: each
  is compiled on its own (a .cpp as host code) and all are linked; one has
  main(). The program's argv[0] is "./NAME", NAME the first file's stem
  ("./main" for main.cpp) or --program-name's.
  A file with a main() runs as the whole program it is (its output is shown,
  every launch recorded). A file with kernels only is launched by warpviz:
  const T* parameters are inputs, T* parameters outputs (recorded under their
  names), scalars take --arg.

  --kernel NAME         the kernel to launch (default: the file's only one);
                        a template takes its arguments: --kernel 'reduce<float,256>'
  --grid X[,Y[,Z]]      blocks (default 1)
  --block X[,Y[,Z]]     threads per block (default 32)
  --shared BYTES        extern __shared__ memory per block (default 0)
  --input [NAME=]SPEC   fill the input arrays (or the array NAME): iota | ones |
                        const:X | random:SEED | values:a,b,... | bits:hex,...
                        (default iota); output arrays start at zero
  --arg NAME=VALUE      a scalar parameter (else its default argument)
  --len NAME=N          an array's length (default: one element per thread)
  --scenario NAME       a file that declares scenarios (ScenarioDeclaration): which
                        one (default: its only one); --set NAME=VALUE sets its
                        parameters and --input SPEC its input, as for a built-in
  --launch N|NAME       the launch to write or print (default: the first)
  --timeout SECONDS     stop the program after this long (default 10)
  --memory-limit SIZE   stop it when it and what it started hold more resident
                        memory (512M, 8G; default three quarters of the machine's RAM)
  --max-steps N         steps recorded per launch before the trace is marked
                        overflowed (default 200000)
  --record-memory M     shared (default): each load and store of a __shared__
                        variable in the file's kernels is recorded, for the
                        banks panel; none: only warp operations
  --launches N          stop a whole program once its Nth launch is recorded
                        (exit 0, with a note on stderr)
  --program-name NAME   the program's name, as nvcc -o NAME gives it (argv[0]
                        is ./NAME; default: the first file's stem)
  --backend B           cpu (the default for files) | auto
  -I DIR, -D NAME[=V], -U NAME, -l LIB, -L DIR, -std=c++NN
                        nvcc's options, passed on as nvcc would; -O*, -arch,
                        -gencode, -lineinfo, -G, -Xcompiler ... are taken and
                        noted: they change nothing on the CPU emulator
  -o FILE               write the launch's trace (.json or .wvt); never written
                        when the run fails, never over a source of the run or
                        a file one includes (exit 2)
  --json                print the launch's trace as JSON on stdout (the program's
                        own output then goes to stderr)
  Exit: 0 ok, 2 a compile error or options that do not fit the file, 4 the
  program crashed, deadlocked, ran past the time limit or exited non-zero.
  A mask naming lanes that never arrived is a warning on stderr (the result is
  undefined); it leaves the exit status as it was.
)";

// The same file by device and inode, so ./k.cu, k.cu, a hard link and a
// symbolic link to it all count.
bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

// -o naming a file of the run or one of their #include "..." files would
// overwrite the user's source with a trace: refused before anything runs.
void refuse_output_over_source(const std::string& out_path, const std::vector<std::string>& units) {
  if (out_path.empty()) return;
  for (const std::string& unit : units) {
    if (!fs::is_regular_file(unit)) continue;
    std::vector<std::string> sources{unit};
    const user::UserSource src = user::scan_user_source(unit, user::read_text_file(unit));
    sources.insert(sources.end(), src.local_includes.begin(), src.local_includes.end());
    for (const std::string& s : sources)
      if (same_file(out_path, s))
        throw UsageError("-o " + out_path + " is " + s + ", a source of this run; the trace would overwrite it");
  }
}

void print_launches(const user::FileRun& run) {
  for (size_t i = 0; i < run.launches.size(); ++i) {
    const Trace& t = run.launches[i];
    const auto& p = t.meta.params;
    std::cout << "launch " << i << ": " << (p.count("kernel") ? p.at("kernel") : "?") << "<<<(" << t.meta.grid.x
              << "," << t.meta.grid.y << "," << t.meta.grid.z << "), (" << t.meta.block.x << "," << t.meta.block.y
              << "," << t.meta.block.z << ")>>>\n";
    print_trace_summary(t);
  }
}

}  // namespace

bool is_user_file(const std::string& arg) {
  return arg.size() > 3 && (arg.compare(arg.size() - 3, 3, ".cu") == 0 || arg.compare(arg.size() - 4, 4, ".cuh") == 0);
}

bool is_source_file(const std::string& arg) {
  const std::string ext = fs::path(arg).extension().string();
  return is_user_file(arg) || ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".c" || ext == ".C";
}

int run_run_file(const Args& args) {
  if (wants_help(args)) {
    std::cout << kRunFileHelp;
    return 0;
  }
  user::FileRequest request;
  std::string out_path, launch;
  bool json = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      request.program_args.assign(args.begin() + long(i) + 1, args.end());
      break;
    } else if (view::is_file_option(a)) {
      const std::string value = option_value(args, i);
      std::string error;
      if (view::take_file_option(a, value, &request, &error) == view::RunOption::Bad) throw UsageError(error);
    } else if (a == "--launch") {
      launch = option_value(args, i);
    } else if (a == "--timeout") {
      const std::string v = option_value(args, i);
      char* end = nullptr;
      const double s = std::strtod(v.c_str(), &end);
      if (!end || *end || !(s > 0) || s > 86400) throw UsageError("--timeout " + v + ": seconds, more than 0");
      request.time_limit_s = s;
    } else if (a == "--memory-limit") {
      const std::string v = option_value(args, i);
      const auto bytes = user::parse_memory_size(v);
      if (!bytes || *bytes < (uint64_t(1) << 20))
        throw UsageError("--memory-limit " + v + ": a size of at least 1M, such as 512M or 8G");
      request.memory_limit_bytes = *bytes;
    } else if (a == "--max-steps") {
      const std::string v = option_value(args, i);
      const auto n = parse_value(DType::U32, v);
      if (!n || *n == 0) throw UsageError("--max-steps " + v + ": a positive number");
      request.max_steps = *n;
    } else if (a == "--record-memory") {
      const std::string v = option_value(args, i);
      if (v != "shared" && v != "none")
        throw UsageError("--record-memory " + v + ": shared (the default) or none");
      request.record_shared_memory = v == "shared";
    } else if (a == "--program-name") {
      request.program_name = option_value(args, i);
      if (request.program_name.empty() || request.program_name.find('/') != std::string::npos)
        throw UsageError("--program-name '" + request.program_name + "': a file name, without '/'");
    } else if (a == "--launches") {
      const std::string v = option_value(args, i);
      const auto n = parse_value(DType::U32, v);
      if (!n || *n == 0) throw UsageError("--launches " + v + ": a positive number of launches");
      request.max_launches = *n;
    } else if (a == "--backend") {
      const std::string b = option_value(args, i);
      if (b == "cpu") request.backend = user::FileBackend::Cpu;
      else if (b == "cuda") request.backend = user::FileBackend::Cuda;
      else if (b == "auto") request.backend = user::FileBackend::Auto;
      else throw UsageError("--backend '" + b + "': valid backends are cpu, cuda, auto");
    } else if (a == "-o" || a == "--output") {
      out_path = option_value(args, i);
    } else if (a == "--json") {
      json = true;
    } else if (a == "--scenario") {
      request.scenario = option_value(args, i);
    } else if (std::string error;
               user::take_compiler_option(args, i, &request.compiler, &error) != user::CompilerOption::NotOne) {
      if (!error.empty()) throw UsageError(error);
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError("unknown option '" + a + "'");
    } else if (!is_source_file(a)) {
      throw UsageError("unexpected argument '" + a +
                       "' (sources end in .cu or .cpp; program arguments go after --)");
    } else if (request.path.empty()) {
      request.path = a;
    } else {
      request.more_paths.push_back(a);
    }
  }

  std::vector<std::string> units{request.path};
  units.insert(units.end(), request.more_paths.begin(), request.more_paths.end());
  refuse_output_over_source(out_path, units);
  if (const std::string noted = user::noted_options_line(request.compiler); !noted.empty())
    std::cerr << "warpviz-cli run: " << noted << "\n";

  user::RunControl control;
  control.output_fd = json ? 2 : 1;  // stdout stays the JSON's alone
  control.error_fd = 2;              // the program's stderr stays stderr, as a shell runs it
  control.program_output_buffered = !isatty(control.output_fd);  // a file: buffered, as a shell gives it
  std::cout.flush();
  // On a terminal, a line that shows how far the run has got; tests and
  // pipes see nothing of it.
  std::optional<TerminalProgress> progress;
  if (isatty(STDERR_FILENO)) {
    progress.emplace(control.output_fd, control.error_fd);
    control.output_fd = progress->program_fd();
    control.error_fd = progress->program_error_fd();
    control.on_progress = [&progress](const user::FileProgress& p) { progress->show(p); };
  }
  const user::FileRun run = user::run_user_file(request, control);
  if (progress) progress->finish();
  for (const std::string& note : run.notes) std::cerr << "warpviz-cli run: note: " << note << "\n";

  if (run.outcome == user::FileOutcome::CompileError) {
    std::cerr << run.compiler_output;
    std::cerr << "warpviz-cli run: " << (request.more_paths.empty() ? request.path : "the program")
              << " did not compile (" << run.message << ")\n";
    return 2;
  }
  if (run.outcome == user::FileOutcome::RequestError || run.outcome == user::FileOutcome::Unavailable) {
    std::cerr << "warpviz-cli run: " << run.message << "\n";
    return 2;
  }
  const bool failed = run.outcome != user::FileOutcome::Ok;
  if (run.stopped_at_launch_limit)
    std::cerr << "warpviz-cli run: stopped the program after launch " << request.max_launches << " (--launches "
              << request.max_launches << ")\n";
  if (failed) std::cerr << "warpviz-cli run: " << request.path << ": " << run.message << "\n";
  if (run.launches.empty()) {
    if (!failed) std::cerr << "warpviz-cli run: " << request.path << " launched no kernel; nothing was recorded\n";
    return failed ? 4 : 0;
  }

  std::string why;
  const Trace* picked = user::pick_launch(run, launch, &why);
  if (!picked) {
    std::cerr << "warpviz-cli run: " << why << "\n";
    return 2;
  }
  if (run.launches.size() > 1 && launch.empty() && (json || !out_path.empty()))
    std::cerr << "note: " << counted(run.launches.size(), "launch", "launches") << " were recorded; this is launch 0 ("
              << picked->meta.params.at("kernel") << "); --launch N|NAME picks another\n";
  if (picked->overflow) std::cerr << "warning: the trace overflowed; only its first steps were kept (--max-steps)\n";
  // Every launch's wrong masks, not only the picked one's: the summary lists them all.
  for (size_t i = 0; i < run.launches.size(); ++i)
    print_mask_warnings(run.launches[i], run.launches.size() > 1 ? "launch " + std::to_string(i) + ": " : "");
  if (!out_path.empty()) {
    if (failed) {
      std::cerr << "warpviz-cli run: " << out_path << " was not written (the run failed)\n";
    } else {
      save_trace(*picked, out_path);
      std::cerr << "wrote " << out_path << " (" << counted(picked->steps.size(), "step") << ")\n";
    }
  }
  if (json) std::cout << trace_to_json(*picked) << "\n";
  if (!json && out_path.empty()) print_launches(run);
  return failed ? 4 : 0;
}

int run_new_file(const Args& args) {
  if (wants_help(args) || args.size() != 1) {
    std::cout << "usage: warpviz-cli new FILE.cu\n"
                 "  Writes a commented starter kernel (a warp sum with a ballot) that runs as it is:\n"
                 "  warpviz-cli run FILE.cu --input iota, or warpviz FILE.cu. Never overwrites a file.\n";
    return args.size() == 1 ? 0 : 2;
  }
  const std::string& path = args[0];
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) {
    std::cerr << "warpviz-cli new: " << path
              << (errno == EEXIST ? " exists already; warpviz never overwrites a file" : ": cannot create it") << "\n";
    return 2;
  }
  std::string text = user::starter_file_text();
  const std::string name = fs::path(path).filename().string();
  for (size_t at; (at = text.find("THIS_FILE.cu")) != std::string::npos;) text.replace(at, 12, name);
  const bool ok = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
  ::close(fd);
  if (!ok) {
    std::cerr << "warpviz-cli new: could not write " << path << "\n";
    return 2;
  }
  std::cout << "wrote " << path << "; run it: warpviz-cli run " << path << " --input iota\n";
  return 0;
}

int run_list_file(const std::string& path) {
  if (!fs::is_regular_file(path)) {
    std::cerr << "warpviz-cli list: " << path << ": no such file\n";
    return 2;
  }
  const user::UserSource src = user::scan_user_source(path, user::read_text_file(path));
  if (src.declares_scenarios && !src.has_main) {
    // The declarations are code: the file is compiled and asked.
    user::FileRequest request;
    request.path = path;
    request.list_scenarios = true;
    const user::FileRun run = user::run_user_file(request);
    if (!run.ok()) {
      std::cerr << run.compiler_output << "warpviz-cli list: " << run.message << "\n";
      return 2;
    }
    std::cout << path << ": declares its scenarios (run one: warpviz-cli run " << path
              << " --scenario NAME [--set NAME=VALUE]...)\n";
    for (const auto& s : nlohmann::json::parse(run.declared_scenarios)) {
      std::cout << "  " << s.at("name").get<std::string>() << "   " << s.at("summary").get<std::string>() << "\n";
      for (const auto& p : s.at("params")) {
        std::cout << "      --set " << p.at("name").get<std::string>() << "=" << p.at("default").get<std::string>();
        if (p.contains("choices")) {
          std::string c;
          for (const auto& v : p.at("choices")) c += (c.empty() ? "" : "|") + v.get<std::string>();
          std::cout << "  (" << c << ")";
        } else if (p.contains("range")) {
          std::cout << "  (" << p.at("range").at(0) << ".." << p.at("range").at(1) << ")";
        }
        std::cout << "  " << p.at("help").get<std::string>() << "\n";
      }
    }
    return 0;
  }
  std::cout << path << ": " << (src.has_main ? "a whole program (main() runs; every launch is recorded)"
                                             : "kernels only (warpviz launches the one you pick)")
            << "\n";
  for (const user::KernelDecl& k : src.kernels) {
    std::cout << "  " << k.name << (k.is_template ? "<...>" : "") << "(";
    for (size_t i = 0; i < k.params.size(); ++i)
      std::cout << (i ? ", " : "") << k.params[i].name
                << (k.params[i].default_text.empty() ? "" : " = " + k.params[i].default_text);
    std::cout << ")   line " << k.line << "\n";
  }
  if (src.kernels.empty()) std::cout << "  (no __global__ kernel)\n";
  return 0;
}

// warpviz-cli bench reload: the starter file saved again and again, each time
// until its new trace is ready; then re-opened unchanged, from the cache.
int bench_reload(const Args& args) {
  int repeat = 5;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--repeat") {
      const std::string v = option_value(args, i);
      repeat = std::max(1, std::atoi(v.c_str()));
    } else if (args[i] == "-h" || args[i] == "--help") {
      std::cout << "usage: warpviz-cli bench reload [--repeat R]\n"
                   "  Saves the starter file R times (5 by default), each with a change, and times each\n"
                   "  save until its trace is ready (compile, link, run, load), then re-opens the\n"
                   "  unchanged file from the cache. A fresh cache folder is used and removed.\n"
                   "  Goals on a 2-core machine, CPU backend: save -> trace <= 1.5 s; cached <= 0.2 s.\n";
      return 0;
    } else {
      throw UsageError("unknown option '" + args[i] + "'");
    }
  }
  std::string tmpl = (fs::temp_directory_path() / "warpviz-bench-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a temporary folder");
  const fs::path dir = tmpl;
  setenv("WARPVIZ_CACHE_DIR", (dir / "cache").c_str(), 1);
  const fs::path file = dir / "starter.cu";
  user::FileRequest request;
  request.path = file.string();
  request.inputs.emplace_back("", "iota");

  struct Row {
    double total, compile, link, run, load;
  };
  auto time_one = [&](Row& row) {
    const auto t0 = std::chrono::steady_clock::now();
    const user::FileRun r = user::run_user_file(request);
    row.total = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    row.compile = r.timing.compile_ms;
    row.link = r.timing.link_ms;
    row.run = r.timing.run_ms;
    row.load = r.timing.load_ms;
    if (!r.ok() || r.launches.empty()) throw std::runtime_error("the starter file did not run: " + r.message);
    return r.timing.cached;
  };
  std::vector<Row> saves, cached;
  for (int i = 0; i < repeat; ++i) {
    // Each save changes the text, so nothing comes from the cache.
    std::ofstream(file) << user::starter_file_text() << "// save " << i << "\n";
    Row row{};
    if (time_one(row)) throw std::runtime_error("internal: a changed file came from the cache");
    saves.push_back(row);
    Row again{};
    if (!time_one(again)) throw std::runtime_error("internal: an unchanged file was compiled again");
    cached.push_back(again);
  }
  fs::remove_all(dir);
  auto median = [](std::vector<Row> rows, double Row::*field) {
    std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) { return a.*field < b.*field; });
    return rows[rows.size() / 2].*field;
  };
  auto print = [&](const char* what, const std::vector<Row>& rows, double goal_ms) {
    const double total = median(rows, &Row::total);
    std::cout << std::fixed << std::setprecision(0) << std::setw(26) << std::left << what << std::right
              << std::setw(7) << total << " ms   compile " << std::setw(5) << median(rows, &Row::compile)
              << "  link " << std::setw(4) << median(rows, &Row::link) << "  run " << std::setw(4)
              << median(rows, &Row::run) << "  load " << std::setw(3) << median(rows, &Row::load) << "   goal <= "
              << goal_ms << " ms: " << (total <= goal_ms ? "PASS" : "MISS") << "\n";
  };
  std::cout << "bench reload: the starter file, CPU backend, median of " << repeat << " (all times ms)\n";
  print("save -> new trace ready", saves, 1500);
  print("re-open, cached", cached, 200);
  return 0;
}

}  // namespace warpviz::cli
