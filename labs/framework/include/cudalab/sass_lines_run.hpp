// cudalab run --lines where counters are permitted: the hardware's SASS-level counts per
// instruction, measured beside the tracer's. CUPTI's SASS Metrics API records one kernel
// function a process (instrumentation/sass_lines/sass_metrics_session.hpp), so each point runs
// again alone, once for every kernel function it launches, each time with the injection library
// of instrumentation/sass_lines/ measuring the next function.
#pragma once

#include "cudalab/result_row.hpp"
#include "cudalab/run_request.hpp"
#include "cudalab/trace/tracer_support.hpp"
#include "cudalab/trace_child.hpp"
#include "cudalab/trace_run.hpp"

#include <functional>
#include <string>
#include <vector>

namespace cudalab {

// A point's hardware cell from what its processes wrote (trace_record.hpp lines, the point's
// label on each): available when every function the point launched was measured; otherwise n/a
// with the first function's error.
trace_cell hardware_cell(const std::vector<trace::traced_launch>& launches);

// Gives every row that has a trace its hardware_lines cell. A point whose process fails keeps
// the failure as its cell's reason; nothing here throws for one point. `progress` is told which
// point runs.
void measure_hardware_lines(const run_request& request, std::vector<result_row>& rows,
                            const trace::tracer_install& install, const trace_workspace& workspace,
                            const std::function<void(const std::string&)>& progress);

}  // namespace cudalab
