// CSV: a header line of field names, then one line a row; fields quoted only where needed.
#include "report_writers.hpp"

#include "cudalab/cell_format.hpp"
#include "report_record.hpp"

#include "cudalab/report_figures.hpp"

namespace cudalab {
namespace {

// RFC 4180: a field holding a comma, quote or line break is quoted, its quotes doubled.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

void write_csv(std::ostream& out, const std::vector<result_row>& rows,
               const rows_written& progress) {
  const auto collected = collected_metric_names(rows);
  bool header = true;
  std::size_t written = 0;
  for (const auto& row : rows) {
    if (progress && written++ % report_options::rows_per_progress == 0)
      progress(written - 1, rows.size());
    const auto fields = record_of(row, collected);
    if (header) {
      for (std::size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << fields[i].name;
      out << '\n';
      header = false;
    }
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const auto& f = fields[i];
      const std::string value = f.is_text  ? f.text
                                : f.number ? cells::fixed(*f.number, f.decimals)
                                           : "";
      out << (i ? "," : "") << csv_field(value);
    }
    out << '\n';
  }
}

}  // namespace cudalab
