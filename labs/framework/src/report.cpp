#include "cudalab/report.hpp"

#include "cudalab/check.hpp"
#include "cudalab/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace cudalab {

output_format parse_output_format(std::string_view text) {
  if (text == "table") return output_format::table;
  if (text == "csv") return output_format::csv;
  if (text == "json") return output_format::json;
  throw usage_error("--format '" + std::string(text) + "': use table, csv or json");
}

namespace {

// The deterministic metrics compared with the model, in display order.
const char* const compared_metrics[] = {
    "ld_requests",          "ld_sectors",           "st_requests",         "st_sectors",
    "shared_ld_wavefronts", "shared_st_wavefronts", "shared_ld_conflicts", "shared_st_conflicts",
    "thread_efficiency",    "branch_uniformity",    "divergent_branches",  "instructions",
    "thread_instructions",  "uniform_branches"};
// Compared (and in CSV/JSON) but left out of the table, which shows the ratios they make.
const char* const untabled_metrics[] = {"instructions", "thread_instructions", "uniform_branches"};
bool is_untabled(const std::string& metric) {
  return std::find(std::begin(untabled_metrics), std::end(untabled_metrics), metric) !=
         std::end(untabled_metrics);
}
// Ratios of exact counts: equal when the counts are, up to the printed precision.
bool is_ratio(const std::string& metric) {
  return metric == "thread_efficiency" || metric == "branch_uniformity";
}

std::optional<double> predicted_value(const result_row& row, const std::string& metric) {
  if (!row.predicted) return std::nullopt;
  const auto values = row.predicted->by_metric();
  const auto it = values.find(metric);
  if (it == values.end()) return std::nullopt;
  return it->second;
}

std::optional<double> measured_value(const result_row& row, const std::string& metric) {
  if (!row.counters.available) return std::nullopt;
  return row.counters.get(metric);
}

std::optional<double> ratio(std::optional<double> a, std::optional<double> b) {
  if (!a || !b || *b == 0) return std::nullopt;
  return *a / *b;
}

std::string fmt(double v, int decimals = 0) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(decimals) << v;
  return s.str();
}

std::string fmt_count(double v) {
  // Thousands separators make counters readable: 1,179,648.
  std::string digits = fmt(v, 0);
  std::string out;
  const bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.erase(0, 1);
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return negative ? "-" + out : out;
}

std::string opt(std::optional<double> v, int decimals = 0, bool count = false) {
  if (!v) return "-";
  return count ? fmt_count(*v) : fmt(*v, decimals);
}

std::string json_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string csv_escape(std::string_view s) {
  if (s.find_first_of(",\"\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Every metric that any row measured, by short name where the catalogue knows it.
std::vector<std::string> measured_metric_names(const std::vector<result_row>& rows) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const auto& info : metric_catalogue())
    for (const auto& row : rows)
      if (row.counters.available && row.counters.totals.count(info.cupti_name) &&
          seen.insert(info.short_name).second)
        names.push_back(info.short_name);
  for (const auto& row : rows)
    for (const auto& [cupti, value] : row.counters.totals)
      if (!find_metric(cupti) && seen.insert(cupti).second) names.push_back(cupti);
  return names;
}

struct column {
  std::string header;
  bool left = false;
};

void print_table(std::ostream& out, const std::vector<column>& columns,
                 const std::vector<std::vector<std::string>>& cells) {
  std::vector<std::size_t> width(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) {
    width[c] = columns[c].header.size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](auto&& get, bool header) {
    std::string text;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const std::string& v = get(c);
      const std::size_t pad = width[c] - v.size();
      if (c) text += "  ";
      if (columns[c].left || header) text += v + std::string(pad, ' ');
      else text += std::string(pad, ' ') + v;
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << '\n';
  };
  line([&](std::size_t c) -> const std::string& { return columns[c].header; }, true);
  for (const auto& row : cells) line([&](std::size_t c) -> const std::string& { return row[c]; }, false);
}

bool any_sweep(const std::vector<result_row>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const result_row& r) { return r.sweep_name.has_value(); });
}

std::string check_cell(const result_row& row) {
  if (!row.measured) return row.check.detail.empty() ? "n/a" : row.check.detail;
  return (row.check.ok ? "ok" : "FAIL") + (row.check.detail.empty() ? "" : " (" + row.check.detail + ")");
}

