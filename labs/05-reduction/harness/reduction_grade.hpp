// `cudalab check 05-reduction`: the grade function and the counters it needs.
#pragma once

#include "cudalab/lab.hpp"
#include "cudalab/runner.hpp"

#include <string>
#include <vector>

namespace cudalab::labs {

// How far the exercise may fall behind the `sequential` reference, measured beside it. The
// bandwidth share is a floor, not a race: at the check's 2^22 floats the kernels take tens of
// microseconds, and the interleaved tree's share of sequential's GB/s has measured both sides
// of one half on one H100; the exact lines (divergence, wavefronts) fail it, and this one is
// there for a kernel far slower than any tree.
inline constexpr double reduction_max_wavefront_share = 1.05;
inline constexpr double reduction_min_bandwidth_share = 0.25;

// Grades the exercise row against the `sequential` reference row (the first reference). PASS
// needs every line:
//   correct            every block's partial sum matches the CPU;
//   divergent branches at most (warps a block + 5) a block: a tree whose active threads stay
//                      whole warps splits only inside the last warp and around one lane's store;
//   bank conflicts     at most sequential's predicted conflicts (none), counted per
//                      instruction by the SASS-level counters;
//   shared wavefronts  at most 1.05 x sequential's (whole warps at each step);
//   writes a block     global stores, reductions and atomics at most one a block launched:
//                      the block's values meet in shared memory or in registers (shuffles),
//                      not in global atomics;
//   bandwidth          GB/s at least a quarter of sequential's (a floor).
grade_report grade_reduction(const result_row& exercise, const std::vector<result_row>& references);

// The counters grade_reduction needs beyond the lab's default set: global reduction and
// atomic requests, the blocks launched and the divergent branches.
std::vector<std::string> reduction_grade_metrics();

}  // namespace cudalab::labs
