// The Cost panel's content, from a measurements file and the current step.
#include "warpviz/view/cost_view.h"

#include <algorithm>
#include <stdexcept>

#include "warpviz/bank_model.h"

namespace warpviz::view {

namespace {

const char* pick(Language language, const char* en, const char* zh) {
  return language == Language::Chinese ? zh : en;
}

// Ops measured under another name: the same instruction with another mode.
std::string measured_name(const std::string& op) {
  if (op == "vote.all") return "vote.any";    // VOTE.ALL and VOTE.ANY: one instruction, two modes
  if (op == "match.all") return "match.any";  // MATCH.ALL and MATCH.ANY likewise
  if (op.rfind("redux.", 0) == 0) return "redux.add";  // REDUX with another operation
  return op;
}

std::string row_label(const OpCost& c) { return c.op + (c.variant.empty() ? "" : " (" + c.variant + ")"); }

void add_rows(const LatencyBenchmark& l, const std::string& op, bool current, std::vector<CostRow>* rows) {
  for (const OpCost& c : l.ops)
    if (c.op == op &&
        std::none_of(rows->begin(), rows->end(), [&](const CostRow& r) { return r.label == row_label(c); }))
      rows->push_back({row_label(c), c.latency_cycles, c.ops_per_sm_per_cycle, current});
}

void fill_reduction(const ReduceBenchmark& r, const Trace& trace, CostView* view, Language language) {
  const std::string dtype = trace.meta.dtype == DType::I32 || trace.meta.scenario == "reduce_int" ? "i32" : "f32";
  int largest = 0;
  for (const ReduceTiming& t : r.timings)
    if (t.dtype == dtype) largest = std::max(largest, t.log2_n);
  for (const ReduceTiming& t : r.timings)
    if (t.dtype == dtype && t.log2_n == largest)
      view->bars.push_back({t.variant, t.description, bar_label(t.variant, t.description, language), t.gb_per_s,
                            t.vs_cub, t.variant == "e"});
  view->bars_title = dtype + ", 2^" + std::to_string(largest);
  view->copy_gb_per_s = r.copy_gb_per_s;
  view->hbm_peak_gb_per_s = r.hbm_peak_gb_per_s;
}

}  // namespace

std::string bar_label(const std::string& variant, const std::string& description, Language language) {
  // The variants of `warpviz-cli bench reduce` (assets/measurements/h200.json).
  struct Known {
    const char *variant, *en, *zh;
  };
  static const Known kKnown[] = {
      {"a", "shared-memory tree", "共享内存树形归约"},
      {"b", "warp shuffles", "warp shuffle"},
      {"c", "the seed's reduce_sum", "种子的 reduce_sum"},
      {"d", "16-byte tiles", "16 字节分块"},
      {"d-8", "16-byte tiles, 8 per thread", "16 字节分块，每线程 8 个"},
      {"d-stride", "grid-stride loads", "grid-stride 读取"},
      {"d-redux", "16-byte tiles, redux", "16 字节分块，redux"},
      {"e", "CUB", "CUB"},
  };
  for (const Known& k : kKnown)
    if (variant == k.variant) return pick(language, k.en, k.zh);
  const std::string words = description.substr(0, description.find(','));
  return words.empty() ? variant : words;
}

CostView cost_view(const Measurements& measurements, const std::string& origin, const Trace& trace,
                   size_t step_index, Language language) {
  CostView view;
  const MeasuredOn* on = measurements.latency ? &measurements.latency->on
                         : measurements.reduce ? &measurements.reduce->on
                                               : nullptr;
  if (!on) {
    view.message = pick(language, "No measurements loaded.", "没有载入测量数据。");
    return view;
  }
  view.source = std::string(pick(language, "measured on ", "测量于 ")) + on->device + ", " + on->date + " (" + origin +
                ")";
  if (measurements.reduce && (trace.meta.scenario == "reduce_sum" || trace.meta.scenario == "reduce_int"))
    fill_reduction(*measurements.reduce, trace, &view, language);
  if (step_index >= trace.steps.size()) return view;

  const TraceStep& step = trace.steps[step_index];
  view.op = op_name(step.op);
  if (view.op == "watch") {  // WARPVIZ_WATCH
    view.message = pick(language, "A watch is warpviz's own record of a variable, not an instruction: it costs nothing.",
                        "watch 是 warpviz 对变量的记录，不是指令，没有开销。");
    return view;
  }
  if (!measurements.latency) {
    view.message = pick(language, "These measurements have no op latencies.", "这份测量数据没有指令延迟。");
    return view;
  }
  const LatencyBenchmark& l = *measurements.latency;
  const std::string name = measured_name(view.op);
  add_rows(l, name, true, &view.rows);
  view.measured = !view.rows.empty();
  if (!view.measured) {
    view.message = std::string(pick(language, "Not measured: ", "未测量：")) + view.op;
    return view;
  }
  if (name != view.op)
    view.message = std::string(pick(language, "Measured as ", "按同一指令的 ")) + name +
                   pick(language, ": the same instruction in another mode.", " 测量。");

  // Beside a shuffle or a vote, what the same exchange through shared memory costs.
  if (op_is_shuffle(step.op) || name == "vote.any" || name == "vote.ballot" || name == "match.any" ||
      name == "redux.add")
    add_rows(l, "ld.shared", false, &view.rows);
  if (op_is_shared(step.op)) {
    add_rows(l, "ld.shared", false, &view.rows);
    add_rows(l, "st.shared", false, &view.rows);
    const OpCost* free = l.find(name, "conflict-free");
    const OpCost* worst = l.find("ld.shared", "32-way conflict");
    try {
      view.wavefronts = analyze_shared_access(shared_access_of(step)).wavefronts;
      view.shared = free && worst;
    } catch (const std::invalid_argument&) {
      view.shared = false;
    }
    if (view.shared) {
      view.conflict_free_cycles = free->latency_cycles;
      // The 32-way access is 32 wavefronts: its excess over one, per extra wavefront.
      view.cycles_per_extra_wavefront =
          (worst->latency_cycles - l.find("ld.shared", "conflict-free")->latency_cycles) / 31.0;
      view.estimated_cycles =
          view.conflict_free_cycles + (double(std::max(view.wavefronts, 1u)) - 1.0) * view.cycles_per_extra_wavefront;
    }
  }
  return view;
}

}  // namespace warpviz::view
