// The memory tracer in a run (cudalab run --trace, and the fallback when counters are refused):
// a second process of the same program runs the points with the tracer injected, counters off,
// no warm-up and one launch a point; its trace file is read back and attached to the rows.
// docs/metrics.md has the three witnesses (model, trace, counters) and when each is used.
#pragma once

#include "cudalab/result_row.hpp"
#include "cudalab/run_request.hpp"
#include "cudalab/trace/trace_record.hpp"
#include "cudalab/trace/tracer_support.hpp"

#include <string>
#include <utility>
#include <vector>

namespace cudalab {

// Gives each row the launches traced under its label (trace::trace_point_label), folded by the
// access model's rules. A row without any gets `n/a (<missing>)`; a launch that reports an error
// makes its row n/a with that error.
void attach_traces(std::vector<result_row>& rows, const std::vector<trace::traced_launch>& launches,
                   const std::string& missing);

// Fills a row's counter cell from its trace, for the traced metrics only (counter_cell::
// from_trace), so that the table, the model verdict and the graders read the trace where the
// counters were refused. Does nothing when the row has no available trace.
void counters_from_trace(result_row& row);

// The arguments of `cudalab run` that repeat `request` in the traced process: the same lab,
// variants (baselines left out: library calls the lesson does not trace), sizes, blocks and
// sweep points, with --no-counters --warmup 0 --repeat 1, and its table written to `output`.
std::vector<std::string> traced_run_arguments(const run_request& request,
                                              const std::string& output);

// The arguments of `cudalab run` that repeat one row's point alone: its lab, variant, size,
// block (when the request gave blocks) and sweep value, otherwise as traced_run_arguments.
std::vector<std::string> point_run_arguments(const run_request& request, const result_row& row,
                                             const std::string& output);

}  // namespace cudalab
