// AppView: the data the panels show (trace, playback, scenario request) and
// the frame around them: a window for each open panel of panel_table(), the
// menu bar, the file and error popups.
//
// [SECTION] Construction and data
// [SECTION] Per frame
// [SECTION] Menu bar
// [SECTION] Popups

#include "app_view.h"
#include "layout_report.h"
#include "data_dirs.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "lane_renderer.h"
#include "warpviz/view/run_consent.h"
#include "warpviz/view/vote_view.h"
#include "warpviz/trace_io.h"

namespace warpviz::app {

// ============================================================================
// [SECTION] Construction and data
// ============================================================================

// Blocks recorded when a scenario runs: enough for the block view, and a
// million-element reduce_sum stays thousands of steps, not millions. Every
// block's output is kept either way.
constexpr uint32_t kRecordedBlocks = 8;

AppView::AppView(view::AppSettings s) : settings(std::move(s)) {
  language = settings.language == "zh" ? view::Language::Chinese : view::Language::English;
  for (auto [id, shown] : panels.by_id())
    if (auto it = settings.panels.find(id); it != settings.panels.end()) *shown = it->second;
  playback.set_speed(settings.speed);
  playback.set_hold(settings.hold_s);
  playback.set_pause_after_round(settings.pause_after_round);
  last_request.scenario = settings.scenario;
}

AppView::~AppView() = default;  // here, where LaneRenderer is a complete type

void AppView::show_trace(Trace new_trace, std::string origin) {
  // Re-running the same scenario with another parameter keeps the step, so an
  // edge case can be compared in place; anything else starts at the top.
  const bool rerun = origin == "scenario" && trace_origin == "scenario" && new_trace.meta.scenario == trace.meta.scenario;
  trace = std::move(new_trace);
  trace_origin = std::move(origin);
  ++trace_generation;  // the panels redo what they worked out from the old one
  playback.set_order(view::PlayOrder(trace, play_order_kind()));
  if (!rerun) playback.jump_to_start();
  TraceFacts& facts = trace_facts;
  const ScenarioSpec* spec = find_scenario(trace.meta.scenario);
  facts.seed_claims = spec ? check_seed_claims(*spec, trace) : std::vector<SeedClaimResult>{};
  // Op by op from the steps' headers: a big trace is not decoded for this.
  const TraceSteps& steps = trace.steps;
  facts.has_shared = false;
  bool has_votes = false;
  for (size_t i = 0; i < steps.size(); ++i) {
    const Op op = steps.op(i);
    facts.has_shared |= op_is_shared(op);
    // What the votes panel draws: ballot_view's ops and the matches.
    has_votes |= op == Op::Ballot || op == Op::Any || op == Op::All || op == Op::MatchAny || op == Op::MatchAll;
  }
  // The paths panel is about warp ops on divergent paths: a region where only
  // some lanes touch shared memory or record a watch (reduce_sum's
  // `if (lane == 0) warpSums[warp] = v`) is a branch too, but not that lesson.
  // Panels with nothing in this trace give their place to their neighbours
  // (panel_layout.cpp); a trace without steps says so in every panel instead.
  facts.no_votes = !trace.steps.empty() && !has_votes;
  facts.no_block = !trace.steps.empty() && !scenario_traits(trace.meta.scenario).block_reduction;
  std::vector<DivergentRegion>& regions = facts.divergent_regions;
  regions = warpviz::divergent_regions(trace.steps);
  regions.erase(std::remove_if(regions.begin(), regions.end(),
                               [&](const DivergentRegion& r) {
                                 for (size_t i = r.begin; i < r.end; ++i) {
                                   const Op op = trace.steps.op(i);
                                   if (!op_is_shared(op) && !op_is_watch(op)) return false;
                                 }
                                 return true;
                               }),
                regions.end());
}

bool AppView::open_file(const std::string& path) {
  if (view::is_cuda_source(path)) {
    user::FileRequest request;
    request.path = path;
    request.time_limit_s = settings.time_limit_s;
    request.memory_limit_bytes = settings.memory_limit_bytes;
    open_user_file(std::move(request));
    return true;
  }
  try {
    show_file_trace(load_trace(path), path);
    close_user_file();
    view::remember_recent_file(settings, path);
    return true;
  } catch (const TraceFileError& e) {
    error_message = e.what();  // names the file and its problem
  } catch (const std::exception& e) {
    error_message = "cannot open " + path + ": " + e.what();
  }
  return false;
}

void AppView::open_file_asking(const std::string& path) {
  if (!view::file_needs_consent(path, settings)) {
    open_file(path);
    return;
  }
  std::error_code ec;
  run_consent = RunConsent{};
  run_consent.kind = RunConsent::Kind::File;
  run_consent.path = path;
  run_consent.files = {std::filesystem::absolute(path, ec).lexically_normal().string()};
  run_consent.hash = view::file_run_hash(path);
}

void AppView::show_source_only(const std::string& path) {
  close_user_file();
  Trace shown;
  std::error_code ec;
  shown.meta.source_path = std::filesystem::absolute(path, ec).lexically_normal().string();
  shown.meta.backend = "cpu";
  // Bounded as the runner bounds a source; a FIFO or folder is not read (it could block).
  constexpr std::uintmax_t kMaxShownSource = std::uintmax_t(4) << 20;
  const std::string what = view::not_a_file(path);
  if (!what.empty()) {
    error_message = path + ": " + what;
  } else if (std::filesystem::file_size(path, ec) > kMaxShownSource || ec) {
    error_message = path + ": " + (ec ? ec.message() : std::string("too large to show (over 4 MiB)"));
  } else {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    shown.meta.source_text = text.str();
  }
  show_trace(std::move(shown), path);
  scenario_notes = {std::filesystem::path(path).filename().string() +
                    tr(": not compiled or run (Show trace only); File > Open runs it",
                       "：未编译、未运行（仅显示）；用“文件 > 打开”运行它")};
}

void AppView::show_file_trace(Trace loaded, const std::string& path) {
  scenario_notes.clear();
  panel_state.scenario.error.clear();
  // A trace of a built-in scenario fills the scenario panel, so Run repeats it.
  if (find_scenario(loaded.meta.scenario)) {
    ScenarioRequest request;
    request.scenario = loaded.meta.scenario;
    for (const auto& [name, value] : loaded.meta.params) request.sets.emplace_back(name, value);
    request.input = loaded.meta.input_spec;
    last_request = std::move(request);
  }
  show_trace(std::move(loaded), path);
}

bool AppView::save_file(const std::string& path, bool replace_confirmed) {
  if (!replace_confirmed && !view::may_write_trace_over(path)) {
    save_overwrite_path = path;  // the popup asks; Replace calls here again
    return false;
  }
  try {
    save_trace(trace, path);
    // A .cu file stays what is open (its saves re-run it); a trace's new name is shown.
    if (!user_file) trace_origin = path;
    return true;
  } catch (const TraceFileError& e) {
    error_message = e.what();
  } catch (const std::exception& e) {
    error_message = "cannot save " + path + ": " + e.what();
  }
  return false;
}

bool AppView::run_scenario(const ScenarioRequest& request, BackendChoice choice) {
  try {
    ResolvedScenario resolved = resolve_scenario(request);
    RunOptions options;
    options.backend = choice;
    for (uint32_t b = 0; b < kRecordedBlocks; ++b) options.filter.blocks.push_back(b);
    Trace result = warpviz::run_scenario(resolved, options);

    ScenarioRequest ran = request;  // `request` may be last_request itself
    last_request = std::move(ran);
    backend = choice;
    scenario_notes = std::move(resolved.notes);
    if (result.meta.grid.count() > kRecordedBlocks)
      scenario_notes.push_back("recorded blocks 0-" + std::to_string(kRecordedBlocks - 1) + " of " +
                               std::to_string(result.meta.grid.count()) + "; every block's output is kept");
    if (result.overflow) scenario_notes.push_back("the trace ran out of room: its steps are a prefix of the run");
    panel_state.scenario.error.clear();
    settings.scenario = last_request.scenario;
    close_user_file();
    show_trace(std::move(result), "scenario");
    return true;
  } catch (const ScenarioError& e) {
    error_message = e.what();  // names the valid scenarios, parameters or values
  } catch (const BackendUnavailable& e) {
    error_message = e.what();
  } catch (const std::exception& e) {
    error_message = std::string("the scenario failed: ") + e.what();
  }
  return false;
}

void AppView::open_user_file(user::FileRequest request, view::FilePlace place) {
  if (!user_file) user_file = std::make_unique<view::UserFileSession>(wake_loop);
  const std::string path = request.path;
  UserFileFields& fields = panel_state.user_file;
  fields = {};
  fields.grid = view::format_dims(request.grid);
  fields.block = view::format_dims(request.block);
  fields.shared = std::to_string(request.shared);
  auto joined = [](const std::vector<std::pair<std::string, std::string>>& pairs) {
    std::string text;
    for (const auto& [name, value] : pairs) text += (text.empty() ? "" : " ") + (name.empty() ? value : name + "=" + value);
    return text;
  };
  fields.inputs = joined(request.inputs);
  fields.args = joined(request.args);
  fields.lens = joined(request.lens);
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", request.time_limit_s);
  fields.time_limit = limit;
  fields.memory_limit = request.memory_limit_bytes ? user::format_memory_size(request.memory_limit_bytes) : "";
  user_file->open(std::move(request), std::move(place));
  user_file_trace_generation = user_file->trace_generation();
  user_file_source_generation = user_file->source_generation();

  // The file's text at once, no steps yet: the lanes wait for the run.
  Trace waiting;
  std::error_code ec;
  waiting.meta.source_path = std::filesystem::absolute(path, ec).lexically_normal().string();
  waiting.meta.source_text = user_file->source_text();
  waiting.meta.backend = "cpu";
  scenario_notes.clear();
  panel_state.scenario.error.clear();
  show_trace(std::move(waiting), path);
  view::remember_recent_file(settings, path);
  // The user chose to run it: Open Recent or a drop of these bytes runs without asking.
  view::trust_run(settings, view::file_run_hash(path), trace.meta.source_path);
}

// A run in flight is cancelled and not waited for (UserFileSession::close).
void AppView::close_user_file() {
  if (user_file) user_file->close();
  user_file.reset();
}

bool AppView::poll_user_file() {
  if (!user_file) return false;
  view::UserFileSession& session = *user_file;
  // Where the user is, while the session's trace is the one on screen (not
  // before its first run: --step waits in the place).
  if (session.shown_trace() && user_file_trace_generation == session.trace_generation())
    session.place.step = size_t(playback.position());  // a play position, as --step numbers it
  bool changed = session.update();
  if (session.trace_generation() != user_file_trace_generation) {
    user_file_trace_generation = session.trace_generation();
    if (const Trace* shown = session.shown_trace()) {
      Trace copy = *shown;  // the session keeps every launch for the picker
      copy.meta.source_text = session.source_text();
      const view::FilePlace place = session.place;
      show_trace(std::move(copy), session.path());
      playback.seek_position(place.step);
    }
    changed = true;
  }
  if (session.source_generation() != user_file_source_generation) {
    // A save shows its text before its run ends; the old steps' lines may be off by then.
    user_file_source_generation = session.source_generation();
    trace.meta.source_text = session.source_text();
    ++trace_generation;
    changed = true;
  }
  return changed;
}

view::PlayOrderKind AppView::play_order_kind() const {
  view::PlayOrderKind kind = view::PlayOrderKind::Causal;
  view::parse_play_order(settings.play_order, &kind);  // settings.cpp let only known words through
  return kind;
}

void AppView::set_play_order(view::PlayOrderKind kind) {
  settings.play_order = view::play_order_id(kind);
  playback.set_order(view::PlayOrder(trace, kind));  // stays on the step shown
}

const TraceStep* AppView::current_step() const {
  if (trace.steps.empty()) return nullptr;
  const size_t index = std::min(playback.step(), trace.steps.size() - 1);
  if (index != current_step_index_ || trace_generation != current_step_generation_) {
    current_step_ = trace.steps[index];
    current_step_index_ = index;
    current_step_generation_ = trace_generation;
  }
  return &current_step_;
}

std::string AppView::badge_text() const {
  std::string badge;
  if (trace.meta.backend == "cpu") {
    badge = tr(view::Text::EmulatorBadge);
  } else if (!trace.meta.device.empty()) {
    badge = trace.meta.device;
    if (!trace.meta.compute_capability.empty()) badge += " (compute " + trace.meta.compute_capability + ")";
  }
  if (!trace_origin.empty() && trace_origin != "scenario")
    badge += (badge.empty() ? "" : "  ·  ") + std::filesystem::path(trace_origin).filename().string();
  return badge;
}

// ============================================================================
// [SECTION] Per frame
// ============================================================================

bool AppView::update(double dt_seconds) {
  const bool reloaded = poll_user_file();
  const bool lesson_changed = poll_lesson();  // lesson_player.cpp: a saved lesson, a slide's stop
  const bool moved = playback.advance(dt_seconds);
  const bool animated = panel_state.bank.animation.advance(dt_seconds);  // both advance every frame
  return reloaded || lesson_changed || moved || animated;
}

namespace {
void draw_file_dialog(AppView& app);
void draw_overwrite_popup(AppView& app);
void draw_error_popup(AppView& app);
}  // namespace

void AppView::draw() {
  if (presentation) {
    draw_presentation();
  } else {
    draw_menu_bar();
    follow_window_size(ImGui::GetIO().DisplaySize.x, ImGui::GetIO().DisplaySize.y);  // panel_layout.cpp
    arrange_empty_panels();  // panel_layout.cpp: empty votes/block give the history their place
    for (const PanelSpec& panel : panel_table()) {
      bool& shown = panels.shown(panel);
      if (!shown || !panel.has_content(*this)) continue;
      if (panel.place_window)
        (this->*panel.place_window)();
      else
        ImGui::SetNextWindowSize(ImVec2(panel.width * dpi_scale, panel.height * dpi_scale), ImGuiCond_FirstUseEver);
      // "###id" keeps the window's identity (and saved layout) across languages.
      const std::string title = std::string(panel.title(language)) + "###" + panel.id;
      if (ImGui::Begin(title.c_str(), &shown)) (this->*panel.draw)();
      ImGui::End();
    }
  }
  draw_file_dialog(*this);
  draw_overwrite_popup(*this);
  draw_consent_dialog();  // consent_dialog.cpp
  if (!export_state.capturing) draw_export_dialog();
  draw_error_popup(*this);
}

// ============================================================================
// [SECTION] Menu bar
// ============================================================================

void AppView::draw_menu_bar() {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu(tr(view::Text::MenuFile))) {
    if (ImGui::MenuItem(tr(view::Text::MenuOpen), "Ctrl+O")) file_dialog_request = FileDialog::Open;
    if (ImGui::BeginMenu(tr("Open Recent", "最近打开"), !settings.recent_files.empty())) {
      std::string chosen;  // opening changes the list being drawn
      for (const std::string& file : settings.recent_files) {
        if (ImGui::MenuItem(std::filesystem::path(file).filename().string().c_str())) chosen = file;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", file.c_str());
      }
      ImGui::Separator();
      if (ImGui::MenuItem(tr("Clear the list", "清空列表"))) settings.recent_files.clear();
      ImGui::EndMenu();
      if (!chosen.empty()) open_file_asking(chosen);  // the list is not a choice to run: a .cu file asks
    }
    if (ImGui::MenuItem(tr(view::Text::MenuSave), "Ctrl+S", false, !trace.meta.scenario.empty()))
      file_dialog_request = FileDialog::Save;
    ImGui::Separator();
    if (ImGui::MenuItem(tr("Export…", "导出…"), nullptr, false, !trace.steps.empty() && !export_state.running))
      export_state.open_request = true;
    if (ImGui::MenuItem(tr("Save a PNG of the window", "保存窗口截图"), "Ctrl+Shift+S")) png_request = true;
    ImGui::Separator();
    if (ImGui::MenuItem(tr("Quit", "退出"), "Ctrl+Q")) quit_requested = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(tr(view::Text::MenuView))) {
    // Greyed: nothing in this trace for the panel (no shared-memory step for the banks, ...).
    for (const PanelSpec& panel : panel_table())
      ImGui::MenuItem(panel.title(language), nullptr, &panels.shown(panel), panel.has_content(*this));
    ImGui::Separator();
    ImGui::MenuItem(tr(view::Text::Hex), "H", &hex);
    ImGui::MenuItem(tr(view::Text::Presentation), "F11", &presentation);
    draw_zoom_menu_items();
    if (ImGui::BeginMenu(tr(view::Text::MenuLanguage))) {
      if (ImGui::MenuItem("English", "L", language == view::Language::English)) language = view::Language::English;
      if (ImGui::MenuItem("中文", "L", language == view::Language::Chinese)) language = view::Language::Chinese;
      ImGui::EndMenu();
    }
    ImGui::EndMenu();
  }

