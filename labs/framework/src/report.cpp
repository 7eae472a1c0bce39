#include "cudalab/report.hpp"

#include "report_writers.hpp"

namespace cudalab {

void write_report(std::ostream& out, const std::vector<result_row>& rows,
                  const report_options& options, const report_context& context) {
  switch (options.format) {
    case output_format::csv:
      write_csv(out, rows, options.progress);
      return;
    case output_format::json:
      write_json(out, rows, context, options.progress);
      return;
    case output_format::table:
      break;
  }
  switch (options.view) {
    case report_view::standard:
      write_default_view(out, rows, context);
      return;
    case report_view::full:
      write_full_view(out, rows, context);
      return;
    case report_view::details:
      write_details_view(out, rows, context, options.details_variant);
      return;
    case report_view::trace:
      write_trace_view(out, rows, context);
      return;
  }
}

}  // namespace cudalab
