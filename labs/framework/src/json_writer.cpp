// JSON: {"device", "copy_roof_gbps", "rows": [one object a row], "counters_note"}, written by
// nlohmann-json so that every string is escaped; numbers keep the digits CSV keeps.
#include "report_writers.hpp"

#include "report_record.hpp"

#include "cudalab/report_figures.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

namespace cudalab {
namespace {

double rounded(double v, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(v * scale) / scale;
}

nlohmann::ordered_json number_value(const record_field& f) {
  if (!f.number) return nullptr;
  if (f.decimals == 0 && std::abs(*f.number) < 9.0e15)
    return static_cast<std::int64_t>(std::llround(*f.number));
  return rounded(*f.number, f.decimals);
}

}  // namespace

void write_json(std::ostream& out, const std::vector<result_row>& rows,
                const report_context& context) {
  const auto collected = collected_metric_names(rows);
  nlohmann::ordered_json doc;
  doc["device"] = context.device;
  doc["copy_roof_gbps"] = rounded(context.copy_gbps, 1);
  doc["rows"] = nlohmann::ordered_json::array();
  for (const auto& row : rows) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (const auto& f : record_of(row, collected))
      object[f.name] = f.is_text ? nlohmann::ordered_json(f.text) : number_value(f);
    doc["rows"].push_back(std::move(object));
  }
  doc["counters_note"] = context.counters_note;
  out << doc.dump(2) << '\n';
}

}  // namespace cudalab
