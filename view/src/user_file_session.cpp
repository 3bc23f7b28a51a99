// A user's .cu file in the app (user_file_session.h).
//
// [SECTION] Place, labels and options
// [SECTION] Session: starting and stopping runs
// [SECTION] Session: per frame
// [SECTION] Session: what the panels show
#include "warpviz/user_source.h"
#include "warpviz/view/user_file_session.h"

#include "warpviz/view/run_reaper.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <sstream>
#include <system_error>

namespace warpviz::view {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// ============================================================================
// [SECTION] Place, labels and options
// ============================================================================

namespace {

std::string kernel_of(const Trace& launch) {
  const auto it = launch.meta.params.find("kernel");
  return it == launch.meta.params.end() ? std::string() : it->second;
}

std::string read_text(const std::string& path) { return user::read_text_file(path); }

// Two spellings of one file (relative, absolute, through "..") compare equal.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  const fs::path ca = fs::weakly_canonical(a, ec);
  if (ec) return a == b;
  const fs::path cb = fs::weakly_canonical(b, ec);
  if (ec) return a == b;
  return ca == cb;
}

}  // namespace

FilePlace restore_place(const user::FileRun& run, const FilePlace& place) {
  FilePlace restored;
  const size_t n = run.launches.size();
  if (n == 0) return restored;
  auto kernel_at = [&](size_t i) { return kernel_of(run.launches[i]); };
  if (place.launch < n && (place.kernel.empty() || kernel_at(place.launch) == place.kernel)) {
    restored.launch = place.launch;
  } else {
    size_t found = n;
    for (size_t i = 0; i < n && found == n; ++i)
      if (!place.kernel.empty() && kernel_at(i) == place.kernel) found = i;
    restored.launch = found < n ? found : place.launch < n ? place.launch : 0;
  }
  restored.kernel = kernel_at(restored.launch);
  const size_t steps = run.launches[restored.launch].steps.size();
  restored.step = steps == 0 ? 0 : std::min(place.step, steps - 1);
  return restored;
}

std::string launch_label(const Trace& launch, size_t index) {
  const std::string kernel = kernel_of(launch);
  return "launch " + std::to_string(index) + ": " + (kernel.empty() ? std::string("?") : kernel) + " <<<" +
         format_dims(launch.meta.grid) + ", " + format_dims(launch.meta.block) + ">>>";
}

bool parse_dims(const std::string& text, Dim3* dims, std::string* error) {
  uint32_t v[3] = {1, 1, 1};
  int n = 0;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    std::string item = text.substr(at, comma - at);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    uint32_t x = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), x);
    if (n == 3 || item.empty() || ec != std::errc() || end != item.data() + item.size() || x == 0) {
      if (error) *error = "'" + text + "': expected X[,Y[,Z]], each a positive number";
      return false;
    }
    v[n++] = x;
    at = comma + 1;
  }
  *dims = Dim3{v[0], v[1], v[2]};
  return true;
}

std::string format_dims(const Dim3& dims) {
  std::string s = std::to_string(dims.x);
  if (dims.y != 1 || dims.z != 1) s += "," + std::to_string(dims.y);
  if (dims.z != 1) s += "," + std::to_string(dims.z);
  return s;
}

std::pair<std::string, std::string> parse_input_option(const std::string& text) {
  // An '=' before any ':' names the array ("in=iota"); "values:1,2" and
  // "const:-1" have none before their ':'.
  const size_t eq = text.find('=');
  if (eq != std::string::npos && eq > 0 && text.find(':') > eq) return {text.substr(0, eq), text.substr(eq + 1)};
  return {"", text};
}

bool parse_name_value(const std::string& text, std::pair<std::string, std::string>* out, std::string* error) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    if (error) *error = "'" + text + "': expected NAME=VALUE";
    return false;
  }
  *out = {text.substr(0, eq), text.substr(eq + 1)};
  return true;
}

bool is_cuda_source(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  return ext == ".cu" || ext == ".cuh";
}

// ============================================================================
// [SECTION] Session: starting and stopping runs
// ============================================================================

// What a run's thread hands over, guarded by `mutex`. `wake` is cleared when
// the session lets go of the run, under the mutex, so an abandoned run never
// calls into an app that may have closed its window.
struct UserFileSession::RunChannel {
  std::atomic<bool> cancel{false};
  std::mutex mutex;
  std::function<void()> wake;
  std::optional<user::FileRun> finished;
  std::string status;  // "compiling", "linking", "running" as run_user_file says
  bool status_changed = false;
  std::optional<user::FileProgress> progress;  // the latest, until update() takes it