  // Right-aligned: what is shown and where it came from.
  // A .cu file's name is in the badge already.
  std::string what = user_file ? std::string() : trace.meta.scenario;
  const std::string badge = badge_text();
  if (!badge.empty()) what += (what.empty() ? "" : "  ·  ") + badge;
  if (user_file && !user_file->status_text().empty()) what += "  ·  " + user_file->status_text();
  if (!rerun_note.empty() && ImGui::GetTime() < rerun_note_until) what = rerun_note + "  ·  " + what;
  const float w = ImGui::CalcTextSize(what.c_str()).x;
  const float x = ImGui::GetWindowWidth() - w - ImGui::GetStyle().ItemSpacing.x * 2;
  if (x > ImGui::GetCursorPosX()) {
    ImGui::SetCursorPosX(x);
    ImGui::TextDisabled("%s", what.c_str());
    layout_report().role("menu_status", what, ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), ImGui::GetFontSize());
  }
  ImGui::EndMainMenuBar();
}

// ============================================================================
// [SECTION] Popups
// ============================================================================

namespace {

bool is_trace_file(const std::filesystem::path& p) { return p.extension() == ".wvt" || p.extension() == ".json"; }

// The .cu files in the folder of the file shown (else the working folder):
// where a student's own kernels usually are.
std::vector<std::string> cuda_files_near(const std::string& shown) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path folder = shown.empty() || shown == "scenario" ? fs::current_path(ec) : fs::path(shown).parent_path();
  if (folder.empty()) folder = ".";
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    if (files.size() >= 200) break;  // a huge folder: the path field still takes any file
    if (entry.is_regular_file(ec) && view::is_cuda_source(entry.path().string())) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The traces recorded on an H200 that ship with warpviz: a student's first files.
std::vector<std::string> shipped_traces() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(::warpviz::app::asset_dir() + "/traces", ec))
    if (entry.is_regular_file() && is_trace_file(entry.path())) files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// No native file dialog (GLFW has none): a path field, and for Open the shipped
