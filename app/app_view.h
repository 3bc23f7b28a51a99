// The app's state and its panels. One draw_x_panel member per panel, each in
// a file of its own (lane_panel.cpp, timeline_panel.cpp, ...) and a row of
// panel_list.h; the data they show comes from the core library and the
// pure view logic in view/. The state is in three parts: the shown trace and
// what goes with it, the preferences, and the UI (the frame around the panels,
// and each panel's own state in panel_state).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "warpviz/backends.h"
#include "warpviz/scenario.h"
#include "warpviz/trace.h"
#include "warpviz/warp_paths.h"
#include "warpviz/view/playback.h"
#include "warpviz/view/settings.h"
#include "warpviz/view/strings.h"
#include "warpviz/view/user_file_session.h"
#include "lesson_player.h"
#include "panel_states.h"
#include "panel_table.h"

struct ImFont;

namespace warpviz::app {

class LaneRenderer;  // lane_renderer.h: the GLSL cells and arrows

// A key press as GLFW reports it (key code, modifier bits), queued until the
// next frame's handle_keys.
struct KeyPress {
  int key = 0;
  int mods = 0;
  bool repeat = false;  // auto-repeat of a held key
};

struct UiFonts {
  ImFont* regular = nullptr;  // body text, CJK glyphs merged in
  ImFont* large = nullptr;    // round counter and op in the lane view
  ImFont* huge = nullptr;     // presentation mode
  ImFont* mono = nullptr;     // source code: the monospaced face, CJK comments included
};

class AppView {
 public:
  explicit AppView(view::AppSettings settings);
  ~AppView();

  // --- Data (errors become error_message, never a crash) -------------------
  void show_trace(Trace trace, std::string origin);  // origin: file path or "scenario"
  bool open_file(const std::string& path);  // a trace, or a .cu file (open_user_file)
  // File > Open Recent and a dropped file: a .cu file that did not run with
  // these bytes before asks first (run_consent), anything else opens.
  void open_file_asking(const std::string& path);
  // A .cu file's text in the source panel, nothing compiled or run: the
  // consent dialog's "Show trace only".
  void show_source_only(const std::string& path);
  // A trace loaded from `path` elsewhere (main loads the first one while the
  // window opens); fills the scenario panel when it is a built-in scenario's.
  void show_file_trace(Trace loaded, const std::string& path);
  // Writes the trace; a file there that is not a trace is replaced only
  // when `replace_confirmed`, else the overwrite popup asks (save_overwrite_path).
  bool save_file(const std::string& path, bool replace_confirmed = false);
  // Resolves and runs on `backend` (Auto: the GPU when present); notes such as
  // "width 12 is undefined in the C++ API" land in scenario_notes.
  bool run_scenario(const ScenarioRequest& request, BackendChoice backend);
  // A user's .cu file: runs on the session's thread; its text shows at once,
  // its trace when the run is done. `place` is where to start (--launch, --step).
  void open_user_file(user::FileRequest request, view::FilePlace place = {});
  void close_user_file();  // a scenario or a trace file takes its place
  // Takes the session's news (a finished run, a saved file); true when the
  // screen changed. Once a frame, and whenever the run's thread wakes the loop.
  bool poll_user_file();

  // --- Per frame ------------------------------------------------------------
  bool update(double dt_seconds);  // playback; true when something changed
  // The menu bar, then a window for every open panel of panel_table() with
  // something to show (or presentation mode), then the dialogs.
  void draw();
  void handle_keys();              // keyboard.cpp: space, arrows, Home/End, F5, F11, H, L
  // Right (+1) / Left (-1) and the timeline's step buttons: to the next or
  // previous round stop (view/round_stops.h), paused.
  void step_by_round(int direction);

  // --- Panels: the contents of each one's window, one file each ---------------
  // panel_list.h lists them: draw_x_panel in x_panel.cpp (and a floating
  // panel's place_x_panel, setting its first place and size, beside it);
  // draw() opens and closes their windows.
#define WARPVIZ_PANEL(id, draw_member, ...) void draw_member();
#define WARPVIZ_FLOATING_PANEL(id, draw_member, english, chinese, place_member, ...) \
  void draw_member();                                                               \
  void place_member();
#include "panel_list.h"
  void draw_user_file_section();  // user_file_panel.cpp: the scenario panel's body while a .cu file is open
  // Around them:
  void draw_menu_bar();        // app_view.cpp
  void draw_presentation();    // presentation.cpp: the op's own view in large type, full window
  void draw_export_dialog();   // export_panel.cpp

