// JSON: {"device", "copy_roof_gbps", "rows": [one object a row], "counters_note"}, written by
// nlohmann-json so that every string is escaped; numbers keep the digits CSV keeps.
#include "report_writers.hpp"

#include "report_record.hpp"

#include "cudalab/cell_format.hpp"

#include "cudalab/report_figures.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace cudalab {
namespace {

// The number CSV prints, read back: both formats round a tie the same way (31.28125 to 4
// decimals is 31.2812 in each; rounding half away from zero here gave 31.2813 beside it).
double rounded(double v, int decimals) {
  if (!std::isfinite(v)) return v;
  return std::stod(cells::fixed(v, decimals));
}

nlohmann::ordered_json number_value(const record_field& f) {
  if (!f.number) return nullptr;
  if (f.decimals == 0 && std::abs(*f.number) < 9.0e15)
    return static_cast<std::int64_t>(std::llround(*f.number));
  return rounded(*f.number, f.decimals);
}

}  // namespace

void write_json(std::ostream& out, const std::vector<result_row>& rows,
                const report_context& context, const rows_written& progress) {
  // The document nlohmann's dump(2) would print, one row at a time: the rows are never held
  // as one document beside the text.
  const auto collected = collected_metric_names(rows);
  out << "{\n  \"device\": " << nlohmann::ordered_json(context.device).dump()
      << ",\n  \"copy_roof_gbps\": "
      << nlohmann::ordered_json(rounded(context.roof.gbps(), 1)).dump()
      << ",\n  \"copy_memcpy_gbps\": "
      << nlohmann::ordered_json(rounded(context.roof.memcpy_gbps, 1)).dump()
      << ",\n  \"copy_kernel_gbps\": "
      << nlohmann::ordered_json(rounded(context.roof.kernel_gbps, 1)).dump() << ",\n  \"rows\": [";
  std::size_t written = 0;
  for (const auto& row : rows) {
    if (progress && written % report_options::rows_per_progress == 0)
      progress(written, rows.size());
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (const auto& f : record_of(row, collected))
      object[f.name] = f.is_text ? nlohmann::ordered_json(f.text) : number_value(f);
    std::string text = object.dump(2);
    // Indented one level deeper, as the row sits inside "rows".
    for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 1))
      text.insert(at + 1, "    ");
    out << (written++ ? ",\n    " : "\n    ") << text;
  }
  out << (rows.empty() ? "]" : "\n  ]")
      << ",\n  \"counters_note\": " << nlohmann::ordered_json(context.counters_note).dump()
      << "\n}\n";
}

}  // namespace cudalab
