// warpviz-cli profile: a scenario recorded on the GPU, then its own kernel run
// again under Nsight Compute with recording off, so that ncu counts the
// kernel's shared-memory wavefronts and bank conflicts and nothing of the
// recorder's; the counters are set beside the bank model's totals.
//
// [SECTION] Options
// [SECTION] Finding ncu
// [SECTION] Running ncu
// [SECTION] The comparison
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_command.h"
#include "ncu_csv.h"
#include "warpviz/backends.h"
#include "warpviz/bank_model.h"
#include "warpviz/scenario.h"
#include "warpviz/trace_io.h"

extern char** environ;

namespace warpviz::cli {

namespace {

namespace fs = std::filesystem;

// ============================================================================
// [SECTION] Options
// ============================================================================

const char* const kProfileHelp = R"(usage: warpviz-cli profile SCENARIO [--set NAME=VALUE]... [--input SPEC] -o FILE
                            [--ncu PATH] [--json]

  Records SCENARIO on the GPU (every warp), then runs the scenario's own kernel
  again under Nsight Compute, with recording off ('run --no-record': the kernel
  does no recording work and none of the recorder's shared-memory traffic):
    ncu --clock-control none --csv --print-units base --metrics M -k regex:KERNEL
        warpviz-cli run SCENARIO ... --backend cuda --no-record
  M: l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum, ..._op_st.sum,
     l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum, ..._op_st.sum,
  each summed over the kernel's launches. The trace keeps them as measurements
  "ncu.<metric>" (a bank trace also has the measured latency and throughput
  cycles), and a table sets them beside the bank model's totals over the
  trace's shared-memory steps. Shared accesses a kernel makes without
  WARPVIZ_LOAD/WARPVIZ_STORE are counted by ncu but not by the model.
  --set NAME=VALUE   a scenario parameter ('warpviz-cli list' shows them)
  --input SPEC       the scenario's input, as for 'warpviz-cli run'
  -o FILE            write the trace (required): FILE.json as JSON, anything else as .wvt
  --ncu PATH         the ncu to run (default: ncu on PATH, else /usr/local/cuda/bin/ncu,
                     else the newest /opt/nvidia/nsight-compute/*/ncu)
  --json             print the trace's JSON form on stdout (the table goes to stderr)
  Exit 0 when every counter matches the model, 1 on a mismatch, 2 without a GPU,
  a CUDA build or ncu, when ncu fails, or for a bad scenario.
)";

const char* const kMetricNames[] = {
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
};

struct ProfileOptions {
  ScenarioRequest request;
  std::string out_path;
  std::string ncu;  // empty: search
  bool json = false;
};

ProfileOptions parse_profile_options(const Args& args) {
  ProfileOptions o;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (take_request_option(args, i, o.request)) {
      continue;
    } else if (a == "-o" || a == "--output") {
      o.out_path = option_value(args, i);
    } else if (a == "--ncu") {
      o.ncu = option_value(args, i);
    } else if (a == "--json") {
      o.json = true;
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError("unknown option '" + a + "'");
    } else if (o.request.scenario.empty()) {
      o.request.scenario = a;
    } else {
      throw UsageError("unexpected argument '" + a + "' (one scenario per profile)");
    }
  }
  if (o.request.scenario.empty()) throw UsageError("which scenario? valid scenarios: " + scenario_names());
  if (o.out_path.empty()) throw UsageError("-o FILE is required: the trace that keeps the counters");
  return o;
}

// ============================================================================
// [SECTION] Finding ncu
// ============================================================================

bool is_executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// ncu on PATH, else the CUDA toolkit's, else the newest stand-alone Nsight Compute.
std::string find_ncu(std::string* looked) {
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':'))
      if (!dir.empty() && is_executable(fs::path(dir) / "ncu")) return (fs::path(dir) / "ncu").string();
  }
  if (is_executable("/usr/local/cuda/bin/ncu")) return "/usr/local/cuda/bin/ncu";
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/opt/nvidia/nsight-compute", ec))
    if (is_executable(entry.path() / "ncu")) found.push_back((entry.path() / "ncu").string());
  *looked = "PATH, /usr/local/cuda/bin/ncu, /opt/nvidia/nsight-compute/*/ncu";
  if (found.empty()) return "";
  return *std::max_element(found.begin(), found.end());  // "2025.3.1" sorts after "2024.1.0"
}

std::string self_path() {
  std::array<char, 4096> buf{};
  const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) throw std::runtime_error("cannot find this program's own path (/proc/self/exe)");
  return std::string(buf.data(), size_t(n));
}

// ============================================================================
// [SECTION] Running ncu
// ============================================================================

// A word as a shell reads it back, for showing the command.
std::string shell_quoted(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=:,./@%") ==
                           std::string::npos)
    return word;
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string read_file_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string tail_lines(const std::string& text, size_t lines) {
  size_t pos = text.size();
  if (pos && text[pos - 1] == '\n') --pos;
  for (size_t n = 0; n < lines && pos != std::string::npos && pos > 0; ++n) pos = text.rfind('\n', pos - 1);
  return pos == std::string::npos || pos == 0 ? text : text.substr(pos + 1);
}

struct NcuRun {
  int exit_code = -1;
  fs::path dir;  // ncu.csv (its report), stdout.txt, stderr.txt
};

// Runs argv with stdout and stderr in files of `dir`. posix_spawn: no shell, so
// no argument is ever re-split or expanded.
NcuRun spawn_ncu(const std::vector<std::string>& argv, const fs::path& dir) {
  NcuRun run;
  run.dir = dir;
  const std::string out = (dir / "stdout.txt").string(), err = (dir / "stderr.txt").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, cargv[0], &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error(std::string("waiting for ncu: ") + std::strerror(errno));
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return run;
}

fs::path make_temp_dir() {
  std::string pattern = (fs::temp_directory_path() / "warpviz-profile-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary directory: " + std::string(std::strerror(errno)));
  return pattern;
}

void show_ncu_output(const NcuRun& run, std::ostream& out) {
  for (const char* name : {"stderr.txt", "stdout.txt", "ncu.csv"}) {
    const std::string text = read_file_text(run.dir / name);
    if (text.empty()) continue;
    out << "--- last lines of ncu's " << name << "\n" << tail_lines(text, 15);
    if (text.back() != '\n') out << "\n";
  }
  out << "--- (ncu's output is kept in " << run.dir.string() << ")\n";
}

// ============================================================================
// [SECTION] The comparison
// ============================================================================

struct Row {
  const char* what;
  uint64_t model;
  const char* metric;
};

void print_measurements(const Trace& trace, std::ostream& out) {
  const auto& m = trace.meta.measurements;
  const auto get = [&](const char* k) -> const double* {
    const auto it = m.find(k);
    return it == m.end() ? nullptr : &it->second;
  };
  out << std::fixed << std::setprecision(2);
  if (const double* v = get("latency_cycles")) out << "  latency      " << *v << " cycles per access (one warp, clock64)\n";
  if (const double* v = get("throughput_cycles")) {
    out << "  throughput   " << *v << " SM cycles per warp-access, every SM full of warps (at the max SM clock";
    if (const double* c = get("sm_clock_mhz")) out << " " << std::setprecision(0) << *c << " MHz" << std::setprecision(2);
    out << ")";
    if (const double* ns = get("throughput_ns")) out << ", " << std::setprecision(3) << *ns << " ns per warp-access on one SM";
    if (const double* c64 = get("throughput_clock64_cycles"))
      out << "; clock64 in the kernel: " << std::setprecision(2) << *c64 << " cycles";
    out << "\n";
  }
  out << std::defaultfloat;
}

}  // namespace

int run_profile(const Args& args) {
  if (wants_help(args)) {
    std::cout << kProfileHelp;
    return 0;
  }
  const ProfileOptions o = parse_profile_options(args);
  const ResolvedScenario resolved = resolve_scenario(o.request);
  for (const std::string& note : resolved.notes) std::cerr << "note: " << note << "\n";

  // Both missing pieces are named at once.
  std::string no_gpu, looked;
  const bool gpu = cuda_backend_available(&no_gpu);
  const std::string ncu = o.ncu.empty() ? find_ncu(&looked) : o.ncu;
  bool ncu_ok = !ncu.empty() && is_executable(ncu);
  if (!gpu) std::cerr << "warpviz-cli profile: no GPU to profile on: " << no_gpu << "\n";
  if (!ncu_ok) {
    if (!o.ncu.empty())
      std::cerr << "warpviz-cli profile: --ncu " << o.ncu << ": not an executable file\n";
    else
      std::cerr << "warpviz-cli profile: ncu (Nsight Compute) not found; looked on " << looked
                << "; pass --ncu PATH\n";
  }
  if (!gpu || !ncu_ok) return 2;

  // 1. The recording: every warp.
  RunOptions run_options;
  run_options.backend = BackendChoice::Cuda;
  Trace trace = run_scenario(resolved, run_options);
  const SharedTotals model = shared_totals(trace);

  // 2. The same kernel under ncu, unrecorded.
  const std::string kernel = resolved.spec->kernel;
  std::string metrics;
  for (const char* m : kMetricNames) metrics += (metrics.empty() ? "" : ",") + std::string(m);
  const fs::path dir = make_temp_dir();
  std::vector<std::string> argv = {ncu, "--clock-control", "none", "--csv", "--print-units", "base",
                                   "--log-file", (dir / "ncu.csv").string(), "--metrics", metrics,
                                   "-k", "regex:" + kernel, self_path(), "run", o.request.scenario};
  for (const auto& [name, value] : o.request.sets) {
    argv.push_back("--set");
    argv.push_back(name + "=" + value);
  }
  if (!o.request.input.empty()) {
    argv.push_back("--input");
    argv.push_back(o.request.input);
  }
  for (const char* a : {"--backend", "cuda", "--no-record"}) argv.push_back(a);
  std::string shown;
  for (const std::string& a : argv) shown += (shown.empty() ? "" : " ") + shell_quoted(a);
  std::cerr << "running: " << shown << "\n";
  const NcuRun run = spawn_ncu(argv, dir);
  if (run.exit_code != 0) {
    std::cerr << "warpviz-cli profile: ncu failed (exit " << run.exit_code << ")\n";
    show_ncu_output(run, std::cerr);
    return 2;
  }
  // The report is in the --log-file; should an ncu print it on stdout instead, it is read there.
  NcuMetrics counters;
  try {
    try {
      counters = parse_ncu_csv(read_file_text(dir / "ncu.csv"), kernel);
    } catch (const NcuCsvError&) {
      counters = parse_ncu_csv(read_file_text(dir / "stdout.txt"), kernel);
    }
  } catch (const NcuCsvError& e) {
    std::cerr << "warpviz-cli profile: " << e.what() << " in ncu's output\n";
    show_ncu_output(run, std::cerr);
    return 2;
  }
  if (counters.launches.empty() && counters.sums.empty()) {
    std::cerr << "warpviz-cli profile: ncu profiled no launch of kernel '" << kernel << "'";
    if (!counters.other_kernels.empty()) std::cerr << " (it saw " << *counters.other_kernels.begin() << ")";
    std::cerr << "\n";
    show_ncu_output(run, std::cerr);
    return 2;
  }
  for (const auto& [metric, value] : counters.sums) trace.meta.measurements["ncu." + metric] = value;
  save_trace(trace, o.out_path);
  std::cerr << "wrote " << o.out_path << " (" << counted(trace.steps.size(), "step") << ")\n";
  if (o.json) std::cout << trace_to_json(trace) << "\n";

  // 3. The table.
  std::ostream& out = o.json ? std::cerr : std::cout;
  out << "profile " << trace.meta.scenario << " on " << trace.meta.device << ": "
      << counted(model.load_steps + model.store_steps, "shared-memory step") << " recorded (" << model.load_steps
      << " ld, " << model.store_steps << " st); ncu profiled " << counted(counters.launches.size(), "launch", "launches")
      << " of " << kernel << "\n";
  const Row rows[] = {{"ld wavefronts", model.load_wavefronts, kMetricNames[0]},
                      {"ld conflicts", model.load_conflicts, kMetricNames[1]},
                      {"st wavefronts", model.store_wavefronts, kMetricNames[2]},
                      {"st conflicts", model.store_conflicts, kMetricNames[3]}};
  out << "  " << std::left << std::setw(16) << "" << std::right << std::setw(12) << "model" << std::setw(12) << "ncu"
      << "   " << std::left << "ncu metric\n";
  bool mismatch = false, missing = false;
  for (const Row& r : rows) {
    const auto it = counters.sums.find(r.metric);
    out << "  " << std::left << std::setw(16) << r.what << std::right << std::setw(12) << r.model;
    if (it == counters.sums.end()) {
      missing = true;
      out << std::setw(12) << "n/a" << "   " << r.metric << "   NO VALUE\n";
      continue;
    }
    const bool same = it->second == double(r.model);
    mismatch |= !same;
    out << std::setw(12) << std::setprecision(15) << it->second << "   " << r.metric << "   "
        << (same ? "match" : "MISMATCH") << "\n";
  }
  print_measurements(trace, out);
  for (const std::string& u : counters.unreadable) std::cerr << "warning: ncu gave no number for " << u << "\n";
  if (trace.overflow) {
    std::cerr << "warpviz-cli profile: the trace overflowed, so the model's totals cover only the recorded steps\n";
    return 2;
  }
  if (missing) {
    std::cerr << "warpviz-cli profile: ncu gave no value for some counters (see NO VALUE above)\n";
    show_ncu_output(run, std::cerr);
    return 2;
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (mismatch) {
    std::cerr << "warpviz-cli profile: ncu's counters differ from the bank model (MISMATCH above)\n";
    return 1;
  }
  return 0;
}

}  // namespace warpviz::cli
