// Writing run results: a table for the learner (three views), CSV for plots, JSON for tools.
//
// The pieces live apart: the model verdict (model_verdict.hpp), the figures a row shows
// (report_figures.hpp), the format and view a learner asks for (report_options.hpp), the
// table views and the CSV/JSON writers (labs/framework/src). CSV and JSON always carry every
// field, whatever the view.
#pragma once

#include "cudalab/lab.hpp"
#include "cudalab/model_verdict.hpp"
#include "cudalab/report_options.hpp"
#include "cudalab/runner.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace cudalab {

struct report_context {
  std::string device;         // "NVIDIA H100 80GB HBM3 (sm_90)"; empty without a GPU
  double copy_gbps = 0;       // the %copy roof
  std::string counters_note;  // why counters are n/a for the whole run, if they are
  // The lab the rows come from: its headline figures and size unit for the default view.
  // nullptr: the default headline figures (sectors per request, DRAM over ideal).
  const lab* which = nullptr;
};

// The table in the view `options` asks for, or every field as CSV or JSON.
void write_report(std::ostream& out, const std::vector<result_row>& rows,
                  const report_options& options, const report_context& context);

}  // namespace cudalab
