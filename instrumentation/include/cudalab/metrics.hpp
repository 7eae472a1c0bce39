// The metric catalogue: the counters cudalab collects, what each means for a learner
// (docs/metrics.md), and whether tests may assert it exactly (docs/counters.md).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudalab {
namespace model {
struct access_counts;
}

enum class metric_exactness {
  exact,       // deterministic: tests assert model == hardware
  per_binary,  // exact for a given binary (efficiency ratios); changes with the compiler
  tolerance    // cache-, timing- or occupancy-dependent (DRAM bytes, durations, the shared
               // data stage's wavefronts): shown, never compared with the model
};
std::string_view to_string(metric_exactness e);

// One term of a metric computed from others: +1 or -1 times a counted catalogue metric.
struct metric_term {
  int sign = 1;
  std::string metric;  // short name
};

// What the access model predicts for a metric, read from its counts (the memory tracer's counts
// are the same record); nullopt where this model makes no prediction of it.
using model_reading = std::optional<double> (*)(const model::access_counts&);

// One metric, with everything each stage needs: the counter behind it, what a learner reads
// (header, unit, meaning), the sets it is in, and how it is judged (docs/metrics.md says how
// to add one: one entry in metric_catalogue.cpp and a test).
struct metric_info {
  std::string short_name;  // ld_sectors
  std::string cupti_name;  // l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  std::string unit;        // sectors, bytes, %, ratio, ns
  std::string meaning;     // one sentence for a learner
  metric_exactness exactness = metric_exactness::exact;
  std::string header;             // its column header ("ld sect"); the short name when empty
  std::vector<std::string> sets;  // the named sets it belongs to (metric_sets())
  // Chips CUPTI lists that do not have this metric: a run there shows it as
  // `n/a (not on <chip>)` and collects the rest (docs/counters.md).
  std::vector<std::string> missing_on = {};
  // Non-empty for a metric no counter gives directly: the signed sum of these counted metrics
  // (shared conflicts = SASS-level wavefronts - the data stage's ideal). Its cupti_name is empty.
  std::vector<metric_term> derived_from = {};
  // The model's prediction, which `run`'s verdict, the tables and the GPU tests hold the
  // counter to (exactly, or to 1e-6 for a ratio); nullptr where no model predicts it.
  model_reading model = nullptr;
  // Whether the memory tracer measures it too (run --trace, and where counters are refused).
  bool traced = false;

  bool derived() const { return !derived_from.empty(); }
  bool held_to_model() const { return model != nullptr; }
  const std::string& column_header() const { return header.empty() ? short_name : header; }
  // The name its total is kept under in a counter cell: the CUPTI name, or the short name of a
  // derived metric.
  const std::string& key() const { return derived() ? short_name : cupti_name; }
  // How the value is obtained, for `cudalab metrics`: the CUPTI name, or the derivation.
  std::string source() const;
};

// A named set of metrics that `--metrics` takes: its members are the catalogue entries that
// name it, in catalogue order.
struct metric_set {
  std::string name;
  std::string meaning;
};

// Every metric of the catalogue, in display order.
const std::vector<metric_info>& metric_catalogue();
// nullptr when `name` is neither a short nor a CUPTI name of the catalogue.
const metric_info* find_metric(std::string_view name);
// Chips the CUPTI host API lists whose Range Profiler refuses to start (CUPTI_ERROR_NOT_SUPPORTED):
// no counters there at all.
const std::vector<std::string>& chips_without_range_profiler();
// Whether the catalogue records `chip` as lacking `cupti_name` (a short name works too).
bool lacks_metric(std::string_view chip, std::string_view cupti_name);

// The named sets, in display order ("all", every metric, is not among them).
const std::vector<metric_set>& metric_sets();
// Their names, then "all": what `--metrics` and `cudalab metrics --set` take.
std::vector<std::string> metric_set_names();
// The same names as one line for help texts: "memory, shared, ..., all".
std::string metric_set_list();
// The short names of the metrics held to the model, in catalogue order.
const std::vector<std::string>& metrics_held_to_model();
// The short names of the metrics the memory tracer measures, in catalogue order.
const std::vector<std::string>& traced_metrics();
// The model's prediction of every metric held to it, keyed by short name (the tracer's counts
// read the same way).
std::map<std::string, double> model_values(const model::access_counts& counts);
// Resolves "memory" or "ld_sectors,dram__bytes_read.sum" into CUPTI names (a derived metric
// into the CUPTI names of its terms). A name outside
// the catalogue is accepted if it looks like a CUPTI metric (has a rollup suffix) and is
// checked later against the chip. Throws cudalab::usage_error listing close matches.
std::vector<std::string> resolve_metrics(std::string_view spec,
                                         std::string_view option = "--metrics");
// resolve_metrics() of each name (a set, a short or a CUPTI name), each CUPTI name once.
std::vector<std::string> resolve_metric_names(const std::vector<std::string>& names);
// The short name of a CUPTI metric when the catalogue knows it, else the CUPTI name itself.
std::string display_name(std::string_view cupti_name);

// Adds to `totals` (keyed by CUPTI name) every derived catalogue metric whose terms it holds,
// under the derived metric's key().
void add_derived_metrics(std::map<std::string, double>& totals);
// A metric's value in `totals` (keyed by CUPTI name): a catalogue metric by short or CUPTI name
// (a derived one from its stored value or its terms), any other by its CUPTI name; nullopt
// when absent.
std::optional<double> metric_value(const std::map<std::string, double>& totals,
                                   std::string_view metric);

}  // namespace cudalab
