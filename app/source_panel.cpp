// The kernel source the trace carries, with line numbers. The line of the op
// on screen is highlighted and scrolled into view when the step changes, as a
// debugger shows its current line; lines holding recorded ops get a dot, and a
// click on one jumps to the next step recorded there. For a user's .cu file,
// compile errors are marked at their lines (a red bar, a cross, the message
// after the code) and a stale trace is said to be one.
#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "app_view.h"
#include "layout_report.h"
#include "panel_widgets.h"

namespace warpviz::app {

namespace {

// The source's lines and the lines with ops (SourceState), split again only
// when the trace or its text changed.
const SourceState& split_source(SourceState& cache, const Trace& trace, uint64_t generation) {
  if (cache.generation == generation) return cache;
  cache.generation = generation;
  cache.lines.assign(1, std::string());
  for (char c : trace.meta.source_text) {
    if (c == '\n') {
      cache.lines.emplace_back();
    } else if (c == '\t') {
      cache.lines.back().append(4 - cache.lines.back().size() % 4, ' ');
    } else if (c != '\r') {
      cache.lines.back() += c;
    }
  }
  if (cache.lines.size() > 1 && cache.lines.back().empty()) cache.lines.pop_back();  // the final newline
  cache.has_op.assign(cache.lines.size(), false);
  for (size_t i = 0; i < trace.steps.size(); ++i) {
    const uint32_t line = trace.steps.line(i);
    if (line >= 1 && line <= cache.lines.size()) cache.has_op[line - 1] = true;
  }
  return cache;
}

// The first step played after position `from` (wrapping around) recorded on `line`.
bool next_step_on_line(const Trace& trace, const view::PlayOrder& order, size_t from, uint32_t line, size_t* found) {
  const size_t n = std::min(trace.steps.size(), order.size());
  for (size_t k = 1; k <= n; ++k) {
    const size_t i = order.step_at((from + k) % n);
    if (i < trace.steps.size() && trace.steps.line(i) == line) {
      *found = i;
      return true;
    }
  }
  return false;
}

// The open .cu file's errors and warnings by line (1-based), the first of each
// line; empty for any other trace.
std::map<int, user::Diagnostic> diagnostics_by_line(const view::UserFileSession* session) {
  std::map<int, user::Diagnostic> by_line;
  if (!session || session->busy()) return by_line;
  for (const user::Diagnostic& d : session->diagnostics_in_file()) {
    auto [it, added] = by_line.emplace(d.line, d);
    if (!added && d.severity == "error" && it->second.severity != "error") it->second = d;  // an error outranks a warning
  }
  return by_line;
}

}  // namespace

void AppView::draw_source_panel() {
  if (trace.meta.source_text.empty()) {
    centred_message(tr("This trace carries no kernel source", "这个 trace 不含 kernel 源码"));
    return;
  }

  SourceState& state = panel_state.source;
  const SourceState& source = split_source(state, trace, trace_generation);
  const size_t shown = playback.shown_step();
  const int current_line = shown < trace.steps.size() ? int(trace.steps.line(shown)) : 0;
  ImGui::TextDisabled("%s", trace.meta.source_path.empty() ? "(source)" : trace.meta.source_path.c_str());
  const std::map<int, user::Diagnostic> marks = diagnostics_by_line(user_file.get());
  const ImU32 error_bar = IM_COL32(220, 50, 47, 100);  // red, faint behind the line: apart from the step's orange
  const ImU32 error_mark = IM_COL32(240, 80, 40, 255);
  const ImU32 warning_mark = IM_COL32(240, 228, 66, 255);  // Okabe-Ito yellow
  if (!marks.empty()) {
    const size_t errors = size_t(std::count_if(marks.begin(), marks.end(), [](const auto& m) {
      return m.second.severity == "error";
    }));
    const bool stale = user_file->stale();
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.45f, 0.25f, 1.0f));
    if (errors > 0)
      ImGui::TextWrapped(tr(stale ? "%zu line(s) with errors; showing the last good run" : "%zu line(s) with errors",
                            stale ? "%zu 行有错误；显示的是上一次成功的运行" : "%zu 行有错误"),
                         errors);
    ImGui::PopStyleColor();
    // The messages whole (after the code they may run past the panel's edge), the first few.
    int listed = 0;
    for (const auto& [line, d] : marks) {
      if (++listed > 4) break;
      ImGui::TextDisabled("%d:%d", line, d.column);
      ImGui::SameLine();
      ImGui::TextWrapped("%s", d.message.c_str());
    }
  }

  ImGui::PushFont(fonts.mono ? fonts.mono : ImGui::GetFont());
  ImGui::BeginChild("##code", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0));
  const float line_h = ImGui::GetTextLineHeight();
  const float s = dpi_scale;

  // Follow the step like a debugger: scroll only when its line is off screen
  // (or nearly), and then centre it.
  const float visible = ImGui::GetWindowHeight();
  if (shown < trace.steps.size() && (shown != state.followed_step || trace_generation != state.followed_generation ||
                                     visible != state.followed_height)) {
    state.followed_step = shown;
    state.followed_generation = trace_generation;
    state.followed_height = visible;
    const float y = float(current_line - 1) * line_h;
    const float top = ImGui::GetScrollY();
    if (y < top + line_h * 2 || y > top + visible - line_h * 3)
      ImGui::SetScrollY(std::max(0.0f, y - visible / 2 + line_h / 2));
  }

  const int count = int(source.lines.size());
  const float digits_w = ImGui::CalcTextSize(count >= 1000 ? "0000" : "000").x;
  const float marker_w = 12 * s;  // the dot / arrow column before the numbers
  const float text_x = marker_w + digits_w + 10 * s;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float left = ImGui::GetWindowPos().x, right = left + ImGui::GetWindowWidth();
  const ImU32 highlight = IM_COL32(230, 159, 0, 70);  // Okabe-Ito orange, faint behind the text
  const ImU32 arrow = IM_COL32(230, 159, 0, 255);
  const ImU32 dot = IM_COL32(86, 180, 233, 200);      // sky blue: the lane view's read colour

  ImGuiListClipper clipper;
  clipper.Begin(count, line_h);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const bool current = i + 1 == current_line;
      const auto mark = marks.find(i + 1);
      if (mark != marks.end()) {
        // The line the compiler names: a bar behind it and a cross in the marker column.
        const bool error = mark->second.severity == "error";
        draw->AddRectFilled(ImVec2(left, p.y), ImVec2(right + ImGui::GetScrollMaxX(), p.y + line_h),
                            error ? error_bar : IM_COL32(240, 228, 66, 40));
        const float c = marker_w / 2, r = line_h * 0.22f, cy = p.y + line_h / 2;
        const ImU32 colour = error ? error_mark : warning_mark;
        draw->AddLine(ImVec2(p.x + c - r, cy - r), ImVec2(p.x + c + r, cy + r), colour, 2.0f * s);
        draw->AddLine(ImVec2(p.x + c - r, cy + r), ImVec2(p.x + c + r, cy - r), colour, 2.0f * s);
      } else if (current) {
        draw->AddRectFilled(ImVec2(left, p.y), ImVec2(right + ImGui::GetScrollMaxX(), p.y + line_h), highlight);
        // For the layout tests: no floating panel may lie over this line.
        layout_report().role("source_current_line", source.lines[size_t(i)], ImVec2(left, p.y),
                             ImVec2(right, p.y + line_h), line_h);
        const float cy = p.y + line_h / 2, h = line_h * 0.3f;
        draw->AddTriangleFilled(ImVec2(p.x + 2 * s, cy - h), ImVec2(p.x + 2 * s + h * 1.6f, cy),
                                ImVec2(p.x + 2 * s, cy + h), arrow);
      } else if (source.has_op[size_t(i)]) {
        draw->AddCircleFilled(ImVec2(p.x + marker_w / 2, p.y + line_h / 2), 2.5f * s, dot);
      }
      // The whole row is the click target; the text goes over it.
      ImGui::PushID(i);
      if (source.has_op[size_t(i)]) {
        if (ImGui::InvisibleButton("##line", ImVec2(text_x, line_h))) {
          size_t target = 0;
          if (next_step_on_line(trace, playback.order(), playback.shown_position(), uint32_t(i + 1), &target)) {
            playback.pause();
            playback.seek(target);
          }
        }
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%s", tr("Jump to the next step on this line", "跳到这一行的下一步"));
        ImGui::SameLine(0, 0);
        ImGui::SetCursorScreenPos(p);
      }
      ImGui::PopID();
      char number[16];
      std::snprintf(number, sizeof number, "%d", i + 1);
      const float number_w = ImGui::CalcTextSize(number).x;
      ImGui::SetCursorScreenPos(ImVec2(p.x + marker_w + digits_w - number_w, p.y));
      if (current)
        ImGui::TextUnformatted(number);
      else
        ImGui::TextDisabled("%s", number);
      ImGui::SameLine(0, 0);
      ImGui::SetCursorScreenPos(ImVec2(p.x + text_x, p.y));
      ImGui::TextUnformatted(source.lines[size_t(i)].c_str());
      if (mark != marks.end()) {
        // The message after the code, as an editor's inline diagnostic; the
        // whole of it on hover.
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%d:%d: %s: %s", mark->second.line, mark->second.column, mark->second.severity.c_str(),
                            mark->second.message.c_str());
        ImGui::SameLine(0, 24 * s);
        ImGui::TextColored(mark->second.severity == "error" ? ImVec4(1.0f, 0.45f, 0.30f, 1.0f)
                                                             : ImVec4(0.94f, 0.89f, 0.26f, 1.0f),
                           "← %s", mark->second.message.c_str());
      }
    }
  }
  clipper.End();
  ImGui::PopStyleVar();
  ImGui::EndChild();
  ImGui::PopFont();
}

}  // namespace warpviz::app
