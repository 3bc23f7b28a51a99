// warpviz-cli bench corpus: how long each program of the corpus of real CUDA
// programs (tests/corpus/programs.tsv) takes on the CPU emulator, and how many
// lane-ops a second the emulator runs in its largest launch. Figures, not a
// test: tests/corpus/check_corpus.py says whether a program's output is right.
//
// A row runs as check_corpus.py runs it: in the row's folder, its sources,
// nvcc flags, arguments and program name, on the CPU backend.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_command.h"
#include "warpviz/user_file.h"

namespace warpviz::cli {

namespace fs = std::filesystem;

namespace {

const char* const kCorpusUsage =
    "usage: warpviz-cli bench corpus [--corpus DIR] [--only REGEX] [--timeout S] [--rows FILE]\n"
    "  Runs each row of tests/corpus/programs.tsv (--rows FILE another table) on the\n"
    "  CPU emulator as tests/corpus/check_corpus.py does, and prints its run time\n"
    "  (compiling aside), whether it finished within the limit (S seconds, 120 by\n"
    "  default), and the lane-ops per second of its largest recorded launch (lane-ops:\n"
    "  lanes summed over warp operations). Ends with how many ran within 60 s and the\n"
    "  median time. --only REGEX picks rows by name. The corpus is --corpus DIR, else\n"
    "  $WARPVIZ_CORPUS_DIR, else ../shared/corpus beside the repository; without it\n"
    "  the command says so and exits 77 (skipped, as check_corpus.py does).\n";

struct CorpusRow {
  std::string name, folder;
  std::vector<std::string> sources, flags, args;
  std::string program_name;
  unsigned launches = 0;  // --launches N where the sizes are fixed; 0: the whole program
};

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// programs.tsv: name, folder, sources, flags, arguments, program name,
// launches; tab-separated, # comments.
std::vector<CorpusRow> read_rows(const fs::path& table) {
  std::ifstream in(table);
  if (!in) throw UsageError("cannot read the corpus table " + table.string());
  std::vector<CorpusRow> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::stringstream split(line);
    for (std::string cell; std::getline(split, cell, '\t');) cells.push_back(cell);
    cells.resize(7);
    rows.push_back(CorpusRow{cells[0], cells[1], words(cells[2]), words(cells[3]), words(cells[4]), cells[5],
                             unsigned(std::strtoul(cells[6].c_str(), nullptr, 10))});
  }
  return rows;
}

// The repository this program was built from: the first folder above the
// executable (build/cli/warpviz-cli) or the working folder that holds the
// table. No build path is compiled in (a copied binary must not reach back).
fs::path find_table() {
  std::vector<fs::path> starts;
  std::error_code ec;
  if (fs::path exe = fs::read_symlink("/proc/self/exe", ec); !ec) starts.push_back(exe.parent_path());
  if (fs::path here = fs::current_path(ec); !ec) starts.push_back(here);
  for (fs::path dir : starts)
    for (; !dir.empty(); dir = dir.parent_path()) {
      const fs::path table = dir / "tests" / "corpus" / "programs.tsv";
      if (fs::is_regular_file(table, ec)) return table;
      if (dir == dir.parent_path()) break;
    }
  throw UsageError("no tests/corpus/programs.tsv above this program or the working folder; --rows FILE names it");
}

user::FileRequest request_for(const CorpusRow& row, double timeout_s) {
  user::FileRequest request;
  request.backend = user::FileBackend::Cpu;
  request.time_limit_s = timeout_s;
  request.program_name = row.program_name;
  request.program_args = row.args;
  request.max_launches = row.launches;  // as check_corpus.py runs the row
  for (size_t i = 0; i < row.flags.size(); ++i) {
    std::string error;
    if (user::take_compiler_option(row.flags, i, &request.compiler, &error) == user::CompilerOption::NotOne ||
        !error.empty())
      throw UsageError("row " + row.name + ": nvcc option '" + row.flags[i] + "' is not one warpviz takes" +
                       (error.empty() ? "" : ": " + error));
  }
  if (row.sources.empty()) throw UsageError("row " + row.name + " names no source");
  request.path = row.sources.front();
  request.more_paths.assign(row.sources.begin() + 1, row.sources.end());
  return request;
}

// What became of the run, in a word or two.
std::string outcome_words(const user::FileRun& run) {
  if (run.outcome == user::FileOutcome::ProgramFailed) return "exit " + std::to_string(run.exit_code);
  return user::outcome_name(run.outcome);
}

struct RowFigures {
  double run_s = 0;
  bool within_limit = false;  // it ran and ended (well or not) before the time limit
};

// Ran to an end of its own: not stopped at the limit, and not refused before it started.
bool ran_to_an_end(user::FileOutcome outcome) {
  using O = user::FileOutcome;
  return outcome == O::Ok || outcome == O::Crash || outcome == O::KernelError || outcome == O::ProgramFailed;
}

RowFigures bench_row(const CorpusRow& row, const fs::path& corpus, double timeout_s) {
  const fs::path folder = corpus / row.folder;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    std::cout << std::left << std::setw(34) << row.name << std::right << "  no folder " << folder.string() << "\n";
    return {};
  }
  // The program is built and run in its folder, as its authors run it (its
  // -I and data files are relative to it); the working folder comes back after.
  const fs::path before = fs::current_path();
  fs::current_path(folder);
  user::FileRequest request;
  try {
    request = request_for(row, timeout_s);
  } catch (const UsageError& e) {
    fs::current_path(before);
    std::cout << std::left << std::setw(34) << row.name << std::right << "  " << e.what() << "\n";
    return {};
  }
  const auto start = std::chrono::steady_clock::now();
  const user::FileRun run = user::run_user_file(request);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fs::current_path(before);

