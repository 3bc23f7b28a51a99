// The scenario panel: pick a built-in scenario, edit its parameters and input,
// choose the backend, run (while a .cu file is open, user_file_panel.cpp draws
// the body instead). An edit that does not resolve is explained inline
// and not run; a valid one re-runs at once, so a new width or mask shows its
// effect in place. Above the form: the badge saying what produced the trace,
// and a callout for every seed claim the trace contradicts.
//
// [SECTION] Helpers
// [SECTION] Badge and seed claims
// [SECTION] Request form
// [SECTION] Outputs
// [SECTION] Panel

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <string>
#include <string_view>

#include "app_view.h"
#include "panel_widgets.h"
#include "warpviz/dtype.h"
#include "warpviz/view/output_table.h"

namespace warpviz::app {

// ============================================================================
// [SECTION] Helpers
// ============================================================================

namespace {

// Okabe-Ito hues, as the lane view: vermillion for errors, orange for notes.
const ImVec4 kErrorColour(0.95f, 0.45f, 0.25f, 1.0f);
const ImVec4 kNoteColour(0.92f, 0.70f, 0.25f, 1.0f);
const ImVec4 kHoldsColour(0.45f, 0.75f, 0.55f, 1.0f);

// A parameter's value in the request: its last set wins, as on the command line.
std::string* find_set(ScenarioRequest& request, const std::string& name) {
  for (auto it = request.sets.rbegin(); it != request.sets.rend(); ++it)
    if (it->first == name) return &it->second;
  return nullptr;
}

// Every parameter gets a set of its own (the default where none was given),
// so each widget edits one string.
void fill_defaults(ScenarioRequest& request, const ScenarioSpec& spec) {
  for (const ParamSpec& p : spec.params)
    if (!find_set(request, p.name)) request.sets.emplace_back(p.name, p.default_value);
}

// Whether the edited request resolves; if not, the panel shows why.
bool validate(AppView& app) {
  try {
    resolve_scenario(app.last_request);
    app.panel_state.scenario.error.clear();
    return true;
  } catch (const ScenarioError& e) {
    app.panel_state.scenario.error = e.what();
  } catch (const std::exception& e) {
    app.panel_state.scenario.error = e.what();
  }
  return false;
}

// On success run_scenario keeps `backend`; on failure the combo shows the old one.
void rerun(AppView& app, BackendChoice backend) {
  if (validate(app)) app.run_scenario(app.last_request, backend);
}

// The declaration's words in the current language (English where it has no Chinese).
const std::string& summary_of(const AppView& app, const ScenarioSpec& spec) {
  return app.language == view::Language::Chinese && !spec.summary_zh.empty() ? spec.summary_zh : spec.summary;
}
const std::string& source_of(const AppView& app, const SeedClaim& claim) {
  return app.language == view::Language::Chinese && !claim.source_zh.empty() ? claim.source_zh : claim.source;
}

void coloured_wrapped(const ImVec4& colour, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

// ============================================================================
// [SECTION] Badge and seed claims
// ============================================================================

// What produced the trace: teal for the emulator, NVIDIA green for a GPU.
void draw_badge(const AppView& app) {
  const std::string text = app.badge_text();
  if (text.empty()) return;
  const bool gpu = app.trace.meta.backend == "cuda";
  const ImU32 fill = gpu ? IM_COL32(118, 185, 0, 255) : IM_COL32(0, 158, 115, 255);
  const ImVec2 pad(8 * app.dpi_scale, 3 * app.dpi_scale);
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(p, ImVec2(p.x + size.x + pad.x * 2, p.y + size.y + pad.y * 2), fill, size.y);
  draw->AddText(ImVec2(p.x + pad.x, p.y + pad.y), IM_COL32(10, 10, 10, 255), text.c_str());
  ImGui::Dummy(ImVec2(size.x + pad.x * 2, size.y + pad.y * 2));
  if (ImGui::IsItemHovered() && !app.trace.meta.compute_capability.empty())
    ImGui::SetTooltip("%s  ·  compute capability %s  ·  %s", app.trace.meta.device.c_str(),
                      app.trace.meta.compute_capability.c_str(), app.trace.meta.tool_version.c_str());
}

// What the seed said and what the trace holds, formatted for tr(SeedDiffers).
std::string claim_expected(const AppView& app, const SeedClaim& claim) {
  if (claim.output.empty()) {  // a claim about shared-memory steps' cost
    std::string cost;
    if (claim.wavefronts >= 0) cost = std::to_string(claim.wavefronts) + " " + app.tr("wavefronts", "个 wavefront");
    if (claim.conflicts >= 0)
      cost += (cost.empty() ? "" : ", ") + std::to_string(claim.conflicts) + " " + app.tr("conflicts", "次冲突");
    if (claim.min_conflicts >= 0)
      cost += (cost.empty() ? "" : ", ") + std::string(app.tr("at least ", "至少 ")) +
              std::to_string(claim.min_conflicts) + " " + app.tr("conflicts", "次冲突");
    return cost;
  }
  if (claim.index < 0) return app.tr("the same value in every lane", "每个 lane 的值都相同");
  return claim.output + "[" + std::to_string(claim.index) + "] = " + claim.expected;
}

std::string claim_actual(const SeedClaim& claim, const SeedClaimResult& result) {
  if (claim.output.empty() || claim.index < 0) return result.actual;
  return claim.output + "[" + std::to_string(claim.index) + "] = " + result.actual;
}

// A claim the trace contradicts gets a box in the large font: it is the point
// of the scenario (test_shuffle: the seed expects 1.0 for thread 0, lane 1's
// xor partner makes it 2.0). Claims that hold get one quiet line each.
void draw_seed_claims(AppView& app) {
  const std::vector<SeedClaimResult>& results = app.trace_facts.seed_claims;
  if (results.empty()) return;
  const float s = app.dpi_scale;
  for (const SeedClaimResult& result : results) {
    const SeedClaim& claim = *result.claim;
    if (result.holds) continue;
    char headline[512];
    std::snprintf(headline, sizeof headline, app.tr(view::Text::SeedDiffers), claim_expected(app, claim).c_str(),
                  claim_actual(claim, result).c_str());
    boxed(IM_COL32(110, 40, 10, 255), IM_COL32(230, 159, 0, 255), 8 * s, [&] {
      ImGui::PushTextWrapPos(ImGui::GetWindowContentRegionMax().x - 8 * s);
      if (app.fonts.large) ImGui::PushFont(app.fonts.large);
      ImGui::TextWrapped("%s", headline);
      if (app.fonts.large) ImGui::PopFont();
      ImGui::TextWrapped("%s: \"%s\"", source_of(app, claim).c_str(), claim.text.c_str());
      ImGui::PopTextWrapPos();
    });
  }
  for (const SeedClaimResult& result : results) {
    if (!result.holds) continue;
    ImGui::PushStyleColor(ImGuiCol_Text, kHoldsColour);
    ImGui::TextWrapped("%s %s: \"%s\" (%s)", app.tr("Holds:", "成立："), source_of(app, *result.claim).c_str(),
                       result.claim->text.c_str(), result.actual.c_str());
    ImGui::PopStyleColor();
  }
}

// ============================================================================
// [SECTION] Request form
// ============================================================================

// One row of the form: the name on the left, the widget filling the right.
void form_label(const char* text, const std::string& help) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(text);
  if (!help.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", help.c_str());
  ImGui::TableNextColumn();
  ImGui::SetNextItemWidth(-FLT_MIN);
}

// Returns true when the scenario changed (the caller runs it).
bool scenario_combo(AppView& app) {
  bool changed = false;
  const ScenarioSpec* current = find_scenario(app.last_request.scenario);
  form_label(app.tr(view::Text::Scenario), current ? summary_of(app, *current) : std::string());
  if (ImGui::BeginCombo("##scenario", current ? current->name.c_str() : "")) {
    for (const ScenarioSpec& spec : scenario_specs()) {
      if (ImGui::Selectable(spec.name.c_str(), &spec == current) && &spec != current) {
        app.last_request = ScenarioRequest{spec.name, {}, ""};
        changed = true;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", summary_of(app, spec).c_str());
    }
    ImGui::EndCombo();
  }
  return changed;
}

// Choice parameters are combos and run as soon as one is picked; the others
// are text fields that run on Enter (edited or not: Enter is "apply", as a
// pick in a combo is) or when an edit is left by clicking away, so
// half-typed numbers are not run.
bool param_input(const ParamSpec& p, std::string& value) {
  const std::string id = "##" + p.name;
  if (p.kind == ParamKind::Choice) {
    bool changed = false;
    if (ImGui::BeginCombo(id.c_str(), value.c_str())) {
      for (const std::string& choice : p.choices)
        if (ImGui::Selectable(choice.c_str(), choice == value) && choice != value) {
          value = choice;
          changed = true;
        }
      ImGui::EndCombo();
    }
    return changed;
  }
  const bool entered =
      ImGui::InputText(id.c_str(), &value, ImGuiInputTextFlags_CharsNoBlank | ImGuiInputTextFlags_EnterReturnsTrue);
  if (ImGui::IsItemHovered() && !p.help.empty()) ImGui::SetTooltip("%s", p.help.c_str());
  return entered || ImGui::IsItemDeactivatedAfterEdit();
}

bool param_widget(const AppView& app, const ParamSpec& p, std::string& value) {
  form_label(p.name.c_str(), p.help);
  // The field the inline error names ("shfl: width=zz: not an integer") is tinted.
  const bool wrong = app.panel_state.scenario.error.rfind(app.last_request.scenario + ": " + p.name + "=", 0) == 0;
  if (wrong) ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0.45f, 0.16f, 0.08f, 1.0f));
  const bool changed = param_input(p, value);
  if (wrong) ImGui::PopStyleColor();
  return changed;
}

bool backend_combo(AppView& app, BackendChoice& backend) {
  static const char* const kNames[] = {"auto", "cpu", "cuda"};
  static const BackendChoice kChoices[] = {BackendChoice::Auto, BackendChoice::Cpu, BackendChoice::Cuda};
  form_label(app.tr(view::Text::Backend),
             app.tr("auto: the GPU when this build has CUDA and one is present, else the CPU emulator",
                    "auto：本构建带 CUDA 且有 GPU 时用 GPU，否则用 CPU 模拟器"));
  bool changed = false;
  const int current = int(app.backend);
  if (ImGui::BeginCombo("##backend", kNames[current])) {
    for (int i = 0; i < 3; ++i)
      if (ImGui::Selectable(kNames[i], i == current) && i != current) {
        backend = kChoices[i];
        changed = true;
      }
    ImGui::EndCombo();
  }
  return changed;
}

// The form; true when the request should run now (on `backend`).
bool draw_request_form(AppView& app, BackendChoice& backend) {
  bool run = false;
  const float label_w = 90 * app.dpi_scale;
  if (!ImGui::BeginTable("##form", 2, ImGuiTableFlags_SizingStretchProp)) return false;
  ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed, label_w);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
  run |= scenario_combo(app);
  if (const ScenarioSpec* spec = find_scenario(app.last_request.scenario)) {
    fill_defaults(app.last_request, *spec);
    for (const ParamSpec& p : spec->params)
      if (std::string* value = find_set(app.last_request, p.name)) run |= param_widget(app, p, *value);
    form_label(app.tr(view::Text::Input),
               app.tr("iota, ones, const:X, random:SEED, values:a,b,... or bits:hex,...",
                      "iota、ones、const:X、random:SEED、values:a,b,... 或 bits:hex,..."));
    run |= ImGui::InputTextWithHint("##input", spec->default_input.c_str(), &app.last_request.input,
                                    ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("iota, ones, const:X, random:SEED, values:a,b,... bits:hex,...");
    run |= ImGui::IsItemDeactivatedAfterEdit();
  }
  run |= backend_combo(app, backend);
  ImGui::EndTable();
  return run;
}

}  // namespace

// ============================================================================
// [SECTION] Outputs
// ============================================================================

// What the kernel wrote, up to eight elements a row, formatted by dtype (or as
// hex with H): a scenario with no warp steps (bits) shows its results here,
// and a reduction's per-block sums sit beside the claims about them. Columns
// are as wide as the widest value and a narrow panel gets fewer of them
// (view/output_table.h): a cut "1193466" reads as another number. Only the
// rows on screen are formatted (ImGuiListClipper): an output may hold n elements.
namespace {
void draw_outputs(const AppView& app) {
  const auto measure = [](std::string_view text) {
    return ImGui::CalcTextSize(text.data(), text.data() + text.size()).x;
  };
  const ImGuiStyle& style = ImGui::GetStyle();
  for (size_t index = 0; index < app.trace.outputs.size(); ++index) {
    const TraceOutput& output = app.trace.outputs[index];
    // IDs by the output's index: a trace file's name may be empty or hold a
    // NUL (an ImGui assertion as an ID); the label shows what is printable.
    std::string shown;
    for (char c : output.name) shown += (unsigned char)c < 0x20 ? '?' : c;
    if (shown.empty()) shown = "(unnamed)";
    const std::string header = shown + "  (" + std::to_string(output.bits.size()) + " × " +
                               dtype_name(output.dtype) + ")###output_" + std::to_string(index);
    if (!ImGui::CollapsingHeader(header.c_str(), output.name == "out" ? ImGuiTreeNodeFlags_DefaultOpen : 0))
      continue;
    const float index_w = ImGui::CalcTextSize("00000").x;
    const view::OutputTableLayout layout =
        view::output_table_layout(view::widest_cell_width(output.bits, output.dtype, app.hex, measure),
                                  ImGui::GetContentRegionAvail().x, index_w, style.CellPadding.x);
    const int per_row = layout.per_row;
    const int rows = int((output.bits.size() + per_row - 1) / per_row);
    const float row_height = ImGui::GetTextLineHeightWithSpacing();
    const float height = std::min(float(rows), 8.5f) * row_height + style.CellPadding.y * 2 + style.ScrollbarSize;
    // Fixed columns and a sideways scroll: a value wider than the panel scrolls, never cut.
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV;
    if (!ImGui::BeginTable(("##values_" + std::to_string(index)).c_str(), per_row + 1, flags, ImVec2(0, height))) continue;
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, index_w);
    for (int c = 0; c < per_row; ++c) ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthFixed, layout.column_width);
    ImGuiListClipper clipper;
    clipper.Begin(rows, row_height);
    while (clipper.Step())
      for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%d", row * per_row);
        for (int c = 0; c < per_row; ++c) {
          ImGui::TableNextColumn();
          const size_t i = size_t(row) * per_row + size_t(c);
          if (i >= output.bits.size()) break;
          const uint64_t bits = output.bits[i];
          ImGui::TextUnformatted(view::output_cell_text(output.dtype, bits, app.hex).c_str());
          if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s[%zu] = %s  (%s)", shown.c_str(), i, format_value(output.dtype, bits).c_str(),
                              format_hex(output.dtype, bits).c_str());
        }
      }
    ImGui::EndTable();
  }
}
}  // namespace