  // --- Lessons (lesson_player.cpp) -------------------------------------------
  // Loads a lesson and shows its slide `slide` (0-based); false, with
  // error_message naming the file, line and field, when it cannot.
  bool open_lesson(const std::string& path, size_t slide = 0);
  void show_slide(size_t index);  // runs its scenario, opens its .cu or trace, seeks to its start
  // Whether the open lesson must wait for the consent dialog before slide
  // `slide` shows (its .cu files not let run yet); sets lesson.runs_allowed.
  bool ask_before_lesson_runs(size_t slide);
  // PageDown / PageUp: the next or previous slide of the open lesson, from
  // the slide (or the slide's scenario) on screen; stops at the lesson's ends.
  // Without a lesson, or with something of one's own on screen (a .cu file),
  // nothing changes and the menu bar says why.
  void turn_slide(int direction);
  // Once a frame: reloads a saved lesson file (once a second), pauses at a
  // slide's stop step. True when the screen changed.
  bool poll_lesson();
  // The slide whose scenario or file is on screen; nullptr when none is.
  const view::LessonSlide* shown_slide() const;
  view::SlidePanel presentation_panel() const;  // the shown slide's, else Auto
  // Its caption wrapped to the window's width at `size` px: presentation
  // mode's large line, and the lanes panel's line (role "lesson_caption").
  void draw_lesson_caption(float size, bool presentation_colours);
  // The text whose glyphs the fonts bake beyond the UI's own: the trace's
  // source and the lessons' captions. fonts_stale asks main for a rebuild.
  std::string font_text() const;
  bool fonts_stale = false;
  LessonPlayer lesson;

  // --- Consent to run (consent_dialog.cpp, view/run_consent.h) ----------------
  // Documents do not run code: a lesson, Open Recent or a drop that would
  // compile a .cu file waits here until the dialog's answer.
  struct RunConsent {
    enum class Kind { None, Lesson, File } kind = Kind::None;
    std::vector<std::string> files;  // resolved paths, as the dialog lists them
    std::string path;                // Kind::File: the .cu file
    size_t slide = 0;                // Kind::Lesson: the slide shown once answered
    std::string hash;                // what "Run" remembers (settings.trusted_runs)
  } run_consent;
  enum class ConsentAnswer { Run, ShowOnly, Cancel };
  void answer_run_consent(ConsentAnswer answer);
  void draw_consent_dialog();
  bool trust_lessons = false;  // --trust-lesson: scripted runs, as if the user said Run (not remembered)

  // --- Views that presentation mode shows too ---------------------------------
  // lane_panel.cpp: the shown step's lanes filling `size` at the cursor.
  void draw_lane_view(float width, float height, bool high_contrast, float text_scale);
  // vote_panel.cpp / block_panel.cpp / bank_panel.cpp: the panel's contents in
  // the current window; false when the current step (the trace, for the
  // banks) has nothing for it.
  bool draw_vote_view();
  // `fill` (presentation): the flow fills the space left, its type shrunk to fit it.
  bool draw_block_view(bool fill = false);
  bool draw_bank_view();
  // Re-runs the bank/transpose scenario with cols 32 <-> 33 and starts the animation.
  void toggle_bank_padding();

  // --- Layout (panel_layout.cpp) ----------------------------------------------
  // ImGui ini text placing every panel of panel_table() in its slot over a
  // width x height window; main loads it when no layout was saved (panels'
  // own first-use sizes would otherwise overlap).
  std::string first_use_layout(float width, float height) const;
  // The same as rectangles, by panel id ("bank"): the slots for this trace.
  std::map<std::string, PanelRect> first_use_places(float width, float height) const;
  // What the lower row is laid out for: its slots differ by the trace's kind.
  enum class LowerRow { Plain, Paths, Banks, Reduction };
  LowerRow lower_row() const;
  // Once a frame, before the empty panels give way: when the trace is of
  // another kind than the lower row was placed for (or the banks cover the
  // history), places the lower row's panels in this trace's slots. True
  // when it moved them.
  bool place_lower_row();
  std::optional<LowerRow> lower_row_placed;  // unknown until the first frame
  PanelHomes first_use_rects(float width, float height) const;  // the same, by window id ("###lanes")
  // Panels with nothing to show for this trace (no votes, no block
  // reduction) give their place to the history beside them.
  void arrange_empty_panels();
  // A new window size (or scale) lays the panels out again: the first-use
  // layout for the new size while they are where the last one put them,
  // else each panel's rectangle scaled with the window. main calls it
  // before each frame.
  void follow_window_size(float width, float height);
  void draw_zoom_menu_items();  // View > Zoom in / out / reset

  // Shared by panels: the text of a UI word in the current language.
  const char* tr(view::Text text) const { return view::tr(text, language); }
  // Words only one panel uses, given in both languages where they are used.
  const char* tr(const char* english, const char* chinese) const {
    return language == view::Language::Chinese ? chinese : english;
  }
  // The step shown, decoded (nullptr when the trace has no steps). The trace
  // holds its steps encoded (TraceSteps), so this is a copy kept until the
  // step or the trace changes: the pointer holds until then, within a frame.
  const TraceStep* current_step() const;
  // The timeline's order (settings.play_order), and a change of it that keeps the step shown.
  view::PlayOrderKind play_order_kind() const;
  void set_play_order(view::PlayOrderKind kind);
  // "CPU emulator" or the GPU's name, and the file shown; the scenario panel's badge.
  std::string badge_text() const;
  std::string png_path() const;  // export_panel.cpp: where Ctrl+Shift+S writes

