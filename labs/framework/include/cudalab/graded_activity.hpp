// What ran while the exercise's launch() ran, and the grader's lines on it: the work must be
// the exercise's own kernels. A library's kernels (cuBLAS, CUB's device-wide algorithms), the
// copy engine and the host (which reaches device data only through copies) do work that the
// lesson's counters either credit to the exercise or never see.
#pragma once

#include "cudalab/gpu_activity.hpp"
#include "cudalab/lab.hpp"

#include <vector>

namespace cudalab {

// Prepares `v` at `config` on the current device, uploads and resets it, and records one
// launch(): every kernel, copy and memset it started; then, given `verification`, downloads and
// verifies that launch's result into it.
gpu_activity graded_launch_activity(const variant& v, const launch_config& config,
                                    verify_result* verification = nullptr);

// Adds two lines to `report`, failing it where either fails:
//   "kernels ...": at least one kernel ran and every one is the exercise's own;
//   "copies and memsets ...": no more of them than the references' launches make (none in
//   every lab's fixed variants).
// An inventory that could not be taken fails the first line, saying why. `learners_code`: the
// candidate is the learner's exercise, for which the lab's own kernels (the kit's kernel library)
// are not its own either. A wrong answer from the inventoried launch adds a failing line.
void add_activity_lines(grade_report& report, const gpu_activity& exercise,
                        const std::vector<gpu_activity>& references, bool learners_code = true,
                        const verify_result* verification = nullptr);

}  // namespace cudalab