std::string model_cell(const result_row& row) {
  if (!row.predicted) return "no model";
  if (!row.counters.available) return "n/a";
  const auto bad = model_mismatches(row);
  const auto outside = band_outliers(row);
  if (bad.empty() && outside.empty()) return "= model";
  std::string text;
  if (!bad.empty()) {
    text = "MISMATCH:";
    for (const auto& m : bad) text += " " + m;
  }
  if (!outside.empty()) {
    text += text.empty() ? "above band:" : "; above band:";
    for (const auto& m : outside) text += " " + m;
  }
  return text;
}

void write_table(std::ostream& out, const std::vector<result_row>& rows,
                 const report_context& context) {
  const bool sweep = any_sweep(rows);
  std::vector<column> columns{{"variant", true}, {"role", true}};
  if (sweep) columns.push_back({"param", true});
  for (const char* h : {"size", "block", "grid", "time(ms)", "min..max(ms)", "GB/s", "%peak"})
    columns.push_back({h});
  // Where a layout moves more than the problem's bytes (padding), the share that is payload.
  const bool padded = std::any_of(rows.begin(), rows.end(),
                                  [](const result_row& r) { return r.ideal.payload_bytes > 0; });
  if (padded) columns.push_back({"payload"});
  // Counters: measured beside predicted for the compared metrics that have a value anywhere.
  std::vector<std::string> shown;
  for (const char* m : compared_metrics)
    for (const auto& row : rows)
      if (!is_untabled(m) && (measured_value(row, m) || predicted_value(row, m))) {
        shown.push_back(m);
        break;
      }
  std::map<std::string, std::string> headers{
      {"ld_requests", "ld req"}, {"ld_sectors", "ld sect"}, {"st_requests", "st req"},
      {"st_sectors", "st sect"}, {"shared_ld_wavefronts", "lds wavef"},
      {"shared_st_wavefronts", "sts wavef"}, {"shared_ld_conflicts", "lds confl"},
      {"shared_st_conflicts", "sts confl"}, {"thread_efficiency", "thr/inst"},
      {"branch_uniformity", "uniform%"}, {"divergent_branches", "div br"}};
  for (const auto& m : shown) {
    columns.push_back({headers[m] + " meas"});
    columns.push_back({"pred"});
    if (m == "ld_sectors" || m == "st_sectors")
      columns.push_back({std::string(m == "ld_sectors" ? "ld" : "st") + " sect/req meas|pred"});
  }
  // Other measured metrics (DRAM, divergence) print as they are.
  std::vector<std::string> extra;
  for (const auto& m : measured_metric_names(rows))
    if (std::find(shown.begin(), shown.end(), m) == shown.end() && !is_untabled(m))
      extra.push_back(m);
  for (const auto& m : extra) columns.push_back({m});
  const bool dram = std::find(extra.begin(), extra.end(), "dram_read_bytes") != extra.end();
  if (dram) columns.push_back({"DRAM/ideal"});
  columns.push_back({"check", true});
  columns.push_back({"model", true});

  std::vector<std::vector<std::string>> cells;
  for (const auto& row : rows) {
    std::vector<std::string> c{row.variant_name, std::string(to_string(row.role))};
    if (sweep) c.push_back(row.sweep_name ? *row.sweep_name + "=" + std::to_string(row.config.param) : "");
    c.push_back(fmt_count(static_cast<double>(row.config.size)));
    c.push_back(std::to_string(row.config.block));
    c.push_back(row.measured ? fmt_count(static_cast<double>(row.shape.grid_x * row.shape.grid_y)) : "-");
    if (row.measured) {
      c.push_back(fmt(row.time.median_ms, 4));
      c.push_back(fmt(row.time.min_ms, 4) + ".." + fmt(row.time.max_ms, 4));
      c.push_back(fmt(row.gbps, 1));
      c.push_back(fmt(row.pct_of_roof, 1));
    } else {
      for (int i = 0; i < 4; ++i) c.push_back("-");
    }
    if (padded)
      c.push_back(row.ideal.bytes > 0 ? fmt(100.0 * row.ideal.payload() / row.ideal.bytes, 0) + "%"
                                      : "-");
    const auto checks = compare_with_model(row);
    for (const auto& m : shown) {
      auto meas = measured_value(row, m);
      const int decimals = is_ratio(m) ? 2 : 0;
      std::string cell = row.counters.available ? opt(meas, decimals, !is_ratio(m)) : "n/a";
      for (const auto& k : checks)
        if (k.metric == m && !k.within) cell += " !";
      c.push_back(cell);
      c.push_back(opt(predicted_value(row, m), decimals, !is_ratio(m)));
      if (m == "ld_sectors" || m == "st_sectors") {
        const std::string req = m == "ld_sectors" ? "ld_requests" : "st_requests";
        c.push_back(opt(ratio(meas, measured_value(row, req)), 2) + "|" +
                    opt(ratio(predicted_value(row, m), predicted_value(row, req)), 2));
      }
    }
    for (const auto& m : extra) {
      auto v = measured_value(row, m);
      const metric_info* info = find_metric(m);
      const bool integral = info && (info->unit == "bytes" || info->unit == "sectors" ||
                                     info->unit == "instructions" || info->unit == "requests");
      c.push_back(row.counters.available ? opt(v, integral ? 0 : 2, integral) : "n/a");
    }
    if (dram) {
      auto rd = measured_value(row, "dram_read_bytes");
      auto wr = measured_value(row, "dram_write_bytes");
      c.push_back(rd && row.ideal.bytes > 0 ? fmt((*rd + wr.value_or(0)) / row.ideal.bytes, 2) + "x"
                                            : "-");
    }
    c.push_back(check_cell(row));
    c.push_back(model_cell(row));
    cells.push_back(std::move(c));
  }
  if (!context.device.empty())
    out << "device: " << context.device << "   copy roof (cudaMemcpy D2D): " << fmt(context.copy_gbps, 0)
        << " GB/s\n";
  print_table(out, columns, cells);
  if (!context.counters_note.empty()) out << "counters: n/a (" << context.counters_note << ")\n";
}

