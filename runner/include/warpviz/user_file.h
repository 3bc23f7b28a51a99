// Running a user's own .cu file: compile it against warpviz's recording layer
// (cached by content), run it in a child process with a time limit, and read
// back one trace per kernel launch. The CLI, the app and warpviz/testing.h
// all go through run_user_file.
//
// A file runs in one of two ways (README, "Your own kernel"):
//   a whole program   it has a main(): run as it is, every launch recorded;
//   kernels only      warpviz writes the host code from the kernel's signature.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "warpviz/compiler_diagnostics.h"
#include "warpviz/compiler_options.h"
#include "warpviz/trace.h"

namespace warpviz::user {

enum class FileBackend { Auto, Cpu, Cuda };

struct FileRequest {
  std::string path;  // the .cu file; of a program of several files, the first
  // A program of several files, as `nvcc main.cpp scan.cu` builds it: the
  // files after `path`, .cu or .cpp, each compiled as a unit of its own and
  // linked with the others; one of them has main().
  std::vector<std::string> more_paths;
  // The program's name, as `nvcc -o NAME` gives it; empty: path's stem. Its
  // argv[0] is "./NAME", as a shell in its folder starts it (cuda-samples
  // print "./scan Starting...").
  std::string program_name;
  // Kernels only: which kernel ("reduce<float,256>" for a template); empty
  // for the file's only __global__ function.
  std::string kernel;
  Dim3 grid{1}, block{32};
  size_t shared = 0;  // bytes of extern __shared__ memory
  std::vector<std::pair<std::string, std::string>> inputs;  // "" (every const T*) or a name -> spec
  std::vector<std::pair<std::string, std::string>> args;    // scalar parameter -> value
  std::vector<std::pair<std::string, std::string>> lens;    // array parameter -> element count
  std::vector<std::string> program_args;                    // a whole program's argv[1..]
  CompilerOptions compiler;  // the user's nvcc options: -I, -D, -U, -l, -L (compiler_options.h)
  // A file that declares its own scenarios (ScenarioDeclaration): which one,
  // its --set parameters (its input is inputs' "" entry), or list them all.
  std::string scenario;
  std::vector<std::pair<std::string, std::string>> sets;
  bool list_scenarios = false;
  FileBackend backend = FileBackend::Auto;
  double time_limit_s = 10.0;
  // The resident memory of the program and all it starts; 0 means
  // default_memory_limit().
  uint64_t memory_limit_bytes = 0;
  size_t max_steps = 200000;  // per launch; past it the trace is marked overflowed
  // Loads and stores of `__shared__` variables in the file's kernels, recorded
  // as warp-wide accesses (--record-memory shared, the default) or not (none).
  bool record_shared_memory = true;
  // A whole program is stopped (exit 0) once its Nth launch is recorded; 0: never.
  size_t max_launches = 0;
};

enum class FileOutcome {
  Ok,
  CompileError,    // diagnostics say where
  RequestError,    // the options do not fit the file (unknown kernel, missing --arg, ...)
  Crash,           // the program died of a signal (an out-of-bounds access, ...)
  Timeout,         // it ran past the time limit and was stopped
  Deadlock,        // threads wait for one that never arrives (stopped at the time limit)
  KernelError,     // the emulator refused something the kernel did
  ProgramFailed,   // a whole program exited non-zero on its own
  Cancelled,       // RunControl::cancel was set
  Unavailable,     // the backend cannot run here (no GPU, no compiler)
  MemoryLimit,     // its resident memory passed the limit and it was stopped
};
const char* outcome_name(FileOutcome outcome);

// Three quarters of the machine's RAM: a runaway allocation stops before the
// machine runs out, and a program sized for a GPU's memory, whose device and
// host arrays both live in RAM here, still fits (llm.c's 1.6 GB logits, twice
// on each side).
uint64_t default_memory_limit();
// "512M", "2G", "1.5GiB", "100000" (bytes) -> bytes; nullopt when it is none.
std::optional<uint64_t> parse_memory_size(const std::string& text);
// 7516192768 -> "7.0 GiB".
std::string format_memory_size(uint64_t bytes);

struct FileTiming {
  bool cached = false;  // the compiled program came from the cache
  double scan_ms = 0, compile_ms = 0, link_ms = 0, run_ms = 0, load_ms = 0;
  double lookup_ms = 0;  // the key made and the entry's files hashed again (build_manifest.h)
};

// What the CPU emulator did in one recorded launch: the lanes summed over its
// warp operations (the emulator's LaunchStats) and the launch's wall time.
// 0 where the program's runtime did not say (the GPU backend).
struct LaunchWork {
  uint64_t lane_ops = 0, warp_ops = 0, threads = 0;
  double seconds = 0;
  unsigned workers = 1;  // the OS threads its blocks ran on
};

// How far a running program has got, as its progress record (run_progress.h)
// shows it: the figures a progress display needs.
struct FileProgress {
  bool known = false;       // the program keeps a record (a CPU-emulator run)
  bool in_launch = false;   // a kernel runs now (else host code)
  uint64_t launch = 0;      // the running (or last) launch's index
  std::string kernel;       // its kernel
  uint64_t launches_started = 0, launches_finished = 0;
  uint64_t blocks_done = 0, blocks_total = 0;    // of that launch
  uint64_t threads_done = 0, threads_total = 0;  // its threads that have ended, of all
  double elapsed_s = 0;         // since the program started
  double launch_elapsed_s = 0;  // since the launch began
  double launch_left_s = -1;    // the rest of the launch, guessed from its blocks done; < 0: no guess yet
  // How long no emulated thread has switched: the running one has reached
  // no warp operation, barrier or end in that time.
  double still_s = 0;
  double still_cpu_s = 0;  // the same stretch in the program's CPU time
  double cpu_s = 0;        // the program's CPU time in all
  double since_finish_s = 0;  // since a thread or a launch last finished, or a barrier opened
};

// "launch 2 (`scan`): 37 of 128 blocks done, 4736 of 16384 threads finished,
// 12.3 s into the launch, about 30 s left of it".
std::string describe_progress(const FileProgress& progress);

struct FileRun {
  FileOutcome outcome = FileOutcome::Ok;
  std::string message;  // what went wrong, in words, naming block/warp/lane/line where known
  std::vector<Diagnostic> diagnostics;  // at the user's lines, in CUDA's words (compiler_diagnostics.h)
  std::string compiler_output;
  std::vector<std::string> notes;  // said to the user whatever the outcome (a kit's plugin that does not load)
  // A kernel's invalid access ended its launch, and the whole program went on
  // with cudaErrorIllegalAddress, as on a GPU: notes[0] says where.
  bool kernel_faulted = false;
  std::string program_output;  // stdout and stderr, when captured
  int exit_code = 0;           // the program's
  std::vector<Trace> launches; // in launch order; each trace's source is the user's file
  std::vector<LaunchWork> launch_work;  // one per launch, beside `launches`
  std::vector<std::string> kernels;          // the file's __global__ functions
  std::string declared_scenarios;            // list_scenarios: their JSON (name, summary, params)
  // The file and every file its build read that is not warpviz's own: the
  // compiler's list (-MMD) and .incbin targets; before a build, a scan's.
  std::vector<std::string> watched_files;
  // Inputs saved while the program was being built: it ran as built (either
  // version of them) and was not cached; live reload runs it again.
  std::vector<std::string> saved_while_building;
  std::string backend;                       // "cpu" or "cuda": what ran
  bool stopped_at_launch_limit = false;      // max_launches ended the program
  // Why the CPU emulator ran each launch's blocks one after another ("" when
  // they ran on every core): a word of the program's device code, as
  // "atomicAdd on line 12 of scan.cu" (block_sharing_in_device_code).
  std::string blocks_in_order_because;
  FileProgress progress;                     // as the program left its record
  FileTiming timing;

