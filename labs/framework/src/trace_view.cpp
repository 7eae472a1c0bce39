// `--view trace` (what `run --trace` shows by default): the three witnesses side by side, one
// line a variant and metric: the access model (from the source), the tracer (from the binary
// that ran) and the hardware counters, with whether they agree.
#include "report_writers.hpp"

#include "cudalab/cell_format.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/trace_run.hpp"
#include "text_table.hpp"

namespace cudalab {
namespace {

std::string number(std::optional<double> v) {
  return v ? cells::with_separators(*v) : std::string("-");
}

// "+5", "-1.2M": short, so that a disagreement still fits the line.
std::string signed_difference(double d) {
  return (d > 0 ? "+" : "-") + cells::compact_count(d < 0 ? -d : d);
}

}  // namespace

void write_trace_view(std::ostream& out, const std::vector<result_row>& rows,
                      const report_context& context) {
  if (!context.device.empty()) out << context.device << "\n";
  std::vector<std::vector<std::string>> cells;
  for (const result_row& row : rows) {
    std::string name = row.variant_name;
    if (row.sweep_name) name += " " + *row.sweep_name + "=" + std::to_string(row.config.param);
    const bool traced = row.trace && row.trace->available;
    const auto model =
        row.predicted ? model_values(*row.predicted) : std::map<std::string, double>{};
    const auto trace = traced ? model_values(row.trace->counts) : std::map<std::string, double>{};
    const bool counters = row.counters.available && !row.counters.from_trace;
    bool first = true;
    for (const std::string& metric : traced_metrics()) {
      std::optional<double> m, t, c;
      if (const auto it = model.find(metric); it != model.end()) m = it->second;
      if (traced) t = trace.at(metric);
      if (counters) c = row.counters.get(metric);
      if (t.value_or(0) == 0 && m.value_or(0) == 0 && c.value_or(0) == 0) continue;
      std::string verdict;
      if (!t)
        verdict = row.trace ? "trace n/a: " + row.trace->reason : "not traced (--trace)";
      else if (!m)
        verdict = "no model";
      else
        verdict = *m == *t ? "= model" : "model " + signed_difference(*t - *m);
      // The counters against the trace: both count the binary instruction by instruction.
      if (t && c) verdict += *c == *t ? ", = counters" : ", counters " + signed_difference(*c - *t);
      cells.push_back({first ? name : "", metric, number(m), number(t), number(c), verdict});
      first = false;
    }
    if (first) cells.push_back({name, "(none)", "-", "-", "-", "no global or shared access"});
  }
  const std::vector<text_column> columns{{"variant", true}, {"metric", true}, {"model"},
                                         {"trace"},         {"counters"},     {"agree", true}};
  for (const auto& line : layout_table(columns, cells)) out << line << "\n";
  out << "model: the access model from the source's index functions; trace: the binary that ran,\n"
         "under the Compute Sanitizer tracer (one launch a point); counters: the hardware.\n"
         "agree: `model +N`: the trace counted N more than the model; `counters +N`: the counters\n"
         "N more than the trace (shared memory: the SASS-level counters, docs/counters.md).\n";
  if (!context.counters_note.empty()) out << "counters: n/a (" << context.counters_note << ")\n";
}

}  // namespace cudalab
