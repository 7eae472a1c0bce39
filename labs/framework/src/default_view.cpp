// The default view: one line a row that a terminal holds (table_width columns), with the
// figures the lab's lesson is about. When the cells do not fit, the verdict loses its metric
// names first, then missing counters say why below the table instead of in each cell, then
// the headline cells lose their predictions (the full and details views keep all of it).
#include "report_writers.hpp"

#include "cudalab/cell_format.hpp"
#include "cudalab/format_text.hpp"
#include "cudalab/model_verdict.hpp"
#include "row_cells.hpp"
#include "text_table.hpp"

#include "cudalab/check.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace cudalab {
namespace {

std::vector<const figure*> headline_figures(const report_context& context) {
  const std::vector<std::string>& names = context.which && !context.which->headline_metrics.empty()
                                              ? context.which->headline_metrics
                                              : default_headline_figures();
  std::vector<const figure*> figures;
  for (const auto& name : names) {
    const figure* f = find_figure(name);
    if (!f)
      throw error((context.which ? context.which->id : std::string("a lab")) +
                  " declares an unknown headline figure '" + name + "'");
    figures.push_back(f);
  }
  return figures;
}

// How much the cells may say; each level is tried while the table is too wide.
enum class detail_level {
  full,
  verdict_without_names,
  missing_below,
  no_predictions,
  compact_verdicts
};

struct layout {
  std::vector<std::string> lines;
  bool marked = false;                                   // some cell carries `!`
  std::map<std::string, std::set<std::string>> missing;  // why -> metrics, said below the table
};

layout lay_out(const std::vector<result_row>& rows, const report_context& context,
               const std::vector<const figure*>& headlines, detail_level level) {
  const bool flop_bound = context.which && context.which->flop_bound;
  const auto varies = [&](auto key) {
    return std::any_of(rows.begin(), rows.end(),
                       [&](const result_row& r) { return key(r) != key(rows.front()); });
  };
  const bool size_column = varies([](const result_row& r) { return r.config.size; });
  const bool block_column = varies([](const result_row& r) { return r.config.block; });

  const std::string roof = context.which ? context.which->roof_variant : std::string();
  const auto roof_time = [&](const result_row& r) -> double {
    for (const auto& other : rows)
      if (other.variant_name == roof && other.config.size == r.config.size && other.measured)
        return other.time.median_ms;
    return 0;
  };
  const bool roof_column = flop_bound && !roof.empty();
  const bool resources_column = std::any_of(
      rows.begin(), rows.end(), [](const result_row& r) { return !r.resources.empty(); });

  std::vector<text_column> columns{{"variant", true}, {"role", true}};
  if (size_column) columns.push_back({"size"});
  if (block_column) columns.push_back({"block"});
  columns.push_back({"time"});
  columns.push_back({flop_bound ? "TFLOP/s" : "GB/s"});
  if (!flop_bound) columns.push_back({"%copy"});
  if (roof_column) columns.push_back({"%" + roof});
  for (const figure* f : headlines) columns.push_back({f->header});
  if (resources_column) {
    columns.push_back({"regs"});
    columns.push_back({"occ"});
  }
  columns.push_back({"verify", true});
  columns.push_back({"model", true});

  layout result;
  std::vector<std::vector<std::string>> cells;
  for (const auto& row : rows) {
    std::vector<std::string> c{cells::variant_label(row), std::string(to_string(row.role))};
    if (size_column) c.push_back(cells::with_separators(static_cast<double>(row.config.size)));
    if (block_column) c.push_back(cells::block(row));
    const bool timed = row.measured && row.time.median_ms > 0;
    c.push_back(timed ? cells::time_with_unit(row.time.median_ms) : "-");
    if (flop_bound) {
      c.push_back(timed && row.ideal.flops > 0
                      ? cells::fixed(row.ideal.flops / (row.time.median_ms * 1e-3) / 1e12, 2)
                      : "-");
      if (roof_column) {
        const double t = roof_time(row);
        c.push_back(timed && t > 0 ? cells::fixed(100.0 * t / row.time.median_ms, 1) : "-");
      }
    } else {
      c.push_back(timed && row.gbps > 0 ? cells::fixed(row.gbps, 1) : "-");
      c.push_back(timed && row.pct_of_roof > 0 ? cells::fixed(row.pct_of_roof, 1) : "-");
    }
    for (const figure* f : headlines) {
      cells::headline_style style;
      style.show_prediction = level < detail_level::no_predictions;
      style.explain_missing = level < detail_level::missing_below;
      c.push_back(cells::headline(row, *f, style));
      if (!style.explain_missing)
        if (const std::string why = missing_reason(row, *f); !why.empty() && !f->measured(row))
          result.missing[why].insert(f->header);
      if (c.back().size() >= 2 && c.back().compare(c.back().size() - 2, 2, " !") == 0)
        result.marked = true;
    }
    if (resources_column) {
      c.push_back(cells::registers(row));
      c.push_back(cells::occupancy(row));
    }
    c.push_back(cells::verification(row, false));
    c.push_back(cells::model_verdict(row, level == detail_level::full ? cells::verdict_length::names
                                          : level == detail_level::compact_verdicts
                                              ? cells::verdict_length::compact
                                              : cells::verdict_length::short_));
    cells.push_back(std::move(c));
  }
  result.lines = layout_table(columns, cells);
  return result;
}

// "16,777,216 elements, 256 threads a block": what every row shares, said once above the table.
std::string common_shape(const std::vector<result_row>& rows, const report_context& context) {
  std::set<std::size_t> sizes;
  std::set<long> blocks;  // the blocks rows show: a library's or the CPU's has none
  for (const auto& r : rows) {
    sizes.insert(r.config.size);
    if (const std::optional<long> threads = cells::block_threads(r)) blocks.insert(*threads);
  }
  std::string text;
  if (sizes.size() == 1)
    text = cells::with_separators(static_cast<double>(*sizes.begin())) + " " +
           (context.which ? context.which->size_unit : std::string("elements"));
  if (blocks.size() == 1)
    text += (text.empty() ? "" : ", ") + std::to_string(*blocks.begin()) + " threads a block";
  return text;
}

}  // namespace

void write_default_view(std::ostream& out, const std::vector<result_row>& rows,
                        const report_context& context) {
  const auto headlines = headline_figures(context);
  layout table;
  detail_level used = detail_level::full;
  for (detail_level level :
       {detail_level::full, detail_level::verdict_without_names, detail_level::missing_below,
        detail_level::no_predictions, detail_level::compact_verdicts}) {
    used = level;
    table = lay_out(rows, context, headlines, level);
    if (widest_line(table.lines) <= table_width) break;
  }
  if (!context.device.empty())
    out << "device: " << context.device << "   " << context.roof.describe() << "\n";
  if (!rows.empty())
    if (const std::string shape = common_shape(rows, context); !shape.empty()) out << shape << "\n";
  for (const auto& line : table.lines) out << line << "\n";
  if (table.marked)
    out << "!: differs from the access model"
        << (used >= detail_level::no_predictions ? " (--details VARIANT shows both values)" : "")
        << "\n";
  for (const auto& [why, headers] : table.missing) {
    const std::string columns = joined({headers.begin(), headers.end()});
    for (const auto& line : wrap_words("n/a (" + why + "): " + columns, table_width))
      out << line << "\n";
  }
  if (!context.counters_note.empty())
    for (const auto& line :
         wrap_words("counters: n/a (" + context.counters_note + ")", table_width))
      out << line << "\n";
}

}  // namespace cudalab