  bool ok() const { return outcome == FileOutcome::Ok; }
};

struct RunControl {
  const std::atomic<bool>* cancel = nullptr;  // set to stop the run
  // Where the program's output goes: captured into FileRun::program_output
  // (fd < 0), or passed through to this file descriptor as it comes.
  int output_fd = -1;
  // Where its stderr goes when output_fd is set: < 0, there too.
  int error_fd = -1;
  // The program's stdout is a file or a pipe in the end (not a terminal):
  // its stdio then buffers it fully, as the real program's does, and an
  // abort in host code loses what it had not flushed, as on the GPU's
  // machine. Otherwise it is line-buffered, so its lines come as printed.
  bool program_output_buffered = false;
  // Called with "compiling", "running", ... as the run moves on (any thread).
  std::function<void(const std::string&)> on_status;
  // Called about ten times a second while the program runs, on the thread
  // that called run_user_file (not for a GPU run: it keeps no record).
  std::function<void(const FileProgress&)> on_progress;
  // How the user raises the memory limit, ending the message when it is hit:
  // the CLI's option here; the app names its setting.
  std::string memory_limit_hint = "--memory-limit SIZE, e.g. 8G, raises it";
};

// Never throws for anything the file or the request does wrong: the outcome
// and message say it.
FileRun run_user_file(const FileRequest& request, const RunControl& control = {});

// Picks one launch by index ("1") or kernel name ("reduce_sum"); nullptr and
// `why` when there is none.
const Trace* pick_launch(const FileRun& run, const std::string& which, std::string* why);

// The starter file `warpviz-cli new` writes: a warp sum with a ballot.
std::string starter_file_text();

// The folder compiled programs are cached in ($XDG_CACHE_HOME/warpviz or
// ~/.cache/warpviz; WARPVIZ_CACHE_DIR overrides); empty when none of the
// three is set. user_cache_folder (cache_folder.h) checks it before use.
std::string cache_dir();

}  // namespace warpviz::user