// ============================================================================
// [SECTION] Panel
// ============================================================================

void AppView::draw_scenario_panel() {
  draw_badge(*this);
  ImGui::Spacing();
  if (user_file) {
    // A .cu file of the user's: its own form, status and output (user_file_panel.cpp).
    draw_user_file_section();
    ImGui::Spacing();
    draw_outputs(*this);
    return;
  }
  draw_seed_claims(*this);

  BackendChoice run_backend = backend;
  bool run = draw_request_form(*this, run_backend);
  if (ImGui::Button(tr(view::Text::Run))) run = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("F5");
  ImGui::SameLine();
  if (ImGui::Button(tr("Defaults", "默认值"))) {
    last_request.sets.clear();
    last_request.input.clear();
    run = true;
  }
  if (run) rerun(*this, run_backend);

  // The edit that does not run, then what the last run noticed (width 12 is
  // undefined in C++, ...), then what the scenario is.
  const std::string& error = panel_state.scenario.error;
  if (!error.empty()) coloured_wrapped(kErrorColour, error);
  for (const std::string& note : scenario_notes) coloured_wrapped(kNoteColour, note);
  if (const ScenarioSpec* spec = find_scenario(last_request.scenario)) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s  (%s)", summary_of(*this, *spec).c_str(), spec->source_path.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Spacing();
  draw_outputs(*this);
}

}  // namespace warpviz::app
