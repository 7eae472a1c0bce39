// Writing run results as a table (for the learner), CSV (for plots) or JSON (for tools).
//
// Counter columns show the measured value beside the access model's prediction; a measured
// value that disagrees with the model on a deterministic metric is marked `!` in the table,
// listed in the `model` column, and counted by model_mismatches().
#pragma once

#include "cudalab/runner.hpp"

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace cudalab {

enum class output_format { table, csv, json };
output_format parse_output_format(std::string_view text);  // throws usage_error

struct report_context {
  std::string device;       // "NVIDIA H100 80GB HBM3"
  double copy_gbps = 0;     // the %peak roof
  std::string counters_note;  // why counters are n/a for the whole run, if they are
};

// Shared-memory wavefronts and conflicts run above the model on real hardware: the band
// accepts model <= hw <= model + shared_band_fraction x the model's wavefronts. The one place
// this figure is set; docs/counters.md gives the H100 measurements behind it.
inline constexpr double shared_band_fraction = 0.12;

// One comparison of a measured counter with the model.
struct metric_check {
  std::string metric;  // short name
  double measured = 0;
  double predicted = 0;
  bool exact = true;   // global requests/sectors: must be equal
  bool within = true;  // exact: equal; banded: model <= hw <= model + shared_band_fraction
};
std::vector<metric_check> compare_with_model(const result_row& row);
// Short names of the exact metrics where the hardware disagrees with the model.
std::vector<std::string> model_mismatches(const result_row& row);
// Short names of the shared-memory metrics outside the band above the model.
std::vector<std::string> band_outliers(const result_row& row);

void write_report(std::ostream& out, const std::vector<result_row>& rows, output_format format,
                  const report_context& context);

}  // namespace cudalab
