// Writing run results: a table for the learner (three views), CSV for plots, JSON for tools.
//
// The pieces live apart: the model verdict (model_verdict.hpp), the figures a row shows
// (report_figures.hpp), the format and view a learner asks for (report_options.hpp), the
// table views and the CSV/JSON writers (labs/framework/src). CSV and JSON always carry every
// field, whatever the view.
#pragma once

#include "cudalab/lab.hpp"
#include "cudalab/model_verdict.hpp"
#include "cudalab/report_context.hpp"
#include "cudalab/report_options.hpp"
#include "cudalab/result_row.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace cudalab {

// The table in the view `options` asks for, or every field as CSV or JSON.
void write_report(std::ostream& out, const std::vector<result_row>& rows,
                  const report_options& options, const report_context& context);

}  // namespace cudalab
