// Nsight Compute's CSV report (`ncu --csv --print-units base --metrics ...`),
// read into per-metric sums over one kernel's launches. Pure text processing.
#pragma once

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace warpviz::cli {

// Text that holds no ncu CSV report (no header row naming the columns).
class NcuCsvError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One CSV record: fields split at commas outside double quotes, quotes
// removed, "" inside quotes read as one quote.
std::vector<std::string> split_csv_record(std::string_view line);

// Whether a kernel name from the report names `kernel` (ScenarioSpec::kernel):
// the demangled name without its return type ("void ") and namespaces
// ("ns::"), starting with `kernel` and followed by nothing, '<' (a template
// instance) or '(' (the parameters).
bool ncu_kernel_matches(std::string_view reported, std::string_view kernel);

// A metric value as ncu prints it: "1,024", "32", "3.5"; false for "n/a" or
// anything else that is not a number.
bool parse_ncu_number(std::string_view text, double* value);

struct NcuMetrics {
  std::map<std::string, double> sums;       // metric name -> sum over the matching launches
  std::set<std::string> launches;           // the "ID" of each matching launch
  std::set<std::string> other_kernels;      // kernel names in the report that did not match
  std::vector<std::string> unreadable;      // "metric = value" rows whose value is not a number
};

// Reads every row of the report whose kernel matches `kernel`. Lines before
// the header row (==PROF== messages, the application's output) and lines that
// are not records of the header's width are skipped. Throws NcuCsvError when
// there is no header row with "Kernel Name", "Metric Name" and "Metric Value".
NcuMetrics parse_ncu_csv(std::string_view text, std::string_view kernel);

}  // namespace warpviz::cli
