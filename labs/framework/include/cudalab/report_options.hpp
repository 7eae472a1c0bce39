// How a learner asks for a report: the format (--format) and, for tables, the view (--view,
// --details). Parsed before any work starts; bad text is a usage_error naming the choices.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace cudalab {

enum class output_format { table, csv, json };
output_format parse_output_format(std::string_view text);  // throws usage_error

enum class report_view {
  standard,  // `--view default`: one line a row, the lab's headline counters, <= 120 columns
  full,      // `--view full`: every column, measured beside predicted
  details,   // `--details VARIANT`: one variant as a vertical list of metrics
  trace      // `--view trace` (run --trace's default): model, trace and counters side by side
};
// "default", "full" or "trace"; --details is its own option.
report_view parse_report_view(std::string_view text);  // throws usage_error

struct report_options {
  output_format format = output_format::table;
  report_view view = report_view::standard;
  std::string details_variant;  // the variant --details lists (view == details)
  // Told every rows_per_progress rows how many of the CSV or JSON rows are written (a long
  // report takes seconds to write); empty: nothing told.
  std::function<void(std::size_t written, std::size_t total)> progress;
  static constexpr std::size_t rows_per_progress = 1000;
};

}  // namespace cudalab
