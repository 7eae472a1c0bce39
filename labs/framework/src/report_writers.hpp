// The writers behind write_report (report.hpp): three table views and two file formats.
#pragma once

#include "cudalab/report_context.hpp"
#include "cudalab/report_options.hpp"
#include "cudalab/result_row.hpp"

#include <cstddef>
#include <functional>

#include <ostream>
#include <string>
#include <vector>

namespace cudalab {

// One line a row in at most table_width columns: variant, role, time, GB/s (TFLOP/s for a
// flop-bound lab), % of the copy roof, the lab's headline figures, verification, verdict.
inline constexpr std::size_t table_width = 120;
void write_default_view(std::ostream& out, const std::vector<result_row>& rows,
                        const report_context& context);
// Every column: sizes, launch shape, min..max times, each compared counter measured beside
// predicted, every other counter collected, the verification's detail and every verdict.
void write_full_view(std::ostream& out, const std::vector<result_row>& rows,
                     const report_context& context);
// Each row of one variant as a vertical list: metric, unit, measured, predicted, meaning.
void write_details_view(std::ostream& out, const std::vector<result_row>& rows,
                        const report_context& context, const std::string& variant);

// The three witnesses side by side: model, trace, counters, one line a variant and metric.
void write_trace_view(std::ostream& out, const std::vector<result_row>& rows,
                      const report_context& context);

// CSV and JSON are written a row at a time (never the whole document in memory), telling
// `progress` (when set) every report_options::rows_per_progress rows.
using rows_written = std::function<void(std::size_t written, std::size_t total)>;
void write_csv(std::ostream& out, const std::vector<result_row>& rows,
               const rows_written& progress = {});
void write_json(std::ostream& out, const std::vector<result_row>& rows,
                const report_context& context, const rows_written& progress = {});

}  // namespace cudalab
