// `cudalab profile`'s counters witness: the program run once a kernel function with CUPTI's SASS
// Metrics injected (instrumentation/sass_lines, in its every-launch mode), which counts that
// function's global and shared instructions, sectors and wavefronts per instruction over all
// its launches. The API records one function a process (sass_metrics_session.hpp), so the
// first run measures function 0 and names the others, and each further run measures one.
#pragma once

#include "cudalab/child_process.hpp"
#include "cudalab/trace/trace_record.hpp"
#include "cudalab/trace/tracer_support.hpp"

#include <string>
#include <vector>

namespace cudalab::tool {

struct counted_program {
  // One line a kernel function, in the order of its first launch: its pcs and launches, or an
  // error saying why it could not be measured.
  std::vector<trace::traced_launch> functions;
  // How the runs ended: the last stopped by a signal or its deadline, else the first run.
  child_result ended;
  bool complete = true;  // false: a run was stopped by a signal or its deadline
};

// Runs `argv` once a kernel function, each within `deadline_seconds`, files under `dir`. The
// first run's output passes through when `pass_output` (the tracer's run passed it through
// already otherwise); the others' is dropped. Throws cudalab::error when a run cannot start.
counted_program count_kernel_functions(const std::vector<std::string>& argv,
                                       const trace::tracer_install& install, const std::string& dir,
                                       int deadline_seconds, bool pass_output);

}  // namespace cudalab::tool
