// The human-readable dump of a trace (warpviz-cli dump, test failure output).
//
// Sections:
//   formatting      values, args, column padding
//   header          what ran, and what was measured
//   steps           one title line and a 32-row lane table per step; shared-memory
//                   steps add each lane's addr, bytes and bank, and the bank
//                   model's wavefronts and conflicts on the title line
//   outputs         index: value
#include "warpviz/trace_dump.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "warpviz/bank_model.h"

namespace warpviz {

namespace {

// ---- formatting ---------------------------------------------------------------

// Same rule as the JSON form: mask/bool results are u32.
// Lane masks read best as hex even in decimal mode.
bool result_is_mask(Op op) {
  return op == Op::Ballot || op == Op::ActiveMask || op == Op::MatchAny || op == Op::MatchAll;
}

std::string short_hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string value_text(DType t, uint64_t bits, bool hex) {
  // Bits beyond a 32-bit type's width are shown rather than silently dropped.
  if (mask_to_width(t, bits) != bits) return format_hex(DType::U64, bits);
  return hex ? format_hex(t, bits) : format_value(t, bits);
}

std::string args_text(const TraceStep& s) {
  const OpArgs& a = s.args;
  auto shuffle = [&](const char* b_name) {
    return std::string(b_name) + "=" + std::to_string(a.b) + " width=" + std::to_string(a.width) +
           " c=" + short_hex(a.c);
  };
  switch (s.op) {
    case Op::ShflIdx: return shuffle("srcLane");
    case Op::ShflUp:
    case Op::ShflDown: return shuffle("delta");
    case Op::ShflXor: return shuffle("laneMask");
    case Op::Watch: return watch_name(a);  // "watch val": the variable, not its packed bytes
    default: break;
  }
  // Other ops take no operands; show any that were recorded anyway.
  const OpArgs defaults;
  std::string text;
  if (a.b != defaults.b) text += " b=" + std::to_string(a.b);
  if (a.width != defaults.width) text += " width=" + std::to_string(a.width);
  if (a.c != defaults.c) text += " c=" + short_hex(a.c);
  return text.empty() ? text : text.substr(1);
}

std::string pad_left(const std::string& s, size_t w) {
  return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}
std::string pad_right(const std::string& s, size_t w) {
  return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
}

// ---- header -------------------------------------------------------------------

std::string dims_text(const Dim3& d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

void dump_header(const Trace& t, std::ostream& out) {
  const TraceMeta& m = t.meta;
  std::string params;
  for (const auto& [key, value] : m.params) params += (params.empty() ? "" : " ") + key + "=" + value;
  out << "scenario  " << m.scenario << "\n"
      << "params    " << (params.empty() ? "(none)" : params) << "\n"
      << "dtype     " << dtype_name(m.dtype) << "\n"
      << "input     " << m.input_spec << "\n"
      << "backend   " << m.backend << "\n"
      << "device    " << m.device;
  if (!m.compute_capability.empty()) out << " (compute capability " << m.compute_capability << ")";
  out << "\n"
      << "grid      " << dims_text(m.grid) << "\n"
      << "block     " << dims_text(m.block) << "\n"
      << "source    " << m.source_path << "\n"
      << "steps     " << t.steps.size() << "\n"
      << "overflow  "
      << (t.overflow ? "yes: the recorder ran out of room, the steps are a prefix" : "no") << "\n";
  // Shortest text that reads back to the same double (format_value's f64 rule).
  const char* label = "measured  ";
  for (const auto& [name, value] : m.measurements) {
    out << label << name << " = " << format_value(DType::F64, std::bit_cast<uint64_t>(value)) << "\n";
    label = "          ";
  }
}

// ---- steps --------------------------------------------------------------------

struct LaneRow {
  std::vector<std::string> cells;
  bool undefined = false;
};

void dump_step(size_t index, const TraceStep& s, std::ostream& out, const DumpOptions& options) {
  const std::string args = args_text(s);
  out << "\nstep " << index << "  block " << s.block << " warp " << s.warp << "  line " << s.line
      << "  " << op_name(s.op) << (args.empty() ? "" : " ") << args
      << " mask=" << format_hex(DType::U32, s.mask) << "  dtype " << dtype_name(s.dtype);

  const bool shared = op_is_shared(s.op);
  bool costed = false;
  BankAnalysis bank;
  if (shared) {
    try {
      bank = analyze_shared_access(shared_access_of(s));
      costed = true;
      out << "  wavefronts " << bank.wavefronts << "  conflicts " << bank.conflicts;
    } catch (const std::invalid_argument& e) {
      out << "  (no bank cost: " << e.what() << ")";  // hand-built step; files never hold one
    }
  }
  out << "\n";

  const DType out_type = op_result_dtype(s.op, s.dtype);
  std::vector<std::string> titles = {"lane", "active", "in", "src", "ok", "out"};
  if (shared) {
    titles.push_back("addr");
    titles.push_back("bytes");
    titles.push_back("bank");
  }
  std::vector<LaneRow> rows;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord& l = s.lanes[lane];
    if (options.active_only && !l.active()) continue;
    LaneRow row;
    row.undefined = l.undefined();
    row.cells.push_back(std::to_string(lane));
    row.cells.push_back(l.active() ? "yes" : "no");
    if (l.active()) {
      row.cells.push_back(value_text(s.dtype, l.in, options.hex));
      row.cells.push_back(l.src == -1 ? "-" : std::to_string(l.src));
      row.cells.push_back(l.ok() ? "yes" : "no");
      const bool mask_hex = result_is_mask(s.op) && mask_to_width(out_type, l.out) == l.out;
      row.cells.push_back(mask_hex ? format_hex(DType::U32, l.out)
                                   : value_text(out_type, l.out, options.hex));
    } else {
      // An inactive lane supplies and receives nothing.
      for (int i = 0; i < 4; ++i) row.cells.push_back("-");
    }
    if (shared) {
      row.cells.push_back(options.hex ? short_hex(l.addr) : std::to_string(l.addr));
      row.cells.push_back(std::to_string(l.bytes));
      row.cells.push_back(costed && l.active() ? std::to_string(bank.bank[lane]) : "-");
    }
    rows.push_back(std::move(row));
  }

  std::vector<size_t> width(titles.size());
  for (size_t c = 0; c < titles.size(); ++c) {
    width[c] = titles[c].size();
    for (const LaneRow& r : rows) width[c] = std::max(width[c], r.cells[c].size());
  }
  // Numbers right-aligned, words left-aligned: lane, in, src, out, addr, bytes are numbers.
  auto is_number_column = [](size_t c) { return c == 0 || c == 2 || c == 3 || c >= 5; };
  auto emit = [&](const std::vector<std::string>& cells, const char* note) {
    std::string line = " ";
    for (size_t c = 0; c < cells.size(); ++c)
      line += "  " + (is_number_column(c) ? pad_left(cells[c], width[c]) : pad_right(cells[c], width[c]));
    if (*note) line += "  " + std::string(note);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  };
  emit(titles, "");
  // The backend's value is shown, but the spec leaves it undefined: mark it loudly.
  for (const LaneRow& r : rows) emit(r.cells, r.undefined ? "UNDEFINED" : "");
}

// ---- outputs ------------------------------------------------------------------

void dump_outputs(const Trace& t, std::ostream& out, const DumpOptions& options) {
  for (const TraceOutput& o : t.outputs) {
    out << "\noutput \"" << o.name << "\" (" << dtype_name(o.dtype) << ", " << o.bits.size()
        << " values)\n";
    const size_t index_width = std::to_string(o.bits.empty() ? 0 : o.bits.size() - 1).size();
    for (size_t i = 0; i < o.bits.size(); ++i)
      out << "  " << pad_left(std::to_string(i), index_width) << ": "
          << value_text(o.dtype, o.bits[i], options.hex) << "\n";
  }
}

}  // namespace

void dump_trace(const Trace& trace, std::ostream& out, const DumpOptions& options) {
  dump_header(trace, out);
  for (size_t i = 0; i < trace.steps.size(); ++i) dump_step(i, trace.steps[i], out, options);
  dump_outputs(trace, out, options);
}

}  // namespace warpviz