  void notify() {
    if (wake) wake();  // the caller holds `mutex`
  }
};

UserFileSession::UserFileSession(std::function<void()> wake) : wake_(std::move(wake)) {}

UserFileSession::~UserFileSession() { let_go_of_run(); }

void UserFileSession::let_go_of_run() {
  if (channel_) {
    channel_->cancel = true;
    std::lock_guard lock(channel_->mutex);
    channel_->wake = nullptr;
  }
  channel_.reset();
  RunReaper::instance().adopt(std::move(worker_));
}

void UserFileSession::open(user::FileRequest request, FilePlace start) {
  // A run of the previous file may still be going: it is stopped and its
  // result dropped, without waiting for it.
  let_go_of_run();
  request_ = std::move(request);
  place = std::move(start);
  last_run_.reset();
  shown_run_.reset();
  stale_ = false;
  ++trace_generation_;
  watched_.clear();
  std::error_code ec;
  watched_.emplace_back(fs::absolute(request_.path, ec).lexically_normal().string(), FileStamp{});
  reread_source();
  run();
}

void UserFileSession::close() {
  let_go_of_run();
  request_ = {};
  place = {};
  state_ = FileRunState::Idle;
  last_run_.reset();
  shown_run_.reset();
  display_output_.clear();
  stale_ = false;
  ++trace_generation_;
  watched_.clear();
}

void UserFileSession::run() {
  // One run at a time: one in flight is out of date (a newer text or
  // request), so it is stopped and let go of.
  let_go_of_run();
  start_worker();
}

void UserFileSession::cancel() {
  if (busy() && channel_) channel_->cancel = true;
}

void UserFileSession::start_worker() {
  state_ = FileRunState::Compiling;
  progress_.reset();
  run_started_ = Clock::now();
  channel_ = std::make_shared<RunChannel>();
  channel_->status = "compiling";
  channel_->wake = wake_;
  // Stamps are taken as the run starts: a save while it runs is a change.
  for (auto& [file, stamp] : watched_) stamp = stamp_of(file);
  worker_ = std::thread([channel = channel_, request = request_] {
    user::RunControl control;
    control.cancel = &channel->cancel;
    control.output_fd = -1;  // captured: the app shows it
    control.memory_limit_hint = kMemoryLimitHint;
    control.on_status = [&channel](const std::string& status) {
      std::lock_guard lock(channel->mutex);
      channel->status = status;
      channel->status_changed = true;
      channel->notify();
    };
    control.on_progress = [&channel](const user::FileProgress& progress) {
      std::lock_guard lock(channel->mutex);
      channel->progress = progress;
      channel->notify();
    };
    user::FileRun result = user::run_user_file(request, control);
    std::lock_guard lock(channel->mutex);
    channel->finished = std::move(result);
    channel->notify();
  });
}

// ============================================================================
// [SECTION] Session: per frame
// ============================================================================

bool UserFileSession::update() {
  bool changed = false;
  std::optional<user::FileRun> finished;
  if (channel_) {
    std::lock_guard lock(channel_->mutex);
    if (channel_->status_changed && busy()) {
      channel_->status_changed = false;
      const FileRunState now = channel_->status == "running" ? FileRunState::Running : FileRunState::Compiling;
      changed |= now != state_;
      state_ = now;
    }
    finished.swap(channel_->finished);
    if (channel_->progress) {
      progress_ = std::move(channel_->progress);
      channel_->progress.reset();
      changed = true;
    }
  }
  if (finished) {
    // The thread is past its last use of the channel; the reaper joins it.
    channel_.reset();
    RunReaper::instance().adopt(std::move(worker_));
    last_run_ms_ = std::chrono::duration<double, std::milli>(Clock::now() - run_started_).count();
    progress_.reset();
    take_finished(std::move(*finished));
    changed = true;
  }
  const auto now = Clock::now();
  if (!request_.path.empty() && now >= next_poll_) {
    next_poll_ = now + kPollInterval;
    if (files_changed()) {
      reread_source();
      run();
      changed = true;
    }
  }
  return changed;
}