// traces to pick from. Errors land in error_message and the Error popup.
void draw_file_dialog(AppView& app) {
  using FileDialog = AppView::FileDialog;
  FileDialogState& dialog = app.file_dialog;
  // While the error popup is up the request waits: a second modal opened in
  // the same frame would replace it (a bad file from the command line asks for both).
  if (app.file_dialog_request != FileDialog::None && app.error_message.empty()) {
    dialog.open = app.file_dialog_request;
    app.file_dialog_request = FileDialog::None;
    const bool from_file = !app.trace_origin.empty() && app.trace_origin != "scenario";
    if (dialog.open == FileDialog::Open && !app.file_dialog_start_path.empty())
      dialog.path = std::exchange(app.file_dialog_start_path, std::string());
    else if (dialog.open == FileDialog::Save)
      // NAME.wvt for a .cu file: Enter must never write a trace over the source.
      dialog.path = view::proposed_save_name(from_file ? app.trace_origin : std::string(), app.trace.meta.scenario);
    else if (from_file)
      dialog.path = app.trace_origin;
    else
      dialog.path.clear();
    if (dialog.open == FileDialog::Open) {
      dialog.shipped = shipped_traces();
      dialog.cuda_files = cuda_files_near(app.trace_origin);
    }
    ImGui::OpenPopup("###file_dialog");
  }
  if (dialog.open == FileDialog::None) return;

  const bool opening = dialog.open == FileDialog::Open;
  const std::string title = std::string(app.tr(opening ? view::Text::MenuOpen : view::Text::MenuSave)) + "###file_dialog";
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(620 * app.dpi_scale, 0), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(title.c_str(), nullptr, ImGuiWindowFlags_NoSavedSettings)) {
    dialog.open = FileDialog::None;
    return;
  }
  if (opening)
    ImGui::TextUnformatted(app.tr("Path of a trace file (.wvt, .json) or of your own kernel (.cu)",
                                  "trace 文件（.wvt、.json）或你自己的 kernel（.cu）的路径"));
  else
    ImGui::TextUnformatted(app.tr("Path of a trace file (.wvt, or .json for the JSON form)",
                                  "trace 文件路径（.wvt，或 .json 表示 JSON 格式）"));
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  ImGui::SetNextItemWidth(-FLT_MIN);
  bool confirm = ImGui::InputText("##path", &dialog.path, ImGuiInputTextFlags_EnterReturnsTrue);

  // A list of files to pick from; a double-click opens one.
  auto file_list = [&](const char* id, const char* heading, const std::vector<std::string>& files) {
    if (!opening || files.empty()) return;
    ImGui::Spacing();
    ImGui::TextDisabled("%s", heading);
    const float list_h = std::min(float(files.size()), 8.0f) * ImGui::GetTextLineHeightWithSpacing();
    if (ImGui::BeginListBox(id, ImVec2(-FLT_MIN, list_h + ImGui::GetStyle().FramePadding.y * 2))) {
      for (const std::string& file : files) {
        const std::string name = std::filesystem::path(file).filename().string();
        if (ImGui::Selectable(name.c_str(), dialog.path == file, ImGuiSelectableFlags_AllowDoubleClick)) {
          dialog.path = file;
          if (ImGui::IsMouseDoubleClicked(0)) confirm = true;
        }
      }
      ImGui::EndListBox();
    }
  };
  file_list("##cuda", app.tr("CUDA files here (double-click opens):", "这里的 CUDA 文件（双击打开）："), dialog.cuda_files);
  file_list("##shipped", app.tr("Recorded on an H200 (double-click opens):", "H200 上录制的 trace（双击打开）："), dialog.shipped);

  ImGui::Spacing();
  const bool has_path = !dialog.path.empty();
  ImGui::BeginDisabled(!has_path);
  if (ImGui::Button(app.tr(opening ? "Open" : "Save", opening ? "打开" : "保存"))) confirm = true;
  ImGui::EndDisabled();
  ImGui::SameLine();
  bool cancel = ImGui::Button(app.tr("Cancel", "取消")) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
  // Enter confirms wherever the focus is: after a click in a list the path
  // field no longer has it. Not on the first frame: the Enter that closed an
  // error popup must not also open a file.
  if (!ImGui::IsWindowAppearing() && (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) ||
                                      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter))))
    confirm = true;

  if (confirm && has_path) {
    const std::string path = dialog.path;
    ImGui::CloseCurrentPopup();
    dialog.open = FileDialog::None;
    if (opening) app.open_file(path);
    else app.save_file(path);
  } else if (cancel) {
    ImGui::CloseCurrentPopup();
    dialog.open = FileDialog::None;
  }
  ImGui::EndPopup();
}

