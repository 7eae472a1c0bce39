// The full view (`--view full`): every column, each compared counter measured beside its
// prediction, every other counter the run collected, the verification's detail and every
// metric the verdict names. As wide as it needs to be.
#include "report_writers.hpp"

#include "cudalab/cell_format.hpp"
#include "cudalab/model_verdict.hpp"
#include "row_cells.hpp"
#include "text_table.hpp"

#include "cudalab/metrics.hpp"

#include <algorithm>

namespace cudalab {
namespace {

// Compared but left out of this table, which shows the ratios they make.
bool shown_as_ratio_only(const std::string& metric) {
  return metric == "instructions" || metric == "thread_instructions" ||
         metric == "uniform_branches";
}

// A measured figure: its value, `n/a (why)` for a counter not collected, `n/a` without counters.
std::string measured_cell(const result_row& row, const figure& f) {
  if (!row.counters.available) return "n/a";
  if (const auto v = f.measured(row)) return cells::figure_value(f, *v, false);
  const std::string why = missing_reason(row, f);
  return why.empty() ? "-" : "n/a (" + why + ")";
}

std::string predicted_cell(const result_row& row, const figure& f) {
  const auto v = f.predicted(row);
  return v ? cells::figure_value(f, *v, false) : "-";
}

}  // namespace

void write_full_view(std::ostream& out, const std::vector<result_row>& rows,
                     const report_context& context) {
  const bool sweep = std::any_of(rows.begin(), rows.end(),
                                 [](const result_row& r) { return r.sweep_name.has_value(); });
  std::vector<text_column> columns{{"variant", true}, {"role", true}};
  if (sweep) columns.push_back({"param", true});
  for (const char* h : {"size", "block", "grid", "time(ms)", "min..max(ms)", "GB/s", "%copy"})
    columns.push_back({h});
  // Where a layout moves more than the problem's bytes (padding), the share that is payload.
  const bool padded = std::any_of(rows.begin(), rows.end(),
                                  [](const result_row& r) { return r.ideal.payload_bytes > 0; });
  if (padded) columns.push_back({"payload"});

  // Compared counters with a value anywhere: measured, predicted (and sectors per request).
  std::vector<const figure*> compared;
  for (const auto& name : metrics_held_to_model()) {
    if (shown_as_ratio_only(name)) continue;
    const figure* f = find_figure(name);
    if (std::any_of(rows.begin(), rows.end(), [&](const result_row& r) {
          return f->measured(r) || f->predicted(r) || !missing_reason(r, *f).empty();
        }))
      compared.push_back(f);
  }
  for (const figure* f : compared) {
    columns.push_back({f->header + " meas"});
    columns.push_back({"pred"});
    if (f->name == "ld_sectors" || f->name == "st_sectors")
      columns.push_back({f->name.substr(0, 2) + " sect/req meas|pred"});
  }
  // Other counters the run collected (DRAM, instruction counts), as they are.
  std::vector<std::string> others;
  for (const auto& name : collected_metric_names(rows)) {
    const bool is_compared = std::any_of(compared.begin(), compared.end(),
                                         [&](const figure* f) { return f->name == name; });
    if (!is_compared && !shown_as_ratio_only(name)) others.push_back(name);
  }
  for (const auto& name : others) columns.push_back({name});
  const bool dram = std::find(others.begin(), others.end(), "dram_read_bytes") != others.end();
  if (dram) columns.push_back({"DRAM/ideal"});
  columns.push_back({"verify", true});
  columns.push_back({"model", true});

  std::vector<std::vector<std::string>> cells;
  for (const auto& row : rows) {
    std::vector<std::string> c{row.variant_name, std::string(to_string(row.role))};
    if (sweep)
      c.push_back(row.sweep_name ? *row.sweep_name + "=" + std::to_string(row.config.param) : "");
    c.push_back(cells::with_separators(static_cast<double>(row.config.size)));
    c.push_back(cells::block(row));
    c.push_back(row.shape.known() ? cells::with_separators(
                                        static_cast<double>(row.shape.grid_x * row.shape.grid_y))
                                  : "-");
    if (row.measured) {
      c.push_back(cells::fixed(row.time.median_ms, 4));
      c.push_back(cells::fixed(row.time.min_ms, 4) + ".." + cells::fixed(row.time.max_ms, 4));
      c.push_back(cells::fixed(row.gbps, 1));
      c.push_back(cells::fixed(row.pct_of_roof, 1));
    } else {
      c.insert(c.end(), 4, "-");
    }
    if (padded)
      c.push_back(row.ideal.bytes > 0
                      ? cells::fixed(100.0 * row.ideal.payload() / row.ideal.bytes, 0) + "%"
                      : "-");
    for (const figure* f : compared) {
      c.push_back(measured_cell(row, *f) + (differs_from_model(row, *f) ? " !" : ""));
      c.push_back(predicted_cell(row, *f));
      if (f->name == "ld_sectors" || f->name == "st_sectors") {
        const figure& per_request = *find_figure(f->name.substr(0, 2) + "_sectors_per_request");
        const auto meas = per_request.measured(row), pred = per_request.predicted(row);
        c.push_back((meas ? cells::fixed(*meas, 2) : "-") + "|" +
                    (pred ? cells::fixed(*pred, 2) : "-"));
      }
    }
    for (const auto& name : others) {
      if (const figure* f = find_figure(name)) {
        // Catalogue counts print as integers; other catalogue values with two decimals.
        figure shown = *f;
        const metric_info* info = find_metric(name);
        const bool integral = info->unit == "bytes" || info->unit == "sectors" ||
                              info->unit == "instructions" || info->unit == "requests" ||
                              info->unit == "replays" || info->unit == "wavefronts" ||
                              info->unit == "conflicts";
        shown.decimals = integral ? 0 : 2;
        c.push_back(measured_cell(row, shown));
      } else if (!row.counters.available) {
        c.push_back("n/a");
      } else if (const auto v = row.counters.get(name)) {
        c.push_back(cells::fixed(*v, 2));
      } else {
        const auto why = row.counters.missing.find(name);
        c.push_back(why == row.counters.missing.end() ? "-" : "n/a (" + why->second + ")");
      }
    }
    if (dram) {
      const auto v = find_figure("dram_per_ideal")->measured(row);
      c.push_back(v ? cells::fixed(*v, 2) + "x" : "-");
    }
    c.push_back(cells::verification(row, true));
    c.push_back(cells::model_verdict_in_full(row));
    cells.push_back(std::move(c));
  }
  if (!context.device.empty())
    out << "device: " << context.device << "   " << context.roof.describe() << "\n";
  for (const auto& line : layout_table(columns, cells)) out << line << "\n";
  if (!context.counters_note.empty()) out << "counters: n/a (" << context.counters_note << ")\n";
}

}  // namespace cudalab
