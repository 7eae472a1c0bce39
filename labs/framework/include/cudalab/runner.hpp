// The runner: prepares, times, verifies and measures variants, one result_row per point.
//
// Order for every variant and launch_config:
//   NVTX <lab> > <variant> > alloc, h2d (prepare) | kernel (timed) | d2h, verify
//   1. warm-up, then `repeat` timed launches with CUDA events (reset before each, untimed);
//   2. verify against the CPU reference;
//   3. only then, in separate launches, the counters (never timed while collecting); points
//      wait and share CUPTI passes in batches (labs/framework/src/counter_batch.hpp), under
//      NVTX <lab> > <variant> > counters.
#pragma once

#include "cudalab/lab.hpp"
#include "cudalab/result_row.hpp"
#include "cudalab/run_request.hpp"

#include <vector>

namespace cudalab {

// Runs the request: one row per variant, size, block and sweep value. Every point is checked
// first (each variant's block rule, CUDA's grid limits, sizes, sweep values, the model's
// budget), so bad input is a usage_error before anything is predicted or launched.
std::vector<result_row> run_lab(const run_request& request);

// The checks run_lab makes before any work (each point's block rule, grid, size and sweep
// value against every GPU's limits, the model's budget), alone: for a caller that must refuse
// bad input before it finds out that nothing can run.
void check_run_request(const run_request& request);

}  // namespace cudalab
