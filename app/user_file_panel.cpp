// The scenario panel's body while a user's own .cu file is open: what is
// happening (compiling, running, "done in 812 ms"), Cancel, a fault or a
// stale trace said in words, the launch picker of a whole program, the form
// of a kernels-only file (kernel, grid, block, shared, inputs, args, lengths:
// text fields apply on Enter), the time and memory limits, Run, and the program's own
// output. The logic (runs, reloads, the place) is view::UserFileSession's;
// this file only draws it.
//
// [SECTION] Helpers
// [SECTION] Status, faults and errors
// [SECTION] Launch picker and form
// [SECTION] Program output
// [SECTION] Panel body

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>

#include "app_view.h"
#include "panel_widgets.h"

namespace warpviz::app {

// ============================================================================
// [SECTION] Helpers
// ============================================================================

namespace {

// Okabe-Ito, as the other panels: vermillion for errors, sky blue while busy,
// bluish green when done.
const ImVec4 kErrorColour(0.95f, 0.45f, 0.25f, 1.0f);
const ImVec4 kBusyColour(0.34f, 0.71f, 0.91f, 1.0f);
const ImVec4 kDoneColour(0.0f, 0.62f, 0.45f, 1.0f);

using Pairs = std::vector<std::pair<std::string, std::string>>;

// "in=iota b=ones" or "n=5 k=2": items split at spaces. Inputs may leave out
// the name ("iota": every input array).
bool parse_pairs(const std::string& text, bool inputs, Pairs* out, std::string* error) {
  out->clear();
  std::istringstream items(text);
  std::string item;
  while (items >> item) {
    if (inputs) {
      out->push_back(view::parse_input_option(item));
      continue;
    }
    std::pair<std::string, std::string> pair;
    if (!view::parse_name_value(item, &pair, error)) return false;
    out->push_back(std::move(pair));
  }
  return true;
}

// The form's fields into a request; false (and why) when one does not parse.
bool request_from_fields(const UserFileFields& fields, user::FileRequest* request, std::string* error) {
  std::string why;
  if (!view::parse_dims(fields.grid, &request->grid, &why)) return *error = "grid " + why, false;
  if (!view::parse_dims(fields.block, &request->block, &why)) return *error = "block " + why, false;
  char* end = nullptr;
  const unsigned long long shared = std::strtoull(fields.shared.c_str(), &end, 10);
  if (fields.shared.empty() || *end != '\0' || fields.shared[0] == '-')
    return *error = "shared '" + fields.shared + "': a number of bytes", false;
  request->shared = size_t(shared);
  parse_pairs(fields.inputs, true, &request->inputs, &why);
  if (!parse_pairs(fields.args, false, &request->args, &why)) return *error = "args " + why, false;
  if (!parse_pairs(fields.lens, false, &request->lens, &why)) return *error = "lengths " + why, false;
  return true;
}

// One row of the form: the name on the left, the widget filling the right.
void form_label(const char* text, const char* help) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(text);
  if (help && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", help);
  ImGui::TableNextColumn();
  ImGui::SetNextItemWidth(-FLT_MIN);
}

// A text field that reports Enter (edited or not: Enter is "apply") or an
// edit left by clicking away, so a half-typed value never runs.
bool text_field(const char* id, std::string* value, const char* hint, const char* help) {
  const bool entered = ImGui::InputTextWithHint(id, hint, value, ImGuiInputTextFlags_EnterReturnsTrue);
  if (help && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", help);
  return entered || ImGui::IsItemDeactivatedAfterEdit();
}

// ============================================================================
// [SECTION] Status, faults and errors
// ============================================================================

// While a program runs: its launch, a bar of the launch's blocks done, the
// time in it and a guess of the time left (the CLI's line, drawn).
void draw_progress(AppView& app, const view::UserFileSession& session) {
  const user::FileProgress* p = session.progress();
  if (!session.busy() || !p || !p->known) return;
  char text[160];
  if (!p->in_launch) {
    std::snprintf(text, sizeof text, app.tr("host code, %llu launches done", "主机代码，已完成 %llu 次启动"),
                  (unsigned long long)p->launches_finished);
    ImGui::ProgressBar(0.0f, ImVec2(-FLT_MIN, 0), text);
    return;
  }
  const float done = p->blocks_total ? float(double(p->blocks_done) / double(p->blocks_total)) : 0.0f;
  std::snprintf(text, sizeof text, app.tr("launch %llu %s: %llu/%llu blocks", "启动 %llu %s：%llu/%llu 个块"),
                (unsigned long long)p->launch, p->kernel.c_str(), (unsigned long long)p->blocks_done,
                (unsigned long long)p->blocks_total);
  ImGui::ProgressBar(done, ImVec2(-FLT_MIN, 0), text);
  if (p->launch_left_s >= 0)
    std::snprintf(text, sizeof text, app.tr("%.1f s in this launch, about %.0f s left of it; %.0f s in all",
                                            "本次启动 %.1f 秒，约剩 %.0f 秒；共 %.0f 秒"),
                  p->launch_elapsed_s, p->launch_left_s, p->elapsed_s);
  else
    std::snprintf(text, sizeof text, app.tr("%.1f s in this launch; %.0f s in all", "本次启动 %.1f 秒；共 %.0f 秒"),
                  p->launch_elapsed_s, p->elapsed_s);
  ImGui::TextDisabled("%s", text);
}

void draw_status_line(AppView& app, view::UserFileSession& session) {
  const view::FileRunState state = session.state();
  const ImVec4 colour = session.busy()                            ? kBusyColour
                        : state == view::FileRunState::Failed     ? kErrorColour
                        : state == view::FileRunState::Done       ? kDoneColour
                                                                  : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%s", std::filesystem::path(session.path()).filename().string().c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", session.path().c_str());
  ImGui::SameLine();
  const std::string status = session.status_text() + (session.busy() ? "…" : "");
  ImGui::TextColored(colour, "%s", status.c_str());
  if (session.busy()) {
    ImGui::SameLine();
    if (ImGui::SmallButton(app.tr("Cancel", "取消"))) session.cancel();
  }
  draw_progress(app, session);
}

// A fault (crash, time limit, deadlock, kernel error, request error): the
// run's own words, which name the block, warp, lane and line.
void draw_fault(AppView& app, const view::UserFileSession& session) {
  const user::FileRun* run = session.last_run();
  if (run && run->outcome == user::FileOutcome::Cancelled && !session.busy()) {
    ImGui::TextWrapped("%s", session.shown_run()
                                 ? app.tr("Cancelled: the program was stopped. The trace shown is the last run's.",
                                          "已取消：程序已停止。显示的是上一次运行的记录。")
                                 : app.tr("Cancelled: the program was stopped before it recorded anything.",
                                          "已取消：程序在记录任何内容之前已停止。"));
    return;
  }
  if (!run || run->ok() || run->outcome == user::FileOutcome::CompileError ||
      run->outcome == user::FileOutcome::Cancelled || session.busy())
    return;
  const float s = app.dpi_scale;
  boxed(IM_COL32(90, 28, 20, 255), IM_COL32(213, 94, 0, 255), 8 * s, [&] {
    ImGui::PushTextWrapPos(ImGui::GetWindowContentRegionMax().x - 8 * s);
    ImGui::TextColored(kErrorColour, "%s", user::outcome_name(run->outcome));
    ImGui::TextWrapped("%s", run->message.c_str());
    if (session.stale()) ImGui::TextDisabled("%s", app.tr("Showing the last good run.", "显示的是上一次成功的运行。"));
    ImGui::PopTextWrapPos();
  });
}

// Compile errors: the source panel marks them at their lines; here, the
// count, that the trace is the last good one, and errors in included files
// (which the source panel does not show).
void draw_compile_errors(AppView& app, const view::UserFileSession& session) {
  const user::FileRun* run = session.last_run();
  if (!run || run->outcome != user::FileOutcome::CompileError || session.busy()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, kErrorColour);
  ImGui::TextWrapped("%s", session.stale()
                               ? app.tr("Showing the last good run; the file has errors (marked in the source).",
                                        "显示的是上一次成功的运行；文件有错误（已在源码中标出）。")
                               : app.tr("The file has errors (marked in the source).", "文件有错误（已在源码中标出）。"));
  ImGui::PopStyleColor();
  for (const user::Diagnostic& d : session.diagnostics_elsewhere())
    ImGui::TextWrapped("%s:%d: %s: %s", std::filesystem::path(d.file).filename().string().c_str(), d.line,
                       d.severity.c_str(), d.message.c_str());
  if (session.diagnostics_in_file().empty() && session.diagnostics_elsewhere().empty())
    ImGui::TextWrapped("%s", run->message.c_str());  // a failure with no file:line (the compiler did not start)
}

// ============================================================================
// [SECTION] Launch picker and form
// ============================================================================

void draw_launch_picker(AppView& app, view::UserFileSession& session) {
  const user::FileRun* run = session.shown_run();
  if (!run || run->launches.empty()) return;
  form_label(app.tr("Launch", "启动"),
             app.tr("The program's kernel launches, each recorded until the program's traces reach their limit "
                    "(twice --max-steps, or 256 MiB); pick one.",
                    "程序的 kernel 启动，每次都被记录，直到程序的记录达到上限（--max-steps 的两倍或 256 MiB）；选一个。"));
  const size_t current = std::min(session.place.launch, run->launches.size() - 1);
  const std::string label = view::launch_label(run->launches[current], current);
  ImGui::BeginDisabled(run->launches.size() < 2);
  if (ImGui::BeginCombo("##launch", label.c_str())) {
    for (size_t i = 0; i < run->launches.size(); ++i)
      if (ImGui::Selectable(view::launch_label(run->launches[i], i).c_str(), i == current) && i != current)
        session.select_launch(i);  // poll_user_file shows it
    ImGui::EndCombo();
  }
  ImGui::EndDisabled();
  // What the run says whatever its outcome: launches that ran unrecorded
  // past the program's trace limit, a kit that builds without its plugin;
  // a kernel's invalid access (the program went on, as on a GPU) stands out.
  for (size_t i = 0; i < run->notes.size(); ++i) {
    const bool fault = i == 0 && run->kernel_faulted;
    ImGui::PushStyleColor(ImGuiCol_Text, fault ? kErrorColour : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", run->notes[i].c_str());
    ImGui::PopStyleColor();
  }
}

// The kernel to launch; a template's arguments are typed in a field of their own.
bool draw_kernel_field(AppView& app, view::UserFileSession& session) {
  const auto& kernels = session.scanned().kernels;
  std::string& call = session.request().kernel;
  form_label(app.tr("Kernel", "Kernel"), nullptr);
  const std::string shown = call.empty() && !kernels.empty() ? kernels.front().name : call;
  bool run = false;
  if (ImGui::BeginCombo("##kernel", shown.c_str())) {
    for (const user::KernelDecl& k : kernels) {
      const bool selected = user::kernel_base_name(shown) == k.name;
      if (ImGui::Selectable(k.name.c_str(), selected) && !selected) {
        call = k.is_template ? k.name + "<>" : k.name;
        run = !k.is_template;  // a template waits for its arguments
      }
    }
    ImGui::EndCombo();
  }
  const auto it = std::find_if(kernels.begin(), kernels.end(),
                               [&](const user::KernelDecl& k) { return k.name == user::kernel_base_name(shown); });
  if (it != kernels.end() && it->is_template) {
    form_label("", nullptr);
    run |= text_field("##call", &call, "reduce<float,256>",
                      app.tr("A template kernel: its arguments, e.g. reduce<float,256>; Enter runs",
                             "模板 kernel：写出模板参数，如 reduce<float,256>；回车运行"));
  }
  if (it != kernels.end() && !it->params.empty()) {
    std::string params;
    for (const user::KernelParamText& p : it->params)
      params += (params.empty() ? "" : ", ") + p.name + (p.default_text.empty() ? "" : " = " + p.default_text);
    form_label("", nullptr);
    ImGui::TextDisabled("(%s)", params.c_str());
  }
  return run;
}

// True when an edit was committed and the file should run with it.
bool draw_kernel_form(AppView& app, view::UserFileSession& session) {
  UserFileFields& fields = app.panel_state.user_file;
  bool run = draw_kernel_field(app, session);
  form_label(app.tr("Grid", "Grid"), nullptr);
  run |= text_field("##grid", &fields.grid, "1", app.tr("Blocks: X[,Y[,Z]]; Enter runs", "block 数：X[,Y[,Z]]；回车运行"));
  form_label(app.tr("Block", "Block"), nullptr);
  run |= text_field("##block", &fields.block, "32",
                    app.tr("Threads per block: X[,Y[,Z]]; Enter runs", "每个 block 的线程数：X[,Y[,Z]]；回车运行"));
  form_label(app.tr("Shared", "Shared"), nullptr);
  run |= text_field("##shared", &fields.shared, "0",
                    app.tr("Bytes of extern __shared__ memory per block", "每个 block 的 extern __shared__ 字节数"));
  form_label(app.tr(view::Text::Input), nullptr);
  run |= text_field("##inputs", &fields.inputs, "iota",
                    app.tr("[NAME=]SPEC ...: iota, ones, const:X, random:SEED, values:a,b,... or bits:hex,...",
                           "[NAME=]SPEC ...：iota、ones、const:X、random:SEED、values:a,b,... 或 bits:hex,..."));
  form_label(app.tr("Args", "参数"), nullptr);
  run |= text_field("##args", &fields.args, "NAME=VALUE ...",
                    app.tr("Scalar parameters: NAME=VALUE, space-separated", "标量参数：NAME=VALUE，以空格分隔"));
  form_label(app.tr("Lengths", "长度"), nullptr);
  run |= text_field("##lens", &fields.lens, "NAME=N ...",
                    app.tr("Array lengths: NAME=N (default: one element per thread)",
                           "数组长度：NAME=N（默认每个线程一个元素）"));
  return run;
}

void draw_time_limit(AppView& app, view::UserFileSession& session) {
  UserFileFields& fields = app.panel_state.user_file;
  form_label(app.tr("Time limit", "时间限制"), nullptr);
  if (!text_field("##time_limit", &fields.time_limit, "10",
                  app.tr("Seconds a run may take before it is stopped (an endless loop); Enter applies",
                         "运行超过这么多秒就停止（死循环）；回车生效")))
    return;
  char* end = nullptr;
  const double seconds = std::strtod(fields.time_limit.c_str(), &end);
  if (end == fields.time_limit.c_str() || *end != '\0' || !(seconds >= view::kMinTimeLimit) ||
      seconds > view::kMaxTimeLimit) {
    fields.field_error = "time limit '" + fields.time_limit + "': seconds from 0.5 to 3600";
    return;
  }
  fields.field_error.clear();
  app.settings.time_limit_s = seconds;  // remembered for the next file too
  session.request().time_limit_s = seconds;
}

// Empty is the runner's default share of the machine, shown as the hint.
void draw_memory_limit(AppView& app, view::UserFileSession& session) {
  UserFileFields& fields = app.panel_state.user_file;
  form_label(app.tr("Memory limit", "内存限制"), nullptr);
  const std::string default_limit = user::format_memory_size(user::default_memory_limit());
  if (!text_field("##memory_limit", &fields.memory_limit, default_limit.c_str(),
                  app.tr("Resident memory the program and all it starts may hold before it is stopped, such as "
                         "512M or 8G; empty is three quarters of this machine's; Enter applies",
                         "程序及其启动的进程可占用的常驻内存，超过即停止，如 512M 或 8G；留空为本机内存的四分之三；回车生效")))
    return;
  uint64_t bytes = 0;
  if (!fields.memory_limit.empty()) {
    const std::optional<uint64_t> parsed = user::parse_memory_size(fields.memory_limit);
    if (!parsed || *parsed < view::kMinMemoryLimit) {
      fields.field_error = "memory limit '" + fields.memory_limit + "': a size of at least 1M, such as 512M or 8G";
      return;
    }
    bytes = *parsed;
  }
  fields.field_error.clear();
  app.settings.memory_limit_bytes = bytes;  // remembered for the next file too
  session.request().memory_limit_bytes = bytes;
}

// ============================================================================
// [SECTION] Program output
// ============================================================================

void draw_program_output(AppView& app, const view::UserFileSession& session) {
  const user::FileRun* run = session.last_run();
  if (!run || session.display_output().empty()) return;
  const std::string& text = session.display_output();
  const int lines = int(std::count(text.begin(), text.end(), '\n')) + (text.back() == '\n' ? 0 : 1);
  const std::string header = std::string(app.tr("Program output", "程序输出")) + "  (" + std::to_string(lines) + " " +
                             app.tr("lines", "行") + ")###program_output";
  if (!ImGui::CollapsingHeader(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  ImGui::PushFont(app.fonts.mono ? app.fonts.mono : ImGui::GetFont());
  ImGui::BeginChild("##program_output", ImVec2(0, std::min(float(lines), 10.0f) * line_h + line_h), true,
                    ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
  ImGui::EndChild();
  ImGui::PopFont();
}

}  // namespace

// ============================================================================
// [SECTION] Panel body
// ============================================================================

void AppView::draw_user_file_section() {
  view::UserFileSession& session = *user_file;
  draw_status_line(*this, session);
  draw_fault(*this, session);
  draw_compile_errors(*this, session);
  ImGui::Spacing();

  bool run = false;
  const float label_w = 90 * dpi_scale;
  if (ImGui::BeginTable("##file_form", 2, ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed, label_w);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    draw_launch_picker(*this, session);
    // A whole program sets its own launches; a kernels-only file takes them here.
    if (!session.scanned().has_main) run |= draw_kernel_form(*this, session);
    draw_time_limit(*this, session);
    draw_memory_limit(*this, session);
    ImGui::EndTable();
  }
  if (ImGui::Button(tr(view::Text::Run))) run = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("F5");
  ImGui::SameLine();
  if (ImGui::Button(tr("Close file", "关闭文件"))) {
    close_user_file();
    run_scenario(last_request.scenario.empty() ? ScenarioRequest{"warp_sum", {}, ""} : last_request, backend);
    return;
  }
  UserFileFields& fields = panel_state.user_file;
  if (run) {
    user::FileRequest edited = session.request();
    if (session.scanned().has_main || request_from_fields(fields, &edited, &fields.field_error)) {
      if (!session.scanned().has_main) fields.field_error.clear();
      session.request() = std::move(edited);
      session.run();
    }
  }
  if (!fields.field_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorColour);
    ImGui::TextWrapped("%s", fields.field_error.c_str());
    ImGui::PopStyleColor();
  }
  if (trace.overflow)
    ImGui::TextColored(ImVec4(0.92f, 0.70f, 0.25f, 1.0f), "%s",
                       tr("The trace ran out of room: its steps are a prefix of the run",
                          "trace 空间不足：记录的只是运行的前一部分"));
  ImGui::Spacing();
  draw_program_output(*this, session);
}

}  // namespace warpviz::app
