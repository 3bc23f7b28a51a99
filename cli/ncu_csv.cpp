#include "ncu_csv.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace warpviz::cli {

std::vector<std::string> split_csv_record(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

bool ncu_kernel_matches(std::string_view reported, std::string_view kernel) {
  if (kernel.empty()) return false;
  std::string_view name = reported;
  while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
  if (name.substr(0, 5) == "void ") name.remove_prefix(5);
  // Namespaces end at the last "::" before the template arguments or parameters.
  const size_t open = name.find_first_of("<(");
  const size_t scope = name.substr(0, open).rfind("::");
  if (scope != std::string_view::npos) name.remove_prefix(scope + 2);
  if (name.substr(0, kernel.size()) != kernel) return false;
  return name.size() == kernel.size() || name[kernel.size()] == '<' || name[kernel.size()] == '(';
}

bool parse_ncu_number(std::string_view text, double* value) {
  std::string digits;
  for (char c : text)
    if (c != ',' && c != ' ') digits += c;  // thousands separators
  if (digits.empty()) return false;
  const char* begin = digits.c_str();
  char* end = nullptr;
  const double v = std::strtod(begin, &end);
  if (end != begin + digits.size()) return false;
  if (!std::isfinite(v)) return false;
  *value = v;
  return true;
}

namespace {

int column_of(const std::vector<std::string>& header, std::string_view name) {
  const auto it = std::find(header.begin(), header.end(), name);
  return it == header.end() ? -1 : int(it - header.begin());
}

}  // namespace

NcuMetrics parse_ncu_csv(std::string_view text, std::string_view kernel) {
  NcuMetrics metrics;
  std::vector<std::string> header;
  int id_col = -1, kernel_col = -1, name_col = -1, value_col = -1;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    // Records are quoted; ==PROF== lines and the application's output are not.
    if (line.empty() || line.front() != '"') continue;
    std::vector<std::string> fields = split_csv_record(line);
    if (header.empty()) {
      if (column_of(fields, "Metric Name") < 0) continue;
      header = std::move(fields);
      id_col = column_of(header, "ID");
      kernel_col = column_of(header, "Kernel Name");
      name_col = column_of(header, "Metric Name");
      value_col = column_of(header, "Metric Value");
      if (kernel_col < 0 || value_col < 0)
        throw NcuCsvError("the ncu report's header has no \"Kernel Name\" or \"Metric Value\" column");
      continue;
    }
    if (fields.size() != header.size()) continue;
    const std::string& reported = fields[size_t(kernel_col)];
    if (!ncu_kernel_matches(reported, kernel)) {
      metrics.other_kernels.insert(reported);
      continue;
    }
    if (id_col >= 0) metrics.launches.insert(fields[size_t(id_col)]);
    const std::string& metric = fields[size_t(name_col)];
    double value = 0;
    if (parse_ncu_number(fields[size_t(value_col)], &value))
      metrics.sums[metric] += value;
    else
      metrics.unreadable.push_back(metric + " = " + fields[size_t(value_col)]);
  }
  if (header.empty())
    throw NcuCsvError("no ncu CSV report found (no header row with \"Metric Name\")");
  return metrics;
}

}  // namespace warpviz::cli
