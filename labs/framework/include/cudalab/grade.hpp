// Grading the learner's exercise: run it beside the lab's fixed variants with counters, then
// apply the lab's grade function. Shared by `cudalab check` and the checker's tests.
#pragma once

#include "cudalab/lab.hpp"
#include "cudalab/runner.hpp"

#include <vector>

namespace cudalab {

struct grade_outcome {
  grade_report report;
  result_row exercise;
  std::vector<result_row> references;
};

// Throws counters_unavailable-derived errors as cudalab::error with the reason and fix:
// grading needs counters.
grade_outcome grade_exercise(const lab& l, int device);

}  // namespace cudalab
