#include "row_cells.hpp"

#include "cudalab/cell_format.hpp"

#include "cudalab/model_verdict.hpp"

namespace cudalab::cells {

std::string variant_label(const result_row& row) {
  if (!row.sweep_name) return row.variant_name;
  const std::string point = *row.sweep_name + "=" + std::to_string(row.config.param);
  return *row.sweep_name == row.variant_name ? point : row.variant_name + " " + point;
}

std::optional<long> block_threads(const result_row& row) {
  if (row.shape.known()) return static_cast<long>(row.shape.block_x) * row.shape.block_y;
  if (!row.measured && row.block_from_config) return row.config.block;
  return std::nullopt;
}

std::string block(const result_row& row) {
  const std::optional<long> threads = block_threads(row);
  return threads ? std::to_string(*threads) : "-";
}

std::string registers(const result_row& row) {
  if (row.resources.empty()) return "-";
  const kernel_resources& k = row.resources.front();
  return std::to_string(k.registers) + (k.spills() ? " spill" : "");
}

std::string occupancy(const result_row& row) {
  if (row.resources.empty()) return "-";
  return fixed(row.resources.front().occupancy_pct(), 0) + "%";
}

std::string verification(const result_row& row, bool with_detail) {
  if (!row.measured)
    return with_detail && !row.verification.detail.empty() ? row.verification.detail : "n/a";
  const std::string word = row.verification.ok ? "ok" : "FAIL";
  if (!with_detail || row.verification.detail.empty()) return word;
  return word + " (" + row.verification.detail + ")";
}

namespace {

std::string named(const std::string& lead, const std::vector<std::string>& names, bool all) {
  if (names.empty()) return "";
  if (!all)
    return lead + " " + names.front() +
           (names.size() > 1 ? " +" + std::to_string(names.size() - 1) : "");
  std::string text = lead + ":";
  for (const auto& n : names) text += " " + n;
  return text;
}

}  // namespace

std::string model_verdict(const result_row& row, verdict_length length) {
  if (!row.predicted) return length == verdict_length::compact ? "none" : "no model";
  if (!row.counters.available) return "n/a";
  const auto bad = model_mismatches(row);
  if (!bad.empty())
    return length == verdict_length::names ? named("MISMATCH", bad, false) : "MISMATCH";
  return "= model";
}

std::string model_verdict_in_full(const result_row& row) {
  if (!row.predicted) return "no model";
  if (!row.counters.available) return "n/a";
  const std::string bad = named("MISMATCH", model_mismatches(row), true);
  return bad.empty() ? "= model" : bad;
}

std::string figure_value(const figure& f, double v, bool compact) {
  if (f.decimals == 0) return (compact ? compact_count(v) : with_separators(v)) + f.suffix;
  int decimals = f.decimals;
  if (f.tells_apart_from_one && v != 1.0)
    while (decimals < 9 && fixed(v, decimals) == fixed(1.0, decimals)) ++decimals;
  return fixed(v, decimals) + f.suffix;
}

std::string headline(const result_row& row, const figure& f, headline_style style) {
  const auto measured = f.measured(row);
  const auto predicted = f.predicted(row);
  if (!measured) {
    if (const std::string why = missing_reason(row, f); !why.empty())
      return style.explain_missing ? "n/a (" + why + ")" : "n/a";
    return predicted ? "pred " + figure_value(f, *predicted, true) : "-";
  }
  const bool off_model = differs_from_model(row, f);
  const std::string mark = off_model ? " !" : "";
  std::string meas = figure_value(f, *measured, true);
  if (!style.show_prediction || !predicted || *predicted == *measured) return meas + mark;
  std::string pred = figure_value(f, *predicted, true);
  if (pred == meas) {
    if (!off_model) return meas;  // equal to the printed precision and within the model
    // Differs beyond the printed digits: print enough of them to see where.
    figure precise = f;
    for (int decimals = f.decimals; pred == meas && decimals <= 6; ++decimals) {
      precise.decimals = decimals;
      meas = figure_value(precise, *measured, false);
      pred = figure_value(precise, *predicted, false);
    }
  }
  return meas + " (pred " + pred + ")" + mark;
}

}  // namespace cudalab::cells
