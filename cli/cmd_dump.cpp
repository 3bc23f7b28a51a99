// warpviz-cli dump: a trace as a table for people, or its JSON form.
#include <iostream>
#include <optional>

#include "cli_command.h"
#include "warpviz/trace_dump.h"
#include "warpviz/trace_io.h"

namespace warpviz::cli {

int run_dump(const Args& args) {
  if (wants_help(args)) {
    std::cout << "usage: warpviz-cli dump FILE [--json] [--hex] [--active-only] [--max-bytes N]\n"
                 "  Prints a trace (.wvt or .json): per step, the 32 lanes' active flag, value in,\n"
                 "  source lane, in-range predicate and value out. Undefined reads are marked.\n"
                 "  --json prints the JSON form, --hex shows exact bits, --active-only hides idle lanes.\n"
              << kMaxBytesHelp;
    return 0;
  }
  std::string path;
  bool json = false;
  DumpOptions options;
  std::optional<uint64_t> max_bytes;  // unset: max_trace_bytes()
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") json = true;
    else if (a == "--hex") options.hex = true;
    else if (a == "--active-only") options.active_only = true;
    else if (a == "--max-bytes") max_bytes = max_bytes_value(args, i);
    else if (a.size() > 1 && a[0] == '-') throw UsageError("unknown option '" + a + "'");  // "-" is stdin
    else if (path.empty()) path = a;
    else throw UsageError("unexpected argument '" + a + "'");
  }
  if (path.empty()) throw UsageError("which trace file?");
  const Trace trace = load_trace(path, max_bytes ? *max_bytes : max_trace_bytes());
  if (json) std::cout << trace_to_json(trace) << "\n";
  else dump_trace(trace, std::cout, options);
  return 0;
}

}  // namespace warpviz::cli