void UserFileSession::take_finished(user::FileRun result) {
  state_ = result.ok() ? FileRunState::Done : FileRunState::Failed;
  // The includes are known once the file has been scanned; a new one is
  // watched from now on, with its time as it is now.
  if (!result.watched_files.empty()) {
    std::vector<std::pair<std::string, FileStamp>> watched;
    for (const std::string& file : result.watched_files) {
      const auto old = std::find_if(watched_.begin(), watched_.end(), [&](const auto& w) { return w.first == file; });
      watched.emplace_back(file, old != watched_.end() ? old->second : stamp_of(file));
    }
    watched_ = std::move(watched);
  }
  // Saved while it was built: the program may hold the old text, so the next
  // poll counts the file as changed and runs it again.
  for (const std::string& file : result.saved_while_building)
    for (auto& [watched_file, stamp] : watched_)
      if (watched_file == fs::path(file).lexically_normal().string()) stamp = FileStamp{};
  display_output_ = result.program_output;
  for (const auto& [emoji, glyph] : {std::pair<std::string, std::string>{"\u2705", "\u2713"}, {"\u274c", "\u00d7"}})
    for (size_t at = 0; (at = display_output_.find(emoji, at)) != std::string::npos; at += glyph.size())
      display_output_.replace(at, emoji.size(), glyph);
  if (result.outcome == user::FileOutcome::Cancelled) {
    // Nothing about the file is known from a stopped run: the screen stays.
    last_run_ = std::move(result);
    return;
  }
  if (!result.launches.empty()) {
    shown_run_ = result;
    shown_run_->program_output.clear();  // last_run_ keeps the output; one copy is enough
    place = restore_place(*shown_run_, place);
    stale_ = false;
    ++trace_generation_;
  } else {
    stale_ = shown_run_.has_value() && !result.ok();
  }
  last_run_ = std::move(result);
}

bool UserFileSession::wait_until_settled(double timeout_s) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s);
  update();
  while (busy()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    update();
  }
  return true;
}

UserFileSession::FileStamp UserFileSession::stamp_of(const std::string& path) {
  FileStamp stamp;
  std::error_code ec;
  stamp.mtime = fs::last_write_time(path, ec);
  if (ec) return stamp;  // gone for now: an editor saving through a rename
  stamp.size = fs::file_size(path, ec);
  stamp.exists = !ec;
  return stamp;
}

bool UserFileSession::files_changed() {
  bool changed = false;
  for (auto& [file, stamp] : watched_) {
    const FileStamp now = stamp_of(file);
    // A file missing for a moment (saved through a rename) is not a change
    // until it is back.
    if (!now.exists || now == stamp) continue;
    stamp = now;
    changed = true;
  }
  return changed;
}

void UserFileSession::reread_source() {
  std::string text = read_text(request_.path);
  if (text == source_text_ && source_generation_ > 0) return;
  source_text_ = std::move(text);
  scanned_ = user::scan_user_source(request_.path, source_text_);
  ++source_generation_;
}

void UserFileSession::select_launch(size_t index) {
  if (!shown_run_ || index >= shown_run_->launches.size() || index == place.launch) return;
  place.launch = index;
  place.kernel = kernel_of(shown_run_->launches[index]);
  place.step = 0;
  ++trace_generation_;
}

// ============================================================================
// [SECTION] Session: what the panels show
// ============================================================================

const Trace* UserFileSession::shown_trace() const {
  if (!shown_run_ || shown_run_->launches.empty()) return nullptr;
  return &shown_run_->launches[std::min(place.launch, shown_run_->launches.size() - 1)];
}

std::string UserFileSession::status_text() const {
  switch (state_) {
    case FileRunState::Idle: return "";
    case FileRunState::Compiling: return "compiling";
    case FileRunState::Running: return "running";
    case FileRunState::Done: {
      char text[64];
      std::snprintf(text, sizeof text, "done in %.0f ms", last_run_ms_);
      return std::string(text) + (last_run_ && last_run_->timing.cached ? " (cached)" : "");
    }
    case FileRunState::Failed: return last_run_ ? user::outcome_name(last_run_->outcome) : "failed";
  }
  return "";
}

std::vector<user::Diagnostic> UserFileSession::diagnostics_in_file() const {
  std::vector<user::Diagnostic> found;
  if (!last_run_) return found;
  for (const user::Diagnostic& d : last_run_->diagnostics)
    if (d.severity != "note" && same_file(d.file, request_.path)) found.push_back(d);
  return found;
}

std::vector<user::Diagnostic> UserFileSession::diagnostics_elsewhere() const {
  std::vector<user::Diagnostic> found;
  if (!last_run_) return found;
  for (const user::Diagnostic& d : last_run_->diagnostics)
    if (d.severity != "note" && !same_file(d.file, request_.path)) found.push_back(d);
  return found;
}

}  // namespace warpviz::view
