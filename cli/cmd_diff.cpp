// warpviz-cli diff: compare two traces lane by lane.
#include <iostream>
#include <optional>

#include "cli_command.h"
#include "warpviz/trace_diff.h"
#include "warpviz/trace_io.h"

namespace warpviz::cli {

int run_diff(const Args& args) {
  if (wants_help(args)) {
    std::cout << "usage: warpviz-cli diff A B [--meta] [--undefined] [--strict-order] [--max N] [--max-bytes N]\n"
                 "  Compares two traces step by step and lane by lane; prints the first differences.\n"
                 "  Exit 0 when equal, 1 when they differ, 2 on bad input.\n"
                 "  The paths of a divergent branch are compared path by path: the hardware leaves\n"
                 "  their order open, so paths that ran in another order with the same results are\n"
                 "  equal, and the diff says how each trace interleaved them.\n"
                 "  --meta          also compare scenario, parameters, dtype, input, grid and block, and measurements\n"
                 "  --undefined     also compare values of lanes marked undefined (skipped by default)\n"
                 "  --strict-order  compare the steps in recorded order: another interleaving is a difference\n"
                 "  --max N         print at most N differences (default 20)\n"
              << kMaxBytesHelp;
    return 0;
  }
  std::vector<std::string> paths;
  TraceDiffOptions options;
  options.paths_in_any_order = true;
  std::optional<uint64_t> max_bytes;  // unset: max_trace_bytes()
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--meta") {
      options.compare_meta = true;
    } else if (a == "--undefined") {
      options.skip_undefined = false;
    } else if (a == "--strict-order") {
      options.paths_in_any_order = false;
    } else if (a == "--max") {
      const std::string n = option_value(args, i);
      const auto v = parse_value(DType::U32, n);
      if (!v || *v == 0) throw UsageError("--max takes a positive count, got '" + n + "'");
      options.max_differences = size_t(*v);
    } else if (a == "--max-bytes") {
      max_bytes = max_bytes_value(args, i);
    } else if (a.size() > 1 && a[0] == '-') {  // "-" is stdin
      throw UsageError("unknown option '" + a + "'");
    } else {
      paths.push_back(a);
    }
  }
  if (paths.size() != 2) throw UsageError("diff takes exactly two trace files");
  if (paths[0] == "-" && paths[1] == "-") throw UsageError("standard input (-) can be only one of the two traces");
  const uint64_t limit = max_bytes ? *max_bytes : max_trace_bytes();
  const Trace a = load_trace(paths[0], limit);
  const Trace b = load_trace(paths[1], limit);
  size_t total = 0;
  std::vector<PathInterleaving> interleavings;
  const auto differences = diff_traces(a, b, options, &total, &interleavings);
  // "GPU"/"CPU" from the traces' backends; the file names when those say nothing apart.
  std::string a_name = backend_label(a, paths[0]), b_name = backend_label(b, paths[1]);
  if (a_name == b_name) a_name = paths[0], b_name = paths[1];
  if (differences.empty()) {
    if (interleavings.empty()) {
      std::cout << "traces are identical (" << counted(a.steps.size(), "step") << ", " << counted(a.outputs.size(), "output")
                << ")\n";
    } else {
      std::cout << "traces are equal path by path (" << counted(a.steps.size(), "step") << ", "
                << counted(a.outputs.size(), "output") << "); divergent paths ran in another order:\n";
      for (const PathInterleaving& p : interleavings) std::cout << "  " << describe_interleaving(p, a_name, b_name) << "\n";
    }
    return 0;
  }
  std::cout << total << " difference" << (total == 1 ? "" : "s") << " between " << paths[0] << " and " << paths[1]
            << ":\n";
  for (const auto& d : differences) std::cout << "  " << d.where << ": " << d.a << " vs " << d.b << "\n";
  if (total > differences.size()) std::cout << "  ... " << total - differences.size() << " more\n";
  for (const PathInterleaving& p : interleavings)
    std::cout << "  (also) " << describe_interleaving(p, a_name, b_name) << "\n";
  return 1;
}

}  // namespace warpviz::cli