// The flat record of a row: the same fields in CSV and JSON.
std::vector<std::pair<std::string, std::string>> record(const result_row& row,
                                                        const std::vector<std::string>& measured,
                                                        std::vector<bool>& is_text) {
  std::vector<std::pair<std::string, std::string>> f;
  is_text.clear();
  auto text = [&](std::string k, std::string v) { f.emplace_back(std::move(k), std::move(v)); is_text.push_back(true); };
  auto num = [&](std::string k, std::optional<double> v, int d = 6) {
    f.emplace_back(std::move(k), v ? fmt(*v, d) : "");
    is_text.push_back(false);
  };
  text("lab", row.lab_id);
  text("variant", row.variant_name);
  text("role", std::string(to_string(row.role)));
  text("sweep", row.sweep_name.value_or(""));
  num("param", static_cast<double>(row.config.param), 0);
  num("size", static_cast<double>(row.config.size), 0);
  num("block", row.config.block, 0);
  num("grid", row.measured ? std::optional<double>(static_cast<double>(row.shape.grid_x * row.shape.grid_y)) : std::nullopt, 0);
  num("threads_launched", row.measured ? std::optional<double>(static_cast<double>(row.shape.threads_launched())) : std::nullopt, 0);
  num("threads_needed", row.measured ? std::optional<double>(static_cast<double>(row.shape.threads_needed)) : std::nullopt, 0);
  const auto timed = [&](double v) { return row.measured ? std::optional<double>(v) : std::nullopt; };
  num("time_ms_median", timed(row.time.median_ms));
  num("time_ms_min", timed(row.time.min_ms));
  num("time_ms_max", timed(row.time.max_ms));
  num("repeats", timed(row.time.repeats), 0);
  num("ideal_bytes", row.ideal.bytes, 0);
  num("gbps", timed(row.gbps), 2);
  num("pct_of_copy_roof", timed(row.pct_of_roof), 2);
  num("payload_bytes", row.ideal.payload(), 0);
  num("payload_gbps", timed(row.payload_gbps), 2);
  text("verified", row.measured ? (row.check.ok ? "ok" : "FAIL") : "n/a");
  text("verify_detail", row.check.detail);
  text("counters", row.counters.available ? "ok" : "n/a (" + row.counters.reason + ")");
  for (const char* m : compared_metrics) {
    num(std::string(m) + "_measured", measured_value(row, m), is_ratio(m) ? 4 : 0);
    num(std::string(m) + "_predicted", predicted_value(row, m), is_ratio(m) ? 4 : 0);
  }
  for (const char* side : {"ld", "st"}) {
    const std::string s(side);
    num(s + "_sectors_per_request_measured",
        ratio(measured_value(row, s + "_sectors"), measured_value(row, s + "_requests")), 4);
    num(s + "_sectors_per_request_predicted",
        ratio(predicted_value(row, s + "_sectors"), predicted_value(row, s + "_requests")), 4);
  }
  // Transfer efficiency: useful bytes over the bytes of the sectors moved.
  if (row.predicted) {
    const double sectors = static_cast<double>(row.predicted->global_ld_sectors + row.predicted->global_st_sectors);
    const double useful = static_cast<double>(row.predicted->global_ld_bytes + row.predicted->global_st_bytes);
    num("transfer_efficiency_predicted", sectors > 0 ? std::optional<double>(useful / (32.0 * sectors)) : std::nullopt, 4);
  } else {
    num("transfer_efficiency_predicted", std::nullopt);
  }
  for (const auto& m : measured)
    if (std::find(std::begin(compared_metrics), std::end(compared_metrics), m) == std::end(compared_metrics))
      num(m, measured_value(row, m), 4);
  std::string mism, outside;
  for (const auto& m : model_mismatches(row)) mism += (mism.empty() ? "" : " ") + m;
  for (const auto& m : band_outliers(row)) outside += (outside.empty() ? "" : " ") + m;
  text("model_mismatch", mism);
  text("above_shared_band", outside);
  return f;
}

}  // namespace