  // --- The shown trace ----------------------------------------------------------
  Trace trace;
  std::string trace_origin;  // shown in the badge with the device
  // Moves on whenever the trace or its source text changes (show_trace, a
  // saved .cu file): what a panel works out from the trace is kept with the
  // generation it saw and redone when they differ.
  uint64_t trace_generation = 0;

 private:
  // current_step()'s copy, and which step of which generation it is.
  mutable TraceStep current_step_;
  mutable size_t current_step_index_ = SIZE_MAX;
  mutable uint64_t current_step_generation_ = 0;

 public:
  // Worked out once in show_trace; which panels have something to show.
  struct TraceFacts {
    bool has_shared = false;  // any ld.shared / st.shared step: the bank panel shows
    std::vector<DivergentRegion> divergent_regions;  // the trace's branches (warp_paths.h): the paths panel shows
    // Nothing in this trace for the votes / block panel: not drawn, their
    // place goes to the history (a trace without steps says so in every panel instead).
    bool no_votes = false, no_block = false;
    std::vector<SeedClaimResult> seed_claims;  // the scenario's claims, checked against this trace
  } trace_facts;
  view::Playback playback;
  ScenarioRequest last_request;  // what the scenario panel edits and re-runs
  BackendChoice backend = BackendChoice::Auto;
  std::vector<std::string> scenario_notes;  // what the last run noticed
  // The open .cu file, if any; its runs, reloads and place (view/user_file_session.h).
  std::unique_ptr<view::UserFileSession> user_file;
  // The session's generations on screen (poll_user_file).
  uint64_t user_file_trace_generation = 0, user_file_source_generation = 0;

  // --- Preferences (saved in settings.json) -------------------------------------
  view::AppSettings settings;
  view::Language language = view::Language::English;
  bool hex = false;           // values as hex bits
  bool presentation = false;  // fullscreen, high contrast, lanes + op only
  PanelVisibility panels;     // which panels are open
  // Scale: the monitor's content scale (GLFW, or --scale) times the user's
  // zoom; dpi_scale is what the panels multiply their sizes by, set by main
  // with the fonts between frames (larger in a tall window: view::window_scale).
  float content_scale = 1.0f;
  bool content_scale_fixed = false;  // --scale given: the monitor's is not followed
  float zoom = 1.0f;                 // Ctrl+= / Ctrl+- / Ctrl+0, saved in the settings
  float dpi_scale = 1.0f;

  // --- The frame around the panels ----------------------------------------------
  UiFonts fonts;
  std::unique_ptr<LaneRenderer> lane_renderer;  // created once a GL context exists
  // Set by main: wakes the event loop from the run's thread (glfwPostEmptyEvent).
  std::function<void()> wake_loop;
  // Filled by main's GLFW key callback: Dear ImGui 1.86 samples key state once
  // a frame and would miss a tap shorter than a frame.
  std::vector<KeyPress> key_presses;
  bool quit_requested = false;
  std::string error_message;  // shown in a modal until dismissed
  using FileDialog = FileDialogState::Kind;
  FileDialog file_dialog_request = FileDialog::None;  // menu or Ctrl+O/S; draw() opens it
  // Save found a file that is not a trace there: the popup asks before
  // replacing it (empty: nothing asked).
  std::string save_overwrite_path;
  // Where the next Open dialog starts: a file given on the command line that
  // did not load (empty: the shown trace's file).
  std::string file_dialog_start_path;
  FileDialogState file_dialog;  // the one open now
  // "F5: re-ran in 3 ms", in the menu bar's status until rerun_note_until (ImGui time).
  std::string rerun_note;
  double rerun_note_until = 0;
  // File > Export… (export_panel.cpp): the dialog's fields, and while an
  // export runs its progress. main's loop renders the frames (video_export.h):
  // one for the video, without this dialog, then one for the screen with it.
  struct ExportState {
    bool open_request = false;  // the menu item: the dialog opens next frame
    bool dialog_open = false;
    std::string path, steps;    // steps: "" the whole trace, else A:B
    int fps = 30;
    bool presentation = false;  // the video in presentation mode's look
    bool start_request = false; // Export pressed; main starts ffmpeg
    bool running = false;       // frames are being sent
    bool cancel_request = false;
    bool capturing = false;     // this frame goes into the video: draw no dialog
    size_t frames_done = 0, frame_count = 0;
    std::string error;          // why the fields do not export, said in the dialog
  } export_state;
  // Ctrl+Shift+S: main writes the next frame to a timestamped PNG beside the
  // trace's file (or in the working directory) and says where in the menu bar.
  bool png_request = false;

  // --- Single panels' own state (panel_states.h) --------------------------------
  PanelStates panel_state;
  PanelHomes panel_homes;  // panel_layout.cpp: where grown panels go back to
  // follow_window_size: the window size and scale the panels were laid out
  // for, and the first-use layout's rectangles then (empty: none was applied).
  float laid_out_w = 0, laid_out_h = 0, laid_out_scale = 0;
  PanelHomes laid_out_rects;
};

}  // namespace warpviz::app
