// A user's own .cu file open in the app: it runs through run_user_file on a
// background thread, is watched for saves (re-run on each), and keeps the
// user's place (launch, step) across runs. No GL or ImGui: the app's panels
// only draw this state, and the tests drive it headless.
//
//   idle --open/run--> compiling --> running --> done
//                          |            |----> failed (compile error, crash,
//                          |                    time limit, deadlock, ...)
//                          '---- a save or cancel while busy stops the run;
//                                a save starts it again.
//
// The UI thread never waits for a run: a run let go of (close, open, a save
// while it runs, the session's end) is cancelled and its thread handed to
// RunReaper, which joins it off the UI thread; its result is dropped.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "warpviz/user_file.h"
#include "warpviz/user_source.h"

namespace warpviz::view {

enum class FileRunState { Idle, Compiling, Running, Done, Failed };

// Where the user is in a file's run; carried over to the next run.
struct FilePlace {
  size_t launch = 0;
  std::string kernel;  // the launch's kernel: a program whose launches moved finds it again
  size_t step = 0;  // a play position: the timeline's step number - 1 (numbered_step), as --step gives it
};

// The place in `run`: the same launch (index and kernel), else the first launch
// of that kernel, else the same index, else launch 0; the same step where the
// launch still has it, else its last step. `run` must have launches.
FilePlace restore_place(const user::FileRun& run, const FilePlace& place);

// "launch 1: reduce_sum <<<4, 256>>>": the launch picker's words.
std::string launch_label(const Trace& launch, size_t index);

// The file options of `warpviz FILE.cu` and the scenario panel's fields. Each
// returns false and says why in `error` for a text that does not parse.
bool parse_dims(const std::string& text, Dim3* dims, std::string* error);  // "4" or "4,2" or "4,2,1"
std::string format_dims(const Dim3& dims);                                   // "4" or "4,2" or "4,2,1"
// "--input" takes "SPEC" (every input array) or "NAME=SPEC"; "values:1,2" has no name.
std::pair<std::string, std::string> parse_input_option(const std::string& text);
bool parse_name_value(const std::string& text, std::pair<std::string, std::string>* out, std::string* error);

// Whether a path names a CUDA source the app runs (.cu, .cuh) rather than a trace.
bool is_cuda_source(const std::string& path);

class UserFileSession {
 public:
  // `wake` is called from the run's thread when there is news (a new status,
  // a finished run): the app posts an empty event so its loop calls update().
  explicit UserFileSession(std::function<void()> wake = {});
  ~UserFileSession();  // cancels a run in flight without waiting for it (RunReaper)
  UserFileSession(const UserFileSession&) = delete;
  UserFileSession& operator=(const UserFileSession&) = delete;

  // Reads the file and starts its first run; the previous file's runs are dropped.
  void open(user::FileRequest request, FilePlace place = {});
  // Runs again with request() as edited (Run, F5). A run in flight is
  // cancelled and let go of; this one starts at once.
  void run();
  void cancel();  // stops the run in flight; the last good trace stays
  // Lets go of the file: a run in flight is cancelled and not waited for;
  // the session is idle and empty, as before open().
  void close();

  // On the UI thread, once a frame: takes a finished run and, every
  // kPollInterval, checks the watched files' times. True when anything the
  // panels show changed (trace, source text, status).
  bool update();
  // Tests and --screenshot: update() until no run is in flight, or the time
  // is up (false then).
  bool wait_until_settled(double timeout_s);
  // A save is noticed at the next update() rather than at the next tick.
  void check_files_now() { next_poll_ = {}; }

  // --- What the panels show --------------------------------------------------
  const std::string& path() const { return request_.path; }
  user::FileRequest& request() { return request_; }  // the form edits it; run() uses it
  FileRunState state() const { return state_; }
  bool busy() const { return state_ == FileRunState::Compiling || state_ == FileRunState::Running; }
  // "compiling", "running", "done in 812 ms (cached)", "compile error", ...
  std::string status_text() const;
  // The file as last read: it changes on a save, before the run finishes.
  const std::string& source_text() const { return source_text_; }
  uint64_t source_generation() const { return source_generation_; }
  // That text scanned: its kernels and their parameters, whether it has a main().
  const user::UserSource& scanned() const { return scanned_; }

  // How far the run in flight has got (null when none, or before its program reports).
  const user::FileProgress* progress() const { return progress_ ? &*progress_ : nullptr; }
  // The most recent finished run (its outcome, message, diagnostics, output).
  const user::FileRun* last_run() const { return last_run_ ? &*last_run_ : nullptr; }
  // The last run's program output as the app's font can show it (the seed's
  // ✅/❌ as ✓/×: the font has no emoji), made once per run.
  const std::string& display_output() const { return display_output_; }
  // The run whose launches are on screen: the last one that recorded any.
  const user::FileRun* shown_run() const { return shown_run_ ? &*shown_run_ : nullptr; }
  const Trace* shown_trace() const;  // shown_run's launch at place.launch
  uint64_t trace_generation() const { return trace_generation_; }  // bumps when shown_trace changes
  // The shown trace is an older run's: the file has changed since and its
  // latest run recorded nothing (a compile error, a crash before any launch).
  bool stale() const { return stale_; }
  // Diagnostics of the latest run that are about the open file itself (the
  // source panel marks them at their lines), and those about its includes.
  std::vector<user::Diagnostic> diagnostics_in_file() const;
  std::vector<user::Diagnostic> diagnostics_elsewhere() const;

  // The app writes place.step as the user steps; a run restores it.
  FilePlace place;
  void select_launch(size_t index);  // from the launch picker: the step starts at 0

  static constexpr std::chrono::milliseconds kPollInterval{200};
  // The end of the message when a run passes its memory limit.
  static constexpr const char* kMemoryLimitHint = "the scenario panel's Memory limit field raises it, e.g. 8G";

 private:
  struct FileStamp {
    std::filesystem::file_time_type mtime{};
    uintmax_t size = 0;
    bool exists = false;
    bool operator==(const FileStamp&) const = default;
  };
  static FileStamp stamp_of(const std::string& path);
  struct RunChannel;
  void start_worker();
  void let_go_of_run();
  void take_finished(user::FileRun run);
  bool files_changed();
  void reread_source();

  std::function<void()> wake_;
  user::FileRequest request_;
  FileRunState state_ = FileRunState::Idle;
  std::string source_text_;
  user::UserSource scanned_;
  uint64_t source_generation_ = 0;
  std::optional<user::FileRun> last_run_, shown_run_;
  std::optional<user::FileProgress> progress_;
  std::string display_output_;
  uint64_t trace_generation_ = 0;
  bool stale_ = false;
  double last_run_ms_ = 0;

  std::vector<std::pair<std::string, FileStamp>> watched_;
  std::chrono::steady_clock::time_point next_poll_{};

  // The run in flight: its thread and what the two share. The thread holds
  // the channel too, so a run let go of outlives the session safely.
  std::thread worker_;
  std::shared_ptr<RunChannel> channel_;
  std::chrono::steady_clock::time_point run_started_{};
};

}  // namespace warpviz::view