  RowFigures figures;
  figures.run_s = run.timing.run_ms / 1000;
  figures.within_limit = ran_to_an_end(run.outcome);
  // The most lane-ops; among launches of none (no warp operation: __syncthreads
  // and plain memory only), the most threads.
  size_t largest = run.launch_work.size();
  auto size_of = [&](size_t i) { return std::pair(run.launch_work[i].lane_ops, run.launch_work[i].threads); };
  for (size_t i = 0; i < run.launch_work.size(); ++i)
    if (largest == run.launch_work.size() || size_of(i) > size_of(largest)) largest = i;

  std::cout << std::left << std::setw(34) << row.name << std::right << std::fixed << std::setprecision(1)
            << std::setw(8) << figures.run_s << " s " << std::setw(7) << wall_s << " s  " << std::left
            << std::setw(7) << (figures.within_limit ? "within" : "past") << std::setw(12) << outcome_words(run)
            << std::right;
  if (largest < run.launch_work.size()) {
    const user::LaunchWork& w = run.launch_work[largest];
    const std::string kernel = run.launches[largest].meta.params.count("kernel")
                                   ? run.launches[largest].meta.params.at("kernel")
                                   : "?";
    // Per second of the launch; threads too, since a kernel of plain memory
    // and __syncthreads only has no lane-ops.
    auto rate = [&](uint64_t n) { return w.seconds > 0 ? double(n) / w.seconds / 1e6 : 0.0; };
    std::cout << "  launch " << largest << " (" << kernel.substr(0, 40) << "): " << counted(w.threads, "thread")
              << ", " << w.lane_ops << " lane-ops in " << std::setprecision(3) << w.seconds << " s = "
              << std::setprecision(2) << rate(w.lane_ops) << " M lane-ops/s, " << rate(w.threads) << " M threads/s";
  } else {
    std::cout << "  no launch recorded";
  }
  std::cout << "\n";
  if (!run.ok() && !run.message.empty())
    std::cout << "    " << run.message.substr(0, run.message.find('\n')).substr(0, 200) << "\n";
  std::cout << std::flush;
  return figures;
}

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int bench_corpus(const Args& args) {
  if (wants_help(args)) {
    std::cout << kCorpusUsage;
    return 0;
  }
  std::string corpus_arg, only, rows_arg;
  double timeout_s = 120;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--corpus") corpus_arg = option_value(args, i);
    else if (args[i] == "--only") only = option_value(args, i);
    else if (args[i] == "--rows") rows_arg = option_value(args, i);
    else if (args[i] == "--timeout") {
      const std::string v = option_value(args, i);
      char* end = nullptr;
      timeout_s = std::strtod(v.c_str(), &end);
      if (!end || *end || !(timeout_s > 0) || timeout_s > 86400)
        throw UsageError("--timeout " + v + ": seconds, more than 0");
    } else {
      throw UsageError("unknown option '" + args[i] + "'");
    }
  }
  const fs::path table = rows_arg.empty() ? find_table() : fs::path(rows_arg);
  std::error_code ec;
  fs::path corpus = corpus_arg;
  if (corpus.empty()) {
    const char* env = std::getenv("WARPVIZ_CORPUS_DIR");
    // tests/corpus/programs.tsv -> the repository -> ../shared/corpus beside it.
    corpus = env && *env ? fs::path(env) : table.parent_path().parent_path().parent_path() / ".." / "shared" / "corpus";
  }
  corpus = fs::absolute(corpus, ec).lexically_normal();
  if (!fs::is_directory(corpus, ec)) {
    std::cout << "bench corpus: no corpus at " << corpus.string()
              << "; --corpus DIR or WARPVIZ_CORPUS_DIR names it (skipped)\n";
    return 77;
  }
  std::regex pick;
  try {
    pick = std::regex(only);
  } catch (const std::regex_error& e) {
    throw UsageError("--only '" + only + "': not a regular expression (" + e.what() + ")");
  }
  std::vector<CorpusRow> rows;
  for (CorpusRow& row : read_rows(table))
    if (std::regex_search(row.name, pick)) rows.push_back(std::move(row));
  if (rows.empty()) {
    std::cerr << "bench corpus: no row of " << table.string() << " matches '" << only << "'\n";
    return 2;
  }

  std::cout << "bench corpus: " << counted(rows.size(), "row") << " of " << table.string() << ", corpus "
            << corpus.string() << ", CPU emulator, limit " << timeout_s << " s\n"
            << std::left << std::setw(34) << "row" << std::right << std::setw(10) << "run" << std::setw(10)
            << "wall" << "  " << std::left << std::setw(7) << "limit" << std::setw(12) << "outcome"
            << "  largest launch\n"
            << std::right;
  std::vector<double> times;
  size_t within_60 = 0;
  for (const CorpusRow& row : rows) {
    const RowFigures f = bench_row(row, corpus, timeout_s);
    times.push_back(f.run_s);
    within_60 += f.within_limit && f.run_s <= 60;
  }
  std::cout << std::fixed << std::setprecision(1) << "bench corpus: " << within_60 << " of " << rows.size()
            << " ran within 60 s; median run " << median_of(times) << " s (run: the program alone; wall: with "
            << "its build, cached after the first)\n";
  return 0;
}

}  // namespace warpviz::cli