// A modal popup in the middle of the window holding `text`, wrapped; true
// while it is open (the caller adds its buttons, then calls EndPopup).
bool begin_message_popup(const AppView& app, const std::string& title, const std::string& text) {
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(title.c_str(), nullptr,
                              ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings))
    return false;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 560 * app.dpi_scale);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::Spacing();
  return true;
}

// Save found a file that is not a trace (a .cu source, anything else): it is
// replaced only when the user says so here.
void draw_overwrite_popup(AppView& app) {
  if (app.save_overwrite_path.empty()) return;
  if (!ImGui::IsPopupOpen("###overwrite") && !ImGui::IsPopupOpen("###file_dialog") && app.error_message.empty())
    ImGui::OpenPopup("###overwrite");
  const std::string title = std::string(app.tr("Replace a file?", "替换文件？")) + "###overwrite";
  if (!begin_message_popup(app, title,
                           app.save_overwrite_path +
                               app.tr(" is not a warpviz trace. Replace it with the trace? Its contents are lost.",
                                      " 不是 warpviz trace。用 trace 替换它吗？它的内容将丢失。")))
    return;
  // No key answers Replace: Enter (which confirmed the Save dialog) cancels.
  const bool replace = ImGui::Button(app.tr("Replace", "替换"));
  ImGui::SameLine();
  const bool cancel = ImGui::Button(app.tr("Cancel", "取消")) ||
                      (!ImGui::IsWindowAppearing() && (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)) ||
                                                       ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter))));
  if (replace || cancel) {
    const std::string path = std::exchange(app.save_overwrite_path, std::string());
    ImGui::CloseCurrentPopup();
    if (replace) app.save_file(path, true);
  }
  ImGui::EndPopup();
}

void draw_error_popup(AppView& app) {
  if (!app.error_message.empty() && !ImGui::IsPopupOpen("###error")) ImGui::OpenPopup("###error");
  const std::string title = std::string(app.tr("Error", "错误")) + "###error";
  if (!begin_message_popup(app, title, app.error_message)) return;
  // Keys count from the next frame: the Enter that confirmed a file dialog
  // (and caused this error) must not also dismiss it.
  const bool key_ok = !ImGui::IsWindowAppearing() && (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) ||
                                                      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)));
  if (ImGui::Button("OK", ImVec2(120 * app.dpi_scale, 0)) || key_ok) {
    app.error_message.clear();
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace

}  // namespace warpviz::app