std::vector<metric_check> compare_with_model(const result_row& row) {
  std::vector<metric_check> checks;
  if (!row.predicted || !row.counters.available) return checks;
  for (const char* m : compared_metrics) {
    const auto meas = measured_value(row, m);
    const auto pred = predicted_value(row, m);
    if (!meas || !pred) continue;
    metric_check k{m, *meas, *pred, true, true};
    const std::string name(m);
    if (name.rfind("shared_", 0) == 0) {
      // Shared-memory counters run above the formula on real hardware: see
      // shared_band_fraction in report.hpp.
      k.exact = false;
      const std::string wavefronts = name.find("_ld_") != std::string::npos ? "shared_ld_wavefronts"
                                                                           : "shared_st_wavefronts";
      const double band = shared_band_fraction * predicted_value(row, wavefronts).value_or(0) + 2;
      k.within = *meas >= *pred && *meas <= *pred + band;
    } else if (is_ratio(name)) {
      // Ratios of exact counts, computed in floating point on both sides.
      k.within = std::abs(*meas - *pred) <= 1e-6 * std::max(1.0, std::abs(*pred));
    } else {
      k.within = *meas == *pred;
    }
    checks.push_back(k);
  }
  return checks;
}

std::vector<std::string> model_mismatches(const result_row& row) {
  std::vector<std::string> bad;
  for (const auto& k : compare_with_model(row))
    if (!k.within && k.exact) bad.push_back(k.metric);
  return bad;
}

std::vector<std::string> band_outliers(const result_row& row) {
  std::vector<std::string> out;
  for (const auto& k : compare_with_model(row))
    if (!k.within && !k.exact) out.push_back(k.metric);
  return out;
}

void write_report(std::ostream& out, const std::vector<result_row>& rows, output_format format,
                  const report_context& context) {
  if (format == output_format::table) {
    write_table(out, rows, context);
    return;
  }
  const auto measured = measured_metric_names(rows);
  std::vector<bool> is_text;
  if (format == output_format::csv) {
    bool header = true;
    for (const auto& row : rows) {
      const auto f = record(row, measured, is_text);
      if (header) {
        for (std::size_t i = 0; i < f.size(); ++i) out << (i ? "," : "") << f[i].first;
        out << '\n';
        header = false;
      }
      for (std::size_t i = 0; i < f.size(); ++i) out << (i ? "," : "") << csv_escape(f[i].second);
      out << '\n';
    }
    return;
  }
  out << "{\n  \"device\": \"" << json_escape(context.device) << "\",\n  \"copy_roof_gbps\": "
      << fmt(context.copy_gbps, 1) << ",\n  \"rows\": [";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto f = record(rows[r], measured, is_text);
    out << (r ? ",\n    {" : "\n    {");
    for (std::size_t i = 0; i < f.size(); ++i) {
      out << (i ? ", " : "") << '"' << f[i].first << "\": ";
      if (is_text[i]) out << '"' << json_escape(f[i].second) << '"';
      else out << (f[i].second.empty() ? "null" : f[i].second);
    }
    out << "}";
  }
  out << (rows.empty() ? "]\n}\n" : "\n  ]\n}\n");
}

}  // namespace cudalab
